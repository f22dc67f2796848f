package io.libjump;

import static io.libjump.Support.*;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/** Sign-in tokens, API keys, external users, credentials and authorized requests (the emulator's token API). */
final class TokenTests {
    private TokenTests() {}

    static Object tokenApi(String method, String path, String json) throws Exception {
        Object[] r = Emulator.call(method, emu().url + path, json == null && !method.equals("GET") ? "{}" : json,
                "x-jump-api-key", TEAM_KEY);
        if ((int) r[0] >= 300) throw new AssertionError(method + " " + path + ": " + r[0] + " " + r[1]);
        return ((String) r[1]).isEmpty() ? Map.of() : Json.parse((String) r[1]);
    }

    static String newUser() throws Exception {
        return Json.string(tokenApi("POST", "/v2/user", "{\"client_user_id\":\"" + UUID.randomUUID() + "\"}"), "user_id");
    }

    static String mint(String userId) throws Exception {
        return Json.string(tokenApi("POST", "/v2/user/" + userId + "/sign_in_token", null), "sign_in_token");
    }

    static Client tokenClient(String storage) {
        try (Config c = Config.of(Map.of("signInTokenAuthBaseUrl", emu().url, "signInTokenApiBaseUrl", emu().url,
                "storageDirectory", storage == null ? ":memory:" : storage, "requestTimeoutMs", 10000))) {
            return new Client(c);
        }
    }

    @TestRunner.Test
    public static void sign_in_token_session_and_requests() throws Exception {
        String user = newUser();
        String token = mint(user);
        SignInTokenInfo info = Jump.decodeSignInToken(token);
        equal(user, info.userId(), "decoded user_id");
        check(info.region() != SignInTokenInfo.Region.UNKNOWN && info.environment() != null, "decoded: " + info);
        expect(JumpInvalidArgumentException.class, () -> Jump.decodeSignInToken("not base64 !"), "malformed token");
        try (Client c = tokenClient(null)) {
            check(!c.tokens().status().signedIn(), "signed out at first");
            SignInWithTokenResult r = c.tokens().signInWithToken(token);
            check(user.equals(r.userId()) && r.changed(), "result: " + r.json());
            SignInStatus s = c.tokens().status();
            check(s.signedIn() && s.useSignInToken() && user.equals(s.userId()), "status: " + s.json());
            HttpResponse put = c.tokens().request("PUT", "/v2/user/" + user + "/profile",
                    Map.of("Content-Type", "application/json"), Utf8.encode("{\"colour\":\"blue\"}"));
            equal(200L, put.status(), "PUT: " + put.body());
            HttpResponse got = await(c.tokens().requestAsync("GET", "/v2/user/" + user + "/profile", null, null));
            check(got.status() == 200 && got.body().contains("blue") && Utf8.decode(got.bytes()).equals(got.body())
                    && !got.headers().isEmpty(), "GET: " + got.body());
            Credentials cr = c.tokens().credentials(Duration.ZERO);
            equal(Credentials.Kind.SIGN_IN_TOKEN, cr.kind(), "credential kind");
            check(cr.expiresIn() != null && !cr.expiresIn().isNegative() && cr.expiresAt() != null, "credential lifetime: " + cr);
            check(!cr.toString().contains(cr.accessToken()), "toString hides the token");
            check(c.tokens().hasValidCredentials(Duration.ofSeconds(60)), "valid credentials");
            String before = c.tokens().accessToken();
            c.tokens().refreshAccessToken();
            check(!before.equals(c.tokens().accessToken()), "refreshed");
            equal(true, c.tokens().credentials(Duration.ZERO, CredentialsFlag.FORCE_REFRESH).refreshed(), "forced refresh");
            expect(JumpNotFoundException.class, () -> c.tokens().useWebLogin("http://127.0.0.1/", null, "no token"),
                    "web login without a token");
            String web = c.tokens().useWebLogin("http://127.0.0.1:9/", "oauth_token=abc", null);
            equal("abc", web, "the web login token");
            c.signOut();
        }
        try (Client c = tokenClient(null)) {
            await(c.tokens().signInWithTokenAsync(mint(user)));
            check(c.tokens().status().signedIn(), "async sign-in with a token");
        }
    }

    @TestRunner.Test
    public static void identify_external_user_and_api_key() throws Exception {
        String external = "ext-" + UUID.randomUUID();
        String user = Json.string(tokenApi("POST", "/v2/user", "{\"client_user_id\":\"" + external + "\"}"), "user_id");
        try (Client c = tokenClient(null)) {
            int[] asked = {0};
            IdentifyResult r = c.tokens().identifyExternalUser(external, id -> {
                asked[0]++;
                try {
                    return Map.of("type", "sign_in_token", "sign_in_token", mint(user));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            equal(IdentifyResult.Action.SIGNED_IN, r.action(), "first identify: " + r.json());
            IdentifyResult again = c.tokens().identifyExternalUser(external, id -> {
                throw new AssertionError("not asked again");
            });
            equal(IdentifyResult.Action.NONE, again.action(), "the same user again");
            equal(1, asked[0], "authenticate ran once");
            c.signOut();
            expect(JumpBadCredentialsException.class, () -> c.tokens().identifyExternalUser("someone-else", id -> {
                throw new IllegalStateException("the backend said no");
            }), "authenticate refusing");
        }
        try (Client c = tokenClient(null)) {
            Object teams = emu().admin("GET", "/emulator/teams", null);
            Object team = ((java.util.List<?>) Json.get(teams, "teams")).get(0);
            c.tokens().useApiKey(Json.string(team, "api_key"), user, Json.string(team, "environment"), Json.string(team, "region"));
            SignInStatus s = c.tokens().status();
            check(s.useApiKey() && user.equals(s.userId()), "API key status: " + s.json());
            equal(Credentials.Kind.API_KEY, c.tokens().credentials(Duration.ZERO).kind(), "credential kind");
        }
    }
}
