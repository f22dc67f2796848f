// Harness.cs - a tiny test runner (NUnit is not available offline). A test is a method: [JumpTest] on a
// public static void method without parameters, in a class marked [JumpTests]; its name is the method's name.
// Harness.Discover finds them by reflection, class by class in the order Program.TestClasses lists them, each
// class's in declaration order (MetadataToken). Run runs each under a time limit, prints "ok"/"FAIL" lines
// and ends with "N passed, N failed" (the line scripts/run-tests.sh counts). Exit status 1 when anything failed.
//
// The rule that keeps a test from being forgotten: in a [JumpTests] class, public means test. Every public
// method it declares must carry [JumpTest] (helpers are private), and every [JumpTest] must be public static
// void with no parameters, in a [JumpTests] class that Program.TestClasses lists. Anything else is a
// "FAIL [discovery]" line, counted as a failure, whatever the name filter.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
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

    /// <summary>A class of tests: each public method it declares is a [JumpTest]; its helpers are private.</summary>
    [AttributeUsage(AttributeTargets.Class, Inherited = false)]
    internal sealed class JumpTestsAttribute : Attribute
    {
    }

    /// <summary>A test: a public static void method without parameters, in a [JumpTests] class, named as the
    /// runner prints it (and as a name filter matches it).</summary>
    [AttributeUsage(AttributeTargets.Method, Inherited = false)]
    internal sealed class JumpTestAttribute : Attribute
    {
        /// <summary>A time limit of the test's own instead of the runner's, in seconds (for a test that waits
        /// on several things, each under a limit of its own); 0: the runner's.</summary>
        public double LimitSeconds { get; set; }

        /// <summary>Or the name of a static TimeSpan property of the test's class that gives the limit (one
        /// computed from something else); read once, at discovery.</summary>
        public string LimitFrom { get; set; }
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
        readonly List<string> _problems = new List<string>();

        /// <summary>The [JumpTest] methods of classes, in that order, each class's in declaration order. Whatever
        /// breaks the rule (above) in assembly is a problem that Run reports as a failure.</summary>
        public static Harness Discover(Assembly assembly, params Type[] classes)
        {
            var h = new Harness();
            var listed = new HashSet<Type>(classes);
            const BindingFlags declared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static
                | BindingFlags.Instance | BindingFlags.DeclaredOnly;
            foreach (var type in assembly.GetTypes().OrderBy(t => t.MetadataToken))
            {
                if (listed.Contains(type)) continue;
                if (type.IsDefined(typeof(JumpTestsAttribute), false))
                    h._problems.Add(type.Name + ": a [JumpTests] class that Program.TestClasses does not list (its tests would not run)");
                else
                    foreach (var m in type.GetMethods(declared).Where(m => m.IsDefined(typeof(JumpTestAttribute), false)))
                        h._problems.Add(type.Name + "." + m.Name + ": a [JumpTest] outside a [JumpTests] class (it would not run)");
            }
            var names = new HashSet<string>();
            foreach (var type in classes)
            {
                if (!type.IsDefined(typeof(JumpTestsAttribute), false))
                    h._problems.Add(type.Name + ": listed in Program.TestClasses but not marked [JumpTests]");
                foreach (var m in type.GetMethods(declared).OrderBy(m => m.MetadataToken))
                {
                    string where = type.Name + "." + m.Name;
                    var test = (JumpTestAttribute)Attribute.GetCustomAttribute(m, typeof(JumpTestAttribute), false);
                    if (test == null)
                    {
                        if (m.IsPublic && !m.IsSpecialName)
                            h._problems.Add(where + ": public in a [JumpTests] class but not a [JumpTest] (mark it, or make a helper private)");
                        continue;
                    }
                    if (!m.IsPublic || !m.IsStatic || m.ReturnType != typeof(void) || m.GetParameters().Length > 0 || m.IsGenericMethodDefinition)
                    {
                        h._problems.Add(where + ": a [JumpTest] must be public static void with no parameters");
                        continue;
                    }
                    if (!names.Add(m.Name))
                    {
                        h._problems.Add(where + ": a second test named " + m.Name);
                        continue;
                    }
                    TimeSpan? limit;
                    string problem = Limit(type, test, out limit);
                    if (problem != null)
                    {
                        h._problems.Add(where + ": " + problem);
                        continue;
                    }
                    h._tests.Add(new Entry { Name = m.Name, Test = (Action)Delegate.CreateDelegate(typeof(Action), m), Limit = limit });
                }
            }
            return h;
        }

        /// <summary>A test's own limit (null: the runner's); returns what is wrong with its attribute, or null.</summary>
        static string Limit(Type type, JumpTestAttribute test, out TimeSpan? limit)
        {
            limit = null;
            if (test.LimitSeconds < 0) return "LimitSeconds is negative";
            if (test.LimitFrom == null)
            {
                if (test.LimitSeconds > 0) limit = TimeSpan.FromSeconds(test.LimitSeconds);
                return null;
            }
            if (test.LimitSeconds > 0) return "both LimitSeconds and LimitFrom";
            var property = type.GetProperty(test.LimitFrom, BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static);
            if (property == null || property.PropertyType != typeof(TimeSpan))
                return "LimitFrom: " + type.Name + " has no static TimeSpan property " + test.LimitFrom;
            try { limit = (TimeSpan)property.GetValue(null); }
            catch (TargetInvocationException e) { return "LimitFrom: " + test.LimitFrom + " threw " + e.InnerException; }
            return null;
        }

        /// <summary>Runs the tests whose name contains filter (all when null); returns the failure count, the
        /// discovery problems included.</summary>
        public int Run(string filter, TimeSpan limit)
        {
            int passed = 0, failed = 0;
            var total = Stopwatch.StartNew();
            foreach (var problem in _problems)
            {
                failed++;
                Console.WriteLine("FAIL [discovery] {0}", problem);
            }
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
