// Tests.cs - the C# binding's tests, against a real jump-emulator (no mocks). Run by run-tests.sh.
using System;
using System.Linq;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace Jump.Tests
{
    internal static partial class Program
    {
        const string Password = "correct horse battery";
        const string SignInPath = "/oauth/auth_native_traditional";
        static Emulator emu;
        static string scratch;

        /// <summary>The test classes, in the order they run; each runs its [JumpTest] methods in declaration
        /// order (Harness.cs). A [JumpTests] class missing here fails the run.</summary>
        static readonly Type[] TestClasses =
        {
            typeof(CoreTests),              // Tests.cs
            typeof(AsyncTests),             // AsyncTests.cs
            typeof(SocialTests),            // SocialTests.cs
            typeof(BrowserSocialTests),     // BrowserSocialTests.cs
            typeof(LoopbackTests),          // LoopbackTests.cs
            typeof(SignInTokenTests),       // SignInTokenTests.cs
            typeof(CredentialTests),        // CredentialTests.cs
            typeof(ResultTests),            // ResultTests.cs
            typeof(FormTests),              // FormTests.cs
            typeof(RecordTests),            // RecordTests.cs
            typeof(StorageTests),           // StorageTests.cs
            typeof(CancellationTests),      // CancellationTests.cs
            typeof(ExceptionTests),         // ExceptionTests.cs
            typeof(ExampleTests),           // ExampleTests.cs
            typeof(DeliveryTests),          // DeliveryTests.cs
            typeof(ResolverTests),          // ResolverTests.cs
            typeof(AccountTests),           // AccountTests.cs
            typeof(ConformanceTests),       // ConformanceTests.cs
        };

        static int Main(string[] args)
        {
            if (args.Length == 2 && args[0] == "--exit-probe") return ExitProbe(args[1]); // DeliveryTests.cs
            if (args.Length == 2 && args[0] == "--browser") return BrowserMain(args[1]); // ExampleTests.cs
            string root = Environment.GetEnvironmentVariable("JUMP_ROOT") ?? Directory.GetCurrentDirectory();
            string emulatorPath = Environment.GetEnvironmentVariable("JUMP_EMULATOR") ?? Path.Combine(root, "build/bin/jump-emulator");
            string filter = args.Length > 0 ? args[0] : null;
            scratch = Path.Combine(Path.GetTempPath(), "jump-csharp-" + Guid.NewGuid().ToString("N").Substring(0, 8));
            Directory.CreateDirectory(scratch);
            try
            {
                using (emu = new Emulator(emulatorPath))
                {
                    var h = Harness.Discover(typeof(Program).Assembly, TestClasses);
                    int failed = h.Run(filter, TimeSpan.FromSeconds(30));
                    if (failed > 0) Console.WriteLine("emulator log (tail):\n" + Tail(emu.Log, 3000));
                    return failed == 0 ? 0 : 1;
                }
            }
            catch (Exception e)
            {
                Console.WriteLine("setup failed: " + e);
                Console.WriteLine("0 passed, 1 failed");
                return 1;
            }
            finally
            {
                try { Directory.Delete(scratch, true); } catch (Exception) { }
            }
        }

        static string Tail(string s, int n) { return s.Length <= n ? s : s.Substring(s.Length - n); }

        // ---- fixtures ----

        static string NewStorage()
        {
            string dir = Path.Combine(scratch, Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            return dir;
        }

        static JumpConfig Config(string storage = null)
        {
            return JumpConfig.FromDictionary(new Dictionary<string, object> {
                { "captureDomain", emu.Url },
                { "captureClientId", "jump-default-client" },
                { "captureAppId", "default-app" },
                { "captureFlowName", "standard" },
                { "captureLocale", "en-US" },
                { "captureFlowDomain", emu.Url },
                { "storageDirectory", storage ?? ":memory:" },
                { "requestTimeoutMs", 10000 },
            });
        }

        static JumpClient NewClient(string storage = null, JumpDelivery delivery = JumpDelivery.Automatic)
        {
            using (var config = Config(storage)) return new JumpClient(config, delivery);
        }

        static readonly JumpDelivery[] BothDeliveries = { JumpDelivery.Automatic, JumpDelivery.Pumped };

        static string UniqueEmail() { return "cs-" + Guid.NewGuid().ToString("N").Substring(0, 12) + "@example.com"; }

        /// <summary>Registers a new account through a throwaway client; returns its email and uuid.</summary>
        static KeyValuePair<string, string> NewAccount()
        {
            string email = UniqueEmail();
            using (var c = NewClient())
            {
                var r = c.RegisterTraditional(new Dictionary<string, object> {
                    { "email", email }, { "displayName", "Ada L" }, { "givenName", "Ada" }, { "familyName", "Lovelace" },
                    { "username", "cs" + Guid.NewGuid().ToString("N").Substring(0, 10) } }, Password);
                return new KeyValuePair<string, string>(email, r.Uuid);
            }
        }

        static T Await<T>(Task<T> task, int timeoutMs = 15000)
        {
            if (!task.Wait(timeoutMs)) throw new TimeoutException("the task did not complete");
            return task.Result;
        }

        // ---- tests ----

        /// <summary>The client's basics: sign-in, registration, records, bad input, configuration, restart,
        /// logging and the quickstart example (async delivery, cancellation and Dispose: AsyncTests.cs).</summary>
        [JumpTests]
        static class CoreTests
        {
            [JumpTest]
            public static void library_version()
            {
                Assert.True(!string.IsNullOrEmpty(JumpClient.LibraryVersion), "jump_version() is empty");
            }

            [JumpTest]
            public static void pinvokes_match_jump_api_json() { ApiContract.PInvokesMatchTheApi(); }

            [JumpTest]
            public static void statuses_have_typed_exceptions() { ApiContract.StatusesHaveTypedExceptions(); }

            [JumpTest]
            public static void json_round_trip()
            {
                var v = Json.Parse("{\"a\":[1,2.5,\"x\\u00e9\\n\",true,null],\"b\":{}}") as Dictionary<string, object>;
                Assert.Equal("{\"a\":[1,2.5,\"xé\\n\",true,null],\"b\":{}}", Json.Write(v), "round trip");
                Assert.Throws<FormatException>(() => Json.Parse("{\"a\":"), "truncated JSON");
                Assert.Throws<FormatException>(() => Json.Parse(new string('[', 100) + new string(']', 100)), "too deep");
            }

            [JumpTest]
            public static void sign_in_ok()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    Assert.True(!c.IsSignedIn, "signed out at first");
                    var r = c.SignIn(account.Key, Password);
                    Assert.Equal(account.Value, r.Uuid, "uuid");
                    Assert.True(!r.IsNew, "is_new");
                    var state = c.State;
                    Assert.True(state.SignedIn && c.IsSignedIn, "signed in");
                    Assert.Equal(account.Key, state.Email, "state email");
                    c.SignOut();
                    Assert.True(!c.IsSignedIn, "signed out");
                }
            }

            [JumpTest]
            public static void bad_credentials()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    var e = Assert.Throws<JumpBadCredentialsException>(() => c.SignIn(account.Key, "wrong password"), "sign-in");
                    Assert.Equal(JumpStatus.BadCredentials, e.Status, "Status");
                    Assert.Equal("JUMP_E_BAD_CREDENTIALS", e.StatusName, "StatusName");
                    Assert.True(!string.IsNullOrEmpty(e.Message), "Message");
                    Assert.Equal(-7L, e.Detail["status"], "detail status");
                    Assert.True(e.DetailJson.IndexOf("wrong password", StringComparison.Ordinal) < 0, "no password in the detail");
                    Assert.True(!c.IsSignedIn, "still signed out");
                }
            }

            [JumpTest]
            public static void registration_validation()
            {
                using (var c = NewClient())
                {
                    var e = Assert.Throws<JumpValidationException>(() => c.RegisterTraditional(
                        new Dictionary<string, object> { { "email", "not-an-email" }, { "displayName", "X" } }, "short"), "register");
                    Assert.Equal(JumpStatus.Validation, e.Status, "Status");
                    Assert.Equal("JUMP_E_VALIDATION", e.StatusName, "StatusName");
                    var fields = e.InvalidFields;
                    Assert.True(fields.ContainsKey("emailAddress") && fields.ContainsKey("newPassword"),
                        "invalid fields: " + string.Join(",", new List<string>(fields.Keys)));
                    Assert.True(fields["emailAddress"].Length > 0, "messages for emailAddress");
                    Assert.True(e.MergeToken == null && e.SocialRegistrationToken == null, "no tokens");
                    Assert.True(!c.IsSignedIn, "not signed in");
                }
            }

            [JumpTest]
            public static void record_edit_and_sync()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    c.SignIn(account.Key, Password);
                    using (var record = c.Record())
                    {
                        Assert.Equal("Ada", record.GetString("/givenName"), "givenName");
                        record.SetString("/aboutMe", "héllo from C# ✓");
                        Assert.Equal("héllo from C# ✓", record.GetString("/aboutMe"), "local edit (UTF-8)");
                        Assert.True(c.State.UnsyncedChanges, "unsynced");
                        var sync = c.Sync();
                        Assert.True(sync.Changed.Contains("/aboutMe"), "synced paths: " + sync.Json);
                        Assert.True(!c.State.UnsyncedChanges, "nothing unsynced");
                        Assert.Throws<JumpNotFoundException>(() => record.GetString("/noSuchAttribute"), "missing path");
                    }
                    string server = emu.Admin("GET", "/emulator/users/" + account.Value);
                    Assert.True(server.Contains("héllo from C# ✓"), "the server has the edit: " + server);
                }
            }

            [JumpTest]
            public static void bad_input_is_an_exception()
            {
                using (var c = NewClient())
                {
                    Assert.Throws<JumpInvalidArgumentException>(() => c.SignIn(null, Password), "null user");
                    Assert.Throws<JumpInvalidArgumentException>(() => c.SignIn("a@example.com", null), "null password");
                    Assert.Throws<ArgumentException>(() => c.SignIn("a@example.com", "ab\0cd"), "embedded NUL");
                    Assert.Throws<JumpInvalidArgumentException>(() => c.RegisterTraditional("{not json", Password), "bad JSON");
                    Assert.Throws<JumpNotSignedInException>(() => c.Sync(), "sync signed out");
                    Assert.Throws<JumpNotSignedInException>(() => c.Record(), "record signed out");
                    Assert.Throws<JumpInvalidArgumentException>(() => Await(c.SignInAsync(null, null)), "async null user");
                }
                Assert.Throws<JumpInvalidArgumentException>(() => JumpConfig.FromJson("{\"noSuchKey\":1}"), "unknown config key");
                Assert.Throws<JumpInvalidArgumentException>(() => JumpConfig.FromJson("[1"), "bad config JSON");
                Assert.Throws<ArgumentNullException>(() => new JumpClient((JumpConfig)null), "null config");
                using (var config = Config())
                    Assert.Throws<ArgumentOutOfRangeException>(() => new JumpClient(config, (JumpDelivery)7), "unknown delivery");
            }

            [JumpTest]
            public static void config_keys_and_json_constructor()
            {
                using (var defaults = new JumpConfig())
                {
                    // the generated constants (jump_api.json's config_keys) are exactly the keys libjump knows
                    var known = new List<string>(((Dictionary<string, object>)Json.Parse(defaults.ToJson())).Keys);
                    var all = new List<string>(ConfigKeys.All);
                    known.Sort(StringComparer.Ordinal);
                    all.Sort(StringComparer.Ordinal);
                    Assert.Equal(string.Join(",", known), string.Join(",", all), "ConfigKeys.All against the library's keys");
                    Assert.Equal("requestTimeoutMs", ConfigKeys.RequestTimeoutMs, "ConfigKeys.RequestTimeoutMs");
                }
                using (var config = new JumpConfig())
                {
                    config.Set(ConfigKeys.CaptureDomain, emu.Url).Set(ConfigKeys.CaptureClientId, "jump-default-client")
                          .Set(ConfigKeys.RequestTimeoutMs, 5000L).Set(ConfigKeys.CaptureEnableThinRegistration, false)
                          .Set(ConfigKeys.StorageDirectory, ":memory:");
                    var settings = Json.Parse(config.ToJson());
                    Assert.Equal(5000L, Json.Get(settings, ConfigKeys.RequestTimeoutMs), "requestTimeoutMs");
                    Assert.Throws<JumpInvalidArgumentException>(() => config.Set("noSuchKey", "x"), "unknown key");
                    Assert.Throws<JumpInvalidArgumentException>(() => config.Set(ConfigKeys.RequestTimeoutMs, "soon"), "wrong type");
                }
                string json = Json.Write(new Dictionary<string, object> {
                    { ConfigKeys.CaptureDomain, emu.Url }, { ConfigKeys.CaptureClientId, "jump-default-client" },
                    { ConfigKeys.CaptureAppId, "default-app" }, { ConfigKeys.CaptureFlowName, "standard" },
                    { ConfigKeys.CaptureFlowDomain, emu.Url }, { ConfigKeys.StorageDirectory, ":memory:" } });
                var account = NewAccount();
                using (var c = new JumpClient(json)) Assert.Equal(account.Value, c.SignIn(account.Key, Password).Uuid, "uuid");
                Assert.Throws<JumpInvalidArgumentException>(() => new JumpClient("{\"storageDirectory\":3}"), "bad config JSON type");
            }

            [JumpTest]
            public static void session_survives_restart()
            {
                var account = NewAccount();
                string storage = NewStorage();
                using (var c = NewClient(storage))
                {
                    c.SignIn(account.Key, Password);
                    using (var record = c.Record()) record.SetString("/aboutMe", "kept across restarts");
                }
                using (var c = NewClient(storage))
                {
                    var state = c.State;
                    Assert.True(state.SignedIn, "signed in after restart");
                    Assert.Equal(account.Value, state.Uuid, "same user");
                    Assert.True(state.UnsyncedChanges, "the unsynced edit survived");
                    using (var record = c.Record()) Assert.Equal("kept across restarts", record.GetString("/aboutMe"), "edit");
                    c.Sync();
                }
            }

            [JumpTest]
            public static void log_callback_trampoline()
            {
                var lines = new List<string>();
                JumpLog.SetHandler(line => { lock (lines) lines.Add(line); });
                try
                {
                    using (var c = NewClient())
                        Assert.Throws<JumpBadCredentialsException>(() => c.SignIn(UniqueEmail(), "nope"), "sign-in");
                }
                finally { JumpLog.SetHandler(null); }
                lock (lines)
                {
                    Console.WriteLine("  (log lines received: " + lines.Count + ")");
                    foreach (var l in lines)
                        Assert.True(l.Contains("\"kind\":\"log\"") || l.Contains("\"kind\": \"log\""), "a log document: " + l);
                }
            }

            [JumpTest]
            public static void quickstart_example()
            {
                string exe = Environment.GetEnvironmentVariable("JUMP_QUICKSTART_EXE");
                Assert.True(exe != null && File.Exists(exe), "JUMP_QUICKSTART_EXE (the compiled example) is missing");
                var info = new ProcessStartInfo("mono", "\"" + exe + "\" " + emu.Url + " \"" + NewStorage() + "\"")
                {
                    UseShellExecute = false,
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                };
                using (var p = Process.Start(info))
                {
                    var stderr = p.StandardError.ReadToEndAsync();
                    string output = p.StandardOutput.ReadToEnd();
                    Assert.True(p.WaitForExit(20000), "the example finished");
                    Assert.Equal(0, p.ExitCode, "exit status; output: " + output + stderr.Result);
                    Assert.True(output.Contains("still signed in after restart"), "output: " + output);
                }
            }
        }
    }
}
