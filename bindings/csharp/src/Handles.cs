// Handles.cs - one SafeHandle per libjump handle kind. The runtime guarantees ReleaseHandle runs once,
// after the last P/Invoke using the handle has returned (the marshaller AddRefs SafeHandle arguments), from
// Dispose or, if the owner forgot, from the finalizer thread; every jump_*_free is safe on any thread.
using System;
using System.Runtime.InteropServices;

namespace Jump
{
    /// <summary>The base of the binding's handles: a libjump handle that is freed exactly once, after the
    /// last call using it has returned. The binding's classes own them; apps never need one.</summary>
    public abstract class JumpHandle : SafeHandle
    {
        /// <summary>An invalid (NULL) handle, filled in by the P/Invoke that creates it.</summary>
        protected JumpHandle() : base(IntPtr.Zero, true) { }

        /// <summary>True for NULL (never created, or already released).</summary>
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
    }

    /// <summary>A jump_config.</summary>
    public sealed class JumpConfigHandle : JumpHandle
    {
        // The host storage set on the config (JumpConfig.SetStorage): held until the config is freed.
        internal HostStorage Storage;

        /// <summary>Frees the config (jump_config_free), then drops its hold on the host storage.</summary>
        protected override bool ReleaseHandle()
        {
            Native.jump_config_free(handle);
            var storage = Storage;
            if (storage != null) storage.Release();
            return true;
        }
    }

    /// <summary>A jump_client.</summary>
    public sealed class JumpClientHandle : JumpHandle
    {
        // The host storage the client was created with: held until the client is freed.
        internal HostStorage Storage;

        /// <summary>Frees the client (jump_client_free cancels in-flight operations; in queue mode no host code
        /// is waited for), then drops its hold on the host storage.</summary>
        protected override bool ReleaseHandle()
        {
            Native.jump_client_free(handle);
            var storage = Storage;
            if (storage != null) storage.Release();
            return true;
        }
    }

    /// <summary>A jump_record view.</summary>
    public sealed class JumpRecordHandle : JumpHandle
    {
        /// <summary>Frees the view (jump_record_free); the record belongs to the client.</summary>
        protected override bool ReleaseHandle() { Native.jump_record_free(handle); return true; }
    }

    /// <summary>A jump_request (an in-flight async call).</summary>
    public sealed class JumpRequestHandle : JumpHandle
    {
        /// <summary>Frees the handle (jump_request_free); the operation goes on and still completes.</summary>
        protected override bool ReleaseHandle() { Native.jump_request_free(handle); return true; }
    }
}
