// libjump from Java: register, sign in, edit and sync the record, restore the session from disk, sign out.
//
// Build and run against a local emulator (from the repository root):
//   bash bindings/java/build.sh
//   scripts/with-emulator.sh java -cp build/java/classes:build/java/examples \
//       -Djava.library.path=build/java/native:build/lib Quickstart
// (or with the jar alone: java -cp build/dist/jump-<version>.jar:build/java/examples Quickstart)
// Arguments: [emulator URL (default $JUMP_EMULATOR_URL)].
import io.libjump.Client;
import io.libjump.Config;
import io.libjump.ConfigKey;
import io.libjump.Jump;
import io.libjump.JumpBadCredentialsException;
import io.libjump.JumpException;
import io.libjump.Record;
import io.libjump.SignInResult;
import io.libjump.SyncResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

public final class Quickstart {
    public static void main(String[] args) throws Exception {
        String url = args.length > 0 ? args[0] : System.getenv("JUMP_EMULATOR_URL");
        if (url == null || url.isEmpty()) {
            System.err.println("usage: Quickstart EMULATOR_URL (or set JUMP_EMULATOR_URL)");
            System.exit(2);
        }
        Path storage = Files.createTempDirectory("jump-quickstart-");
        Map<String, Object> settings = Map.of(
                ConfigKey.CAPTURE_DOMAIN, url, ConfigKey.CAPTURE_FLOW_DOMAIN, url,
                ConfigKey.CAPTURE_CLIENT_ID, "jump-default-client", ConfigKey.CAPTURE_APP_ID, "default-app",
                ConfigKey.CAPTURE_FLOW_NAME, "standard", ConfigKey.CAPTURE_LOCALE, "en-US",
                ConfigKey.STORAGE_DIRECTORY, storage.toString());
        String email = "quick-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        String password = "correct horse battery";
        System.out.println("libjump " + Jump.version());
        try {
            try (Config config = Config.of(settings); Client client = new Client(config)) {
                client.onEvent(e -> System.out.println("event: " + e.name()));
                SignInResult registered = client.registerTraditional(Map.of("email", email, "displayName", "Ada L",
                        "givenName", "Ada", "familyName", "Lovelace", "username", "ada" + UUID.randomUUID().toString().substring(0, 6)),
                        password);
                System.out.println("registered " + registered.uuid());
                client.signOut();
                try {
                    client.signIn(email, "not the password");
                } catch (JumpBadCredentialsException e) {
                    System.out.println("wrong password refused: " + e.status());
                }
                // asynchronous: a CompletableFuture, completed on the client's executor
                SignInResult signedIn = client.signInAsync(email, password).get();
                System.out.println("signed in as " + signedIn.uuid());
                try (Record record = client.record()) {
                    record.setString("/aboutMe", "Hello from Java");
                    SyncResult sync = client.sync();
                    System.out.println("synced " + sync.changed());
                }
            }
            // a restart: a new client on the same storage directory finds the session
            try (Config config = Config.of(settings); Client client = new Client(config)) {
                try (Record record = client.record()) {
                    System.out.println("after restart: signed in " + client.isSignedIn() + ", aboutMe " + record.getString("/aboutMe"));
                }
                client.signOut();
                System.out.println("signed out: " + !client.isSignedIn());
            }
        } catch (JumpException e) {
            System.err.println("failed: " + e.getMessage());
            System.exit(1);
        }
    }
}
