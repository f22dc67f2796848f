// CredentialTests.cs - GetCredentials / GetCredentialsAsync / HasValidCredentials (as
// bindings/python/tests/test_credentials.py): no request while the token lasts, one refresh for many threads
// once it does not, every credential kind, errors as exceptions.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;

namespace Jump.Tests
{
    internal static partial class Program
    {
        const string RefreshPath = "POST /oauth/refresh_access_token";

        [JumpTests]
        static class CredentialTests
        {
            [JumpTest]
            public static void credentials_valid_token_needs_no_request()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    c.SignIn(account.Key, Password);
                    string token = c.GetAccessToken();
                    emu.ClearCounters();
                    var creds = c.GetCredentials(TimeSpan.FromMinutes(1));
                    Assert.True(creds.Kind == "capture" && creds.AccessToken == token && !creds.Refreshed, "credentials: " + creds);
                    Assert.True(creds.ExpiresIn > TimeSpan.FromSeconds(3500) && creds.ExpiresIn <= TimeSpan.FromHours(1), "expires_in " + creds.ExpiresIn);
                    Assert.True(creds.ExpiresAt > DateTimeOffset.UtcNow.AddMinutes(50), "expires_at " + creds.ExpiresAt);
                    Assert.True(!creds.ToString().Contains(token), "ToString leaves the token out");
                    Assert.True(c.HasValidCredentials(TimeSpan.FromMinutes(1)) && c.HasValidCredentials(60), "valid for a minute");
                    Assert.True(!c.HasValidCredentials(TimeSpan.FromHours(2)), "not for two hours");
                    Assert.Equal(0, emu.Counters().Values.Sum(v => (int)v), "no request at all");
                }
            }

            [JumpTest]
            public static void credentials_expiring_token_many_threads_one_refresh()
            {
                emu.Admin("POST", "/emulator/settings", "{\"access_token_lifetime\":30}");
                try
                {
                    using (var c = NewClient())
                    {
                        c.RegisterTraditional(new Dictionary<string, object> { { "email", UniqueEmail() }, { "displayName", "Cred" } }, Password);
                        emu.Admin("POST", "/emulator/settings", "{\"access_token_lifetime\":3600}");
                        emu.ClearCounters();
                        string old = c.GetCredentials(20).AccessToken;
                        Assert.True(c.HasValidCredentials(20) && !c.HasValidCredentials(60), "a 30-second token");
                        var results = new List<JumpCredentials>();
                        var errors = new List<Exception>();
                        using (var barrier = new Barrier(16))
                        {
                            var threads = Enumerable.Range(0, 16).Select(i => new Thread(() =>
                            {
                                try
                                {
                                    barrier.SignalAndWait(10000);
                                    var r = c.GetCredentials(TimeSpan.FromMinutes(1));
                                    lock (results) results.Add(r);
                                }
                                catch (Exception e) { lock (errors) errors.Add(e); }
                            })).ToList();
                            threads.ForEach(t => t.Start());
                            threads.ForEach(t => t.Join(30000));
                        }
                        Assert.Equal(0, errors.Count, "errors: " + string.Join("; ", errors));
                        Assert.Equal(1L, emu.Count(RefreshPath), "one refresh for 16 threads");
                        Assert.True(results.Select(r => r.AccessToken).Distinct().Count() == 1 && results[0].AccessToken != old, "one new token for all");
                        Assert.True(results.Any(r => r.Refreshed), "one of them says refreshed");
                        Assert.True(c.HasValidCredentials(60), "valid now");
                    }
                }
                finally { emu.Admin("POST", "/emulator/settings", "{\"access_token_lifetime\":3600}"); }
            }

            [JumpTest]
            public static void credentials_force_refresh_async()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    c.SignIn(account.Key, Password);
                    var first = c.GetCredentials();
                    emu.ClearCounters();
                    var forced = Await(c.GetCredentialsAsync(TimeSpan.Zero, forceRefresh: true));
                    Assert.True(forced.Refreshed && forced.AccessToken != first.AccessToken, "forced: " + forced);
                    Assert.Equal(1L, emu.Count(RefreshPath), "one refresh");
                    var again = Await(c.GetCredentialsAsync(60));
                    Assert.True(again.AccessToken == forced.AccessToken && !again.Refreshed, "no refresh while it lasts");
                    Assert.Equal(1L, emu.Count(RefreshPath), "still one refresh");
                    Assert.Throws<JumpInvalidArgumentException>(() => Await(c.GetCredentialsAsync(-5)), "a negative min_ttl");
                }
            }

            [JumpTest]
            public static void credentials_errors_are_exceptions()
            {
                var c = NewClient();
                Assert.Throws<JumpNotSignedInException>(() => c.GetCredentials(), "signed out");
                Assert.True(!c.HasValidCredentials(), "no credential when signed out");
                var e = Assert.Throws<JumpInvalidArgumentException>(() => c.GetCredentials(TimeSpan.FromSeconds(-1)), "a negative min_ttl");
                Assert.Equal("min_ttl_seconds", e.Argument, "the argument");
                Assert.True(!c.HasValidCredentials(-1), "negative: false");
                c.Dispose();
                Assert.True(!c.HasValidCredentials(), "disposed: false, no exception");
            }

            [JumpTest]
            public static void credentials_of_a_sign_in_token_session()
            {
                string user = TokenApi.NewUser(emu);
                using (var c = NewTokenClient())
                {
                    c.SignInWithToken(TokenApi.Mint(emu, user));
                    emu.ClearCounters();
                    var creds = c.GetCredentials(60);
                    Assert.True(creds.Kind == "sign_in_token" && !creds.Refreshed, "credentials: " + creds);
                    Assert.Equal(0L, emu.Count("POST /v1/token"), "no refresh while it lasts");
                    var forced = c.GetCredentials(0, forceRefresh: true);
                    Assert.True(forced.Refreshed && forced.AccessToken != creds.AccessToken, "forced: " + forced);
                    Assert.Equal(1L, emu.Count("POST /v1/token"), "one refresh");
                }
            }
        }
    }
}
