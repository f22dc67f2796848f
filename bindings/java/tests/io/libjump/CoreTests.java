package io.libjump;

import static io.libjump.Support.*;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Registration, sign-in, records, sync, restart, events and the log against the real emulator. */
final class CoreTests {
    private CoreTests() {}

    @TestRunner.Test
    public static void register_then_sign_in() {
        String[] account = newAccount();
        try (Client c = client()) {
            check(!c.isSignedIn(), "signed out at first");
            SignInResult r = c.signIn(account[0], PASSWORD);
            equal(account[1], r.uuid(), "uuid");
            check(!r.isNew(), "not new");
            check(c.isSignedIn(), "signed in");
            ClientState s = c.state();
            check(s.signedIn() && account[0].equals(s.email()), "state: " + s.json());
            check(r.authorizationCode() == null || !r.toString().contains(r.authorizationCode()), "toString shows no credential");
            c.signOut();
            check(!c.isSignedIn(), "signed out");
        }
    }

    @TestRunner.Test
    public static void bad_password_is_bad_credentials() {
        String[] account = newAccount();
        try (Client c = client()) {
            JumpBadCredentialsException e = expect(JumpBadCredentialsException.class,
                    () -> c.signIn(account[0], "wrong password"), "bad password");
            equal(JumpStatus.E_BAD_CREDENTIALS, e.status(), "status()");
            check(!e.detail().contains("wrong password") && !e.getMessage().contains("wrong password"),
                    "the password is in no message");
            check(!c.isSignedIn(), "still signed out");
        }
    }

    @TestRunner.Test
    public static void edit_and_sync_reach_the_server() throws Exception {
        String[] account = newAccount();
        try (Client c = client()) {
            c.signIn(account[0], PASSWORD);
            try (Record r = c.record()) {
                r.setString("/aboutMe", "written from Java ✓ 𝄞");
                r.set("/primaryAddress", Map.of("city", "Lyon"));
                equal("written from Java ✓ 𝄞", r.getString("/aboutMe"), "read back (non-BMP text)");
                equal("Lyon", r.get("/primaryAddress/city"), "object member");
                RecordChanges changes = r.changes();
                check(changes.changed().contains("/aboutMe") && !changes.requests().isEmpty()
                        && changes.requests().get(0).endpoint() == SyncRequest.Endpoint.ENTITY_UPDATE, "changes: " + changes.json());
                check(c.state().unsyncedChanges(), "unsynced");
                SyncResult s = c.sync();
                check(s.changed().contains("/aboutMe") && s.requests() >= 1, "sync: " + s.json());
                check(!c.state().unsyncedChanges(), "synced");
                r.setString("/aboutMe", "dropped");
                r.revert("/aboutMe");
                equal("written from Java ✓ 𝄞", r.getString("/aboutMe"), "reverted");
                r.clear("/primaryAddress/city");
                r.discardChanges();
                expect(JumpNotFoundException.class, () -> r.get("/noSuchAttribute"), "missing path");
                expect(JumpInvalidArgumentException.class, () -> r.getLong("/aboutMe"), "a string is no number");
            }
            Object user = Json.get(emu().admin("GET", "/emulator/users/" + account[1], null), "user");
            equal("written from Java ✓ 𝄞", Json.string(user, "aboutMe"), "the server's record");
            equal("Lyon", Json.string(Json.get(user, "primaryAddress"), "city"), "the server's city");
        }
    }

    @TestRunner.Test
    public static void plurals_and_typed_getters() {
        String[] account = newAccount();
        try (Client c = client()) {
            c.signIn(account[0], PASSWORD);
            try (Record r = c.record()) {
                String path = r.append("/photos", Map.of("type", "avatar", "value", "https://example.com/a.png"));
                check(path.startsWith("/photos#-"), "a local element path: " + path);
                equal(1L, r.elementCount("/photos"), "one element");
                equal(List.of(path), r.elementPaths("/photos"), "element paths");
                SyncResult s = c.sync();
                String renamed = s.renamed().get(path);
                check(renamed != null && !renamed.contains("#-"), "renamed by the server: " + s.json());
                r.replacePlural("/photos", List.of(Map.of("type", "a", "value", "x"), Map.of("type", "b", "value", "y")));
                equal(2L, r.elementCount("/photos"), "replaced");
                r.remove(r.elementPaths("/photos").get(0));
                equal(1L, r.elementCount("/photos"), "removed");
                r.set("/aboutMe", null);
                equal(null, r.getString("/aboutMe"), "JSON null is a null String");
                r.discardChanges();
                equal(1L, r.elementCount("/photos"), "back to the server's");
                expect(JumpNotFoundException.class, () -> r.getDouble("/aboutMe"), "null is not a number");
                expect(JumpNotFoundException.class, () -> r.getBoolean("/aboutMe"), "null is not a boolean");
            }
        }
    }

    @TestRunner.Test
    public static void a_storage_directory_survives_a_restart() throws Exception {
        String[] account = newAccount();
        String dir = tempDir().toString();
        try (Client c = client(dir)) {
            c.signIn(account[0], PASSWORD);
            try (Record r = c.record()) {
                r.setString("/aboutMe", "unsynced before restart");
            }
        }
        try (Client c = client(dir)) {
            check(c.isSignedIn(), "restored signed in");
            equal(account[1], c.state().uuid(), "the same user");
            try (Record r = c.record()) {
                equal("unsynced before restart", r.getString("/aboutMe"), "the unsynced edit survived");
            }
            c.restore();
            c.eraseQuarantine();
            c.fetchRecord();
            c.loadFlow();
        }
    }

    @TestRunner.Test
    public static void host_storage_keeps_the_session() {
        String[] account = newAccount();
        Map<String, byte[]> store = new ConcurrentHashMap<>();
        Storage storage = new Storage() {
            public byte[] load(String key) {
                return store.get(key);
            }

            public void save(String key, byte[] data) {
                store.put(key, data);
            }

            public void erase(String key) {
                store.remove(key);
            }
        };
        Map<String, Object> s = settings(null);
        s.remove("storageDirectory");
        try (Config config = Config.of(s).storage(storage); Client c = new Client(config)) {
            c.signIn(account[0], PASSWORD);
            check(store.keySet().stream().anyMatch(k -> k.startsWith("session-")), "a session entry: " + store.keySet());
        }
        try (Config config = Config.of(s).storage(storage); Client c = new Client(config)) {
            check(c.isSignedIn(), "restored from the host storage");
            c.signOut();
        }
        check(store.keySet().stream().noneMatch(k -> k.startsWith("session-")), "erased on sign-out: " + store.keySet());
        try (Config config = Config.of(s).storage(null)) {
            check(config.toJson().contains("storageDirectory"), "files again");
        }
    }

    @TestRunner.Test
    public static void a_failing_host_storage_is_a_storage_exception() {
        String[] account = newAccount();
        Storage broken = new Storage() {
            public byte[] load(String key) {
                return null;
            }

            public void save(String key, byte[] data) throws java.io.IOException {
                throw new java.io.IOException("disk full");
            }

            public void erase(String key) {
                throw new JumpUnsupportedException(null); // a status of its own choosing
            }
        };
        Map<String, Object> s = settings(null);
        s.remove("storageDirectory");
        try (Config config = Config.of(s).storage(broken); Client c = new Client(config)) {
            c.signIn(account[0], PASSWORD); // signed in all the same: the state says the save failed
            check(c.state().get("storage_error") != null, "storage_error: " + c.state().json());
            try (Record r = c.record()) {
                // "an edit that cannot be saved returns JUMP_E_STORAGE and is not made"
                expect(JumpStorageException.class, () -> r.setString("/aboutMe", "unsaved"), "an edit");
                check(!"unsaved".equals(r.getString("/aboutMe")), "the edit was not made");
            }
        }
    }

    @TestRunner.Test
    public static void a_throwing_event_handler_does_not_stop_delivery() throws Exception {
        String[] account = newAccount();
        List<String> events = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        ExecutorService host = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "host-executor");
            t.setUncaughtExceptionHandler((th, e) -> reported.add(e));
            return t;
        });
        try (Config config = Config.of(settings(null)); Client c = new Client(config, host)) {
            c.onEvent(e -> {
                events.add(e.name().json());
                throw new IllegalStateException("the host's handler failed");
            });
            c.signIn(account[0], PASSWORD);
            c.signOut();
            eventually(() -> events.contains("signed_out"), "the event after a throwing handler: " + events);
            check(!reported.isEmpty(), "the handler's exception was reported");
        } finally {
            host.shutdown();
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @TestRunner.Test
    public static void events_and_log_arrive_on_the_host_executor() throws Exception {
        ExecutorService host = Executors.newSingleThreadExecutor(r -> new Thread(r, "host-executor"));
        List<String> events = new CopyOnWriteArrayList<>();
        List<String> logs = new CopyOnWriteArrayList<>();
        String[] account = newAccount();
        Jump.setLogHandler(line -> logs.add(Thread.currentThread().getName() + " " + line.level() + " " + line.message()), host);
        try (Config config = Config.of(settings(null)); Client c = new Client(config, host)) {
            c.onEvent(e -> events.add(Thread.currentThread().getName() + " " + e.name()));
            c.signIn(account[0], PASSWORD);
            SignInResult r = await(c.signInAsync(account[0], PASSWORD));
            equal(account[1], r.uuid(), "async sign-in");
            eventually(() -> events.contains("host-executor signed_in"), "signed_in on the host's executor: " + events);
            c.onEvent(null);
        } finally {
            Jump.setLogHandler(null, null);
            host.shutdown();
        }
        for (String l : logs) {
            check(l.startsWith("host-executor "), "log on the host's executor: " + l);
            check(!l.contains(PASSWORD), "no password in the log");
        }
    }

    @TestRunner.Test
    public static void forms_and_config_round_trip() throws Exception {
        String[] account = newAccount();
        try (Config config = new Config()) {
            config.set("captureDomain", emu().url).set("captureClientId", "jump-default-client")
                    .set("captureEnableThinRegistration", false).set("requestTimeoutMs", 10000L);
            Object json = Json.parse(config.toJson());
            equal(10000L, Json.number(json, "requestTimeoutMs"), "int key");
        }
        try (Client c = client()) {
            c.signIn(account[0], PASSWORD);
            c.updateProfile(Map.of("displayName", "Ada Byron"));
            await(c.updateProfileAsync(Map.of("displayName", "Ada B")));
            c.loadSchema();
            await(c.fetchRecordAsync());
            await(c.syncAsync());
            c.changePassword(PASSWORD, PASSWORD + "2");
            await(c.changePasswordAsync(PASSWORD + "2", PASSWORD));
            c.forgotPassword(account[0]);
            await(c.forgotPasswordAsync(account[0]));
            c.resendVerificationEmail(account[0]);
            await(c.resendVerificationEmailAsync(account[0]));
        } catch (JumpException e) {
            throw new AssertionError("forms: " + e.detail(), e);
        }
    }
}
