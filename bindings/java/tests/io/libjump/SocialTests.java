package io.libjump;

import static io.libjump.Support.*;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Social sign-in against the emulator's fake identity provider: loopback (blocking and async), begin +
 * complete, native provider tokens, two-step registration. */
final class SocialTests {
    private SocialTests() {}

    static Client socialClient(boolean thin) {
        try (Config c = Config.of(socialSettings(thin))) {
            return new Client(c);
        }
    }

    /** open_url for libjump: records the URL and thread, and plays the browser on a thread of its own. */
    static final class Browser {
        final List<String> urls = new CopyOnWriteArrayList<>();
        volatile String thread;
        volatile Throwable error;
        Thread running;
        final String email = uniqueEmail();

        void open(String url) {
            urls.add(url);
            thread = Thread.currentThread().getName();
            running = new Thread(() -> {
                try {
                    equal(200, FakeIdP.browse(url, "Lou Pback", email), "the listener's page");
                } catch (Throwable e) {
                    error = e;
                }
            }, "browser");
            running.start();
        }

        void join() throws InterruptedException {
            check(running != null, "the browser was opened");
            running.join(30_000);
            check(error == null, "the browser: " + error);
        }
    }

    @TestRunner.Test
    public static void loopback_sign_in_blocking() throws Exception {
        Browser browser = new Browser();
        try (Client c = socialClient(true)) {
            SocialOutcome r = c.social().signInLoopback("facebook", null, browser::open, Duration.ofSeconds(30));
            browser.join();
            equal(1, browser.urls.size(), "open_url called once");
            equal(Thread.currentThread().getName(), browser.thread, "open_url ran on the calling thread");
            check(r.isNew() && c.isSignedIn(), "a new user signed in: " + r.json());
            equal("facebook", r.provider(), "provider");
            equal(SocialOutcome.Outcome.REGISTERED, r.outcome(), "outcome");
            List<LinkedProfile> linked = c.social().linkedProfiles();
            check(linked.size() == 1 && "facebook".equals(linked.get(0).provider()) && linked.get(0).identifier() != null,
                    "linked profiles: " + linked);
        }
    }

    @TestRunner.Test
    public static void loopback_sign_in_async_and_cancel() throws Exception {
        Browser browser = new Browser();
        try (Client c = socialClient(true)) {
            SocialOutcome r = c.social().signInLoopbackAsync("google", null, browser::open, Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
            browser.join();
            check(browser.thread.startsWith("jump-"), "open_url on a libjump thread: " + browser.thread);
            check(r.isNew(), "registered: " + r.json());
        }
        try (Client c = socialClient(true)) {
            List<String> opened = new CopyOnWriteArrayList<>();
            JumpFuture<SocialOutcome> f = c.social().signInLoopbackAsync("google", null, opened::add, Duration.ofSeconds(30));
            eventually(() -> !opened.isEmpty(), "open_url called");
            long t0 = System.nanoTime();
            f.cancel(true);
            check(f.awaitNative(Duration.ofSeconds(5)), "the wait stopped");
            check((System.nanoTime() - t0) / 1_000_000 < 5000, "promptly");
            check(!c.isSignedIn(), "not signed in");
        }
    }

    @TestRunner.Test
    public static void begin_and_complete_with_the_browser_url() throws Exception {
        try (Client c = socialClient(true)) {
            SocialProviders providers = c.social().providers();
            check(providers.signIn().stream().anyMatch(p -> p.name().equals("facebook")), "providers: " + providers);
            check(c.social().loadEngageConfig().json().contains("from_cache"), "engage config loaded");
            SocialBegin begun = c.social().begin("facebook", Map.of("force_reauth", false));
            check(begun.completion() != SocialBegin.Completion.UNKNOWN && begun.url().startsWith("http"), "begun: " + begun);
            String landing = FakeIdP.finish(begun.url(), "Bea Gin", uniqueEmail(), null);
            SocialOutcome r = await(c.social().completeAsync(landing));
            check(r.isNew() && c.isSignedIn(), "completed: " + r.json());
            expect(JumpInvalidArgumentException.class, () -> c.social().complete("http://127.0.0.1:1/elsewhere"),
                    "a URL that completes nothing");
        }
    }

    @TestRunner.Test
    public static void native_token_registration_required_then_register() throws Exception {
        String email = uniqueEmail();
        String token = Json.write(Map.of("email", email, "display_name", "Nat Ive"));
        try (Client c = socialClient(false)) {
            JumpRegistrationRequiredException e = expect(JumpRegistrationRequiredException.class,
                    () -> c.social().signInNative("facebook", token, null, null), "two-step registration");
            String registration = (String) e.detail("social_registration_token");
            check(registration != null && !e.getMessage().contains(registration), "the token is in the detail only");
            @SuppressWarnings("unchecked")
            Map<String, Object> record = new java.util.LinkedHashMap<>((Map<String, Object>) e.detail("prereg_record"));
            record.putIfAbsent("displayName", "Nat Ive");
            record.putIfAbsent("email", email);
            SignInResult r = c.social().register(registration, record);
            check(r.isNew() && c.isSignedIn(), "registered: " + r.json());
        }
        try (Client c = socialClient(false)) {
            SocialOutcome r = await(c.social().signInNativeAsync("facebook", token, null, null));
            check(!r.isNew() && c.isSignedIn(), "the same identity signs in: " + r.json());
        }
    }
}
