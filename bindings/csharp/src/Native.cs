// Native.cs - how this binding calls libjump's C ABI (include/jump.h); the P/Invoke declarations
// themselves are generated into Native.Generated.cs.
//
// Library lookup: every import names "jump". Mono resolves it through Jump.dll.config (shipped next to
// Jump.dll), whose <dllmap> points at the soname libjump.so.1, so an installed library works without the
// unversioned dev symlink; dlopen then searches LD_LIBRARY_PATH and the system paths (the test runner puts
// build/lib on LD_LIBRARY_PATH). .NET and Unity ignore the dllmap and probe "libjump.so" / "jump" by their
// own rules (Unity: Assets/Plugins), except that .NET asks NativeLibraryResolver first (installed below).
//
// Strings in are passed as NUL-terminated UTF-8 byte[] (Utf8.Encode), never as `string`, so the
// marshaller's default (ANSI on Mono, UTF-16 elsewhere) never applies. Strings out arrive as IntPtr and
// are copied then released with jump_string_free (Utf8.Take).
//
// Handles are SafeHandle parameters: the marshaller AddRefs them for the duration of a call (so Dispose on
// another thread cannot free the handle under a running call) and throws ObjectDisposedException once closed.
using System;
using System.Runtime.InteropServices;

namespace Jump
{
    /// <summary>IL2CPP needs this on every static method native code calls back. Unity defines it in
    /// AOT; plain Mono does not ship it, so it is declared here (IL2CPP matches it by name).</summary>
    [AttributeUsage(AttributeTargets.Method)]
    public sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        /// <summary>Marks a method native code calls through a delegate of type.</summary>
        /// <param name="type">The delegate type.</param>
        public MonoPInvokeCallbackAttribute(Type type) { Type = type; }
        /// <summary>The delegate type.</summary>
        public Type Type { get; private set; }
    }

    // The declarations are generated from include/jump_api.json (Native.Generated.cs, make generate): one per
    // function but the _jansson variants, with a delegate type per callback typedef. The binding installs one
    // native callback, the process-wide log callback (Log.cs): client completions and events come through the
    // queue (in both JumpDelivery modes), so the _async functions take IntPtr callbacks and get NULL.
    internal static partial class Native
    {
        const string Lib = "jump";
        static Native() { NativeLibraryResolver.Install(); } // .NET runs this before binding the first P/Invoke
    }

    /// <summary>poll(2) and a self-pipe from libc, for the pumping threads (DeliveryThread.cs, EventPump.cs).
    /// Linux/macOS only.</summary>
    internal static class LibC
    {
        [StructLayout(LayoutKind.Sequential)]
        internal struct PollFd
        {
            public int fd;
            public short events;
            public short revents;
        }
        internal const short POLLIN = 0x001;
        internal const int EINTR = 4;

        internal const short POLLERR = 0x008;
        internal const short POLLHUP = 0x010;
        internal const short POLLNVAL = 0x020;
        internal const int O_CLOEXEC = 0x80000; // Linux (x86, ARM); pipe2 is Linux-only, macOS uses pipe

        [DllImport("libc", SetLastError = true)]
        internal static extern int poll([In, Out] PollFd[] fds, UIntPtr nfds, int timeoutMs);
        [DllImport("libc", SetLastError = true)]
        internal static extern int pipe2([Out] int[] fds, int flags);
        [DllImport("libc", SetLastError = true)]
        internal static extern int pipe([Out] int[] fds);
        [DllImport("libc", SetLastError = true)]
        internal static extern IntPtr write(int fd, byte[] buffer, UIntPtr count);
        [DllImport("libc", SetLastError = true)]
        internal static extern IntPtr read(int fd, byte[] buffer, UIntPtr count);
        [DllImport("libc", SetLastError = true)]
        internal static extern int close(int fd);
    }
}
