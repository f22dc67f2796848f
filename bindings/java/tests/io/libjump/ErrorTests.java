package io.libjump;

import static io.libjump.Support.*;

/** Every status has its exception class, with status() and detail(); a real failure carries the library's
 * detail. */
final class ErrorTests {
    private ErrorTests() {}

    @TestRunner.Test
    public static void every_status_maps_to_its_exception_class() {
        int failures = 0;
        for (JumpStatus s : JumpStatus.values()) {
            equal(s, JumpStatus.of(s.code()), "JumpStatus.of round trip");
            if (s == JumpStatus.OK) continue;
            failures++;
            JumpException e = Errors.create(s.code(), null);
            // JUMP_E_BAD_CREDENTIALS -> JumpBadCredentialsException
            StringBuilder stem = new StringBuilder();
            for (String part : s.cName().substring("JUMP_E_".length()).split("_"))
                stem.append(part.charAt(0)).append(part.substring(1).toLowerCase());
            equal("Jump" + stem + "Exception", e.getClass().getSimpleName(), s.cName() + "'s class");
            check(e.getClass().getSuperclass() == JumpException.class, "a direct JumpException subclass");
            equal(s, e.status(), "status()");
            equal((long) s.code(), Json.number(e.detailJson(), "status"), "the detail's status");
            equal(s.cName(), Json.string(e.detailJson(), "status_name"), "the detail's status_name");
            check(Jump.statusText(s) != null && !Jump.statusText(s).isEmpty(), "jump_status_str of " + s);
        }
        equal(failures, Errors.CLASSES.length, "one class per failure status");
        JumpException unknown = Errors.create(-99, null);
        check(unknown.getClass() == JumpException.class && unknown.status() == null && unknown.code() == -99,
                "a code newer than the binding is a plain JumpException");
    }

    @TestRunner.Test
    public static void a_real_failure_carries_the_library_detail() {
        JumpInvalidArgumentException e = expect(JumpInvalidArgumentException.class,
                () -> Config.fromJson("{\"noSuchKey\":1}"), "unknown config key");
        equal("JUMP_E_INVALID_ARGUMENT", e.detail("status_name"), "status_name");
        check(e.getMessage().contains("noSuchKey"), "the message names the key: " + e.getMessage());
        expect(JumpInvalidArgumentException.class, () -> Config.fromJson("[1"), "bad JSON");
        try (Config c = new Config()) {
            expect(JumpInvalidArgumentException.class, () -> c.set("requestTimeoutMs", "soon"), "wrong type");
        }
    }

    @TestRunner.Test
    public static void versions_match_the_header() {
        equal(Jump.ABI_VERSION, Jump.abiVersion(), "ABI version");
        String v = Jump.version();
        String[] p = v.split("\\.");
        equal((Integer.parseInt(p[0]) << 16) | (Integer.parseInt(p[1]) << 8) | Integer.parseInt(p[2]),
                Jump.versionNumber(), "version number of " + v);
    }

    @TestRunner.Test
    public static void bad_input_is_an_exception_never_a_crash() {
        Client c = client();
        try {
            expect(IllegalArgumentException.class, () -> c.signIn("a\0b", "x"), "a NUL inside a string");
            expect(JumpInvalidArgumentException.class, () -> c.signIn(null, "x"), "a null user");
            expect(JumpNotSignedInException.class, c::record, "no record while signed out");
            String bad = new String(new char[] {'\ud800'}); // a lone surrogate: encoded as '?'
            expect(JumpBadCredentialsException.class, () -> c.signIn(bad + "@example.com", "x"), "lone surrogate");
            c.close();
            expect(IllegalStateException.class, c::state, "a closed client");
        } finally {
            c.close(); // twice is fine
        }
        Config config = new Config();
        config.close();
        expect(IllegalStateException.class, () -> new Client(config), "a closed config");
    }
}
