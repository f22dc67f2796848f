package io.libjump;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** What the tests share: the emulator, configs and clients, accounts, assertions. */
final class Support {
    static final String PASSWORD = "correct horse battery";
    static final String ENGAGE_APP_ID = "jump-default-engage";
    static final String TEAM_KEY = "jump-team-key";

    private Support() {}

    static Emulator emu() {
        try {
            return Emulator.shared();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static Map<String, Object> settings(String storage) {
        Map<String, Object> m = new LinkedHashMap<>();
        String url = emu().url;
        m.put("captureDomain", url);
        m.put("captureClientId", "jump-default-client");
        m.put("captureAppId", "default-app");
        m.put("captureFlowName", "standard");
        m.put("captureLocale", "en-US");
        m.put("captureFlowDomain", url);
        m.put("storageDirectory", storage == null ? ":memory:" : storage);
        m.put("requestTimeoutMs", 10000);
        return m;
    }

    static Map<String, Object> socialSettings(boolean thin) {
        Map<String, Object> m = settings(null);
        m.put("engageAppId", ENGAGE_APP_ID);
        m.put("engageDomain", emu().url);
        m.put("captureEnableThinRegistration", thin);
        return m;
    }

    static Client client(String storage) {
        try (Config c = Config.of(settings(storage))) {
            return new Client(c);
        }
    }

    static Client client() {
        return client(null);
    }

    static String uniqueEmail() {
        return "java-" + UUID.randomUUID().toString().substring(0, 12) + "@example.com";
    }

    static Map<String, Object> attributes(String email) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("email", email);
        a.put("displayName", "Ada L");
        a.put("givenName", "Ada");
        a.put("familyName", "Lovelace");
        a.put("username", "j" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
        return a;
    }

    /** Registers a new account through a throwaway client: {email, uuid}. */
    static String[] newAccount() {
        String email = uniqueEmail();
        try (Client c = client()) {
            return new String[] {email, c.registerTraditional(attributes(email), PASSWORD).uuid()};
        }
    }

    static Path tempDir() {
        try {
            return Files.createTempDirectory("jump-java-test-");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static void check(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }

    static void equal(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual))
            throw new AssertionError(what + ": expected <" + expected + ">, got <" + actual + ">");
    }

    interface Body {
        void run() throws Exception;
    }

    /** The exception of type T body throws (also as the cause of a failed future's ExecutionException). */
    static <T extends Throwable> T expect(Class<T> type, Body body, String what) {
        Throwable got;
        try {
            body.run();
            throw new AssertionError(what + ": expected " + type.getSimpleName() + ", nothing was thrown");
        } catch (AssertionError e) {
            throw e;
        } catch (java.util.concurrent.ExecutionException e) {
            got = e.getCause();
        } catch (Throwable e) {
            got = e;
        }
        if (!type.isInstance(got))
            throw new AssertionError(what + ": expected " + type.getSimpleName() + ", got " + got, got);
        return type.cast(got);
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.get(20, TimeUnit.SECONDS);
    }

    /** Waits (up to 10 s) for condition. */
    static void eventually(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) throw new AssertionError("never: " + what);
            Thread.sleep(10);
        }
    }
}
