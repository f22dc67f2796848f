// Native.cs - the P/Invoke declarations of libjump's C ABI (include/jump.h) that this binding uses.
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
        public MonoPInvokeCallbackAttribute(Type type) { Type = type; }
        public Type Type { get; private set; }
    }

    internal static class Native
    {
        const string Lib = "jump";
        static Native() { NativeLibraryResolver.Install(); } // .NET runs this before binding the first P/Invoke

        // jump_callback / jump_free_fn: only needed for the process-wide log callback (Log.cs); client
        // completions and events come through the queue (in both JumpDelivery modes), so no callback ever
        // runs on a libjump thread there.
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void Callback(IntPtr userdata, IntPtr json);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void FreeFn(IntPtr userdata);

        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr jump_version();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_abi_version();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr jump_status_str(int status);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern IntPtr jump_error_last();
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern void jump_string_free(IntPtr s);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_set_log_callback(Callback callback, IntPtr userdata, FreeFn userdataFree);

        // jump_config
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_config_new(out JumpConfigHandle config);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_config_from_json(byte[] json, out JumpConfigHandle config);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_config_set_string(JumpConfigHandle config, byte[] key, byte[] value);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_config_set_bool(JumpConfigHandle config, byte[] key, int value);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_config_set_int(JumpConfigHandle config, byte[] key, long value);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_config_to_json(JumpConfigHandle config, out IntPtr json);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern void jump_config_free(IntPtr config);

        // jump_client
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_new(JumpConfigHandle config, out JumpClientHandle client);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern void jump_client_free(IntPtr client);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_state(JumpClientHandle client, out IntPtr json);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_is_signed_in(JumpClientHandle client);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_register_traditional(JumpClientHandle client, byte[] attributesJson, byte[] password, out IntPtr result);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_register_traditional_async(JumpClientHandle client, byte[] attributesJson, byte[] password,
            IntPtr callback, IntPtr userdata, IntPtr userdataFree, out JumpRequestHandle request);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_sign_in(JumpClientHandle client, byte[] user, byte[] password, out IntPtr result);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_sign_in_async(JumpClientHandle client, byte[] user, byte[] password,
            IntPtr callback, IntPtr userdata, IntPtr userdataFree, out JumpRequestHandle request);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_sign_out(JumpClientHandle client);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_record(JumpClientHandle client, out JumpRecordHandle record);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_fetch_record(JumpClientHandle client);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_fetch_record_async(JumpClientHandle client, IntPtr callback, IntPtr userdata, IntPtr userdataFree, out JumpRequestHandle request);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_sync(JumpClientHandle client, out IntPtr result);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_sync_async(JumpClientHandle client, IntPtr callback, IntPtr userdata, IntPtr userdataFree, out JumpRequestHandle request);

        // social sign-in (native provider tokens), two-step registration, merge
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_social_sign_in_native(JumpClientHandle client, byte[] provider, byte[] token,
            byte[] tokenSecret, byte[] optionsJson, out IntPtr result);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_social_sign_in_native_async(JumpClientHandle client, byte[] provider, byte[] token,
            byte[] tokenSecret, byte[] optionsJson, IntPtr callback, IntPtr userdata, IntPtr userdataFree, out JumpRequestHandle request);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_register_social(JumpClientHandle client, byte[] socialRegistrationToken, byte[] attributesJson,
            out IntPtr result);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_register_social_async(JumpClientHandle client, byte[] socialRegistrationToken,
            byte[] attributesJson, IntPtr callback, IntPtr userdata, IntPtr userdataFree, out JumpRequestHandle request);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_sign_in_merge(JumpClientHandle client, byte[] user, byte[] password, byte[] mergeToken,
            out IntPtr result);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)]
        internal static extern int jump_client_sign_in_merge_async(JumpClientHandle client, byte[] user, byte[] password, byte[] mergeToken,
            IntPtr callback, IntPtr userdata, IntPtr userdataFree, out JumpRequestHandle request);

        // queue mode
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_use_event_queue(JumpClientHandle client, int enabled);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_event_fd(JumpClientHandle client, out int fd);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_client_next_event(JumpClientHandle client, out IntPtr json);

        // jump_record
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_record_get(JumpRecordHandle record, byte[] path, out IntPtr json);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_record_get_string(JumpRecordHandle record, byte[] path, out IntPtr value);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_record_set(JumpRecordHandle record, byte[] path, byte[] valueJson);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_record_set_string(JumpRecordHandle record, byte[] path, byte[] value);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_record_changes(JumpRecordHandle record, out IntPtr json);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern void jump_record_free(IntPtr record);

        // jump_request
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_request_cancel(JumpRequestHandle request);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern int jump_request_id(JumpRequestHandle request, out ulong id);
        [DllImport(Lib, CallingConvention = CallingConvention.Cdecl)] internal static extern void jump_request_free(IntPtr request);
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
