// ResolverTests.cs - NativeLibraryResolver, which only .NET uses (it has NativeLibrary; Mono does not, and no
// dotnet is installed here): its order of candidate paths, and its Resolve run by hand with a fake loader, so
// what .NET would do is checked under Mono.
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;

namespace Jump.Tests
{
    internal static partial class Program
    {
        const BindingFlags Private = BindingFlags.Static | BindingFlags.NonPublic;
        static readonly Type Resolver = typeof(JumpClient).Assembly.GetType("Jump.NativeLibraryResolver", true);

        // The shape of .NET's System.Runtime.InteropServices.DllImportResolver (Mono lacks the type): Install()
        // binds Resolve to that delegate type, which fails at run time on .NET alone if the signatures differ.
        delegate IntPtr DllImportResolverShape(string libraryName, Assembly assembly, DllImportSearchPath? searchPath);

        static string[] Candidates(string assemblyDirectory, string libraryPathVariable, string rid)
        {
            return (string[])Resolver.GetMethod("CandidatePaths", Private)
                .Invoke(null, new object[] { assemblyDirectory, libraryPathVariable, rid });
        }

        static readonly List<string> s_tried = new List<string>();
        static string s_loadable;

        static bool FakeTryLoad(string path, out IntPtr handle)
        {
            s_tried.Add(path);
            handle = path == s_loadable ? new IntPtr(42) : IntPtr.Zero;
            return handle != IntPtr.Zero;
        }

        [JumpTests]
        static class ResolverTests
        {
            [JumpTest]
            public static void resolver_candidates_in_order()
            {
                const string dir = "/app/packages/Jump.1.2.3/lib/net472";
                Assert.Equal(string.Join("\n", new[] {
                    "/opt/jump/libjump.so",                                   // JUMP_LIBRARY_PATH
                    dir + "/runtimes/linux-arm64/native/libjump.so",          // an app's output with runtimes/
                    dir + "/../../runtimes/linux-arm64/native/libjump.so",    // the package itself
                    dir + "/libjump.so",                                      // a flattened publish
                    dir + "/libjump.so.1",                                    // Jump.targets' copy
                    "libjump.so.1",                                           // installed (the loader's path)
                }), string.Join("\n", Candidates(dir, "/opt/jump/libjump.so", "linux-arm64")), "candidates");
            }

            [JumpTest]
            public static void resolver_candidates_without_variable_or_directory()
            {
                Assert.Equal("/a/runtimes/linux-x64/native/libjump.so", Candidates("/a", null, "linux-x64")[0], "unset variable");
                Assert.Equal("/a/runtimes/linux-x64/native/libjump.so", Candidates("/a", "", "linux-x64")[0], "empty variable");
                Assert.Equal("/x/libjump.so|libjump.so.1", string.Join("|", Candidates(null, "/x/libjump.so", "linux-x64")), "no directory");
                Assert.Equal("libjump.so.1", string.Join("|", Candidates("", null, "linux-x64")), "neither");
            }

            [JumpTest]
            public static void resolver_resolves_jump_only_in_candidate_order()
            {
                var resolve = (DllImportResolverShape)Delegate.CreateDelegate(typeof(DllImportResolverShape),
                    Resolver.GetMethod("Resolve", Private));
                FieldInfo tryLoad = Resolver.GetField("s_tryLoad", Private);
                object saved = tryLoad.GetValue(null);
                tryLoad.SetValue(null, Delegate.CreateDelegate(tryLoad.FieldType, typeof(Program).GetMethod("FakeTryLoad", Private)));
                try
                {
                    Assembly jump = typeof(JumpClient).Assembly;
                    string rid = (string)Resolver.GetMethod("RuntimeIdentifier", Private).Invoke(null, null);
                    string[] expected = Candidates(Path.GetDirectoryName(jump.Location),
                        Environment.GetEnvironmentVariable("JUMP_LIBRARY_PATH"), rid);
                    int package = Array.FindIndex(expected, p => p.Contains("/../../runtimes/"));
                    Assert.True(package > 0, "a package-layout candidate in " + string.Join(", ", expected));

                    s_tried.Clear();
                    s_loadable = expected[package];
                    Assert.Equal(new IntPtr(42), resolve("jump", jump, null), "the handle of the loadable candidate");
                    Assert.Equal(string.Join("\n", expected, 0, package + 1), string.Join("\n", s_tried), "tried, in order, up to it");

                    s_tried.Clear();
                    s_loadable = null;
                    Assert.Equal(IntPtr.Zero, resolve("jump", jump, null), "nothing loadable: the runtime's default probing");
                    Assert.Equal(expected.Length, s_tried.Count, "every candidate tried");

                    s_tried.Clear();
                    Assert.Equal(IntPtr.Zero, resolve("libc", jump, DllImportSearchPath.SafeDirectories), "another library");
                    Assert.Equal(0, s_tried.Count, "nothing tried for another library");
                }
                finally { tryLoad.SetValue(null, saved); }
            }
        }
    }
}
