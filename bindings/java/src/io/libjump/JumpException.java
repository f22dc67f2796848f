package io.libjump;

/** A libjump failure: its status and the error detail (JSON text as jump_error_last gives it: "status",
 * "status_name", "message" and, depending on the status, "invalid_fields", "merge_token", "conflicts", ...).
 * Each status has a subclass (JumpBadCredentialsException, ...); a status newer than this binding is this
 * class itself. Never holds a secret in its message (libjump's messages have none). */
public class JumpException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The jump_status value. */
    private final int code;
    /** The error detail as JSON text. */
    private final String detail;

    /**
     * An exception of a status code with its detail.
     *
     * @param code the jump_status value
     * @param detail the error detail as JSON text (null: a detail made of the status alone)
     */
    public JumpException(int code, String detail) {
        super(messageOf(code, detail));
        this.code = code;
        this.detail = detail != null ? detail : Json.write(java.util.Map.of("status", code, "status_name", nameOf(code),
                "message", nameOf(code)));
    }

    private static String nameOf(int code) {
        JumpStatus s = JumpStatus.of(code);
        return s != null ? s.cName() : "JUMP_E_" + (-code);
    }

    private static String messageOf(int code, String detail) {
        String message = null;
        try {
            message = detail == null ? null : Json.string(Json.parse(detail), "message");
        } catch (IllegalArgumentException e) {
            message = null;
        }
        return nameOf(code) + ": " + (message != null ? message : nameOf(code));
    }

    /**
     * The exception the binding raises for a status code: its subclass for that status, this class for a
     * code newer than the binding.
     *
     * @param code the jump_status value
     * @param detail libjump's error detail as JSON text (null makes one)
     * @return the exception
     */
    public static JumpException forStatus(int code, String detail) {
        return Errors.create(code, detail);
    }

    /**
     * The status.
     *
     * @return the status, or null for a code newer than this binding (see {@link #code()})
     */
    public JumpStatus status() {
        return JumpStatus.of(code);
    }

    /**
     * The C status code.
     *
     * @return the jump_status value (negative)
     */
    public int code() {
        return code;
    }

    /**
     * The error detail.
     *
     * @return the detail as JSON text
     */
    public String detail() {
        return detail;
    }

    /**
     * The error detail parsed.
     *
     * @return the detail as a Map
     */
    public Object detailJson() {
        return Json.parse(detail);
    }

    /**
     * A member of the detail.
     *
     * @param key "merge_token", "social_registration_token", "invalid_fields", ...
     * @return its JSON value, or null
     */
    public Object detail(String key) {
        return Json.get(detailJson(), key);
    }
}
