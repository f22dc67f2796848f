package io.libjump;

import java.util.concurrent.Executor;
import java.util.function.Consumer;

/** Library-wide calls: versions, status texts, the log, sign-in token decoding. */
public final class Jump {
    private Jump() {}

    static {
        Loader.ensure();
    }

    /**
     * The ABI version this binding was made for ({@code JUMP_ABI_VERSION}).
     */
    public static final int ABI_VERSION = Native.ABI_VERSION;

    /**
     * The library's version.
     *
     * @return e.g. "0.1.0"
     */
    public static String version() {
        return Utf8.decode(Native.jump_version());
    }

    /**
     * The library's version as a number.
     *
     * @return {@code (major << 16) | (minor << 8) | patch}
     */
    public static int versionNumber() {
        return Native.jump_version_number();
    }

    /**
     * The loaded library's ABI version.
     *
     * @return the version; differs from {@link #ABI_VERSION} only for a wrong library
     */
    public static int abiVersion() {
        return Native.jump_abi_version();
    }

    /**
     * libjump's description of a status.
     *
     * @param status the status
     * @return its description
     */
    public static String statusText(JumpStatus status) {
        return Utf8.decode(Native.jump_status_str(status.code()));
    }

    /**
     * Sends libjump's log lines (redacted) to a handler, in order, on an Executor.
     *
     * @param handler the handler; null removes it
     * @param executor where it runs (null: the common ForkJoinPool)
     */
    public static void setLogHandler(Consumer<LogLine> handler, Executor executor) {
        if (handler == null) {
            Native.jump_set_log_callback(null);
            return;
        }
        Executor on = new Delivery.Serial(executor != null ? executor : Delivery.defaultExecutor());
        Native.jump_set_log_callback(new NativeCallback() {
            @Override
            void onDocument(byte[] json) {
                String text = Utf8.decode(json);
                on.execute(() -> handler.accept(LogLine.of(Json.parse(text))));
            }
        });
    }

    /**
     * Decodes a sign-in token without using it.
     *
     * @param signInToken the token
     * @return its user, team, environment, region and expiry
     */
    public static SignInTokenInfo decodeSignInToken(String signInToken) {
        return Results.signInTokenDecode(Json.parse(Utf8.decode(
                Native.jump_sign_in_token_decode(Utf8.encode(signInToken)))));
    }

    /** The last failure's detail on this thread (jump_error_last): the exceptions carry it already; for
     * diagnostics only. */
    static String lastErrorDetail() {
        return Utf8.decode(Native.jump_error_last());
    }
}
