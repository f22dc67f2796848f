package io.libjump;

import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/** The objects jump_jni_host.c calls for open_url and authenticate: statuses instead of exceptions. */
final class HostCalls {
    private HostCalls() {}

    /** open_url of the loopback sign-in. */
    static final class OpenUrl {
        private final Consumer<String> open;

        OpenUrl(Consumer<String> open) {
            this.open = open;
        }

        int openUrl(byte[] url) {
            try {
                open.accept(Utf8.decode(url));
                return 0;
            } catch (Throwable e) {
                return e instanceof JumpException ? ((JumpException) e).code() : JumpStatus.E_CANCELLED.code();
            }
        }
    }

    /** authenticate of identifyExternalUser: the app's answer (JSON) or a status. */
    static final class Authenticate {
        private final Function<String, ? extends Map<String, ?>> answer;

        Authenticate(Function<String, ? extends Map<String, ?>> answer) {
            this.answer = answer;
        }

        Object authenticate(byte[] externalUserId) {
            try {
                Map<String, ?> credential = answer.apply(Utf8.decode(externalUserId));
                if (credential == null) return Integer.valueOf(JumpStatus.E_NOT_FOUND.code());
                return Utf8.encode(Json.write(credential));
            } catch (Throwable e) {
                return Integer.valueOf(e instanceof JumpException ? ((JumpException) e).code()
                        : JumpStatus.E_BAD_CREDENTIALS.code());
            }
        }
    }
}
