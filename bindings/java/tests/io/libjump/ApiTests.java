package io.libjump;

import static io.libjump.Support.*;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/** The API's shape against the emulator: read-only futures, Duration / Instant / enum values, the generated
 * config-key constants. */
final class ApiTests {
    private ApiTests() {}

    @TestRunner.Test
    public static void a_returned_future_cannot_be_completed_by_a_caller() throws Exception {
        // no completing method at all: not a CompletableFuture, and no complete/obtrude of its own
        Object asObject = JumpFuture.class;
        check(!CompletableFuture.class.isAssignableFrom((Class<?>) asObject), "JumpFuture is no CompletableFuture");
        check(CompletionStage.class.isAssignableFrom(JumpFuture.class), "a CompletionStage");
        check(java.util.concurrent.Future.class.isAssignableFrom(JumpFuture.class), "a Future");
        for (Method m : JumpFuture.class.getMethods())
            check(!(Modifier.isPublic(m.getModifiers()) && (m.getName().startsWith("complete")
                    || m.getName().startsWith("obtrude"))), "no public " + m);

        String[] account = newAccount();
        try (Client c = client()) {
            JumpFuture<SignInResult> f = c.signInAsync(account[0], PASSWORD);
            Object future = f;
            check(!(future instanceof CompletableFuture), "the returned object is no CompletableFuture");
            // the copy and a dependent stage are the caller's own: completing them changes nothing here
            CompletableFuture<SignInResult> copy = f.toCompletableFuture();
            check(copy != f.toCompletableFuture(), "a new copy at each call");
            SignInResult bogus = new SignInResult(false, "not-the-user", null, java.util.List.of(), false, "{}");
            check(copy.complete(bogus), "the copy takes a value");
            CompletableFuture<String> dependent = f.thenApply(SignInResult::uuid).toCompletableFuture();
            dependent.obtrudeValue("obtruded");
            check(f.toCompletableFuture().cancel(true), "cancelling a copy");
            SignInResult real = f.get(Duration.ofSeconds(20));
            equal(account[1], real.uuid(), "the future still has libjump's result");
            check(!f.isCancelled() && !f.isCompletedExceptionally(), "cancelling a copy did not cancel the future");
            check(c.isSignedIn(), "the sign-in went through");
            equal(account[1], f.join().uuid(), "join");
            equal(account[1], f.getNow(null).uuid(), "getNow");
            equal(account[1], f.toCompletableFuture().get(1, TimeUnit.SECONDS).uuid(), "a later copy has the result");
            equal(account[1], f.thenApply(SignInResult::uuid).toCompletableFuture().get(1, TimeUnit.SECONDS),
                    "a new dependent stage sees the real result");
            // failures reach the stages unwrapped, as with a CompletableFuture's own
            JumpFuture<SignInResult> bad = c.signInAsync(account[0], "nope nope");
            Throwable[] seen = new Throwable[1];
            bad.handle((v, e) -> seen[0] = e).toCompletableFuture().get(20, TimeUnit.SECONDS);
            check(seen[0] instanceof JumpBadCredentialsException, "handle sees the JumpException: " + seen[0]);
            expect(JumpBadCredentialsException.class, () -> bad.toCompletableFuture().get(), "the copy fails the same way");
        }
    }

    @TestRunner.Test
    public static void durations_instants_and_flags_round_trip() throws Exception {
        String user = TokenTests.newUser();
        try (Client c = TokenTests.tokenClient(null)) {
            c.tokens().signInWithToken(TokenTests.mint(user));
            Instant before = Instant.now();
            Credentials cr = c.tokens().credentials(Duration.ZERO);
            check(cr.expiresIn() != null && !cr.expiresIn().isNegative() && !cr.expiresIn().isZero(),
                    "expiresIn is a positive Duration: " + cr);
            check(cr.expiresAt() != null, "expiresAt is an Instant: " + cr);
            long skew = Math.abs(Duration.between(before.plus(cr.expiresIn()), cr.expiresAt()).getSeconds());
            check(skew <= 5, "expiresAt is about now + expiresIn: " + cr + ", skew " + skew + " s");
            check(c.tokens().hasValidCredentials(Duration.ofSeconds(60)), "lasts a minute");
            check(!c.tokens().hasValidCredentials(cr.expiresIn().plusDays(1)), "does not last a day longer");
            check(!c.tokens().credentials(Duration.ofSeconds(1)).refreshed(), "no refresh without the flag");
            Credentials forced = c.tokens().credentials(Duration.ZERO, CredentialsFlag.FORCE_REFRESH);
            check(forced.refreshed(), "FORCE_REFRESH refreshes");
            check(await(c.tokens().credentialsAsync(Duration.ZERO, CredentialsFlag.FORCE_REFRESH)).refreshed(),
                    "FORCE_REFRESH, async");
            equal(Native.CREDENTIALS_FORCE_REFRESH, CredentialsFlag.FORCE_REFRESH.bit(), "the flag's bit is jump.h's");
            equal(0, CredentialsFlag.bits(), "no flag");
            expect(IllegalArgumentException.class, () -> c.tokens().credentials(Duration.ofSeconds(-1)),
                    "a negative lifetime");
        }
        // the Capture session's state carries the token's expiry as an Instant
        String[] account = newAccount();
        try (Client c = client()) {
            c.signIn(account[0], PASSWORD);
            Instant at = c.state().accessTokenExpiresAt();
            check(at != null && at.isAfter(Instant.now()), "accessTokenExpiresAt in the future: " + at);
            Credentials cr = c.tokens().credentials(Duration.ZERO);
            equal(at, cr.expiresAt(), "the state and the credential agree");
        }
        // Config's duration keys: "...Ms" in milliseconds, "...Seconds" in seconds
        try (Config config = new Config()) {
            config.set(ConfigKey.REQUEST_TIMEOUT_MS, Duration.ofSeconds(12));
            config.set(ConfigKey.TOKEN_REFRESH_MARGIN_SECONDS, Duration.ofMinutes(2));
            Object json = Json.parse(config.toJson());
            equal(12000L, Json.get(json, ConfigKey.REQUEST_TIMEOUT_MS), "requestTimeoutMs from a Duration");
            equal(120L, Json.get(json, ConfigKey.TOKEN_REFRESH_MARGIN_SECONDS), "tokenRefreshMarginSeconds from a Duration");
            expect(IllegalArgumentException.class, () -> config.set(ConfigKey.CAPTURE_DOMAIN, Duration.ofSeconds(1)),
                    "a key that is no duration");
        }
    }

    @TestRunner.Test
    public static void config_key_constants_build_a_config() throws Exception {
        // every generated constant is a key libjump knows, and every key it knows has a constant
        try (Config defaults = new Config()) {
            Object json = Json.parse(defaults.toJson());
            check(json instanceof Map, "toJson is an object");
            Set<String> known = new HashSet<>();
            for (Object k : ((Map<?, ?>) json).keySet()) known.add((String) k);
            equal(known, new HashSet<>(ConfigKey.ALL), "ConfigKey.ALL against the library's keys");
        }
        for (String key : ConfigKey.ALL) {
            String name = key.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(java.util.Locale.ROOT);
            equal(key, ConfigKey.class.getField(name).get(null), "ConfigKey." + name);
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(ConfigKey.CAPTURE_DOMAIN, emu().url);
        settings.put(ConfigKey.CAPTURE_FLOW_DOMAIN, emu().url);
        settings.put(ConfigKey.CAPTURE_CLIENT_ID, "jump-default-client");
        settings.put(ConfigKey.CAPTURE_APP_ID, "default-app");
        settings.put(ConfigKey.CAPTURE_FLOW_NAME, "standard");
        settings.put(ConfigKey.STORAGE_DIRECTORY, ":memory:");
        String[] account = newAccount();
        try (Config config = Config.of(settings)
                .set(ConfigKey.CAPTURE_LOCALE, "en-US")
                .set(ConfigKey.REQUEST_TIMEOUT_MS, Duration.ofSeconds(10));
             Client c = new Client(config)) {
            equal(account[1], c.signIn(account[0], PASSWORD).uuid(), "signed in with a config of ConfigKey constants");
            equal(account[1], c.state().uuid(), "state");
        }
    }
}
