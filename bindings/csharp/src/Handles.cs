// Handles.cs - one SafeHandle per libjump handle kind. The runtime guarantees ReleaseHandle runs once,
// after the last P/Invoke using the handle has returned (the marshaller AddRefs SafeHandle arguments), from
// Dispose or, if the owner forgot, from the finalizer thread; every jump_*_free is safe on any thread.
using System;
using System.Runtime.InteropServices;

namespace Jump
{
    public abstract class JumpHandle : SafeHandle
    {
        protected JumpHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
    }

    public sealed class JumpConfigHandle : JumpHandle
    {
        protected override bool ReleaseHandle() { Native.jump_config_free(handle); return true; }
    }

    public sealed class JumpClientHandle : JumpHandle
    {
        // jump_client_free cancels in-flight operations; in queue mode no host code is waited for.
        protected override bool ReleaseHandle() { Native.jump_client_free(handle); return true; }
    }

    public sealed class JumpRecordHandle : JumpHandle
    {
        protected override bool ReleaseHandle() { Native.jump_record_free(handle); return true; }
    }

    public sealed class JumpRequestHandle : JumpHandle
    {
        protected override bool ReleaseHandle() { Native.jump_request_free(handle); return true; }
    }
}
