// JumpClient.Requests.cs - authorized HTTP requests with the client's credential, and web login (the token a
// login page left in its cookies or title). RequestAsync is jump_client_request_async: it runs on libjump's
// thread (never a thread pool worker, where host storage must not run) and a CancellationToken stops it.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        /// <summary>Sends an HTTP request with the client's credential: the sign-in-token session's bearer token,
        /// else the API key, else the Capture access token (or a web login's token on its origin). Expiring
        /// tokens are refreshed first; a 401 refreshes once and replays once. An HTTP error status is an answer,
        /// not an exception. Blocks this thread.</summary>
        /// <param name="method">GET, POST, PUT, PATCH or DELETE.</param>
        /// <param name="url">Relative to the credential's server ("/v2/..."), or absolute on it (never another
        /// server: JumpInvalidArgumentException).</param>
        /// <param name="headers">Extra headers, or null.</param>
        /// <param name="body">The body as text (sent as UTF-8), or null.</param>
        public JumpHttpResponse Request(string method, string url, IDictionary<string, string> headers = null, string body = null)
        {
            return Request(method, url, headers, body == null ? null : System.Text.Encoding.UTF8.GetBytes(body));
        }

        /// <summary><see cref="Request(string, string, IDictionary{string, string}, string)"/> with the body as bytes.</summary>
        /// <param name="method">GET, POST, PUT, PATCH or DELETE.</param>
        /// <param name="url">Relative to the credential's server, or absolute on it.</param>
        /// <param name="headers">Extra headers, or null.</param>
        /// <param name="body">The body, or null.</param>
        public JumpHttpResponse Request(string method, string url, IDictionary<string, string> headers, byte[] body)
        {
            byte[] m = Utf8.Encode(method, "method"), u = Utf8.Encode(url, "url"), h = HeadersJson(headers);
            IntPtr p;
            int status = Native.jump_client_request(_handle, m, u, h, body, BodyLength(body), out p);
            return new JumpHttpResponse(TakeResult(status, p));
        }

        /// <summary>Asynchronous <see cref="Request(string, string, IDictionary{string, string}, string)"/>: runs
        /// on libjump's thread; the body is copied before this returns.</summary>
        /// <param name="method">GET, POST, PUT, PATCH or DELETE.</param>
        /// <param name="url">Relative to the credential's server ("/v2/..."), or absolute on it.</param>
        /// <param name="headers">Extra headers, or null.</param>
        /// <param name="body">The body as text (sent as UTF-8), or null.</param>
        /// <param name="cancellationToken">Cancels the request, before or during it (the Task is then
        /// cancelled, unless it had already finished).</param>
        public Task<JumpHttpResponse> RequestAsync(string method, string url, IDictionary<string, string> headers = null,
            string body = null, CancellationToken cancellationToken = default(CancellationToken))
        {
            return RequestAsync(method, url, headers, body == null ? null : System.Text.Encoding.UTF8.GetBytes(body),
                cancellationToken);
        }

        /// <summary><see cref="RequestAsync(string, string, IDictionary{string, string}, string, CancellationToken)"/>
        /// with the body as bytes.</summary>
        /// <param name="method">GET, POST, PUT, PATCH or DELETE.</param>
        /// <param name="url">Relative to the credential's server, or absolute on it.</param>
        /// <param name="headers">Extra headers, or null.</param>
        /// <param name="body">The body, or null.</param>
        /// <param name="cancellationToken">Cancels the request, before or during it.</param>
        public Task<JumpHttpResponse> RequestAsync(string method, string url, IDictionary<string, string> headers, byte[] body,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () =>
            {
                byte[] m = Utf8.Encode(method, "method"), u = Utf8.Encode(url, "url"), h = HeadersJson(headers);
                return (out JumpRequestHandle r) => Native.jump_client_request_async(_handle, m, u, h, body, BodyLength(body),
                    IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new JumpHttpResponse(json));
        }

        static byte[] HeadersJson(IDictionary<string, string> headers)
        {
            return headers == null ? null : Utf8.Encode(Json.Write(headers), "headers");
        }

        static UIntPtr BodyLength(byte[] body) { return new UIntPtr((uint)(body == null ? 0 : body.Length)); }

        /// <summary>Takes the token a web login page left in its cookies (a Cookie header or Set-Cookie lines)
        /// or its title ("oauth_token=..."), under the name webLoginCookieName, and keeps it (in memory) for
        /// pageUrl's origin: <see cref="Request(string, string, IDictionary{string, string}, string)"/> then sends
        /// it as a bearer token there. Neither holds it: JumpNotFoundException. https, or http on loopback only.</summary>
        /// <param name="pageUrl">The login page's URL.</param>
        /// <param name="cookies">The page's Cookie header or Set-Cookie lines, or null.</param>
        /// <param name="title">The page's title, or null.</param>
        /// <returns>The token (a secret).</returns>
        public string UseWebLogin(string pageUrl, string cookies = null, string title = null)
        {
            IntPtr p;
            int status = Native.jump_client_use_web_login(_handle, Utf8.Encode(pageUrl, "pageUrl"), Utf8.Encode(cookies, "cookies"),
                Utf8.Encode(title, "title"), out p);
            return TakeResult(status, p);
        }
    }
}
