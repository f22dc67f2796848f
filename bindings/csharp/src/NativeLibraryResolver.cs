// NativeLibraryResolver.cs - where [DllImport("jump")] finds libjump on .NET (Core, 5+), which ignores
// Jump.dll.config's dllmap.
//
// Registered by reflection because Jump.dll is built against .NET Framework 4.7.2 (mcs), whose mscorlib has no
// System.Runtime.InteropServices.NativeLibrary; where that type exists at run time, this registers a
// DllImportResolver for this assembly. Native's static constructor calls Install(): .NET runs a class's static
// constructor before it binds that class's first P/Invoke, so the resolver is in place in time.
//
// Mono (6.8, and Unity's) has no NativeLibrary, so Install() does nothing there, and nothing managed could help:
// Mono binds a P/Invoke while it JIT-compiles the method that calls it, before any static constructor (even a
// module initializer) of Jump.dll has run, and a failed binding is kept for good. So on Mono the library must be
// where Mono looks for the dllmap's target, libjump.so.1: Jump.dll's own directory first (the NuGet package's
// build/net472/Jump.targets copies it there), then LD_LIBRARY_PATH and the system's library paths.
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Threading;

namespace Jump
{
    internal static class NativeLibraryResolver
    {
        const string LibraryName = "jump";
        const string Soname = "libjump.so.1";

        delegate bool TryLoadFn(string path, out IntPtr handle);

        static int s_installed;
        static TryLoadFn s_tryLoad;

        /// <summary>Registers the resolver where the runtime has NativeLibrary; once per process.</summary>
        internal static void Install()
        {
            if (Interlocked.Exchange(ref s_installed, 1) != 0) return;
            try
            {
                Register();
            }
            catch (Exception)
            {
                // Thrown out of Native's static constructor, anything would make every P/Invoke of the process
                // fail (TypeInitializationException); without the resolver, .NET's own probing still finds
                // libjump.so in an app's runtimes/ directory. (InvalidOperationException: the application set
                // a resolver for Jump.dll itself, and one is allowed per assembly.)
            }
        }

        static void Register()
        {
            Type nativeLibrary = Type.GetType("System.Runtime.InteropServices.NativeLibrary");
            Type resolverType = Type.GetType("System.Runtime.InteropServices.DllImportResolver");
            if (nativeLibrary == null || resolverType == null) return; // Mono or .NET Framework: the dllmap decides
            MethodInfo tryLoad = nativeLibrary.GetMethod("TryLoad", new[] { typeof(string), typeof(IntPtr).MakeByRefType() });
            MethodInfo setResolver = nativeLibrary.GetMethod("SetDllImportResolver", new[] { typeof(Assembly), resolverType });
            if (tryLoad == null || setResolver == null) return;
            s_tryLoad = (TryLoadFn)Delegate.CreateDelegate(typeof(TryLoadFn), tryLoad);
            Delegate resolver = Delegate.CreateDelegate(resolverType,
                typeof(NativeLibraryResolver).GetMethod("Resolve", BindingFlags.Static | BindingFlags.NonPublic));
            setResolver.Invoke(null, new object[] { typeof(NativeLibraryResolver).Assembly, resolver });
        }

        // The DllImportResolver: IntPtr.Zero hands the name back to the runtime's default probing.
        static IntPtr Resolve(string libraryName, Assembly assembly, DllImportSearchPath? searchPath)
        {
            if (libraryName != LibraryName) return IntPtr.Zero; // "libc" (poll, pipe) needs nothing from us
            foreach (string path in CandidatePaths(AssemblyDirectory(assembly),
                         Environment.GetEnvironmentVariable("JUMP_LIBRARY_PATH"), RuntimeIdentifier()))
            {
                IntPtr handle;
                if (s_tryLoad(path, out handle)) return handle;
            }
            return IntPtr.Zero;
        }

        /// <summary>Where to look for libjump, in order. Pure (no file system, no environment), so the order is
        /// testable where NativeLibrary does not exist.</summary>
        /// <param name="assemblyDirectory">the directory Jump.dll was loaded from; null or empty when unknown
        /// (a single-file app)</param>
        /// <param name="libraryPathVariable">$JUMP_LIBRARY_PATH: a path to the library file, as for the other
        /// bindings</param>
        /// <param name="rid">the NuGet runtime identifier, e.g. linux-x64</param>
        internal static string[] CandidatePaths(string assemblyDirectory, string libraryPathVariable, string rid)
        {
            var paths = new List<string>();
            if (!string.IsNullOrEmpty(libraryPathVariable)) paths.Add(libraryPathVariable);
            if (!string.IsNullOrEmpty(assemblyDirectory))
            {
                string native = Path.Combine("runtimes", rid, "native", "libjump.so");
                // An app's output keeps the package's runtimes/ tree (a framework-dependent build or publish);
                paths.Add(Path.Combine(assemblyDirectory, native));
                // Jump.dll loaded from the package itself (the NuGet cache, packages/Jump.<version>/lib/net472/);
                paths.Add(Path.Combine(assemblyDirectory, "..", "..", native));
                // a self-contained or RID-specific publish flattens the native file next to Jump.dll;
                paths.Add(Path.Combine(assemblyDirectory, "libjump.so"));
                // build/net472/Jump.targets (for Mono's dllmap) puts it there under the soname.
                paths.Add(Path.Combine(assemblyDirectory, Soname));
            }
            // An installed libjump (make install), found by the system's loader; no dev symlink needed.
            paths.Add(Soname);
            return paths.ToArray();
        }

        static string AssemblyDirectory(Assembly assembly)
        {
            string location = assembly.Location;
            return string.IsNullOrEmpty(location) ? AppContext.BaseDirectory : Path.GetDirectoryName(location);
        }

        // The package's native directory is named for the machine it was packed on; this names the one for the
        // running process (X64 -> linux-x64, Arm64 -> linux-arm64), so a library of another CPU is never tried.
        static string RuntimeIdentifier()
        {
            return "linux-" + RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant();
        }
    }
}
