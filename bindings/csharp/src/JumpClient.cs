// JumpClient.cs - one app installation's session (jump_client): construction, the session's state, password
// sign-in and registration, the record, and Dispose. The other areas are partial files of their own:
// JumpClient.Async.cs (Tasks and the queue pump), .Forms.cs, .Social.cs, .Loopback.cs, .SignInTokens.cs,
// .Credentials.cs, .Requests.cs.
using System;
using System.Collections.Generic;

namespace Jump
{
    /// <summary>One app installation's session with Capture, sign-in tokens or API keys (a jump_client).
    /// Every member may be called from any thread. Synchronous methods block the calling thread (on the
    /// network, for most); the ...Async ones return Tasks that complete as <see cref="Delivery"/> says.
    /// Dispose it when done.</summary>
    public sealed partial class JumpClient : IDisposable
    {
        readonly JumpClientHandle _handle;

        /// <summary>A client from a copy of config; restores the saved session (no network). Async calls
        /// complete by themselves (JumpDelivery.Automatic): no Pump() needed.</summary>
        public JumpClient(JumpConfig config) : this(config, false, JumpDelivery.Automatic) { }

        /// <summary>A client from a copy of config that delivers async completions and events as delivery
        /// says: JumpDelivery.Automatic (Tasks complete by themselves) or JumpDelivery.Pumped (only on the
        /// thread that calls Pump(), e.g. Unity's main thread from Update()).</summary>
        public JumpClient(JumpConfig config, JumpDelivery delivery) : this(config, false, delivery) { }

        /// <summary>A client from a JSON config object (see jump.h for the keys); JumpDelivery.Automatic.</summary>
        public JumpClient(string configJson) : this(JumpConfig.FromJson(configJson), true, JumpDelivery.Automatic) { }

        /// <summary>A client from a JSON config object (see jump.h for the keys) with the given delivery.</summary>
        public JumpClient(string configJson, JumpDelivery delivery) : this(JumpConfig.FromJson(configJson), true, delivery) { }

        JumpClient(JumpConfig config, bool ownsConfig, JumpDelivery delivery)
        {
            if (delivery != JumpDelivery.Automatic && delivery != JumpDelivery.Pumped)
            {
                if (ownsConfig && config != null) config.Dispose();
                throw new ArgumentOutOfRangeException("delivery", delivery, "JumpDelivery.Automatic or JumpDelivery.Pumped");
            }
            if (config == null) throw new ArgumentNullException("config");
            Delivery = delivery;
            JumpClientHandle h = null;
            JumpException error = null;
            // The client keeps the config's host storage: held before the client can call it.
            var storage = config.Handle.Storage;
            if (storage != null && !storage.AddRef()) storage = null;
            try
            {
                int created = Native.jump_client_new(config.Handle, out h);
                // Read before jump_config_free below: the detail lasts until the next jump_* call.
                if (created != 0) { error = JumpException.FromLastError(created); h.Dispose(); }
                else h.Storage = storage;
            }
            catch (Exception)
            {
                if (storage != null) storage.Release();
                throw;
            }
            finally
            {
                // The client keeps its own copy of the settings, so a config made for it can go at once.
                if (ownsConfig) config.Dispose();
            }
            if (error != null)
            {
                if (storage != null) storage.Release();
                throw error;
            }
            _handle = h;
            try
            {
                // Both modes pump libjump's queue; Automatic joins the process's delivery thread, for good.
                JumpException.Check(Native.jump_client_use_event_queue(_handle, 1));
                if (delivery == JumpDelivery.Automatic) StartPump();
            }
            catch (Exception)
            {
                GC.SuppressFinalize(this);
                _handle.Dispose();
                throw;
            }
        }

        /// <summary>A client dropped without Dispose: takes it out of the delivery thread's set (or lets its
        /// background pump end); that thread then frees the native client. Runs only once no Task of the
        /// client waits (see Pumper.Anchor).</summary>
        ~JumpClient()
        {
            var pump = _backgroundPump;
            if (pump != null) pump.Abandon();
        }

        /// <summary>How this client delivers async completions and events (fixed at construction).</summary>
        public JumpDelivery Delivery { get; private set; }

        /// <summary>The library's version, e.g. "0.1.0" (<see cref="JumpLibrary.Version"/>).</summary>
        public static string LibraryVersion { get { return JumpLibrary.Version; } }

        /// <summary>True when a user is signed in (no network, no storage).</summary>
        public bool IsSignedIn { get { return Native.jump_client_is_signed_in(_handle) == 1; } }

        /// <summary>The session's state (jump_client_state): signed in or not, the user, unsynced changes,
        /// restore and storage errors. No network.</summary>
        public JumpState State
        {
            get
            {
                IntPtr p;
                int status = Native.jump_client_state(_handle, out p);
                if (status != 0) throw JumpException.FromLastError(status);
                return new JumpState(Utf8.Take(p));
            }
        }

        /// <summary>Signs in with an email (or user name) and password. Wrong ones: JumpBadCredentialsException;
        /// a kept edit that also changed on the server: JumpConflictException (signed in all the same).</summary>
        /// <param name="user">The email or user name, as the sign-in form expects.</param>
        /// <param name="password">The password (a secret: never logged).</param>
        public SignInResult SignIn(string user, string password)
        {
            IntPtr p;
            int status = Native.jump_client_sign_in(_handle, Utf8.Encode(user, "user"), Utf8.Encode(password, "password"), out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SignInResult(Utf8.Take(p));
        }

        /// <summary>Registers a traditional account and signs it in. Form errors:
        /// JumpValidationException.InvalidFields, keyed by form field name.</summary>
        /// <param name="attributes">Record attributes (email, displayName, givenName, birthday "yyyy-MM-dd", ...).</param>
        /// <param name="password">The new account's password.</param>
        public SignInResult RegisterTraditional(IDictionary<string, object> attributes, string password)
        {
            return RegisterTraditional(attributes == null ? null : Json.Write(attributes), password);
        }

        /// <summary>RegisterTraditional with the attributes as JSON text (an object).</summary>
        /// <param name="attributesJson">Record attributes as a JSON object.</param>
        /// <param name="password">The new account's password.</param>
        public SignInResult RegisterTraditional(string attributesJson, string password)
        {
            IntPtr p;
            int status = Native.jump_client_register_traditional(_handle, Utf8.Encode(attributesJson, "attributesJson"),
                Utf8.Encode(password, "password"), out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SignInResult(Utf8.Take(p));
        }

        /// <summary>The text a call returned through its out parameter, or the exception for its status (read
        /// before anything else can replace this thread's error detail).</summary>
        internal static string TakeResult(int status, IntPtr text)
        {
            if (status != 0)
            {
                var error = JumpException.FromLastError(status);
                Utf8.Take(text); // NULL on failure (jump.h); freed all the same should a call ever set it
                throw error;
            }
            return Utf8.Take(text);
        }

        /// <summary>Signs out of everything and erases the session from storage; unsynced changes are
        /// discarded. A storage that cannot erase: JumpStorageException (still signed in).</summary>
        public void SignOut() { JumpException.Check(Native.jump_client_sign_out(_handle)); }

        /// <summary>A view of the signed-in user's record (dispose it when done). Signed out:
        /// JumpNotSignedInException.</summary>
        public JumpRecord Record()
        {
            JumpRecordHandle h;
            int status = Native.jump_client_record(_handle, out h);
            if (status != 0) { var error = JumpException.FromLastError(status); h.Dispose(); throw error; }
            return new JumpRecord(h);
        }

        /// <summary>Fetches the record from the server, keeping unsynced local edits on top (refreshing tokens as
        /// needed). An edited value that also changed on the server: JumpConflictException (the record is
        /// fetched; the local values are kept).</summary>
        public void FetchRecord() { JumpException.Check(Native.jump_client_fetch_record(_handle)); }

        /// <summary>Sends the record's unsynced changes with the fewest requests. A failure part-way throws with
        /// "synced" and "pending" in the detail; what was synced is not sent again.</summary>
        public SyncResult Sync()
        {
            IntPtr p;
            int status = Native.jump_client_sync(_handle, out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SyncResult(Utf8.Take(p));
        }

        /// <summary>Reads the saved session again, after a restore error (<see cref="JumpState.RestoreErrorJson"/>:
        /// a host storage that could not be read). Still unreadable: JumpStorageException.</summary>
        public void Restore() { JumpException.Check(Native.jump_client_restore(_handle)); }

        /// <summary>Erases the sessions set aside (the state's "quarantine"): unreadable ones, and other users'
        /// sessions with unsynced edits.</summary>
        public void EraseQuarantine() { JumpException.Check(Native.jump_client_erase_quarantine(_handle)); }

        /// <summary>Downloads the Capture flow now (normally fetched when first needed) and caches it; falls back
        /// to the cached copy when the download fails.</summary>
        public void LoadFlow() { JumpException.Check(Native.jump_client_load_flow(_handle)); }

        /// <summary>Downloads the record schema (and this client's write access schema) and caches it; record
        /// edits are then checked against it before any request (JumpInvalidArgumentException naming the
        /// path). Needs a signed-in user (or captureSchemaFile in the config).</summary>
        public void LoadSchema() { JumpException.Check(Native.jump_client_load_schema(_handle)); }

        /// <summary>Takes the client off the shared delivery thread (if that thread is busy delivering, waits
        /// until it is done with the client it is pumping, whichever that is; inside an Event handler it does
        /// not wait) or stops the background pump, fails the Tasks still pending with
        /// JumpCancelledException (nothing can deliver their completions once the client is gone) and frees
        /// the client (in-flight native operations are cancelled). Idempotent;
        /// calls after it throw ObjectDisposedException.</summary>
        public void Dispose()
        {
            if (_disposed) return;
            _disposed = true;
            GC.SuppressFinalize(this);
            StopPump();
            FailAllPending();
            _handle.Dispose();
        }
    }
}
