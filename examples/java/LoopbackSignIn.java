// Social sign-in from a desktop or command-line Java app: the system browser and a loopback receiver
// (RFC 8252). libjump listens on 127.0.0.1, this program opens the provider's sign-in page in the browser, and
// the sign-in completes when the browser comes back to the listener. A new identity is registered (thin
// registration, or the two-step registration with what the provider told).
//
// Build and run against a local emulator (from the repository root):
//   bash bindings/java/build.sh
//   scripts/with-emulator.sh java -cp build/java/classes:build/java/examples \
//       -Djava.library.path=build/java/native:build/lib LoopbackSignIn
// Arguments: [emulator URL (default $JUMP_EMULATOR_URL)] [provider (default facebook)]. The browser is
// $BROWSER (a command; the URL is appended to it) or xdg-open. Against the emulator the "provider" is its fake
// identity provider page: pick or create an identity there.
import io.libjump.Client;
import io.libjump.Config;
import io.libjump.ConfigKey;
import io.libjump.JumpException;
import io.libjump.JumpRegistrationRequiredException;
import io.libjump.SignInProvider;
import io.libjump.SignInResult;
import io.libjump.SocialOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class LoopbackSignIn {
    public static void main(String[] args) throws Exception {
        String url = args.length > 0 ? args[0] : System.getenv("JUMP_EMULATOR_URL");
        String provider = args.length > 1 ? args[1] : "facebook";
        if (url == null || url.isEmpty()) {
            System.err.println("usage: LoopbackSignIn EMULATOR_URL [PROVIDER] (or set JUMP_EMULATOR_URL)");
            System.exit(2);
        }
        Map<String, Object> settings = new LinkedHashMap<>(Map.of(
                ConfigKey.CAPTURE_DOMAIN, url, ConfigKey.CAPTURE_FLOW_DOMAIN, url,
                ConfigKey.CAPTURE_CLIENT_ID, "jump-default-client", ConfigKey.CAPTURE_APP_ID, "default-app",
                ConfigKey.CAPTURE_FLOW_NAME, "standard", ConfigKey.CAPTURE_LOCALE, "en-US",
                ConfigKey.ENGAGE_APP_ID, "jump-default-engage", ConfigKey.ENGAGE_DOMAIN, url,
                ConfigKey.CAPTURE_ENABLE_THIN_REGISTRATION, true));
        settings.put(ConfigKey.STORAGE_DIRECTORY, ":memory:");
        try (Config config = Config.of(settings); Client client = new Client(config)) {
            List<String> names = new ArrayList<>();
            for (SignInProvider p : client.social().providers().signIn()) names.add(p.name());
            System.out.println("providers: " + String.join(", ", names));
            String uuid;
            boolean isNew;
            try {
                // openBrowser runs on a libjump thread, once: it only hands the URL over
                SocialOutcome outcome = client.social().signInLoopbackAsync(provider, null, LoopbackSignIn::openBrowser,
                        Duration.ofMinutes(5)).get();
                uuid = outcome.uuid();
                isNew = outcome.isNew();
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof JumpRegistrationRequiredException)) throw e;
                JumpRegistrationRequiredException r = (JumpRegistrationRequiredException) e.getCause();
                @SuppressWarnings("unchecked")
                Map<String, Object> record = new LinkedHashMap<>((Map<String, Object>) r.detail("prereg_record"));
                record.putIfAbsent("displayName", "New User");
                SignInResult registered = client.social().register((String) r.detail("social_registration_token"), record);
                uuid = registered.uuid();
                isNew = registered.isNew();
            }
            System.out.println("signed in with " + provider + " as " + uuid + (isNew ? " (new user)" : ""));
            System.out.println("linked: " + client.social().linkedProfiles().stream().anyMatch(p -> provider.equals(p.provider())));
        } catch (JumpException e) {
            System.err.println("failed: " + e.getMessage());
            System.exit(1);
        } catch (java.util.concurrent.ExecutionException e) {
            System.err.println("failed: " + e.getCause().getMessage());
            System.exit(1);
        }
    }

    static void openBrowser(String url) {
        System.out.println("Opening your browser to sign in. If nothing opens, visit:");
        System.out.println("  " + url);
        String browser = System.getenv("BROWSER");
        List<String> command = new ArrayList<>(browser != null && !browser.isEmpty()
                ? Arrays.asList(browser.trim().split("\\s+")) : List.of("xdg-open"));
        command.add(url);
        try {
            new ProcessBuilder(command).inheritIO().start();
        } catch (java.io.IOException e) {
            System.out.println("(no browser could be started: open the URL above yourself)");
        }
    }
}
