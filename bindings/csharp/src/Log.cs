// Log.cs - libjump's process-wide log callback as a C# event handler. The one native callback this binding
// installs: a static trampoline (IL2CPP cannot marshal instance delegates to native code) that reaches the
// managed handler through a GCHandle passed as userdata, freed by a second trampoline when libjump drops it.
using System;
using System.Runtime.InteropServices;

namespace Jump
{
    /// <summary>libjump's log lines, one process-wide handler (jump_set_log_callback).</summary>
    public static class JumpLog
    {
        // Kept in static fields so the GC never collects the delegates native code holds pointers to.
        static readonly Native.Callback s_trampoline = OnLog;
        static readonly Native.FreeFn s_release = OnRelease;

        /// <summary>Sends libjump's log lines ({"kind":"log","level","message"} JSON, already redacted) to
        /// handler, which may run on any thread, concurrently. null removes it.</summary>
        public static void SetHandler(Action<string> handler)
        {
            if (handler == null)
            {
                JumpException.Check(Native.jump_set_log_callback(null, IntPtr.Zero, null));
                return;
            }
            var gc = GCHandle.Alloc(handler);
            int status = Native.jump_set_log_callback(s_trampoline, GCHandle.ToIntPtr(gc), s_release);
            if (status != 0)
            {
                var error = JumpException.FromLastError(status);
                gc.Free(); // not taken: libjump did not keep the callback, so it will not call s_release
                throw error;
            }
        }

        /// <summary>SetHandler with each line typed (<see cref="LogLine"/>: Level, Message; Json keeps the text).
        /// null removes it.</summary>
        /// <param name="handler">Called with each line, on any thread, concurrently.</param>
        public static void SetLineHandler(Action<LogLine> handler)
        {
            SetHandler(handler == null ? (Action<string>)null : json => handler(new LogLine(json)));
        }

        [MonoPInvokeCallback(typeof(Native.Callback))]
        static void OnLog(IntPtr userdata, IntPtr json)
        {
            // An exception must never unwind into C: swallow it here.
            try
            {
                var handler = GCHandle.FromIntPtr(userdata).Target as Action<string>;
                if (handler != null) handler(Utf8.Read(json));
            }
            catch (Exception) { }
        }

        [MonoPInvokeCallback(typeof(Native.FreeFn))]
        static void OnRelease(IntPtr userdata)
        {
            try { GCHandle.FromIntPtr(userdata).Free(); } catch (Exception) { }
        }
    }
}
