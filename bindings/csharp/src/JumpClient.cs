// JumpClient.cs - one app installation's session (jump_client): construction, the synchronous calls and
// Dispose. The asynchronous calls and the queue pump are in JumpClient.Async.cs.
using System;
using System.Collections.Generic;

namespace Jump
{
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
            JumpClientHandle h;
            JumpException error = null;
            try
            {
                int created = Native.jump_client_new(config.Handle, out h);
                // Read before jump_config_free below: the detail lasts until the next jump_* call.
                if (created != 0) { error = JumpException.FromLastError(created); h.Dispose(); }
            }
            finally
            {
                // The client keeps its own copy of the settings, so a config made for it can go at once.
                if (ownsConfig) config.Dispose();
            }
            if (error != null) throw error;
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

        /// <summary>The library's version, e.g. "0.1.0".</summary>
        public static string LibraryVersion { get { return Utf8.Read(Native.jump_version()); } }

        public bool IsSignedIn { get { return Native.jump_client_is_signed_in(_handle) == 1; } }

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

        /// <summary>Signs in with an email (or user name) and password. Wrong ones: JumpBadCredentialsException.</summary>
        public SignInResult SignIn(string user, string password)
        {
            IntPtr p;
            int status = Native.jump_client_sign_in(_handle, Utf8.Encode(user, "user"), Utf8.Encode(password, "password"), out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SignInResult(Utf8.Take(p));
        }

        /// <summary>Registers a traditional account and signs it in. attributes: record attributes
        /// (e.g. email, displayName, givenName). Form errors: JumpValidationException.InvalidFields.</summary>
        public SignInResult RegisterTraditional(IDictionary<string, object> attributes, string password)
        {
            return RegisterTraditional(attributes == null ? null : Json.Write(attributes), password);
        }

        public SignInResult RegisterTraditional(string attributesJson, string password)
        {
            IntPtr p;
            int status = Native.jump_client_register_traditional(_handle, Utf8.Encode(attributesJson, "attributesJson"),
                Utf8.Encode(password, "password"), out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SignInResult(Utf8.Take(p));
        }

        /// <summary>Signs in with a provider SDK's own access token (token; tokenSecret: the OAuth1 secret for
        /// twitter, else null). mergeToken: from a JumpMergeRequiredException whose ExistingProvider is this
        /// provider (adds the refused identity to the account); link: add the identity to the signed-in user.
        /// Needs a config with Engage keys. A new identity without thin registration:
        /// JumpRegistrationRequiredException (then RegisterSocial); an email that belongs to another account:
        /// JumpMergeRequiredException.</summary>
        public SocialResult SocialSignInNative(string provider, string token, string tokenSecret = null,
            string mergeToken = null, bool link = false)
        {
            byte[] pv = Utf8.Encode(provider, "provider"), t = Utf8.Encode(token, "token"),
                ts = Utf8.Encode(tokenSecret, "tokenSecret"), o = Utf8.Encode(SocialOptions(mergeToken, link), "mergeToken");
            IntPtr p;
            int status = Native.jump_client_social_sign_in_native(_handle, pv, t, ts, o, out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SocialResult(Utf8.Take(p));
        }

        /// <summary>Completes a two-step social registration: socialRegistrationToken and the record
        /// attributes (e.g. JumpRegistrationRequiredException.PreregRecord completed by the user). Signs the
        /// new user in. Form errors: JumpValidationException.InvalidFields; a spent token:
        /// JumpInvalidArgumentException.</summary>
        public SocialResult RegisterSocial(string socialRegistrationToken, IDictionary<string, object> attributes)
        {
            return RegisterSocial(socialRegistrationToken, attributes == null ? null : Json.Write(attributes));
        }

        public SocialResult RegisterSocial(string socialRegistrationToken, string attributesJson)
        {
            IntPtr p;
            int status = Native.jump_client_register_social(_handle, Utf8.Encode(socialRegistrationToken, "socialRegistrationToken"),
                Utf8.Encode(attributesJson, "attributesJson"), out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SocialResult(Utf8.Take(p));
        }

        /// <summary>SignIn that also merges mergeToken's identity (JumpMergeRequiredException with
        /// ExistingProvider "capture") into the account; Merged is true on success.</summary>
        public SocialResult SignInMerge(string user, string password, string mergeToken)
        {
            IntPtr p;
            int status = Native.jump_client_sign_in_merge(_handle, Utf8.Encode(user, "user"), Utf8.Encode(password, "password"),
                Utf8.Encode(mergeToken, "mergeToken"), out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SocialResult(Utf8.Take(p));
        }

        // options_json of the social calls: {"link","merge_token"}, or null when neither is set.
        static string SocialOptions(string mergeToken, bool link)
        {
            if (mergeToken == null && !link) return null;
            var options = new Dictionary<string, object>();
            if (link) options["link"] = true;
            if (mergeToken != null) options["merge_token"] = mergeToken;
            return Json.Write(options);
        }

        /// <summary>Signs out of everything; unsynced changes are discarded.</summary>
        public void SignOut() { JumpException.Check(Native.jump_client_sign_out(_handle)); }

        /// <summary>A view of the signed-in user's record (dispose it when done).</summary>
        public JumpRecord Record()
        {
            JumpRecordHandle h;
            int status = Native.jump_client_record(_handle, out h);
            if (status != 0) { var error = JumpException.FromLastError(status); h.Dispose(); throw error; }
            return new JumpRecord(h);
        }

        /// <summary>Fetches the record from the server, keeping unsynced local edits on top.</summary>
        public void FetchRecord() { JumpException.Check(Native.jump_client_fetch_record(_handle)); }

        /// <summary>Sends the record's unsynced changes.</summary>
        public SyncResult Sync()
        {
            IntPtr p;
            int status = Native.jump_client_sync(_handle, out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return new SyncResult(Utf8.Take(p));
        }

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
