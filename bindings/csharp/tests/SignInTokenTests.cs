// SignInTokenTests.cs - sign-in tokens, API keys, identify, authorized requests and web login against the
// emulator's token API (as bindings/python/tests/test_sign_in_token.py).
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;

namespace Jump.Tests
{
    internal static partial class Program
    {
        /// <summary>A client of a sign-in-token app: no Capture settings, the emulator's token API.</summary>
        static JumpClient NewTokenClient(string storage = null)
        {
            using (var config = JumpConfig.FromDictionary(new Dictionary<string, object> {
                { "signInTokenAuthBaseUrl", emu.Url }, { "signInTokenApiBaseUrl", emu.Url },
                { "storageDirectory", storage ?? ":memory:" }, { "requestTimeoutMs", 10000 } }))
                return new JumpClient(config);
        }

        [JumpTests]
        static class SignInTokenTests
        {
            [JumpTest]
            public static void decode_sign_in_token()
            {
                string user = TokenApi.NewUser(emu);
                var info = JumpClient.DecodeSignInToken(TokenApi.Mint(emu, user));
                Assert.Equal(user, info.UserId, "user_id");
                Assert.Equal("dev", info.Environment, "environment");
                Assert.Equal("us", info.Region, "region");
                Assert.Equal("00000000-0000-4000-8000-000000000001", info.TeamId, "team_id");
                Assert.True(info.ExpiresAt == null || info.ExpiresAt > DateTimeOffset.UtcNow, "expires_at: " + info.ExpiresAt);
                var bad = Assert.Throws<JumpInvalidArgumentException>(() => JumpClient.DecodeSignInToken("not base64 !"), "malformed");
                Assert.True(bad.Message.Contains("base64"), "says what is wrong: " + bad.Message);
            }

            [JumpTest]
            public static void sign_in_with_token_status_and_requests()
            {
                string user = TokenApi.NewUser(emu), other = TokenApi.NewUser(emu);
                using (var c = NewTokenClient())
                {
                    var statusEvent = new ManualResetEventSlim();
                    c.Event += (sender, e) => { if (e.Name == "status_changed") statusEvent.Set(); };
                    Assert.True(!c.Status.SignedIn, "signed out at first");
                    var r = c.SignInWithToken(TokenApi.Mint(emu, user));
                    Assert.True(r.UserId == user && r.Changed && !r.Migrated, "result: " + r.Json);
                    var status = c.Status;
                    Assert.True(status.SignedIn && status.UseSignInToken && !status.UseApiKey && status.Configured, "status: " + status.Json);
                    Assert.True(status.UserId == user && !status.PendingReauthentication, "status user: " + status.Json);
                    var put = c.Request("PUT", "/v2/user/" + user + "/profile",
                        new Dictionary<string, string> { { "Content-Type", "application/json" } }, "{\"colour\":\"blue\"}");
                    Assert.Equal(200, put.StatusCode, "PUT: " + put.Json);
                    var got = c.Request("GET", "/v2/user/" + user + "/profile");
                    Assert.True(got.StatusCode == 200 && got.Body.Contains("blue"), "GET: " + got.Json);
                    Assert.True(got.Header("content-type") != null && got.BodyBytes.Length > 0, "headers and bytes");
                    Assert.Equal(403, c.Request("GET", "/v2/user/" + other + "/profile").StatusCode, "another user's data");
                    var awaited = c.RequestAsync("GET", "/v2/user/" + user + "/profile").GetAwaiter().GetResult();
                    Assert.True(awaited.StatusCode == 200 && awaited.Body.Contains("blue"), "RequestAsync: " + awaited.Json);
                    var badMethod = c.RequestAsync("BREW", "/v2/user/" + user + "/profile");
                    Assert.True(badMethod.IsFaulted && badMethod.Exception.InnerException is JumpInvalidArgumentException,
                        "a bad method is refused at the call: " + badMethod.Status);
                    Assert.Throws<JumpInvalidArgumentException>(() => c.Request("GET", "https://example.com/v2/user"), "another server");
                    Assert.True(statusEvent.Wait(5000), "a status_changed event");
                    emu.ClearCounters();
                    Assert.True(!c.SignInWithToken(TokenApi.Mint(emu, user)).Changed, "the same user again is a no-op");
                    Assert.Equal(0L, emu.Count("POST /v1/token"), "no token request for the same user");
                    var refused = Assert.Throws<JumpAlreadySignedInException>(() => c.SignInWithToken(TokenApi.Mint(emu, other)), "another user");
                    Assert.Equal("user_id", refused.Detail["mismatch"] as string, "mismatch");
                }
            }

            [JumpTest]
            public static void sign_in_with_token_async()
            {
                string user = TokenApi.NewUser(emu);
                using (var c = NewTokenClient())
                {
                    var r = Await(c.SignInWithTokenAsync(TokenApi.Mint(emu, user)));
                    Assert.True(r.UserId == user && r.Changed, "result: " + r.Json);
                    Assert.Throws<JumpAlreadySignedInException>(() => Await(c.SignInWithTokenAsync(TokenApi.Mint(emu, TokenApi.NewUser(emu)))), "another user");
                }
            }

            [JumpTest]
            public static void api_key_mode_and_migration()
            {
                string user = TokenApi.NewUser(emu);
                string storage = NewStorage();
                using (var c = NewTokenClient(storage))
                {
                    c.UseApiKey(TokenApi.TeamKey, user.ToUpperInvariant(), "dev", "us");
                    var status = c.Status;
                    Assert.True(status.UseApiKey && status.SignedIn && !status.UseSignInToken, "status: " + status.Json);
                    Assert.Equal(200, c.Request("GET", "/v2/user/" + user).StatusCode, "the key goes in the header");
                    var creds = c.GetCredentials(TimeSpan.FromHours(1));
                    Assert.True(creds.Kind == "api_key" && creds.AccessToken == TokenApi.TeamKey && creds.ExpiresAt == null, "credentials: " + creds);
                    Assert.True(c.HasValidCredentials(long.MaxValue / 2), "an API key is always valid");
                    var unsupported = Assert.Throws<JumpUnsupportedException>(() => c.GetCredentials(0, forceRefresh: true), "an API key cannot refresh");
                    Assert.True(!unsupported.DetailJson.Contains(TokenApi.TeamKey), "the key is not in the detail");
                    var migrated = c.SignInWithToken(TokenApi.Mint(emu, user));
                    Assert.True(migrated.Migrated && c.Status.UseSignInToken, "migrated in place: " + migrated.Json);
                }
                using (var relaunched = NewTokenClient(storage))
                    Assert.True(relaunched.Status.UseSignInToken && relaunched.Status.UserId == user, "a relaunch restores the migrated session");
                using (var other = NewTokenClient())
                {
                    other.UseApiKey(TokenApi.TeamKey, TokenApi.NewUser(emu), "dev", "us");
                    var e = Assert.Throws<JumpAlreadySignedInException>(() => other.SignInWithToken(TokenApi.Mint(emu, user)), "another user's token");
                    Assert.Equal("user_id", e.Detail["mismatch"] as string, "mismatch");
                    Assert.True(other.Status.UseApiKey, "nothing switched");
                }
            }

            [JumpTest]
            public static void identify_outcome_table()
            {
                string a = TokenApi.NewUser(emu), b = TokenApi.NewUser(emu);
                var asked = new List<string>();
                int callerThread = Thread.CurrentThread.ManagedThreadId, authenticateThread = -1;
                Func<string, Func<string, IdentifyCredential>> forUser = user => external =>
                {
                    asked.Add(external);
                    authenticateThread = Thread.CurrentThread.ManagedThreadId;
                    return IdentifyCredential.SignInToken(TokenApi.Mint(emu, user));
                };
                using (var c = NewTokenClient())
                {
                    Assert.Equal("signed_in", c.IdentifyExternalUser("app-a", forUser(a)).Action, "none + A");
                    Assert.Equal(callerThread, authenticateThread, "authenticate runs on the calling thread");
                    Assert.True(c.Status.UserId == a && c.Status.ExternalUserId == "app-a", "status: " + c.Status.Json);
                    Assert.Equal("none", c.IdentifyExternalUser("app-a", forUser(b)).Action, "the same external id");
                    Assert.Equal("app-a", string.Join(",", asked), "no authenticate the second time");
                    Assert.Equal("kept", c.IdentifyExternalUser("app-a2", forUser(a)).Action, "A + A");
                    var switched = c.IdentifyExternalUser("app-b", forUser(b));
                    Assert.True(switched.Action == "switched" && switched.UserId == b, "A + B: " + switched.Json);
                    var viaKey = c.IdentifyExternalUser("app-k", external => IdentifyCredential.ApiKey(TokenApi.TeamKey, a, "dev", "us"));
                    Assert.True(viaKey.Action == "switched" && c.Status.UseApiKey, "an API-key credential: " + viaKey.Json);
                    Assert.Equal("IdentifyCredential(api_key)", IdentifyCredential.ApiKey("secret", a).ToString(), "ToString keeps the key out");
                }
            }

            [JumpTest]
            public static void identify_authenticate_failure_is_rethrown_and_changes_nothing()
            {
                string user = TokenApi.NewUser(emu);
                int registered = HostRegistryCount();
                using (var c = NewTokenClient())
                {
                    c.IdentifyExternalUser("app-x", external => IdentifyCredential.SignInToken(TokenApi.Mint(emu, user)));
                    var thrown = new InvalidOperationException("backend down");
                    var e = Assert.Throws<InvalidOperationException>(() => c.IdentifyExternalUser("app-y", external => { throw thrown; }), "a throwing authenticate");
                    Assert.True(ReferenceEquals(thrown, e), "the app's own exception");
                    Assert.True(e.StackTrace.Contains("SignInTokenTests.cs"), "its stack is kept: " + e.StackTrace);
                    Assert.True(c.Status.UserId == user && c.Status.ExternalUserId == "app-x", "nothing changed: " + c.Status.Json);
                    Assert.Throws<JumpCancelledException>(() => c.IdentifyExternalUser("app-z", external => null), "null declines");
                    Assert.Throws<ArgumentNullException>(() => c.IdentifyExternalUser("app-z", null), "no authenticate");
                }
                Assert.Equal(registered, HostRegistryCount(), "no host callback left registered");
            }

            [JumpTest]
            public static void access_token_refresh_and_user_deletion()
            {
                string user = TokenApi.NewUser(emu);
                using (var c = NewTokenClient())
                {
                    var invalidated = new ManualResetEventSlim();
                    c.Event += (sender, e) => { if (e.Name == "user_invalidated" && e.Json.Contains(user)) invalidated.Set(); };
                    c.SignInWithToken(TokenApi.Mint(emu, user));
                    string first = c.GetAccessToken();
                    emu.ClearCounters();
                    c.RefreshAccessToken();
                    Assert.Equal(1L, emu.Count("POST /v1/token"), "one refresh request");
                    Assert.True(c.GetAccessToken() != first, "a new access token");
                    TokenApi.Call(emu, "DELETE", "/v2/user/" + user);
                    var e2 = Assert.Throws<JumpNotSignedInException>(() => c.RefreshAccessToken(), "the user is gone");
                    Assert.Equal("invalid_token", e2.Detail["error_type"] as string, "error_type");
                    Assert.True(!c.Status.SignedIn, "signed out");
                    Assert.True(invalidated.Wait(5000), "a user_invalidated event");
                }
            }

            [JumpTest]
            public static void web_login_token_used_on_its_origin()
            {
                string email = UniqueEmail();
                emu.Admin("POST", "/emulator/users", Json.Write(new Dictionary<string, object> { { "email", email }, { "password", "correct horse 1" } }));
                var page = Web.Call(emu.Url + "/weblogin", new Dictionary<string, string> { { "email", email }, { "password", "correct horse 1" } });
                Assert.Equal(200, page.Status, "web login: " + page.Text);
                string setCookies = string.Join("\n", page.Headers.GetValues("Set-Cookie") ?? new string[0]);
                string title = page.Text.Split(new[] { "<title>" }, StringSplitOptions.None)[1].Split(new[] { "</title>" }, StringSplitOptions.None)[0];
                Assert.True(setCookies.Contains("oauth_token="), "the page set the cookie: " + setCookies);
                using (var c = NewClient())
                {
                    string fromCookie = c.UseWebLogin(emu.Url + "/weblogin", cookies: setCookies);
                    string fromTitle = c.UseWebLogin(emu.Url + "/weblogin", title: title);
                    Assert.True(!string.IsNullOrEmpty(fromCookie) && fromCookie == fromTitle, "the same token from the cookie and the title");
                    var me = c.Request("GET", emu.Url + "/weblogin/me");
                    Assert.True(me.StatusCode == 200 && me.Body.Contains(email), "the token reached its origin: " + me.Json);
                    Assert.Throws<JumpNotFoundException>(() => c.UseWebLogin(emu.Url + "/weblogin", "other=1", "Welcome"), "no token there");
                    Assert.Throws<JumpInvalidArgumentException>(() => c.UseWebLogin("http://example.com/login", setCookies), "plain http off loopback");
                }
            }
        }

        /// <summary>How many host callbacks (storage, open_url, authenticate) the binding has registered.</summary>
        static int HostRegistryCount()
        {
            var registry = typeof(JumpClient).Assembly.GetType("Jump.HostRegistry", true);
            return (int)registry.GetProperty("Count", System.Reflection.BindingFlags.Static | System.Reflection.BindingFlags.NonPublic).GetValue(null);
        }
    }
}
