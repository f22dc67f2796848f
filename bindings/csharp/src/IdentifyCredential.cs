// IdentifyCredential.cs - what the app's authenticate delegate answers to JumpClient.IdentifyExternalUser.
using System.Collections.Generic;

namespace Jump
{
    /// <summary>The credential an identify signs in with: a sign-in token from the app's backend, or an API
    /// key. Made by <see cref="SignInToken"/> or <see cref="ApiKey"/>; it holds a secret, so never log it.</summary>
    public sealed class IdentifyCredential
    {
        readonly Dictionary<string, object> _document;

        IdentifyCredential(Dictionary<string, object> document) { _document = document; }

        /// <summary>A sign-in token the app's backend issued for the user.</summary>
        /// <param name="signInToken">The token.</param>
        public static IdentifyCredential SignInToken(string signInToken)
        {
            return new IdentifyCredential(new Dictionary<string, object> { { "type", "sign_in_token" }, { "sign_in_token", signInToken } });
        }

        /// <summary>API-key mode for the user (as <see cref="JumpClient.UseApiKey"/>).</summary>
        /// <param name="apiKey">The API key.</param>
        /// <param name="userId">The user.</param>
        /// <param name="environment">"production", "sandbox", "dev" or "local".</param>
        /// <param name="region">"us" or "eu".</param>
        public static IdentifyCredential ApiKey(string apiKey, string userId, string environment = "production", string region = "us")
        {
            return new IdentifyCredential(new Dictionary<string, object> {
                { "type", "api_key" }, { "api_key", apiKey }, { "user_id", userId }, { "environment", environment }, { "region", region } });
        }

        /// <summary>"sign_in_token" or "api_key".</summary>
        public string Kind { get { return (string)_document["type"]; } }

        /// <summary>The kind only: the credential is a secret.</summary>
        public override string ToString() { return "IdentifyCredential(" + Kind + ")"; }

        internal string ToJson() { return Json.Write(_document); }
    }
}
