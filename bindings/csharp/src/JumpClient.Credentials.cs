// JumpClient.Credentials.cs - the credential an API call needs (one call before every API request): valid for
// long enough, refreshed only when it is not (one request for every concurrent caller), and the access token
// itself.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        // jump.h's JUMP_CREDENTIALS_FORCE_REFRESH.
        const uint ForceRefreshFlag = 1;

        /// <summary>A valid access token: the sign-in-token session's when there is one, else the Capture
        /// session's; refreshed first if it expires within tokenRefreshMarginSeconds. A secret: never log it.</summary>
        public string GetAccessToken()
        {
            IntPtr p;
            return TakeResult(Native.jump_client_access_token(_handle, out p), p);
        }

        /// <summary>Refreshes the access token now (concurrent refreshes of one session are one request whose
        /// outcome every caller gets). A sign-in-token session whose refresh token was revoked stays pending
        /// reauthentication: JumpExpiredException; a deleted user signs everything out: JumpNotSignedInException.</summary>
        public void RefreshAccessToken() { JumpException.Check(Native.jump_client_refresh_access_token(_handle)); }

        /// <summary>The credential a request would send, valid for more than minTtl when the server allows.
        /// Refreshed first (one request for all concurrent callers) only when it has minTtl or less left, or
        /// with forceRefresh (e.g. after a 401; an API key cannot be: JumpUnsupportedException); otherwise no
        /// request is made. Signed out: JumpNotSignedInException; a negative minTtl: JumpInvalidArgumentException.</summary>
        /// <param name="minTtl">How long the credential must still be valid (whole seconds, rounded up).</param>
        /// <param name="forceRefresh">Refresh even when the token lasts long enough.</param>
        public JumpCredentials GetCredentials(TimeSpan minTtl = default(TimeSpan), bool forceRefresh = false)
        {
            return GetCredentials(Seconds(minTtl), forceRefresh);
        }

        /// <summary><see cref="GetCredentials(TimeSpan, bool)"/> with minTtl in seconds.</summary>
        /// <param name="minTtlSeconds">How long, in seconds, the credential must still be valid.</param>
        /// <param name="forceRefresh">Refresh even when the token lasts long enough.</param>
        public JumpCredentials GetCredentials(long minTtlSeconds, bool forceRefresh = false)
        {
            IntPtr p;
            int status = Native.jump_client_credentials(_handle, minTtlSeconds, forceRefresh ? ForceRefreshFlag : 0, out p);
            return new JumpCredentials(TakeResult(status, p));
        }

        /// <summary>Asynchronous <see cref="GetCredentials(TimeSpan, bool)"/>: a refresh happens on a libjump
        /// thread, and none at all while the token lasts.</summary>
        /// <param name="minTtl">How long the credential must still be valid (whole seconds, rounded up).</param>
        /// <param name="forceRefresh">Refresh even when the token lasts long enough.</param>
        /// <param name="cancellationToken">Cancels the call before it starts; a refresh already under way is let
        /// finish (concurrent callers share it), and the Task then completes with it.</param>
        public Task<JumpCredentials> GetCredentialsAsync(TimeSpan minTtl = default(TimeSpan), bool forceRefresh = false,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return GetCredentialsAsync(Seconds(minTtl), forceRefresh, cancellationToken);
        }

        /// <summary>Asynchronous <see cref="GetCredentials(long, bool)"/>.</summary>
        /// <param name="minTtlSeconds">How long, in seconds, the credential must still be valid.</param>
        /// <param name="forceRefresh">Refresh even when the token lasts long enough.</param>
        /// <param name="cancellationToken">As for <see cref="GetCredentialsAsync(TimeSpan, bool, CancellationToken)"/>.</param>
        public Task<JumpCredentials> GetCredentialsAsync(long minTtlSeconds, bool forceRefresh = false,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            uint flags = forceRefresh ? ForceRefreshFlag : 0;
            return Start(cancellationToken, () => (out JumpRequestHandle r) =>
                Native.jump_client_credentials_async(_handle, minTtlSeconds, flags, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r),
                json => new JumpCredentials(json));
        }

        /// <summary>True when the credential held now lasts more than minTtl (an API key always does). Memory
        /// only: no network, no storage, never waits for a refresh in flight. False when signed out, disposed,
        /// or for a negative minTtl.</summary>
        /// <param name="minTtl">How long the credential must still be valid (whole seconds, rounded up).</param>
        public bool HasValidCredentials(TimeSpan minTtl = default(TimeSpan)) { return HasValidCredentials(Seconds(minTtl)); }

        /// <summary><see cref="HasValidCredentials(TimeSpan)"/> with minTtl in seconds.</summary>
        /// <param name="minTtlSeconds">How long, in seconds, the credential must still be valid.</param>
        public bool HasValidCredentials(long minTtlSeconds)
        {
            if (_disposed) return false;
            try { return Native.jump_client_has_valid_credentials(_handle, minTtlSeconds) == 1; }
            catch (ObjectDisposedException) { return false; }
        }

        // Whole seconds, rounded up: a credential valid for 1.5 s more is not valid for 2 s more. Negative
        // stays negative (libjump refuses it, as it refuses -1).
        static long Seconds(TimeSpan span)
        {
            double s = span.TotalSeconds;
            return s >= 0 ? (long)Math.Ceiling(s) : (long)Math.Floor(s);
        }
    }
}
