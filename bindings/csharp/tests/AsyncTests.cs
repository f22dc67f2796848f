// AsyncTests.cs - the C# binding's async calls: their delivery (pumped or not), cancellation, Dispose while
// calls are pending or racing, event handlers that throw or dispose, and the finalizer. Run by run-tests.sh.
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
        /// <summary>Async delivery, cancellation and Dispose: Tasks settle once, typed, and never crash.</summary>
        [JumpTests]
        static class AsyncTests
        {
            [JumpTest]
            public static void sign_in_async_pumped_by_frame_loop()
            {
                var account = NewAccount();
                using (var c = NewClient(delivery: JumpDelivery.Pumped))
                {
                    var events = new List<string>();
                    int threadId = Thread.CurrentThread.ManagedThreadId, eventThread = -1;
                    c.Event += (sender, e) => { events.Add(e.Name); eventThread = Thread.CurrentThread.ManagedThreadId; };
                    var task = c.SignInAsync(account.Key, Password);
                    Assert.True(c.PendingCount == 1, "one pending request");
                    Harness.PumpUntil(c, task);
                    Assert.Equal(account.Value, task.Result.Uuid, "uuid");
                    Assert.True(c.IsSignedIn, "signed in");
                    c.Pump();
                    Assert.True(events.Contains("signed_in"), "signed_in event: " + string.Join(",", events));
                    Assert.Equal(threadId, eventThread, "events are raised on the pumping thread");
                    Assert.Equal(0, c.PendingCount, "nothing pending");
                }
            }

            [JumpTest]
            public static void sync_async_background_pump()
            {
                var account = NewAccount();
                using (var c = NewClient(delivery: JumpDelivery.Pumped))
                {
                    var synced = new ManualResetEventSlim();
                    c.Event += (sender, e) => { if (e.Name == "record_synced") synced.Set(); };
                    c.StartBackgroundPump();
                    c.StartBackgroundPump(); // idempotent
                    Await(c.SignInAsync(account.Key, Password));
                    using (var record = c.Record()) record.SetString("/aboutMe", "async edit");
                    var result = Await(c.SyncAsync());
                    Assert.True(result.Changed.Contains("/aboutMe"), "synced paths: " + result.Json);
                    Assert.True(synced.Wait(5000), "record_synced event");
                    Assert.True(emu.Admin("GET", "/emulator/users/" + account.Value).Contains("async edit"), "the server has the edit");
                }
            }

            [JumpTest]
            public static void async_errors_are_typed()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    c.StartBackgroundPump();
                    var e = Assert.Throws<JumpBadCredentialsException>(() => Await(c.SignInAsync(account.Key, "nope")), "async sign-in");
                    Assert.Equal(JumpStatus.BadCredentials, e.Status, "Status");
                    var v = Assert.Throws<JumpValidationException>(() => Await(c.RegisterTraditionalAsync(
                        new Dictionary<string, object> { { "email", "bad" } }, "x")), "async register");
                    Assert.True(v.InvalidFields.ContainsKey("emailAddress"), "invalid_fields in a queued completion");
                    Assert.Throws<JumpNotSignedInException>(() => Await(c.SyncAsync()), "sync signed out");
                }
            }

            [JumpTest]
            public static void cancellation_token_cancels_request()
            {
                var account = NewAccount();
                emu.Delay(SignInPath, 1500);
                try
                {
                    using (var c = NewClient())
                    using (var cts = new CancellationTokenSource())
                    {
                        c.StartBackgroundPump();
                        var watch = Stopwatch.StartNew();
                        var task = c.SignInAsync(account.Key, Password, cts.Token);
                        Thread.Sleep(200);
                        Assert.True(!task.IsCompleted, "still running");
                        cts.Cancel();
                        Assert.Throws<TaskCanceledException>(() => task.Wait(10000), "await");
                        Assert.True(task.IsCanceled, "Task.IsCanceled");
                        Assert.True(watch.ElapsedMilliseconds < 1400, "did not wait for the server: " + watch.ElapsedMilliseconds + " ms");
                        Assert.True(!c.IsSignedIn, "not signed in");
                        Assert.Equal(0, c.PendingCount, "nothing pending");
                    }
                }
                finally { emu.ClearFaults(); }
            }

            [JumpTest]
            public static void cancelled_token_before_start()
            {
                using (var c = NewClient())
                {
                    var task = c.SignInAsync("a@example.com", Password, new CancellationToken(true));
                    Assert.True(task.IsCanceled, "cancelled at once");
                    Assert.Equal(0, c.PendingCount, "nothing started");
                }
            }

            [JumpTest]
            public static void dispose_fails_pending_tasks()
            {
                var account = NewAccount();
                emu.Delay(SignInPath, 1500);
                try
                {
                    Task<SignInResult> task;
                    using (var c = NewClient()) task = c.SignInAsync(account.Key, Password);
                    var e = Assert.Throws<JumpCancelledException>(() => task.Wait(5000), "pending after Dispose");
                    Assert.Equal(JumpStatus.Cancelled, e.Status, "Status");
                }
                finally { emu.ClearFaults(); }
            }

            [JumpTest]
            public static void use_after_dispose_never_crashes()
            {
                var account = NewAccount();
                var c = NewClient();
                c.SignIn(account.Key, Password);
                var record = c.Record();
                c.StartBackgroundPump();
                c.Dispose();
                c.Dispose(); // idempotent
                Assert.Throws<ObjectDisposedException>(() => c.SignIn(account.Key, Password), "SignIn");
                Assert.Throws<ObjectDisposedException>(() => { var s = c.State; }, "State");
                Assert.Throws<ObjectDisposedException>(() => c.Sync(), "Sync");
                Assert.Throws<ObjectDisposedException>(() => c.Record(), "Record");
                Assert.Throws<ObjectDisposedException>(() => Await(c.SyncAsync()), "SyncAsync");
                Assert.Equal(0, c.Pump(), "Pump after Dispose");
                // A record view outlives its client (libjump keeps what the view needs): it reads, or answers
                // with a status; it never crashes.
                try { Assert.Equal("Ada", record.GetString("/givenName"), "record of a freed client"); }
                catch (JumpException e)
                {
                    Assert.True(e.Status == JumpStatus.InvalidHandle || e.Status == JumpStatus.NotSignedIn, "status " + e.StatusName);
                }
                record.Dispose();
                Assert.Throws<ObjectDisposedException>(() => record.GetString("/givenName"), "disposed record");
                var config = Config();
                config.Dispose();
                Assert.Throws<ObjectDisposedException>(() => new JumpClient(config), "disposed config");
            }

            [JumpTest]
            public static void fetch_record_async()
            {
                var account = NewAccount();
                using (var c = NewClient())
                using (var other = NewClient())
                {
                    c.SignIn(account.Key, Password);
                    // Another installation changes the record on the server.
                    other.SignIn(account.Key, Password);
                    using (var record = other.Record()) record.SetString("/aboutMe", "changed elsewhere");
                    other.Sync();
                    var task = c.FetchRecordAsync();
                    Harness.PumpUntil(c, task);
                    Assert.True(task.Status == TaskStatus.RanToCompletion, "fetched: " + task.Status);
                    using (var record = c.Record()) Assert.Equal("changed elsewhere", record.GetString("/aboutMe"), "fetched value");
                }
            }

            [JumpTest]
            public static void event_handler_exception_does_not_stop_pump()
            {
                var account = NewAccount();
                using (var c = NewClient())
                {
                    c.Event += (sender, e) => { throw new InvalidOperationException("handler bug " + e.Name); };
                    var task = c.SignInAsync(account.Key, Password);
                    Harness.PumpUntil(c, task);
                    c.Pump();
                    Assert.True(c.LastEventError is InvalidOperationException, "LastEventError: " + c.LastEventError);
                    using (var record = c.Record()) record.SetString("/aboutMe", "after a handler bug");
                    var sync = c.SyncAsync();
                    Harness.PumpUntil(c, sync);
                    Assert.True(sync.Result.Changed.Count > 0, "the pump went on");
                }
            }

            [JumpTest]
            public static void dispose_inside_event_handler()
            {
                var account = NewAccount();
                foreach (var delivery in BothDeliveries)
                {
                    var c = NewClient(delivery: delivery);
                    var disposed = new ManualResetEventSlim();
                    c.Event += (sender, e) => { c.Dispose(); disposed.Set(); };
                    c.StartBackgroundPump(); // Pumped: the pump's thread; Automatic: does nothing (the delivery thread runs)
                    var task = c.SignInAsync(account.Key, Password);
                    Assert.True(disposed.Wait(10000), delivery + ": the handler ran and disposed the client without a deadlock");
                    // The signed_in event is delivered before the sign-in's completion, so Dispose in its handler
                    // fails the still-pending Task with JumpCancelledException: finished, not left hanging.
                    try { task.Wait(5000); } catch (AggregateException) { }
                    Assert.True(task.IsCompleted, delivery + ": the sign-in task finished");
                    Assert.Throws<ObjectDisposedException>(() => c.SignIn(account.Key, Password), delivery + ": disposed");
                }
            }

            [JumpTest]
            public static void concurrent_calls_racing_dispose()
            {
                var account = NewAccount();
                for (int round = 0; round < 10; round++)
                {
                    var c = NewClient(delivery: BothDeliveries[round % 2]);
                    c.SignIn(account.Key, Password);
                    c.StartBackgroundPump();
                    var tasks = new List<Task>();
                    var threads = new List<Thread>();
                    for (int t = 0; t < 4; t++)
                    {
                        var thread = new Thread(() =>
                        {
                            for (int i = 0; i < 10; i++)
                            {
                                Task task;
                                try { task = i % 2 == 0 ? (Task)c.SyncAsync() : c.FetchRecordAsync(); }
                                catch (ObjectDisposedException) { return; }
                                lock (tasks) tasks.Add(task);
                                try { var s = c.State; } catch (ObjectDisposedException) { }
                                c.Pump();
                            }
                        });
                        threads.Add(thread);
                        thread.Start();
                    }
                    Thread.Sleep(round / 2 * 10);
                    c.Dispose();
                    foreach (var thread in threads) Assert.True(thread.Join(10000), "a caller thread finished");
                    lock (tasks)
                        foreach (var task in tasks)
                        {
                            try { task.Wait(TimeSpan.FromSeconds(10)); } catch (AggregateException) { }
                            Assert.True(task.IsCompleted, "every task completes (result, failure or cancellation)");
                            if (task.IsFaulted)
                            {
                                var e = task.Exception.InnerException;
                                Assert.True(e is JumpException || e is ObjectDisposedException, "unexpected " + e);
                            }
                        }
                }
            }

            [JumpTest]
            public static void finalizer_frees_a_forgotten_client()
            {
                for (int i = 0; i < 20; i++)
                {
                    var c = NewClient(delivery: BothDeliveries[i % 2]);
                    c.State.ToString();
                    c.SyncAsync(); // pending (Pumped: never pumped): the finalizer must still free the handle safely
                }
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
            }
        }
    }
}
