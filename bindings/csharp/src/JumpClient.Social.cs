// JumpClient.Social.cs - social sign-in through Engage (a config with engageAppId and engageDomain): the
// providers and the cached Engage configuration, the browser flow (SocialBegin, then SocialComplete with the
// URL the browser ended on), native provider tokens, two-step registration, merge, linking and sharing. The
// loopback receiver, which drives the browser flow itself, is in JumpClient.Loopback.cs.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        /// <summary>Fetches the Engage app configuration now (If-None-Match with the cached ETag) and caches it.
        /// A 304 or an unreachable server keeps the cached copy (an error only when there is none).</summary>
        public EngageConfigResult LoadEngageConfig()
        {
            IntPtr p;
            return new EngageConfigResult(TakeResult(Native.jump_client_load_engage_config(_handle, out p), p));
        }

        /// <summary>The sign-in and sharing providers, in the server's order, the app's custom providers
        /// (engageCustomProviders) last. Loads the Engage configuration when needed (the cached copy when the
        /// server cannot be reached).</summary>
        public SocialProviders GetProviders()
        {
            IntPtr p;
            return new SocialProviders(TakeResult(Native.jump_client_providers(_handle, out p), p));
        }

        /// <summary>Begins a browser sign-in (RFC 8252): open <see cref="SocialBeginResult.Url"/> in the system
        /// browser, and when it lands on a URL starting with <see cref="SocialBeginResult.CompletionPrefix"/>,
        /// pass that URL to <see cref="SocialComplete"/>. Pending for 10 minutes.</summary>
        /// <param name="provider">A sign-in provider's name ("facebook", "google", a custom provider's id).</param>
        /// <param name="input">The user's text for providers that require input (OpenID); missing:
        /// JumpValidationException with InvalidFields["input"].</param>
        /// <param name="forceReauth">Ask the provider to authenticate the user again.</param>
        /// <param name="link">Add the identity to the signed-in user instead of signing in.</param>
        /// <param name="mergeToken">From a JumpMergeRequiredException whose ExistingProvider is this provider.</param>
        /// <param name="redirectUri">Where the browser is sent with ?token= (default: engageWhitelistedDomain
        /// in "token" mode; Engage's /signin/device page otherwise).</param>
        public SocialBeginResult SocialBegin(string provider, string input = null, bool forceReauth = false, bool link = false,
            string mergeToken = null, string redirectUri = null)
        {
            byte[] pv = Utf8.Encode(provider, "provider");
            byte[] o = Utf8.Encode(SocialOptions(mergeToken, link, input, forceReauth, redirectUri), "options");
            IntPtr p;
            return new SocialBeginResult(TakeResult(Native.jump_client_social_begin(_handle, pv, o, out p), p));
        }

        /// <summary>Completes a begun browser sign-in with the URL the browser ended on. A URL that does not
        /// complete a sign-in begun here: JumpInvalidArgumentException (Reason "unknown_state" or
        /// "wrong_location"), and nothing changes. The user cancelled on the provider: JumpCancelledException
        /// (Reason "user_canceled"). A new identity without thin registration:
        /// JumpRegistrationRequiredException; an email that belongs to another account:
        /// JumpMergeRequiredException.</summary>
        /// <param name="url">The completion URL (Engage's /signin/device, or the redirect with ?token=).</param>
        public SocialResult SocialComplete(string url)
        {
            IntPtr p;
            return new SocialResult(TakeResult(Native.jump_client_social_complete(_handle, Utf8.Encode(url, "url"), out p), p));
        }

        /// <summary>Asynchronous <see cref="SocialComplete"/>.</summary>
        /// <param name="url">The completion URL.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task<SocialResult> SocialCompleteAsync(string url, CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () =>
            {
                byte[] u = Utf8.Encode(url, "url");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_social_complete_async(_handle, u, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new SocialResult(json));
        }

        /// <summary>Signs in with a provider SDK's own access token. Needs a config with Engage keys. Engage
        /// issues no device token for it, so such a sign-in cannot share. A new identity without thin
        /// registration: JumpRegistrationRequiredException (then RegisterSocial); an email that belongs to
        /// another account: JumpMergeRequiredException.</summary>
        /// <param name="provider">The provider ("google", "facebook", ...).</param>
        /// <param name="token">The provider SDK's access token (a secret).</param>
        /// <param name="tokenSecret">The OAuth1 token secret (twitter), else null.</param>
        /// <param name="mergeToken">From a JumpMergeRequiredException whose ExistingProvider is this provider:
        /// adds the refused identity to the account.</param>
        /// <param name="link">Add the identity to the signed-in user.</param>
        public SocialResult SocialSignInNative(string provider, string token, string tokenSecret = null,
            string mergeToken = null, bool link = false)
        {
            byte[] pv = Utf8.Encode(provider, "provider"), t = Utf8.Encode(token, "token"),
                ts = Utf8.Encode(tokenSecret, "tokenSecret"), o = Utf8.Encode(SocialOptions(mergeToken, link), "mergeToken");
            IntPtr p;
            return new SocialResult(TakeResult(Native.jump_client_social_sign_in_native(_handle, pv, t, ts, o, out p), p));
        }

        /// <summary>Asynchronous <see cref="SocialSignInNative"/>.</summary>
        /// <param name="provider">The provider.</param>
        /// <param name="token">The provider SDK's access token.</param>
        /// <param name="tokenSecret">The OAuth1 token secret (twitter), else null.</param>
        /// <param name="mergeToken">A merge token, or null.</param>
        /// <param name="link">Add the identity to the signed-in user.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task<SocialResult> SocialSignInNativeAsync(string provider, string token, string tokenSecret = null,
            string mergeToken = null, bool link = false, CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () =>
            {
                byte[] pv = Utf8.Encode(provider, "provider"), t = Utf8.Encode(token, "token"),
                    ts = Utf8.Encode(tokenSecret, "tokenSecret"), o = Utf8.Encode(SocialOptions(mergeToken, link), "mergeToken");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_social_sign_in_native_async(_handle, pv, t, ts, o, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new SocialResult(json));
        }

        /// <summary>Engage-only mode (no captureDomain): the app backend URL the Engage token is POSTed to
        /// after each social sign-in (its answer is <see cref="SocialResult.TokenUrlResponse"/>); null removes
        /// it. Plain http only for loopback hosts.</summary>
        /// <param name="url">The token URL, or null.</param>
        public void SetTokenUrl(string url)
        {
            JumpException.Check(Native.jump_client_set_token_url(_handle, Utf8.Encode(url, "url")));
        }

        /// <summary>Completes a two-step social registration: the record attributes (usually
        /// JumpRegistrationRequiredException.PreregRecord completed by the user). Signs the new user in. Form
        /// errors: JumpValidationException.InvalidFields (the token survives them); a spent token:
        /// JumpInvalidArgumentException.</summary>
        /// <param name="socialRegistrationToken">JumpRegistrationRequiredException.SocialRegistrationToken.</param>
        /// <param name="attributes">Record attributes.</param>
        public SignInResult RegisterSocial(string socialRegistrationToken, IDictionary<string, object> attributes)
        {
            return RegisterSocial(socialRegistrationToken, attributes == null ? null : Json.Write(attributes));
        }

        /// <summary>RegisterSocial with the attributes as JSON text (an object).</summary>
        /// <param name="socialRegistrationToken">JumpRegistrationRequiredException.SocialRegistrationToken.</param>
        /// <param name="attributesJson">Record attributes as a JSON object.</param>
        public SignInResult RegisterSocial(string socialRegistrationToken, string attributesJson)
        {
            IntPtr p;
            int status = Native.jump_client_register_social(_handle, Utf8.Encode(socialRegistrationToken, "socialRegistrationToken"),
                Utf8.Encode(attributesJson, "attributesJson"), out p);
            return new SignInResult(TakeResult(status, p));
        }

        /// <summary>Asynchronous <see cref="RegisterSocial(string, IDictionary{string, object})"/>.</summary>
        /// <param name="socialRegistrationToken">The registration token.</param>
        /// <param name="attributes">Record attributes.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task<SignInResult> RegisterSocialAsync(string socialRegistrationToken, IDictionary<string, object> attributes,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return RegisterSocialAsync(socialRegistrationToken, () => attributes == null ? null : Json.Write(attributes), cancellationToken);
        }

        /// <summary>Asynchronous <see cref="RegisterSocial(string, string)"/>.</summary>
        /// <param name="socialRegistrationToken">The registration token.</param>
        /// <param name="attributesJson">Record attributes as a JSON object.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task<SignInResult> RegisterSocialAsync(string socialRegistrationToken, string attributesJson,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return RegisterSocialAsync(socialRegistrationToken, () => attributesJson, cancellationToken);
        }

        Task<SignInResult> RegisterSocialAsync(string socialRegistrationToken, Func<string> attributesJson, CancellationToken cancellationToken)
        {
            return Start(cancellationToken, () =>
            {
                byte[] t = Utf8.Encode(socialRegistrationToken, "socialRegistrationToken"), a = Utf8.Encode(attributesJson(), "attributesJson");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_register_social_async(_handle, t, a, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new SignInResult(json));
        }

        /// <summary>SignIn that also merges the identity of mergeToken (JumpMergeRequiredException with
        /// ExistingProvider "capture") into the account; <see cref="SignInResult.Merged"/> is true on success. A
        /// wrong password: JumpBadCredentialsException, and the merge token stays good.</summary>
        /// <param name="user">The account's email or user name.</param>
        /// <param name="password">Its password.</param>
        /// <param name="mergeToken">JumpMergeRequiredException.MergeToken.</param>
        public SignInResult SignInMerge(string user, string password, string mergeToken)
        {
            IntPtr p;
            int status = Native.jump_client_sign_in_merge(_handle, Utf8.Encode(user, "user"), Utf8.Encode(password, "password"),
                Utf8.Encode(mergeToken, "mergeToken"), out p);
            return new SignInResult(TakeResult(status, p));
        }

        /// <summary>Asynchronous <see cref="SignInMerge"/>.</summary>
        /// <param name="user">The account's email or user name.</param>
        /// <param name="password">Its password.</param>
        /// <param name="mergeToken">JumpMergeRequiredException.MergeToken.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task<SignInResult> SignInMergeAsync(string user, string password, string mergeToken,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () =>
            {
                byte[] u = Utf8.Encode(user, "user"), p = Utf8.Encode(password, "password"), m = Utf8.Encode(mergeToken, "mergeToken");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_sign_in_merge_async(_handle, u, p, m, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new SignInResult(json));
        }

        /// <summary>The signed-in user's linked identities, from the record's profiles (no network).</summary>
        public IReadOnlyList<LinkedProfile> GetLinkedProfiles()
        {
            IntPtr p;
            return ResultReader.List(Json.Parse(TakeResult(Native.jump_client_linked_profiles(_handle, out p), p)), o => new LinkedProfile(o, null)) ?? new LinkedProfile[0];
        }

        /// <summary>Unlinks an identity from the signed-in user, then fetches the record. The last identity of an
        /// account without a password is refused before anything is sent: JumpInvalidArgumentException with
        /// Reason "last_identity". Unknown: JumpNotFoundException.</summary>
        /// <param name="identifier">The identity (<see cref="LinkedProfile.Identifier"/>).</param>
        public void UnlinkAccount(string identifier)
        {
            JumpException.Check(Native.jump_client_unlink_account(_handle, Utf8.Encode(identifier, "identifier")));
        }

        /// <summary>Asynchronous <see cref="UnlinkAccount"/>.</summary>
        /// <param name="identifier">The identity to unlink.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task UnlinkAccountAsync(string identifier, CancellationToken cancellationToken = default(CancellationToken))
        {
            return StartEmpty(cancellationToken, () =>
            {
                byte[] i = Utf8.Encode(identifier, "identifier");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_unlink_account_async(_handle, i, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            });
        }

        /// <summary>Shares an activity to each sharing provider the user signed in with through the browser
        /// (a device token is kept for those). When any provider failed: JumpServerException whose
        /// <see cref="JumpServerException.ShareResults"/> say which and why.</summary>
        /// <param name="activity">{"action" (required), "url", "title", "description",
        /// "user_generated_content", "action_links", "media", "properties"}.</param>
        /// <param name="providers">The providers to share to ("facebook", "twitter", ...).</param>
        public ShareResult Share(IDictionary<string, object> activity, IEnumerable<string> providers)
        {
            return Share(activity == null ? null : Json.Write(activity), providers);
        }

        /// <summary>Share with the activity as JSON text (an object).</summary>
        /// <param name="activityJson">The activity as a JSON object.</param>
        /// <param name="providers">The providers to share to.</param>
        public ShareResult Share(string activityJson, IEnumerable<string> providers)
        {
            byte[] a = Utf8.Encode(activityJson, "activityJson"), pv = Utf8.Encode(providers == null ? null : Json.Write(providers), "providers");
            IntPtr p;
            return new ShareResult(TakeResult(Native.jump_client_share(_handle, a, pv, out p), p));
        }

        /// <summary>Asynchronous <see cref="Share(IDictionary{string, object}, IEnumerable{string})"/>.</summary>
        /// <param name="activity">The activity.</param>
        /// <param name="providers">The providers to share to.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task<ShareResult> ShareAsync(IDictionary<string, object> activity, IEnumerable<string> providers,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () =>
            {
                byte[] a = Utf8.Encode(activity == null ? null : Json.Write(activity), "activity"),
                    pv = Utf8.Encode(providers == null ? null : Json.Write(providers), "providers");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_share_async(_handle, a, pv, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new ShareResult(json));
        }

        /// <summary>Email and SMS content for the app to send, from the activity's "email" and "sms" members
        /// (defaults from its title, description and url), URLs shortened by Engage (kept long when that fails).
        /// The shares are recorded with Engage.</summary>
        /// <param name="activity">The activity, with optional "email": {"subject","message_body","urls"} and
        /// "sms": {"message","urls"}.</param>
        public ShareContentResult ShareContent(IDictionary<string, object> activity)
        {
            IntPtr p;
            byte[] a = Utf8.Encode(activity == null ? null : Json.Write(activity), "activity");
            return new ShareContentResult(TakeResult(Native.jump_client_share_content(_handle, a, out p), p));
        }

        // options_json of the social calls: the options that are set, or null when none is.
        static string SocialOptions(string mergeToken, bool link, string input = null, bool forceReauth = false, string redirectUri = null)
        {
            var options = new Dictionary<string, object>();
            if (input != null) options["input"] = input;
            if (forceReauth) options["force_reauth"] = true;
            if (link) options["link"] = true;
            if (mergeToken != null) options["merge_token"] = mergeToken;
            if (redirectUri != null) options["redirect_uri"] = redirectUri;
            return options.Count == 0 ? null : Json.Write(options);
        }
    }
}
