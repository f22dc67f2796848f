// DeliveryTests.cs - how completions and events reach the app: by default an await completes
// with nobody pumping, for every async method the client has; a client built for frame pumping delivers
// only on the thread that calls Pump(), and nothing before it does. The cases and probes: DeliveryFixtures.cs.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace Jump.Tests
{
    internal static partial class Program
    {
        [JumpTests]
        static class DeliveryTests
        {
            /// <summary>await_without_pump_completes_for_every_async_method's limit: AwaitLimit per case, and one more.</summary>
            static TimeSpan EveryAsyncMethodLimit
            {
                get { return TimeSpan.FromSeconds(AwaitLimit.TotalSeconds * (AwaitCases().Count + 1)); }
            }

            // Every async method, one after another, each under AwaitLimit; a hang fails that method and the
            // loop goes on (its client is disposed), so the test reports every method that hangs.
            [JumpTest(LimitFrom = nameof(EveryAsyncMethodLimit))]
            public static void await_without_pump_completes_for_every_async_method()
            {
                var cases = AwaitCases();
                var methods = AsyncMethodsOfJumpClient();
                var missing = methods.Where(m => !cases.ContainsKey(m)).ToList();
                Assert.True(missing.Count == 0, "async methods without a case here: " + string.Join(", ", missing));
                var failures = new List<string>();
                foreach (var name in methods)
                {
                    var owned = new List<IDisposable>();
                    var watch = System.Diagnostics.Stopwatch.StartNew();
                    // Run as a console program would: no SynchronizationContext, no Pump, no background pump.
                    var task = Task.Run(() => cases[name](owned));
                    bool finished;
                    try { finished = task.Wait(AwaitLimit); }
                    catch (AggregateException) { finished = true; }
                    if (!finished) failures.Add(name + ": still waiting after " + AwaitLimit.TotalSeconds + " s with no pump");
                    else if (task.IsFaulted) failures.Add(name + ": " + task.Exception.InnerException);
                    Console.WriteLine("  {0}: {1} ({2} ms)", name, !finished ? "HANG" : task.IsFaulted ? "failed" : "completed", watch.ElapsedMilliseconds);
                    lock (owned) foreach (var d in owned) d.Dispose();
                }
                Assert.True(failures.Count == 0, failures.Count + " of " + methods.Count + " awaits did not complete:\n    " + string.Join("\n    ", failures));
            }

            [JumpTest]
            public static void automatic_delivery_needs_no_pump()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    Assert.Equal(JumpDelivery.Automatic, c.Delivery, "the default delivery");
                    int testThread = Thread.CurrentThread.ManagedThreadId;
                    var seen = new List<string>();
                    int eventThread = -1;
                    bool eventOnPool = true;
                    string eventThreadName = null;
                    c.Event += (sender, e) =>
                    {
                        lock (seen) seen.Add(e.Name);
                        eventThread = Thread.CurrentThread.ManagedThreadId;
                        eventOnPool = Thread.CurrentThread.IsThreadPoolThread;
                        eventThreadName = Thread.CurrentThread.Name;
                    };
                    c.StartBackgroundPump(); // nothing to pump: does nothing
                    Assert.Equal(0, c.Pump(), "Pump in automatic mode");
                    int syncThread = -1;
                    bool eventBeforeResume = false;
                    var task = c.SignInAsync(account.Key, Password);
                    var inline = task.ContinueWith(t => { syncThread = Thread.CurrentThread.ManagedThreadId; },
                        TaskContinuationOptions.ExecuteSynchronously);
                    var awaited = Task.Run(async () =>
                    {
                        var r = await task;
                        lock (seen) eventBeforeResume = seen.Contains("signed_in");
                        return r;
                    });
                    Assert.True(awaited.Wait(AwaitLimit) && inline.Wait(AwaitLimit), "completed with no pump");
                    Assert.Equal(account.Value, awaited.Result.Uuid, "uuid");
                    Assert.True(eventBeforeResume, "the signed_in event was raised before the await resumed: " + string.Join(",", seen));
                    Assert.True(eventThread != testThread && !eventOnPool, "events run on the delivery thread, not a pool worker");
                    Assert.Equal("jump-csharp-events", eventThreadName, "the delivery thread");
                    Assert.True(syncThread != -1 && syncThread != eventThread,
                        "even an ExecuteSynchronously continuation does not run on the delivery thread");
                    Assert.Equal(0, c.PendingCount, "nothing pending");
                }
            }

            [JumpTest]
            public static void pumped_delivery_only_on_pumping_thread()
            {
                var account = NewAccount();
                using (var c = NewClient(delivery: JumpDelivery.Pumped))
                {
                    Assert.Equal(JumpDelivery.Pumped, c.Delivery, "Delivery");
                    int pumper = Thread.CurrentThread.ManagedThreadId;
                    var ran = new List<KeyValuePair<string, int>>(); // what was delivered, on which thread
                    Action<string> note = what => { lock (ran) ran.Add(new KeyValuePair<string, int>(what, Thread.CurrentThread.ManagedThreadId)); };
                    Func<string> show = () => { lock (ran) return string.Join(", ", ran.Select(r => r.Key + "@" + r.Value)); };
                    c.Event += (sender, e) => note("event " + e.Name);
                    var task = c.SignInAsync(account.Key, Password);
                    task.ContinueWith(t => note("ContinueWith"), TaskContinuationOptions.ExecuteSynchronously);
                    // An await with no SynchronizationContext (this thread has none), as a plain game loop has.
                    Func<Task> awaiting = async () => { await task; note("await"); };
                    var resumed = awaiting();

                    // The sign-in finishes (the client is signed in) but nothing is delivered before Pump().
                    var watch = System.Diagnostics.Stopwatch.StartNew();
                    while (!c.IsSignedIn && watch.Elapsed < AwaitLimit) Thread.Sleep(10);
                    Assert.True(c.IsSignedIn, "the sign-in finished in libjump");
                    Thread.Sleep(500); // time for a wrongly automatic delivery to show
                    Assert.True(!task.IsCompleted && !resumed.IsCompleted, "no Task completes before Pump(): " + task.Status);
                    Assert.Equal("", show(), "nothing delivered before Pump()");
                    Assert.Equal(1, c.PendingCount, "one pending request");

                    int taken = c.Pump(); // everything is queued by now
                    Assert.True(taken >= 2, "Pump took the event and the completion: " + taken);
                    Assert.True(task.IsCompleted && resumed.IsCompleted, "completed inside Pump(): " + task.Status);
                    Assert.Equal(account.Value, task.Result.Uuid, "uuid");
                    var names = ran.Select(r => r.Key).ToList();
                    Assert.True(names.Contains("event signed_in") && names.Contains("ContinueWith") && names.Contains("await"),
                        "delivered: " + show());
                    Assert.True(names.IndexOf("event signed_in") < names.IndexOf("ContinueWith"), "the event before the completion: " + show());
                    Assert.True(ran.All(r => r.Value == pumper), "everything on the pumping thread " + pumper + ": " + show());

                    // The background pump: everything on its one thread.
                    lock (ran) ran.Clear();
                    c.StartBackgroundPump();
                    using (var record = c.Record()) record.SetString("/aboutMe", "pumped in the background");
                    var sync = c.SyncAsync();
                    int syncThread = -1;
                    var after = sync.ContinueWith(t => { syncThread = Thread.CurrentThread.ManagedThreadId; note("ContinueWith"); },
                        TaskContinuationOptions.ExecuteSynchronously);
                    Assert.True(after.Wait(AwaitLimit), "completed by the background pump");
                    Thread.Sleep(100); // a late event
                    Assert.True(syncThread != pumper && ran.All(r => r.Value == syncThread) && ran.Any(r => r.Key == "event record_synced"),
                        "everything on the background pump's thread: " + show());
                }
            }

            [JumpTest]
            public static void automatic_delivery_does_not_delay_exit()
            {
                // Delivery on libjump's own callback thread made Mono wait ~3 s at exit (it waits for a foreign
                // thread it attached, and libjump's ends after 3 idle seconds); the binding's thread must not.
                var info = new ProcessStartInfo("mono", "--debug \"" + typeof(Program).Assembly.Location + "\" --exit-probe " + emu.Url)
                {
                    UseShellExecute = false,
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                };
                using (var p = Process.Start(info))
                {
                    var stderr = p.StandardError.ReadToEndAsync();
                    long returned = 0;
                    string line, output = "";
                    while ((line = p.StandardOutput.ReadLine()) != null)
                    {
                        output += line + "\n";
                        if (line.StartsWith("main returns at ", StringComparison.Ordinal)) returned = long.Parse(line.Substring(16));
                    }
                    Assert.True(p.WaitForExit(20000), "the probe exited");
                    var exitDelay = DateTime.UtcNow - new DateTime(returned, DateTimeKind.Utc);
                    Assert.True(returned != 0 && p.ExitCode == 0, "the probe ran: " + output + stderr.Result);
                    Console.WriteLine("  (exit " + (int)exitDelay.TotalMilliseconds + " ms after Main returned)");
                    Assert.True(exitDelay < TimeSpan.FromSeconds(2), "the process exited " + exitDelay.TotalMilliseconds + " ms after Main returned");
                }
            }

            [JumpTest]
            public static void forgotten_automatic_clients_are_freed_and_the_delivery_thread_ends()
            {
                var account = NewAccount();
                Func<bool> collect = () => { GC.Collect(); GC.WaitForPendingFinalizers(); Thread.Sleep(50); return true; };
                // Clients earlier tests forgot are finalized first, so that none is left but this test's.
                var watch = Stopwatch.StartNew();
                while (PumpThreads() > 0 && watch.Elapsed < AwaitLimit) collect();
                Assert.Equal(0, PumpThreads(), "no delivery thread with no Automatic client");
                int fdsBefore = OpenFds();
                MakeAndForgetClients(6, account.Key);
                Assert.Equal(1, PumpThreads(), "6 Automatic clients, one delivery thread");
                int fdsWith = OpenFds();
                Assert.True(fdsWith >= fdsBefore + 6, "each client has its queue fd open: " + fdsBefore + " -> " + fdsWith);
                watch.Restart();
                while ((OpenFds() > fdsBefore || PumpThreads() > 0) && watch.Elapsed < AwaitLimit) collect();
                Assert.True(OpenFds() <= fdsBefore, "the forgotten clients were freed: " + (OpenFds() - fdsBefore) + " fds still open");
                Assert.Equal(0, PumpThreads(), "the delivery thread ended with the last Automatic client");
                // And starts again with the next one.
                using (var c = NewClient())
                {
                    Assert.Equal(account.Value, Await(c.SignInAsync(account.Key, Password)).Uuid, "a new client after the thread ended");
                    Assert.Equal(1, PumpThreads(), "the delivery thread started again");
                }
            }

            [JumpTest]
            public static void shared_delivery_thread_keeps_each_clients_order_and_dispose_between_clients()
            {
                // One thread serves every Automatic client: each client's event still comes before the
                // completion of the call that caused it, one client's handler may dispose another client (whose
                // fd may be ready in the same round), and Dispose on another thread waits for no deadlock.
                var account = NewAccount();
                const int count = 8;
                var clients = new List<JumpClient>();
                var seen = new Dictionary<JumpClient, List<string>>();
                JumpClient victim = null, bystander = null;
                // The victim's and the bystander's fetches stay pending meanwhile.
                emu.Admin("POST", "/emulator/faults", "{\"kind\":\"delay\",\"count\":2,\"path\":\"/entity\",\"delay_ms\":3000}");
                try
                {
                    victim = NewClient();
                    bystander = NewClient();
                    victim.SignIn(account.Key, Password);
                    bystander.SignIn(account.Key, Password);
                    var victimFetch = victim.FetchRecordAsync();
                    var bystanderFetch = bystander.FetchRecordAsync();
                    var disposedInHandler = new ManualResetEventSlim();
                    long disposeMs = -1;
                    for (int i = 0; i < count; i++)
                    {
                        var c = NewClient();
                        clients.Add(c);
                        seen[c] = new List<string>();
                        int index = i;
                        c.Event += (sender, e) =>
                        {
                            lock (seen) seen[(JumpClient)sender].Add(e.Name + "@" + Thread.CurrentThread.Name);
                            if (index == 0 && e.Name == "signed_in")
                            {
                                var watch = Stopwatch.StartNew();
                                victim.Dispose(); // another client, from the delivery thread: must not wait for itself
                                disposeMs = watch.ElapsedMilliseconds;
                                disposedInHandler.Set();
                            }
                        };
                    }
                    var orderOk = new bool[count];
                    var tasks = clients.Select((c, i) => c.SignInAsync(account.Key, Password).ContinueWith(t =>
                    {
                        lock (seen) orderOk[i] = seen[c].Contains("signed_in@jump-csharp-events");
                        return t.Result;
                    })).ToList();
                    foreach (var task in tasks) Assert.True(task.Wait(AwaitLimit), "a sign-in completed");
                    Assert.True(disposedInHandler.Wait(AwaitLimit), "client 0's handler disposed the victim");
                    Assert.True(disposeMs >= 0 && disposeMs < 1000, "Dispose of another client inside a handler took " + disposeMs + " ms");
                    lock (seen)
                        for (int i = 0; i < count; i++)
                            Assert.True(orderOk[i], "client " + i + ": signed_in on the delivery thread before its completion: "
                                + string.Join(",", seen[clients[i]]));
                    Assert.Throws<JumpCancelledException>(() => victimFetch.Wait(AwaitLimit), "the victim's pending fetch");
                    Assert.True(victim.PendingCount == 0 && !bystanderFetch.IsCompleted, "the bystander's fetch still waits");
                    // Dispose on this thread while the delivery thread may be delivering: returns, and the Task ends.
                    bystander.Dispose();
                    Assert.Throws<JumpCancelledException>(() => bystanderFetch.Wait(AwaitLimit), "the bystander's pending fetch");
                }
                finally
                {
                    emu.ClearFaults();
                    foreach (var c in clients) c.Dispose();
                    if (victim != null) victim.Dispose();
                    if (bystander != null) bystander.Dispose();
                }
            }

            [JumpTest(LimitSeconds = 120)]
            public static void automatic_clients_share_one_delivery_thread()
            {
                // Threads are a budget per process, not per client (libjump runs one callback thread for all
                // of a process's clients): 200 Automatic clients, each with a Task delivered, cost at most 4
                // threads more than none, like libjump's own 1000-idle-clients check.
                const int count = 200;
                string namesBefore, namesAfter;
                int before = ProcessThreads(out namesBefore);
                var clients = new List<JumpClient>();
                try
                {
                    for (int i = 0; i < count; i++) clients.Add(NewClient());
                    // Signed out, SyncAsync fails with no network, through the queue and the delivery thread.
                    var tasks = clients.Select(c => c.SyncAsync()).ToList();
                    for (int i = 0; i < count; i++)
                    {
                        var task = tasks[i];
                        Assert.Throws<JumpNotSignedInException>(() =>
                        {
                            if (!task.Wait(AwaitLimit)) throw new TimeoutException("client " + i + ": still waiting with no pump");
                        }, "client " + i + "'s SyncAsync");
                    }
                    int after = ProcessThreads(out namesAfter);
                    Console.WriteLine("  ({0} threads before, {1} with {2} clients, {3} named jump-csharp-events)",
                        before, after, count, PumpThreads());
                    Assert.True(after - before <= 4, count + " Automatic clients added " + (after - before) + " threads (at most 4)"
                        + "\n    before: " + namesBefore + "\n    after:  " + namesAfter);
                }
                finally
                {
                    foreach (var c in clients) c.Dispose();
                }
            }

            [JumpTest]
            public static void dropped_client_still_completes_its_task()
            {
                var account = NewAccount();
                emu.Delay(SignInPath, 1000);
                try
                {
                    var task = SignInWithAClientNobodyKeeps(account.Key);
                    for (int i = 0; i < 10 && !task.IsCompleted; i++)
                    {
                        GC.Collect();
                        GC.WaitForPendingFinalizers();
                        Thread.Sleep(100);
                    }
                    Assert.True(task.Wait(AwaitLimit), "completed");
                    Assert.Equal(account.Value, task.Result.Uuid, "uuid");
                }
                finally { emu.ClearFaults(); }
            }
        }
    }
}
