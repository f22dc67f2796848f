// CancellationTests.cs - the CancellationToken of every ...Async method: an already-cancelled token ends the
// Task Canceled before anything starts, and cancelling mid-request (the emulator holds the answer back, a
// "delay" fault) calls jump_request_cancel: the Task ends Canceled at once, not when the server answers.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;

namespace Jump.Tests
{
    internal static partial class Program
    {
        /// <summary>An argument of each parameter type the async methods take: harmless, and never checked
        /// before the token is.</summary>
        static object ArgumentOf(Type type, CancellationToken token)
        {
            if (type == typeof(CancellationToken)) return token;
            if (type == typeof(string)) return "x";
            if (type == typeof(bool)) return false;
            if (type == typeof(long)) return 0L;
            if (type == typeof(TimeSpan)) return TimeSpan.Zero;
            if (type == typeof(TimeSpan?)) return null;
            if (type == typeof(IDictionary<string, object>)) return new Dictionary<string, object>();
            if (type == typeof(IEnumerable<string>)) return new string[0];
            if (type == typeof(IDictionary<string, string>)) return new Dictionary<string, string>();
            if (type == typeof(byte[])) return new byte[0];
            if (type == typeof(Action<string>)) return (Action<string>)(url => { });
            throw new AssertionException("no test argument for a parameter of type " + type);
        }

        /// <summary>Starts one async call that the emulator holds back, cancels it after 200 ms, and checks that
        /// the Task ends Canceled long before the server would have answered.</summary>
        static void CancelMidRequest(JumpClient c, string path, Func<CancellationToken, Task> start)
        {
            emu.Delay(path, 3000);
            try
            {
                using (var cts = new CancellationTokenSource())
                {
                    var task = start(cts.Token);
                    Thread.Sleep(200);
                    Assert.True(!task.IsCompleted, path + ": still running: " + task.Status);
                    var watch = Stopwatch.StartNew();
                    cts.Cancel();
                    Assert.Throws<TaskCanceledException>(() => task.Wait(10000), path + ": await");
                    Assert.True(task.IsCanceled, path + ": Task.IsCanceled");
                    Assert.True(watch.ElapsedMilliseconds < 2000, path + ": did not wait for the server: " + watch.ElapsedMilliseconds + " ms");
                    Assert.Equal(0, c.PendingCount, path + ": nothing pending");
                }
            }
            finally { emu.ClearFaults(); }
        }

        [JumpTests]
        static class CancellationTests
        {
            [JumpTest]
            public static void every_async_method_takes_a_cancellation_token()
            {
                var missing = typeof(JumpClient).GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly)
                    .Where(m => typeof(Task).IsAssignableFrom(m.ReturnType))
                    .Where(m => m.Name.EndsWith("Async", StringComparison.Ordinal) != true
                        || m.GetParameters().LastOrDefault() == null || m.GetParameters().Last().ParameterType != typeof(CancellationToken))
                    .Select(Signature).ToList();
                Assert.True(missing.Count == 0, "Task-returning methods not named ...Async or without a last CancellationToken: " + string.Join(", ", missing));
            }

            [JumpTest]
            public static void every_async_method_honours_an_already_cancelled_token()
            {
                var cancelled = new CancellationToken(true);
                int registered = HostRegistryCount();
                using (var c = NewSocialClient())
                {
                    foreach (var method in typeof(JumpClient).GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly)
                        .Where(m => typeof(Task).IsAssignableFrom(m.ReturnType)))
                    {
                        var task = (Task)method.Invoke(c, method.GetParameters().Select(p => ArgumentOf(p.ParameterType, cancelled)).ToArray());
                        Assert.True(task.IsCanceled, Signature(method) + ": Canceled at once, not " + task.Status);
                    }
                    Assert.Equal(0, c.PendingCount, "nothing started");
                }
                Assert.Equal(registered, HostRegistryCount(), "no host callback registered for a call that never started");
            }

            [JumpTest]
            public static void cancelling_mid_request_ends_the_task_canceled()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    c.SignIn(account.Key, Password);
                    CancelMidRequest(c, "/oauth/update_profile_native", token => c.UpdateProfileAsync(new Dictionary<string, object> { { "displayName", "Never" } }, token));
                    CancelMidRequest(c, "/oauth/forgot_password_native", token => c.ForgotPasswordAsync(account.Key, token));
                    Assert.True(c.IsSignedIn, "still signed in");
                }
                using (var c = NewTokenClient())
                {
                    string user = TokenApi.NewUser(emu), token = TokenApi.Mint(emu, user);
                    CancelMidRequest(c, "/v1/token", ct => c.SignInWithTokenAsync(token, ct));
                    Assert.True(!c.Status.SignedIn, "a cancelled sign-in signs nobody in");
                    c.SignInWithToken(TokenApi.Mint(emu, user));
                    string profile = "/v2/user/" + user + "/profile";
                    CancelMidRequest(c, profile, ct => c.RequestAsync("GET", profile, cancellationToken: ct));
                }
                using (var c = NewSocialClient(thinRegistration: true))
                    CancelMidRequest(c, "/signin/oauth_token", ct => c.SocialSignInNativeAsync("facebook", ProviderToken(UniqueEmail()), cancellationToken: ct));
            }
        }
    }
}
