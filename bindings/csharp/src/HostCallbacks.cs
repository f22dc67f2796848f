// HostCallbacks.cs - how libjump reaches the app's own code (storage, open_url, authenticate): a static
// trampoline per C function type (IL2CPP cannot marshal instance delegates to native code) and a registry
// that turns the userdata/context pointer back into the app's delegates.
//
// The pointer is a number from this registry, not a GCHandle: libjump may call host code after the binding
// has given up on the call (a freed client's work still finishing, a cancelled loopback sign-in whose
// open_url is already on its way), and a stale number is a lookup that finds nothing, never a freed handle.
// The registry also means no free function is handed to libjump: those run on libjump's own callback thread
// ("jump-events"), which Mono would then attach and wait for at exit (see JumpClient.Async.cs).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace Jump
{
    internal static class HostRegistry
    {
        static readonly object s_lock = new object();
        static readonly Dictionary<long, object> s_entries = new Dictionary<long, object>();
        static long s_next;

        internal static IntPtr Add(object target)
        {
            lock (s_lock)
            {
                long id = ++s_next;
                s_entries[id] = target;
                return new IntPtr(id);
            }
        }

        /// <summary>The target registered under id, or null when it was removed (or is of another type).</summary>
        internal static T Get<T>(IntPtr id) where T : class
        {
            object target;
            lock (s_lock) return s_entries.TryGetValue(id.ToInt64(), out target) ? target as T : null;
        }

        internal static void Remove(IntPtr id)
        {
            lock (s_lock) s_entries.Remove(id.ToInt64());
        }

        /// <summary>How many targets are registered (the tests check that calls leave none behind).</summary>
        internal static int Count { get { lock (s_lock) return s_entries.Count; } }
    }

    /// <summary>Host code one call runs (open_url, authenticate): registered for the call, released once it
    /// ends. Failure keeps what the app's code threw, to be rethrown to the caller instead of libjump's
    /// status for it.</summary>
    internal abstract class HostCall
    {
        IntPtr _id;
        int _released;
        volatile Exception _failure;

        internal Exception Failure { get { return _failure; } }

        internal IntPtr Register()
        {
            _id = HostRegistry.Add(this);
            return _id;
        }

        /// <summary>Idempotent; after it the trampolines find nothing for this call.</summary>
        internal void Release()
        {
            if (Interlocked.Exchange(ref _released, 1) == 0 && _id != IntPtr.Zero) HostRegistry.Remove(_id);
        }

        /// <summary>Keeps the first exception the app's code threw.</summary>
        internal void Fail(Exception e)
        {
            if (_failure == null) _failure = e;
        }
    }

    /// <summary>Calls a jump_storage_sink, the function libjump passes to a load or authenticate callback to
    /// take the bytes (copied before it returns).</summary>
    internal static class StorageSinks
    {
        // libjump passes the same one or two sinks every time: each becomes a delegate once.
        static readonly Dictionary<IntPtr, Native.StorageSink> s_sinks = new Dictionary<IntPtr, Native.StorageSink>();

        internal static void Give(IntPtr sink, IntPtr sinkContext, byte[] data)
        {
            if (sink == IntPtr.Zero) throw new InvalidOperationException("libjump passed no sink");
            Native.StorageSink fn;
            lock (s_sinks)
            {
                if (!s_sinks.TryGetValue(sink, out fn))
                {
                    fn = (Native.StorageSink)Marshal.GetDelegateForFunctionPointer(sink, typeof(Native.StorageSink));
                    s_sinks[sink] = fn;
                }
            }
            var pinned = GCHandle.Alloc(data, GCHandleType.Pinned);
            try { fn(sinkContext, pinned.AddrOfPinnedObject(), new UIntPtr((uint)data.Length)); }
            finally { pinned.Free(); }
        }
    }
}
