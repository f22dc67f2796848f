// JumpClient.Loopback.cs - browser sign-in for desktop and command-line apps (RFC 8252's loopback receiver):
// libjump listens on 127.0.0.1, calls the app's openUrl once with the sign-in URL, and completes when the
// browser lands on the listener.
//
// openUrl is host code libjump calls (jump_open_url_fn): a static trampoline finds the call's delegate in the
// HostRegistry. The synchronous form calls it on the calling thread; the asynchronous one on a libjump thread
// ("jump-work"), whatever the client's JumpDelivery, because libjump needs the URL opened before it can wait.
using System;
using System.Runtime.ExceptionServices;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        // Kept in a static field: native code holds a pointer to it for the life of the process.
        static readonly Native.OpenUrlFn s_openUrl = OnOpenUrl;

        sealed class OpenUrlCall : HostCall
        {
            internal Action<string> OpenUrl;
        }

        /// <summary>Signs in through the system browser and a loopback listener: calls openUrl once, on this
        /// thread, with the provider's sign-in URL (hand it to the browser and return, e.g.
        /// Process.Start(url)), then waits until the browser comes back to the listener (it shows a "you may
        /// close this window" page). The outcome and failures are those of <see cref="SocialComplete"/>.
        /// An exception openUrl throws ends the sign-in at once and is rethrown here. No browser within the
        /// timeout: JumpTimeoutException.</summary>
        /// <param name="provider">A sign-in provider's name.</param>
        /// <param name="openUrl">Opens the URL in the system browser; must return without waiting for the user.</param>
        /// <param name="timeout">How long to wait for the browser (null or zero: 5 minutes).</param>
        /// <param name="input">The user's text for providers that require input.</param>
        /// <param name="forceReauth">Ask the provider to authenticate the user again.</param>
        /// <param name="link">Add the identity to the signed-in user.</param>
        /// <param name="mergeToken">From a JumpMergeRequiredException whose ExistingProvider is this provider.</param>
        public SocialResult SocialSignInLoopback(string provider, Action<string> openUrl, TimeSpan? timeout = null,
            string input = null, bool forceReauth = false, bool link = false, string mergeToken = null)
        {
            if (openUrl == null) throw new ArgumentNullException("openUrl");
            byte[] pv = Utf8.Encode(provider, "provider"), o = Utf8.Encode(SocialOptions(mergeToken, link, input, forceReauth), "options");
            int ms = TimeoutMs(timeout);
            var call = new OpenUrlCall { OpenUrl = openUrl };
            IntPtr userdata = call.Register();
            int status;
            IntPtr p;
            try { status = Native.jump_client_social_sign_in_loopback(_handle, pv, o, s_openUrl, userdata, ms, out p); }
            finally { call.Release(); }
            if (call.Failure != null)
            {
                Utf8.Take(p);
                ExceptionDispatchInfo.Capture(call.Failure).Throw(); // the app's exception, its stack kept
            }
            return new SocialResult(TakeResult(status, p));
        }

        /// <summary>Asynchronous <see cref="SocialSignInLoopback"/>. openUrl runs on a libjump thread
        /// ("jump-work"; not the caller's, not the delivery thread, whatever <see cref="Delivery"/> says): keep it
        /// to handing the URL to the browser. An exception it throws fails the Task with that exception.
        /// Cancelling stops the wait for the browser and closes the listener.</summary>
        /// <param name="provider">A sign-in provider's name.</param>
        /// <param name="openUrl">Opens the URL in the system browser; must return without waiting for the user.</param>
        /// <param name="timeout">How long to wait for the browser (null or zero: 5 minutes).</param>
        /// <param name="input">The user's text for providers that require input.</param>
        /// <param name="forceReauth">Ask the provider to authenticate the user again.</param>
        /// <param name="link">Add the identity to the signed-in user.</param>
        /// <param name="mergeToken">From a JumpMergeRequiredException whose ExistingProvider is this provider.</param>
        /// <param name="cancellationToken">Cancels the sign-in: the Task ends Canceled.</param>
        public Task<SocialResult> SocialSignInLoopbackAsync(string provider, Action<string> openUrl, TimeSpan? timeout = null,
            string input = null, bool forceReauth = false, bool link = false, string mergeToken = null,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            var call = new OpenUrlCall { OpenUrl = openUrl };
            return Start(cancellationToken, host =>
            {
                if (openUrl == null) throw new ArgumentNullException("openUrl");
                byte[] pv = Utf8.Encode(provider, "provider"), o = Utf8.Encode(SocialOptions(mergeToken, link, input, forceReauth), "options");
                int ms = TimeoutMs(timeout);
                IntPtr userdata = host.Register();
                return (out JumpRequestHandle r) => Native.jump_client_social_sign_in_loopback_async(
                    _handle, pv, o, s_openUrl, ms, IntPtr.Zero, userdata, IntPtr.Zero, out r);
            }, json => new SocialResult(json), call);
        }

        // timeout_ms: int32 milliseconds, <= 0 for libjump's default (5 minutes).
        static int TimeoutMs(TimeSpan? timeout)
        {
            if (timeout == null || timeout.Value <= TimeSpan.Zero) return 0;
            double ms = Math.Ceiling(timeout.Value.TotalMilliseconds);
            return ms >= int.MaxValue ? int.MaxValue : (int)ms;
        }

        [MonoPInvokeCallback(typeof(Native.OpenUrlFn))]
        static int OnOpenUrl(IntPtr userdata, IntPtr url)
        {
            OpenUrlCall call = null;
            try
            {
                // Gone: the call ended (cancelled, client disposed) before libjump got here.
                call = HostRegistry.Get<OpenUrlCall>(userdata);
                if (call == null) return (int)JumpStatus.Cancelled;
                var open = Interlocked.Exchange(ref call.OpenUrl, null); // once, whatever libjump does
                if (open != null) open(Utf8.Read(url));
                return 0;
            }
            catch (Exception e) // never into C: kept for the caller, and the sign-in ends
            {
                if (call != null) call.Fail(e);
                return (int)JumpStatus.Cancelled;
            }
        }
    }
}
