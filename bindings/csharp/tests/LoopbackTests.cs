// LoopbackTests.cs - the loopback receiver (as bindings/python/tests/test_social_loopback.py): libjump listens
// on 127.0.0.1 and calls openUrl; here openUrl hands the URL to a thread that plays the browser over HTTP (the
// provider's page, its form, the redirect to the listener).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Net;
using System.Threading;
using System.Threading.Tasks;

namespace Jump.Tests
{
    internal static partial class Program
    {
        /// <summary>openUrl for libjump: records the URL and the thread it was called on, and drives the fake
        /// provider on a thread of its own (a browser returns at once).</summary>
        sealed class LoopbackBrowser
        {
            readonly string _name, _email, _identity;
            readonly bool _cancel;
            public readonly List<string> Urls = new List<string>();
            public int CalledOnThread = -1;
            public string CalledOnThreadName;
            public string LandedUrl, LandedText;
            public int LandedStatus;
            public Exception Error;
            Thread _thread;

            public LoopbackBrowser(string name = null, string email = null, string identity = null, bool cancel = false)
            {
                _name = name; _email = email; _identity = identity; _cancel = cancel;
            }

            public void Open(string url)
            {
                lock (Urls) Urls.Add(url);
                CalledOnThread = Thread.CurrentThread.ManagedThreadId;
                CalledOnThreadName = ThreadName();
                _thread = new Thread(() =>
                {
                    try
                    {
                        LandedUrl = FakeIdP.Finish(url, _name, _email, _identity, _cancel);
                        var answer = Web.Call(LandedUrl); // the browser lands on the loopback listener
                        LandedStatus = answer.Status;
                        LandedText = answer.Text;
                    }
                    catch (Exception e) { Error = e; }
                }) { IsBackground = true };
                _thread.Start();
            }

            public void Join()
            {
                Assert.True(_thread != null && _thread.Join(30000), "the browser finished");
                Assert.True(Error == null, "the browser: " + Error);
            }
        }

        static bool Listening(string url)
        {
            try { Web.Call(url); return true; }
            catch (WebException) { return false; }
        }

        [JumpTests]
        static class LoopbackTests
        {
            [JumpTest]
            public static void loopback_sign_in_opens_once_on_this_thread()
            {
                string email = UniqueEmail();
                var browser = new LoopbackBrowser("Lou Pback", email);
                int registered = HostRegistryCount();
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    var r = c.SocialSignInLoopback("facebook", browser.Open, TimeSpan.FromSeconds(30));
                    browser.Join();
                    Assert.Equal(1, browser.Urls.Count, "openUrl called once");
                    Assert.Equal(Thread.CurrentThread.ManagedThreadId, browser.CalledOnThread, "on the calling thread");
                    var back = new Uri(browser.LandedUrl);
                    Assert.True(back.Scheme == "http" && back.Host == "127.0.0.1", "the browser came back to the listener: " + back);
                    Assert.True(browser.LandedStatus == 200 && browser.LandedText.ToLowerInvariant().Contains("close"), "the closing page");
                    var identity = FakeIdP.IdentityByEmail(emu, "facebook", email);
                    Assert.True(r.Outcome == "registered" && r.Provider == "facebook" && r.Identifier == identity["identifier"] as string, "outcome: " + r.Json);
                    Assert.True(c.IsSignedIn && c.State.Uuid == r.Uuid, "signed in");
                    Assert.True(!Listening("http://127.0.0.1:" + back.Port + "/"), "the listener is closed");
                }
                Assert.Equal(registered, HostRegistryCount(), "no host callback left registered");
            }

            [JumpTest]
            public static void loopback_options_and_cancel_on_the_page()
            {
                string email = UniqueEmail();
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    var first = c.SocialSignInLoopback("google", new LoopbackBrowser("Goo Gle", email).Open, TimeSpan.FromSeconds(30));
                    c.SignOut();
                    var browser = new LoopbackBrowser(identity: email);
                    var again = c.SocialSignInLoopback("google", browser.Open, TimeSpan.FromSeconds(30), forceReauth: true);
                    browser.Join();
                    Assert.True(Web.Query(browser.Urls[0]).ContainsKey("force_reauth"), "force_reauth reached the URL: " + browser.Urls[0]);
                    Assert.True(again.Outcome == "signed_in" && again.Uuid == first.Uuid, "the same user: " + again.Json);
                    c.SignOut();
                    var cancel = new LoopbackBrowser(cancel: true);
                    var e = Assert.Throws<JumpCancelledException>(() => c.SocialSignInLoopback("twitter", cancel.Open, TimeSpan.FromSeconds(30)), "cancelled");
                    cancel.Join();
                    Assert.True(e.Reason == "user_canceled" && !c.IsSignedIn, "reason " + e.Reason);
                }
            }

            [JumpTest]
            public static void loopback_timeout()
            {
                var urls = new List<string>();
                using (var c = NewSocialClient())
                {
                    var watch = Stopwatch.StartNew();
                    Assert.Throws<JumpTimeoutException>(() => c.SocialSignInLoopback("facebook", urls.Add, TimeSpan.FromSeconds(1.5)), "no browser came");
                    Assert.True(watch.Elapsed >= TimeSpan.FromSeconds(1) && watch.Elapsed < TimeSpan.FromSeconds(15), "waited " + watch.Elapsed);
                    Assert.True(urls.Count == 1 && !c.IsSignedIn, "opened once, not signed in");
                    Assert.True(!Listening(Web.Query(urls[0])["token_url"]), "the listener is closed");
                }
            }

            [JumpTest]
            public static void loopback_open_url_exception_is_rethrown()
            {
                int registered = HostRegistryCount();
                using (var c = NewSocialClient())
                {
                    var thrown = new InvalidOperationException("no browser");
                    var watch = Stopwatch.StartNew();
                    var e = Assert.Throws<InvalidOperationException>(() => c.SocialSignInLoopback("facebook", url => { throw thrown; }, TimeSpan.FromSeconds(30)), "sync");
                    Assert.True(ReferenceEquals(thrown, e) && watch.Elapsed < TimeSpan.FromSeconds(10), "at once, the app's own exception");
                    var async = c.SocialSignInLoopbackAsync("facebook", url => { throw thrown; }, TimeSpan.FromSeconds(30));
                    var ea = Assert.Throws<InvalidOperationException>(() => async.Wait(10000), "async");
                    Assert.True(ReferenceEquals(thrown, ea), "the Task fails with the app's own exception");
                    Assert.True(!c.IsSignedIn, "not signed in");
                }
                Assert.Equal(registered, HostRegistryCount(), "no host callback left registered");
            }

            [JumpTest]
            public static void loopback_async_open_url_runs_on_a_jump_work_thread()
            {
                foreach (var delivery in BothDeliveries)
                {
                    var browser = new LoopbackBrowser("As Ync", UniqueEmail());
                    using (var config = SocialConfig(thinRegistration: true))
                    using (var c = new JumpClient(config, delivery))
                    {
                        c.StartBackgroundPump();
                        var r = Await(c.SocialSignInLoopbackAsync("linkedin", browser.Open, TimeSpan.FromSeconds(30)), 30000);
                        browser.Join();
                        Assert.True(browser.CalledOnThread != Thread.CurrentThread.ManagedThreadId && browser.CalledOnThreadName == "jump-work",
                            delivery + ": openUrl ran on libjump's thread, not " + browser.CalledOnThreadName);
                        Assert.True(r.Outcome == "registered" && c.IsSignedIn, delivery + ": " + r.Json);
                    }
                }
            }

            [JumpTest]
            public static void loopback_async_cancellation_closes_the_listener()
            {
                var opened = new ManualResetEventSlim();
                string url = null;
                using (var c = NewSocialClient())
                using (var cts = new CancellationTokenSource())
                {
                    var task = c.SocialSignInLoopbackAsync("facebook", u => { url = u; opened.Set(); }, TimeSpan.FromSeconds(60), cancellationToken: cts.Token);
                    Assert.True(opened.Wait(30000), "openUrl was called");
                    var watch = Stopwatch.StartNew();
                    cts.Cancel();
                    Assert.Throws<TaskCanceledException>(() => task.Wait(10000), "await");
                    Assert.True(task.IsCanceled && watch.Elapsed < TimeSpan.FromSeconds(5), "Canceled at once: " + task.Status + " " + watch.Elapsed);
                    Assert.True(!c.IsSignedIn && c.PendingCount == 0, "nothing pending, not signed in");
                    Assert.True(!Listening(Web.Query(url)["token_url"]), "the listener is closed");
                }
            }
        }
    }
}
