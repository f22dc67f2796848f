// Results.cs - typed views of the JSON summaries libjump returns; each keeps the full text in Json.
using System;
using System.Collections.Generic;

namespace Jump
{
    /// <summary>The result of sign-in or registration: {"is_new","uuid","authorization_code",..}.</summary>
    public sealed class SignInResult
    {
        internal SignInResult(string json)
        {
            Json = json;
            var d = Jump.Json.Parse(json);
            Uuid = Jump.Json.Get(d, "uuid") as string;
            IsNew = Jump.Json.Get(d, "is_new") is bool && (bool)Jump.Json.Get(d, "is_new");
            AuthorizationCode = Jump.Json.Get(d, "authorization_code") as string;
        }
        public string Uuid { get; private set; }
        public bool IsNew { get; private set; }
        /// <summary>A secret when present: do not log it.</summary>
        public string AuthorizationCode { get; private set; }
        public string Json { get; private set; }
    }

    /// <summary>The result of a social sign-in, a two-step social registration or a merging sign-in:
    /// {"outcome":"signed_in"|"registered"|"linked","provider","is_new","uuid","authorization_code","merged",
    /// "identifier"}. RegisterSocial and SignInMerge give no "outcome" or "provider" (null here).</summary>
    public sealed class SocialResult
    {
        internal SocialResult(string json)
        {
            Json = json;
            var d = Jump.Json.Parse(json);
            Outcome = Jump.Json.Get(d, "outcome") as string;
            Provider = Jump.Json.Get(d, "provider") as string;
            Uuid = Jump.Json.Get(d, "uuid") as string;
            IsNew = Jump.Json.Get(d, "is_new") is bool && (bool)Jump.Json.Get(d, "is_new");
            Merged = Jump.Json.Get(d, "merged") is bool && (bool)Jump.Json.Get(d, "merged");
            AuthorizationCode = Jump.Json.Get(d, "authorization_code") as string;
            Identifier = Jump.Json.Get(d, "identifier") as string;
        }
        /// <summary>"signed_in", "registered" (thin registration made the user) or "linked"; null for
        /// RegisterSocial and SignInMerge.</summary>
        public string Outcome { get; private set; }
        public string Provider { get; private set; }
        public string Uuid { get; private set; }
        public bool IsNew { get; private set; }
        /// <summary>True when a merge token's identity was added to the account.</summary>
        public bool Merged { get; private set; }
        /// <summary>A secret when present: do not log it.</summary>
        public string AuthorizationCode { get; private set; }
        /// <summary>The social identity (null when unknown).</summary>
        public string Identifier { get; private set; }
        public string Json { get; private set; }
    }

    /// <summary>The result of a sync: {"changed":[paths],"requests":N,"renamed":{..}}.</summary>
    public sealed class SyncResult
    {
        internal SyncResult(string json)
        {
            Json = json;
            var d = Jump.Json.Parse(json);
            var changed = new List<string>();
            var list = Jump.Json.Get(d, "changed") as List<object>;
            if (list != null) foreach (var p in list) if (p is string) changed.Add((string)p);
            Changed = changed.ToArray();
            object n = Jump.Json.Get(d, "requests");
            Requests = n is long ? (long)n : 0;
        }
        public string[] Changed { get; private set; }
        public long Requests { get; private set; }
        public string Json { get; private set; }
    }

    /// <summary>jump_client_state: {"signed_in","uuid","email","unsynced_changes",..}.</summary>
    public sealed class JumpState
    {
        internal JumpState(string json)
        {
            Json = json;
            var d = Jump.Json.Parse(json);
            SignedIn = Jump.Json.Get(d, "signed_in") is bool && (bool)Jump.Json.Get(d, "signed_in");
            Uuid = Jump.Json.Get(d, "uuid") as string;
            Email = Jump.Json.Get(d, "email") as string;
            object u = Jump.Json.Get(d, "unsynced_changes");
            UnsyncedChanges = (u is bool && (bool)u) || (u is long && (long)u != 0) || (u is List<object> && ((List<object>)u).Count > 0);
        }
        public bool SignedIn { get; private set; }
        public string Uuid { get; private set; }
        public string Email { get; private set; }
        public bool UnsyncedChanges { get; private set; }
        public string Json { get; private set; }
    }

    /// <summary>An event of the client ("signed_in", "signed_out", "record_synced", ...), raised by the pump.</summary>
    public sealed class JumpEventArgs : EventArgs
    {
        internal JumpEventArgs(string name, string uuid, string json) { Name = name; Uuid = uuid; Json = json; }
        public string Name { get; private set; }
        public string Uuid { get; private set; }
        public string Json { get; private set; }
    }
}
