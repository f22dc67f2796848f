// A sign-in-token session from Java: an app whose own backend signs its users in. The app names its user
// (identifyExternalUser); libjump asks the app for a sign-in token only when it has no session for that user,
// keeps the session (refreshing it as needed), and sends authorized requests with it. A second client on the
// same storage (a restart) finds the session again and asks for nothing.
//
// Build and run against a local emulator (from the repository root):
//   bash bindings/java/build.sh
//   scripts/with-emulator.sh java -cp build/java/classes:build/java/examples \
//       -Djava.library.path=build/java/native:build/lib SignInTokenSession
// Arguments: [emulator URL (default $JUMP_EMULATOR_URL)] [storage directory (default: a new temporary one)].
import io.libjump.Client;
import io.libjump.Config;
import io.libjump.ConfigKey;
import io.libjump.Credentials;
import io.libjump.HttpResponse;
import io.libjump.IdentifyResult;
import io.libjump.Json;
import io.libjump.Jump;
import io.libjump.JumpException;
import io.libjump.SignInStatus;
import io.libjump.SignInTokenInfo;
import java.net.URI;
import java.time.Duration;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.util.Map;
import java.util.UUID;

public final class SignInTokenSession {
    static String api;

    public static void main(String[] args) throws Exception {
        api = args.length > 0 ? args[0] : System.getenv("JUMP_EMULATOR_URL");
        if (api == null || api.isEmpty()) {
            System.err.println("usage: SignInTokenSession EMULATOR_URL [STORAGE_DIR] (or set JUMP_EMULATOR_URL)");
            System.exit(2);
        }
        String storage = args.length > 1 ? args[1] : Files.createTempDirectory("jump-token-session-").toString();
        Map<String, Object> settings = Map.of(ConfigKey.SIGN_IN_TOKEN_AUTH_BASE_URL, api,
                ConfigKey.SIGN_IN_TOKEN_API_BASE_URL, api, ConfigKey.STORAGE_DIRECTORY, storage);
        String appUser = "app-user-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            try (Config config = Config.of(settings); Client client = new Client(config)) {
                // authenticate runs on this thread, during the call, and only when libjump needs a credential
                IdentifyResult identified = client.tokens().identifyExternalUser(appUser, SignInTokenSession::login);
                SignInStatus status = client.tokens().status();
                System.out.println("identify: " + identified.action() + "; signed in as " + status.userId()
                        + " (app user " + status.externalUserId() + ")");
                // one call before every API request: no network while the token lasts another minute
                Credentials credentials = client.tokens().credentialsAsync(Duration.ofMinutes(1)).get();
                System.out.println("credential: " + credentials.kind() + ", expires in " + credentials.expiresIn()
                        + " (at " + credentials.expiresAt() + ")");
                HttpResponse put = client.tokens().request("PUT", "/v2/user/" + status.userId() + "/profile",
                        Map.of("Content-Type", "application/json"), "{\"visits\":1}".getBytes("UTF-8"));
                System.out.println("saved the profile: HTTP " + put.status());
            }
            try (Config config = Config.of(settings); Client client = new Client(config)) {
                IdentifyResult again = client.tokens().identifyExternalUser(appUser, user -> {
                    throw new IllegalStateException("not needed");
                });
                HttpResponse profile = client.tokens().request("GET", "/v2/user/" + client.tokens().status().userId() + "/profile", null, null);
                System.out.println("after restart: identify " + again.action() + "; profile " + profile.body());
                client.signOut();
                System.out.println("signed out: " + !client.tokens().status().signedIn());
            }
        } catch (JumpException e) {
            System.err.println("failed: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Stands in for the app's backend, which holds the team's API key (never ship it in an app): it makes the
     * user on first sight and mints a sign-in token for them. */
    static Map<String, Object> login(String appUser) {
        System.out.println("asking the backend for a sign-in token for " + appUser);
        String userId = post("/v2/user", "{\"client_user_id\":\"" + appUser + "\"}", "user_id");
        String token = post("/v2/user/" + userId + "/sign_in_token", "{}", "sign_in_token");
        SignInTokenInfo info = Jump.decodeSignInToken(token); // no network: what the token says
        System.out.println("the token is for " + info.userId() + " (" + info.environment() + ", " + info.region() + ")");
        return Map.of("type", "sign_in_token", "sign_in_token", token);
    }

    static String post(String path, String json, String member) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(api + path)).header("Content-Type", "application/json")
                    .header("x-jump-api-key", "jump-team-key") // the emulator's team
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build();
            String body = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).proxy(HttpClient.Builder.NO_PROXY).build()
                    .send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            return (String) Json.get(Json.parse(body), member);
        } catch (Exception e) {
            throw new IllegalStateException("the backend failed: " + e.getMessage(), e);
        }
    }
}
