// ConformanceTests.cs - the conformance suite (Tests/conformance): every scenario of scenarios.json played by
// ConformanceRunner.exe (bindings/csharp/conformance, built by build.sh) through Tests/conformance/run.py, one
// test per scenario. run.py starts its own emulator and compares each outcome with the scenario's "expect";
// its output is saved in build/conformance/csharp.jsonl for Tests/conformance/check.py.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;

namespace Jump.Tests
{
    internal static partial class Program
    {
        static readonly object s_conformanceLock = new object();
        static Dictionary<string, string> s_verdicts;
        static string s_conformanceOutput;

        /// <summary>run.py's PASS/FAIL line for scenario (one run.py run for all of them, made by the first test
        /// that asks).</summary>
        static void Conformance(string scenario)
        {
            lock (s_conformanceLock)
            {
                if (s_verdicts == null) RunConformance();
                string line;
                if (!s_verdicts.TryGetValue(scenario, out line)) line = "FAIL " + scenario + ": no verdict from run.py";
                Assert.True(line.StartsWith("PASS ", StringComparison.Ordinal), line + "\nrun.py output (tail):\n" + Tail(s_conformanceOutput, 4000));
            }
        }

        static string ConformanceRoot { get { return Environment.GetEnvironmentVariable("JUMP_ROOT") ?? Directory.GetCurrentDirectory(); } }

        static void RunConformance()
        {
            string root = ConformanceRoot;
            string runner = Path.Combine(Path.GetDirectoryName(typeof(Program).Assembly.Location), "ConformanceRunner.exe");
            var info = new ProcessStartInfo("python3", string.Join(" ", new[] {
                Path.Combine(root, "Tests/conformance/run.py"), "csharp", "--out", Path.Combine(root, "build/conformance/csharp.jsonl"),
                "--", "mono", "--debug", runner }.Select(a => "\"" + a + "\"")))
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                WorkingDirectory = root,
            };
            using (var process = Process.Start(info))
            {
                var stderr = process.StandardError.ReadToEndAsync();
                string stdout = process.StandardOutput.ReadToEnd();
                process.WaitForExit();
                s_conformanceOutput = stdout + stderr.Result;
                s_verdicts = new Dictionary<string, string>();
                foreach (var line in stdout.Split('\n'))
                {
                    var match = Regex.Match(line, @"^(PASS|FAIL) (\S+)");
                    if (match.Success) s_verdicts[match.Groups[2].Value] = line.TrimEnd('\r');
                }
            }
        }

        [JumpTests]
        static class ConformanceTests
        {
            [JumpTest(LimitSeconds = 600)]
            public static void conformance_register_sign_in_bad_password() { Conformance("register_sign_in_bad_password"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_edit_sync_plural_append() { Conformance("edit_sync_plural_append"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_refresh_after_clock_moves() { Conformance("refresh_after_clock_moves"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_passing_server_error() { Conformance("passing_server_error"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_sign_out_restart() { Conformance("sign_out_restart"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_sign_in_token_session() { Conformance("sign_in_token_session"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_cancel_async() { Conformance("cancel_async"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_status_errors() { Conformance("status_errors"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_conflict_detail() { Conformance("conflict_detail"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_register_invalid_fields() { Conformance("register_invalid_fields"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_register_taken_fields() { Conformance("register_taken_fields"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_sign_in_unknown_user() { Conformance("sign_in_unknown_user"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_sign_out_keeps_server_edits() { Conformance("sign_out_keeps_server_edits"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_signed_out_calls() { Conformance("signed_out_calls"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_edit_seen_by_second_client() { Conformance("edit_seen_by_second_client"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_unknown_write_outcome() { Conformance("unknown_write_outcome"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_server_error_on_sync() { Conformance("server_error_on_sync"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_lost_sync_answer() { Conformance("lost_sync_answer"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_lasting_sign_in_error() { Conformance("lasting_sign_in_error"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_wrong_device_clock() { Conformance("wrong_device_clock"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_several_accounts() { Conformance("several_accounts"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_loopback_social_sign_in() { Conformance("loopback_social_sign_in"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_host_storage() { Conformance("host_storage"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_event_order() { Conformance("event_order"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_merge_flow() { Conformance("merge_flow"); }

            [JumpTest(LimitSeconds = 600)]
            public static void conformance_api_key_mode() { Conformance("api_key_mode"); }

            /// <summary>A scenario added to scenarios.json needs its test here (else it would go unplayed).</summary>
            [JumpTest]
            public static void conformance_every_scenario_has_a_test()
            {
                var document = (Dictionary<string, object>)Json.Parse(File.ReadAllText(Path.Combine(ConformanceRoot, "Tests/conformance/scenarios.json")));
                var names = ((List<object>)document["scenarios"]).Select(s => (string)Json.Get(s, "name"));
                var tests = typeof(ConformanceTests).GetMethods().Select(m => m.Name).ToList();
                var missing = names.Where(n => !tests.Contains("conformance_" + n)).ToList();
                Assert.True(missing.Count == 0, "scenarios without a test: " + string.Join(", ", missing));
            }
        }
    }
}
