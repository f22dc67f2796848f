// Results.SignInTokens.cs - the results of sign-in tokens, API keys and identify.
using System;
using J = Jump.Json;

namespace Jump
{
    /// <summary>The result of SignInWithToken: {"user_id","changed","migrated"}.</summary>
    public sealed class SignInWithTokenResult
    {
        internal SignInWithTokenResult(string json)
        {
            Json = json;
            var d = J.Parse(json);
            UserId = J.GetString(d, "user_id");
            Changed = J.GetBool(d, "changed");
            Migrated = J.GetBool(d, "migrated");
        }
        /// <summary>The signed-in user.</summary>
        public string UserId { get; private set; }
        /// <summary>False when that user was already signed in (nothing was asked of the server).</summary>
        public bool Changed { get; private set; }
        /// <summary>True when an API-key session of the same user became this session.</summary>
        public bool Migrated { get; private set; }
        /// <summary>The result as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }
    }

    /// <summary>What a sign-in token says, read without using it: {"user_id","team_id","environment","region",
    /// "expires_at"}.</summary>
    public sealed class SignInTokenInfo
    {
        internal SignInTokenInfo(string json)
        {
            Json = json;
            var d = J.Parse(json);
            UserId = J.GetString(d, "user_id");
            TeamId = J.GetString(d, "team_id");
            Environment = J.GetString(d, "environment");
            Region = J.GetString(d, "region");
            var expires = J.GetLong(d, "expires_at");
            ExpiresAt = expires.HasValue ? DateTimeOffset.FromUnixTimeSeconds(expires.Value) : (DateTimeOffset?)null;
        }
        /// <summary>The user the token signs in.</summary>
        public string UserId { get; private set; }
        /// <summary>The team (app) that issued it.</summary>
        public string TeamId { get; private set; }
        /// <summary>"production", "sandbox", "dev" or "local".</summary>
        public string Environment { get; private set; }
        /// <summary>"us" or "eu".</summary>
        public string Region { get; private set; }
        /// <summary>When the token expires, when it says.</summary>
        public DateTimeOffset? ExpiresAt { get; private set; }
        /// <summary>The decoded token as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }
    }

    /// <summary>jump_client_status: {"configured","signed_in","use_api_key","use_sign_in_token",
    /// "pending_reauthentication","user_id","team_id","environment","region","external_user_id",
    /// "restore_error"}.</summary>
    public sealed class ClientStatus
    {
        internal ClientStatus(string json)
        {
            Json = json;
            var d = J.Parse(json);
            Configured = J.GetBool(d, "configured");
            SignedIn = J.GetBool(d, "signed_in");
            UseApiKey = J.GetBool(d, "use_api_key");
            UseSignInToken = J.GetBool(d, "use_sign_in_token");
            PendingReauthentication = J.GetBool(d, "pending_reauthentication");
            UserId = J.GetString(d, "user_id");
            TeamId = J.GetString(d, "team_id");
            Environment = J.GetString(d, "environment");
            Region = J.GetString(d, "region");
            ExternalUserId = J.GetString(d, "external_user_id");
            RestoreErrorJson = J.GetText(d, "restore_error");
        }
        /// <summary>True when a sign-in token or API key is set up.</summary>
        public bool Configured { get; private set; }
        /// <summary>True when a user is signed in.</summary>
        public bool SignedIn { get; private set; }
        /// <summary>True in API-key mode.</summary>
        public bool UseApiKey { get; private set; }
        /// <summary>True for a sign-in-token session.</summary>
        public bool UseSignInToken { get; private set; }
        /// <summary>True when the refresh token was revoked: a new sign-in token for the same user clears it.</summary>
        public bool PendingReauthentication { get; private set; }
        /// <summary>The signed-in user (null when none).</summary>
        public string UserId { get; private set; }
        /// <summary>The user's team.</summary>
        public string TeamId { get; private set; }
        /// <summary>"production", "sandbox", "dev" or "local".</summary>
        public string Environment { get; private set; }
        /// <summary>"us" or "eu".</summary>
        public string Region { get; private set; }
        /// <summary>The app's id of its user (IdentifyExternalUser), or null.</summary>
        public string ExternalUserId { get; private set; }
        /// <summary>Why the saved credential could not be read (JSON text), or null.</summary>
        public string RestoreErrorJson { get; private set; }
        /// <summary>The status as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }
    }

    /// <summary>The result of IdentifyExternalUser: {"action","user_id"}.</summary>
    public sealed class IdentifyResult
    {
        internal IdentifyResult(string json)
        {
            Json = json;
            var d = J.Parse(json);
            Action = J.GetString(d, "action");
            UserId = J.GetString(d, "user_id");
        }
        /// <summary>"none" (already that user: authenticate was not called), "kept" (the same user, a new
        /// external id), "reauthenticated", "signed_in" or "switched" (another user was signed out first).</summary>
        public string Action { get; private set; }
        /// <summary>The signed-in user.</summary>
        public string UserId { get; private set; }
        /// <summary>The result as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }
    }
}
