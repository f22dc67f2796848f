// Results.cs - typed views of the JSON summaries libjump returns for sign-in, sync and the session's state;
// each keeps the full text in Json (members libjump adds later are there before they are here). The other
// areas' results are in Results.*.cs.
using System;
using System.Collections.Generic;
using J = Jump.Json;

namespace Jump
{
    /// <summary>The result of a sign-in or registration: {"is_new","uuid","authorization_code",..}.</summary>
    public sealed class SignInResult
    {
        internal SignInResult(string json)
        {
            Json = json;
            var d = J.Parse(json);
            Uuid = J.GetString(d, "uuid");
            IsNew = J.GetBool(d, "is_new");
            AuthorizationCode = J.GetString(d, "authorization_code");
        }
        /// <summary>The user's uuid.</summary>
        public string Uuid { get; private set; }
        /// <summary>True when the call made the user (registration).</summary>
        public bool IsNew { get; private set; }
        /// <summary>An authorization code for the app's backend, when the flow gives one. A secret: do not log it.</summary>
        public string AuthorizationCode { get; private set; }
        /// <summary>The result as libjump gave it (JSON text; holds the authorization code).</summary>
        public string Json { get; private set; }
    }

    /// <summary>The result of a social sign-in, a two-step social registration or a merging sign-in.
    /// With Capture: {"outcome":"signed_in"|"registered"|"linked","provider","is_new","uuid",
    /// "authorization_code","merged","identifier"} (RegisterSocial and SignInMerge give no "outcome" or
    /// "provider"). Engage only (no captureDomain): {"outcome":"authenticated","provider","token",
    /// "device_token","profile","token_url_response"}.</summary>
    public sealed class SocialResult
    {
        internal SocialResult(string json)
        {
            Json = json;
            var d = J.Parse(json);
            Outcome = J.GetString(d, "outcome");
            Provider = J.GetString(d, "provider");
            Uuid = J.GetString(d, "uuid");
            IsNew = J.GetBool(d, "is_new");
            Merged = J.GetBool(d, "merged");
            AuthorizationCode = J.GetString(d, "authorization_code");
            Identifier = J.GetString(d, "identifier");
            Token = J.GetString(d, "token");
            DeviceToken = J.GetString(d, "device_token");
            ProfileJson = J.GetText(d, "profile");
            var answer = J.Get(d, "token_url_response");
            TokenUrlResponse = answer is Dictionary<string, object> ? new JumpHttpResponse(J.Write(answer)) : null;
        }
        /// <summary>"signed_in", "registered" (thin registration made the user), "linked", or "authenticated"
        /// (Engage only); null for RegisterSocial and SignInMerge.</summary>
        public string Outcome { get; private set; }
        /// <summary>The social provider ("facebook", ...).</summary>
        public string Provider { get; private set; }
        /// <summary>The Capture user's uuid (null in Engage-only mode).</summary>
        public string Uuid { get; private set; }
        /// <summary>True when the call made the user.</summary>
        public bool IsNew { get; private set; }
        /// <summary>True when a merge token's identity was added to the account.</summary>
        public bool Merged { get; private set; }
        /// <summary>A secret when present: do not log it.</summary>
        public string AuthorizationCode { get; private set; }
        /// <summary>The social identity (null when unknown).</summary>
        public string Identifier { get; private set; }
        /// <summary>Engage only: the Engage token for the app's backend (auth_info). A secret.</summary>
        public string Token { get; private set; }
        /// <summary>Engage only: the device token sharing needs (null for a native sign-in). A secret.</summary>
        public string DeviceToken { get; private set; }
        /// <summary>Engage only: the provider's profile as JSON text (null otherwise).</summary>
        public string ProfileJson { get; private set; }
        /// <summary>Engage only: the token URL's answer (any HTTP status), or null when no token URL is set.
        /// Its Json also holds "cookies": [{"name","value","domain","path"}].</summary>
        public JumpHttpResponse TokenUrlResponse { get; private set; }
        /// <summary>The result as libjump gave it (JSON text; holds the secrets above).</summary>
        public string Json { get; private set; }
    }

    /// <summary>The result of a sync: {"changed":[paths],"requests":N,"renamed":{..}}.</summary>
    public sealed class SyncResult
    {
        internal SyncResult(string json)
        {
            Json = json;
            var d = J.Parse(json);
            Changed = J.GetStrings(d, "changed");
            Requests = J.GetLong(d, "requests") ?? 0;
            var renamed = new Dictionary<string, string>();
            var map = J.GetObject(d, "renamed");
            if (map != null) foreach (var kv in map) if (kv.Value is string) renamed[kv.Key] = (string)kv.Value;
            Renamed = renamed;
        }
        /// <summary>The paths sent.</summary>
        public string[] Changed { get; private set; }
        /// <summary>How many requests the sync made.</summary>
        public long Requests { get; private set; }
        /// <summary>Appended elements' local paths and the paths the server gave them ("/photos#-1" to
        /// "/photos#57"): later edits use the new ones.</summary>
        public IReadOnlyDictionary<string, string> Renamed { get; private set; }
        /// <summary>The result as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }
    }

    /// <summary>jump_client_state: {"signed_in","uuid","email","reauthentication_required",
    /// "access_token_expires_at","unsynced_changes","restore_error","storage_error","flow_version",
    /// "quarantine","secret_store","clock_offset_seconds"}.</summary>
    public sealed class JumpState
    {
        internal JumpState(string json)
        {
            Json = json;
            var d = J.Parse(json);
            SignedIn = J.GetBool(d, "signed_in");
            Uuid = J.GetString(d, "uuid");
            Email = J.GetString(d, "email");
            object u = J.Get(d, "unsynced_changes");
            UnsyncedChanges = (u is bool && (bool)u) || (u is long && (long)u != 0) || (u is List<object> && ((List<object>)u).Count > 0);
            ReauthenticationRequired = J.GetBool(d, "reauthentication_required");
            RestoreErrorJson = J.GetText(d, "restore_error");
            StorageErrorJson = J.GetText(d, "storage_error");
            FlowVersion = J.Get(d, "flow_version") == null ? null : Convert.ToString(J.Get(d, "flow_version"), System.Globalization.CultureInfo.InvariantCulture);
            QuarantineJson = J.GetText(d, "quarantine");
            SecretStore = J.GetString(d, "secret_store");
            ClockOffsetSeconds = J.GetLong(d, "clock_offset_seconds") ?? 0;
        }
        /// <summary>True when a user is signed in.</summary>
        public bool SignedIn { get; private set; }
        /// <summary>The signed-in user's uuid (null when signed out).</summary>
        public string Uuid { get; private set; }
        /// <summary>The signed-in user's email, when known.</summary>
        public string Email { get; private set; }
        /// <summary>True when record edits wait for a sync.</summary>
        public bool UnsyncedChanges { get; private set; }
        /// <summary>True when the session can no longer be refreshed: sign in again.</summary>
        public bool ReauthenticationRequired { get; private set; }
        /// <summary>Why the saved session could not be read (an error detail as JSON text), or null. Not
        /// "signed out": <see cref="JumpClient.Restore"/> tries again.</summary>
        public string RestoreErrorJson { get; private set; }
        /// <summary>Why the last save or erase failed (an error detail as JSON text), or null.</summary>
        public string StorageErrorJson { get; private set; }
        /// <summary>The cached Capture flow's version, or null.</summary>
        public string FlowVersion { get; private set; }
        /// <summary>The sessions set aside (JSON text), or null (see <see cref="JumpClient.EraseQuarantine"/>).</summary>
        public string QuarantineJson { get; private set; }
        /// <summary>Where the secrets are kept: "secret-service", "file", "host" or "memory" (the secretStore
        /// key).</summary>
        public string SecretStore { get; private set; }
        /// <summary>Capture's clock minus this device's, in seconds (learned from the Date header of its answers
        /// and kept with the session; the token refresh is signed with Capture's time).</summary>
        public long ClockOffsetSeconds { get; private set; }
        /// <summary>The state as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }
    }

    /// <summary>An event of the client ("signed_in", "signed_out", "token_refreshed", "record_synced",
    /// "record_fetched", "session_expired", "status_changed", "user_invalidated"), raised by the pump.</summary>
    public sealed class JumpEventArgs : EventArgs
    {
        internal JumpEventArgs(string name, string uuid, string json) { Name = name; Uuid = uuid; Json = json; }
        /// <summary>The event's name.</summary>
        public string Name { get; private set; }
        /// <summary>The user it concerns, when it says.</summary>
        public string Uuid { get; private set; }
        /// <summary>The whole event document (JSON text), e.g. "status" of status_changed.</summary>
        public string Json { get; private set; }
    }
}
