// Harness.cs - a tiny test runner (NUnit is not available offline): runs each [Test]-like entry in order,
// each under a time limit, prints "ok"/"FAIL" lines and ends with "N passed, N failed" (the line
// scripts/run-tests.sh counts). Exit status 1 when anything failed.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;

namespace Jump.Tests
{
    internal sealed class AssertionException : Exception
    {
        public AssertionException(string message) : base(message) { }
    }

    internal static class Assert
    {
        public static void True(bool condition, string what)
        {
            if (!condition) throw new AssertionException(what);
        }

        public static void Equal<T>(T expected, T actual, string what)
        {
            if (!EqualityComparer<T>.Default.Equals(expected, actual))
                throw new AssertionException(what + ": expected <" + expected + ">, got <" + actual + ">");
        }

        /// <summary>Runs action and returns the exception of type T it throws (also from a faulted Task it
        /// waits on); fails when it throws nothing or something else.</summary>
        public static T Throws<T>(Action action, string what) where T : Exception
        {
            try { action(); }
            catch (AggregateException agg) when (agg.InnerExceptions.Count == 1 && agg.InnerException is T)
            {
                return (T)agg.InnerException;
            }
            catch (T e) { return e; }
            catch (Exception e)
            {
                throw new AssertionException(what + ": expected " + typeof(T).Name + ", got " + e.GetType().Name + ": " + e.Message);
            }
            throw new AssertionException(what + ": expected " + typeof(T).Name + ", nothing was thrown");
        }
    }

    internal sealed class Harness
    {
        sealed class Entry
        {
            public string Name;
            public Action Test;
            public TimeSpan? Limit;
        }

        readonly List<Entry> _tests = new List<Entry>();

        public void Add(string name, Action test) { _tests.Add(new Entry { Name = name, Test = test }); }

        /// <summary>A test with its own time limit instead of Run's (for a test that waits on several things,
        /// each under a limit of its own).</summary>
        public void Add(string name, TimeSpan limit, Action test) { _tests.Add(new Entry { Name = name, Test = test, Limit = limit }); }

        /// <summary>Runs the tests whose name contains filter (all when null); returns the failure count.</summary>
        public int Run(string filter, TimeSpan limit)
        {
            int passed = 0, failed = 0;
            var total = Stopwatch.StartNew();
            foreach (var test in _tests)
            {
                if (filter != null && test.Name.IndexOf(filter, StringComparison.Ordinal) < 0) continue;
                var testLimit = test.Limit ?? limit;
                var watch = Stopwatch.StartNew();
                Exception error = null;
                // Each test runs on its own thread so a hang fails that test instead of the whole suite.
                var thread = new Thread(() =>
                {
                    try { test.Test(); }
                    catch (Exception e) { error = e; }
                }) { IsBackground = true, Name = "test " + test.Name };
                thread.Start();
                if (!thread.Join(testLimit)) error = new TimeoutException("did not finish within " + testLimit.TotalSeconds + " s");
                if (error == null)
                {
                    passed++;
                    Console.WriteLine("ok   {0} ({1} ms)", test.Name, watch.ElapsedMilliseconds);
                }
                else
                {
                    failed++;
                    Console.WriteLine("FAIL {0} ({1} ms): {2}", test.Name, watch.ElapsedMilliseconds, error);
                }
            }
            Console.WriteLine("C# binding tests took {0:F1} s", total.Elapsed.TotalSeconds);
            Console.WriteLine("{0} passed, {1} failed", passed, failed);
            return failed;
        }

        /// <summary>Waits for task while pumping client on this thread, as a game loop would each frame.</summary>
        public static void PumpUntil(JumpClient client, Task task, int timeoutMs = 15000)
        {
            var watch = Stopwatch.StartNew();
            while (!task.IsCompleted)
            {
                client.Pump();
                if (watch.ElapsedMilliseconds > timeoutMs) throw new TimeoutException("the task did not complete while pumping");
                Thread.Sleep(5); // one "frame"
            }
        }
    }
}
