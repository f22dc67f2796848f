// ResultTests.cs - the typed results generated from include/jump_api.json (src/Results.Generated.cs): read
// leniently, secrets kept out of ToString, units as DateTimeOffset/TimeSpan, "values" as string constants, and
// the same classes from the real library's answers and events.
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Threading;

namespace Jump.Tests
{
    internal static partial class Program
    {
        [JumpTests]
        static class ResultTests
        {
            // The classes are made by the binding only (internal constructors): the tests reach them as the
            // binding does, from JSON text.
            static T FromJson<T>(string json)
            {
                return (T)Activator.CreateInstance(typeof(T), BindingFlags.NonPublic | BindingFlags.Instance, null, new object[] { json }, null);
            }

            [JumpTest]
            public static void results_read_leniently_and_redact_secrets()
            {
                string json = "{\"kind\":\"quantum\",\"access_token\":\"s3cr3t\",\"expires_at\":86400,\"expires_in\":90," +
                              "\"refreshed\":\"yes\",\"added_later\":[1]}";
                var c = FromJson<JumpCredentials>(json);
                Assert.Equal("quantum", c.Kind, "a value newer than the constants is kept");
                Assert.True(c.Kind != JumpCredentialsKind.Capture && JumpCredentialsKind.ApiKey == "api_key", "constants");
                Assert.Equal(DateTimeOffset.FromUnixTimeSeconds(86400), c.ExpiresAt.Value, "epoch seconds");
                Assert.Equal(TimeSpan.FromSeconds(90), c.ExpiresIn.Value, "seconds");
                Assert.True(!c.Refreshed, "a mistyped key reads as its default");
                Assert.Equal(json, c.Json, "the text as libjump gave it, unknown keys included");
                Assert.True(!c.ToString().Contains("s3cr3t") && c.ToString().Contains("AccessToken = <redacted>"), c.ToString());
                var empty = FromJson<SyncResult>("{}");
                Assert.True(empty.Changed.Count == 0 && empty.Renamed.Count == 0 && empty.Requests == 0, "absent keys: empty, 0");
                var status = FromJson<ClientStatus>("{\"user_id\":null,\"restore_error\":{\"status\":-12,\"message\":\"m\"}}");
                Assert.True(status.UserId == null && status.RestoreError.Status == -12 && status.RestoreErrorJson.Contains("-12"), "nested document");
            }

            [JumpTest]
            public static void results_log_lines_are_typed()
            {
                var lines = new List<LogLine>();
                JumpLog.SetLineHandler(line => { lock (lines) lines.Add(line); });
                try
                {
                    using (var c = NewClient())
                        Assert.Throws<JumpBadCredentialsException>(() => c.SignIn(UniqueEmail(), "nope"), "sign-in");
                }
                finally { JumpLog.SetLineHandler(null); }
                var levels = new[] { LogLineLevel.Debug, LogLineLevel.Info, LogLineLevel.Warning, LogLineLevel.Error };
                lock (lines)
                    foreach (var l in lines)
                        Assert.True(l.Kind == LogLineKind.Log && Array.IndexOf(levels, l.Level) >= 0 && l.Message != null, "a log line: " + l.Json);
            }

            [JumpTest]
            public static void results_of_the_library_are_typed()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    var events = new List<JumpEvent>();
                    var signedIn = new ManualResetEventSlim();
                    c.Event += (sender, e) =>
                    {
                        lock (events) events.Add(e.Event);
                        if (e.Event.Event == JumpEventEvent.SignedIn) signedIn.Set();
                    };
                    var result = c.SignIn(account.Key, Password);
                    Assert.True(result.Uuid != null && !result.IsNew && result.KeptChanges != null, "sign-in: " + result);
                    Assert.True(result.ToString().Contains("Uuid = \"" + result.Uuid + "\""), result.ToString());
                    var state = c.State;
                    Assert.True(state.SignedIn && state.Uuid == result.Uuid && state.Quarantine.Count == 0, "state: " + state);
                    Assert.True(state.SecretStore == JumpStateSecretStore.File || state.SecretStore == JumpStateSecretStore.SecretService
                        || state.SecretStore == JumpStateSecretStore.Memory, "secret store " + state.SecretStore);
                    Assert.True(state.AccessTokenExpiresAt > DateTimeOffset.UtcNow, "expires " + state.AccessTokenExpiresAt);
                    var creds = c.GetCredentials();
                    Assert.True(!creds.ToString().Contains(creds.AccessToken) && creds.ToString().Contains("<redacted>"), creds.ToString());
                    Assert.True(signedIn.Wait(10000), "the signed_in event");
                    JumpEvent ev;
                    lock (events) ev = events.Find(x => x.Event == JumpEventEvent.SignedIn);
                    Assert.True(ev.Kind == "event" && ev.Uuid == result.Uuid, "event " + ev.Json);
                }
            }
        }
    }
}
