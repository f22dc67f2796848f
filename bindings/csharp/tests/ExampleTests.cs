// ExampleTests.cs - the examples/csharp programs, compiled by build.sh, run against the test emulator as a
// user would run them. The loopback example opens "the browser" through $BROWSER: this test program itself
// in --browser mode, which drives the fake identity provider and lands on the listener (BrowserMain).
using System;
using System.Diagnostics;
using System.IO;

namespace Jump.Tests
{
    internal static partial class Program
    {
        /// <summary>Runs an example's .exe with mono; returns its standard output (fails on a non-zero exit).</summary>
        static string RunExample(string name, string arguments, Action<ProcessStartInfo> setUp = null)
        {
            string dir = Environment.GetEnvironmentVariable("JUMP_EXAMPLES_DIR");
            string exe = dir == null ? null : Path.Combine(dir, name + ".exe");
            Assert.True(exe != null && File.Exists(exe), name + ".exe (compiled by build.sh) is missing; JUMP_EXAMPLES_DIR=" + dir);
            var info = new ProcessStartInfo("mono", "--debug \"" + exe + "\" " + arguments)
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            if (setUp != null) setUp(info);
            using (var p = Process.Start(info))
            {
                var stderr = p.StandardError.ReadToEndAsync();
                string output = p.StandardOutput.ReadToEnd();
                Assert.True(p.WaitForExit(30000), name + " finished");
                Assert.Equal(0, p.ExitCode, name + "'s exit status; output: " + output + stderr.Result);
                return output;
            }
        }

        /// <summary>JumpTests.exe --browser URL: a stand-in for the system browser on the emulator's fake
        /// provider: creates an identity, follows the redirect to the loopback listener. Exit status 0 when it
        /// landed there.</summary>
        static int BrowserMain(string url)
        {
            try
            {
                string landing = FakeIdP.Finish(url, "Ex Ample", UniqueEmail());
                return Web.Call(landing).Status == 200 ? 0 : 1;
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("browser: " + e);
                return 1;
            }
        }

        [JumpTests]
        static class ExampleTests
        {
            [JumpTest]
            public static void loopback_sign_in_example()
            {
                string self = typeof(Program).Assembly.Location;
                string output = RunExample("LoopbackSignIn", emu.Url + " google",
                    info => info.EnvironmentVariables["BROWSER"] = "mono " + self + " --browser");
                Assert.True(output.Contains("Opening your browser") && output.Contains("signed in with google"), "output: " + output);
                Assert.True(output.Contains("linked: google"), "the linked identity: " + output);
            }

            [JumpTest]
            public static void sign_in_token_session_example()
            {
                string output = RunExample("SignInTokenSession", emu.Url + " \"" + NewStorage() + "\"");
                Assert.True(output.Contains("identify: signed_in") && output.Contains("the token is for "), "first run: " + output);
                Assert.True(output.Contains("saved the profile: HTTP 200"), "the authorized request: " + output);
                Assert.True(output.Contains("after restart: identify none") && output.Contains("visits"), "the restart: " + output);
                Assert.True(output.Contains("signed out: True"), "sign-out: " + output);
            }
        }
    }
}
