// JumpClient.SignInTokens.cs - the backend-issued session (sign-in tokens), API-key mode, the sign-in status,
// and identify: the app names its own user and libjump signs in, keeps or switches the session as needed,
// asking the app's authenticate delegate for a credential only when it must.
using System;
using System.Runtime.ExceptionServices;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        // Kept in a static field: native code holds a pointer to it during identify.
        static readonly Native.AuthenticateFn s_authenticate = OnAuthenticate;

        sealed class AuthenticateCall : HostCall
        {
            internal Func<string, IdentifyCredential> Authenticate;
        }

        /// <summary>Decodes a sign-in token without using it: who and where it is for, when it expires. No
        /// client, no network. A malformed token: JumpInvalidArgumentException saying what is wrong.</summary>
        /// <param name="signInToken">The token (standard or URL-safe base64, padded or not).</param>
        public static SignInTokenInfo DecodeSignInToken(string signInToken)
        {
            IntPtr p;
            int status = Native.jump_sign_in_token_decode(Utf8.Encode(signInToken, "signInToken"), out p);
            return new SignInTokenInfo(TakeResult(status, p));
        }

        /// <summary>Exchanges a sign-in token from the app's backend for a session (saved like any session). The
        /// same user already signed in: nothing is asked of the server (<see cref="SignInWithTokenResult.Changed"/>
        /// false); another user: JumpAlreadySignedInException whose Detail["mismatch"] names what differs. An
        /// API-key session of the same user, environment and region is migrated in place.</summary>
        /// <param name="signInToken">The token (a secret).</param>
        public SignInWithTokenResult SignInWithToken(string signInToken)
        {
            IntPtr p;
            int status = Native.jump_client_sign_in_with_token(_handle, Utf8.Encode(signInToken, "signInToken"), out p);
            return new SignInWithTokenResult(TakeResult(status, p));
        }

        /// <summary>Asynchronous <see cref="SignInWithToken"/>.</summary>
        /// <param name="signInToken">The token (a secret).</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task<SignInWithTokenResult> SignInWithTokenAsync(string signInToken, CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () =>
            {
                byte[] t = Utf8.Encode(signInToken, "signInToken");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_sign_in_with_token_async(_handle, t, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new SignInWithTokenResult(json));
        }

        /// <summary>API-key mode: requests (<see cref="Request(string, string, System.Collections.Generic.IDictionary{string, string}, string)"/>)
        /// carry the key in the apiKeyHeader header. Another signed-in user: JumpAlreadySignedInException.</summary>
        /// <param name="apiKey">The API key (a secret: never logged).</param>
        /// <param name="userId">The user, or null (configured, no user).</param>
        /// <param name="environment">"production", "sandbox", "dev" or "local".</param>
        /// <param name="region">"us" or "eu".</param>
        public void UseApiKey(string apiKey, string userId, string environment = "production", string region = "us")
        {
            JumpException.Check(Native.jump_client_use_api_key(_handle, Utf8.Encode(apiKey, "apiKey"), Utf8.Encode(userId, "userId"),
                Utf8.Encode(environment, "environment"), Utf8.Encode(region, "region")));
        }

        /// <summary>The sign-in status of sign-in tokens and API keys (jump_client_status). When the saved
        /// credential cannot be read it comes from the secret-free gist, with RestoreErrorJson set (never
        /// "signed out" for a storage failure). Changes are also raised as Event "status_changed".</summary>
        public ClientStatus Status
        {
            get
            {
                IntPtr p;
                return new ClientStatus(TakeResult(Native.jump_client_status(_handle, out p), p));
            }
        }

        /// <summary>Makes the signed-in user the one of the app's externalUserId: nothing (and no call of
        /// authenticate) when it already is; otherwise authenticate supplies a credential, a different signed-in
        /// user is signed out first, the same user keeps the session.
        /// <para>authenticate runs on this thread, during the call (it may block, e.g. to ask the app's
        /// backend, but must not call this client). An exception it throws fails the identify, changes nothing
        /// and is rethrown here; null declines (JumpCancelledException).</para></summary>
        /// <param name="externalUserId">The app's own id of its user.</param>
        /// <param name="authenticate">Given externalUserId, returns the credential to sign in with
        /// (<see cref="IdentifyCredential.SignInToken"/> or <see cref="IdentifyCredential.ApiKey"/>).</param>
        public IdentifyResult IdentifyExternalUser(string externalUserId, Func<string, IdentifyCredential> authenticate)
        {
            if (authenticate == null) throw new ArgumentNullException("authenticate");
            byte[] id = Utf8.Encode(externalUserId, "externalUserId");
            var call = new AuthenticateCall { Authenticate = authenticate };
            IntPtr userdata = call.Register();
            int status;
            IntPtr p;
            try { status = Native.jump_client_identify_external_user(_handle, id, s_authenticate, userdata, out p); }
            finally { call.Release(); }
            if (call.Failure != null)
            {
                Utf8.Take(p);
                ExceptionDispatchInfo.Capture(call.Failure).Throw(); // the app's exception, its stack kept
            }
            return new IdentifyResult(TakeResult(status, p));
        }

        [MonoPInvokeCallback(typeof(Native.AuthenticateFn))]
        static int OnAuthenticate(IntPtr userdata, IntPtr externalUserId, IntPtr sink, IntPtr sinkContext)
        {
            AuthenticateCall call = null;
            try
            {
                call = HostRegistry.Get<AuthenticateCall>(userdata);
                if (call == null) return (int)JumpStatus.Cancelled;
                var credential = call.Authenticate(Utf8.Read(externalUserId));
                if (credential == null) return (int)JumpStatus.Cancelled;
                StorageSinks.Give(sink, sinkContext, Encoding.UTF8.GetBytes(credential.ToJson())); // the JSON, without a NUL
                return 0;
            }
            catch (Exception e) // never into C: rethrown to the caller of IdentifyExternalUser
            {
                if (call != null) call.Fail(e);
                return (int)JumpStatus.Cancelled;
            }
        }
    }
}
