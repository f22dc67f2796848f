// Results.Http.cs - the credential a request sends, and a request's answer.
using System;
using System.Collections.Generic;
using System.Text;
using J = Jump.Json;

namespace Jump
{
    /// <summary>The credential a request would send: {"kind","access_token","expires_at","expires_in",
    /// "refreshed"}. AccessToken is a secret (the API key itself in API-key mode): never log it; ToString
    /// leaves it out.</summary>
    public sealed class JumpCredentials
    {
        internal JumpCredentials(string json)
        {
            var d = J.Parse(json);
            Kind = J.GetString(d, "kind");
            AccessToken = J.GetString(d, "access_token");
            var at = J.GetLong(d, "expires_at");
            ExpiresAt = at.HasValue ? DateTimeOffset.FromUnixTimeSeconds(at.Value) : (DateTimeOffset?)null;
            var d2 = J.Get(d, "expires_in");
            ExpiresIn = d2 is long ? TimeSpan.FromSeconds((long)d2) : d2 is double ? TimeSpan.FromSeconds((double)d2) : (TimeSpan?)null;
            Refreshed = J.GetBool(d, "refreshed");
        }
        /// <summary>"capture", "sign_in_token" or "api_key".</summary>
        public string Kind { get; private set; }
        /// <summary>The token to send (the API key in API-key mode). A secret.</summary>
        public string AccessToken { get; private set; }
        /// <summary>When it expires (null when unknown, and for an API key).</summary>
        public DateTimeOffset? ExpiresAt { get; private set; }
        /// <summary>How long it lasts from now (null when unknown, and for an API key).</summary>
        public TimeSpan? ExpiresIn { get; private set; }
        /// <summary>True when this call refreshed it.</summary>
        public bool Refreshed { get; private set; }
        /// <summary>The kind and expiry, never the token.</summary>
        public override string ToString() { return "JumpCredentials(" + Kind + ", expires in " + ExpiresIn + ", refreshed " + Refreshed + ")"; }
    }

    /// <summary>An HTTP answer: {"status","headers":[[name,value],..],"body"} ("body" null and "body_base64"
    /// set when the body is not UTF-8).</summary>
    public sealed class JumpHttpResponse
    {
        internal JumpHttpResponse(string json)
        {
            Json = json;
            var d = J.Parse(json);
            StatusCode = (int)(J.GetLong(d, "status") ?? 0);
            var headers = new List<KeyValuePair<string, string>>();
            var list = J.GetList(d, "headers");
            if (list != null)
                foreach (var pair in list)
                {
                    var nv = pair as List<object>;
                    if (nv != null && nv.Count == 2 && nv[0] is string && nv[1] is string)
                        headers.Add(new KeyValuePair<string, string>((string)nv[0], (string)nv[1]));
                }
            Headers = headers;
            Body = J.GetString(d, "body");
            var base64 = J.GetString(d, "body_base64");
            BodyBytes = Body != null ? Encoding.UTF8.GetBytes(Body) : base64 != null ? Convert.FromBase64String(base64) : new byte[0];
        }
        /// <summary>The HTTP status (200, 404, ...).</summary>
        public int StatusCode { get; private set; }
        /// <summary>The headers, in order, names as the server spelled them.</summary>
        public IReadOnlyList<KeyValuePair<string, string>> Headers { get; private set; }
        /// <summary>The body as text, or null when it is not UTF-8 (then see <see cref="BodyBytes"/>).</summary>
        public string Body { get; private set; }
        /// <summary>The body's bytes (empty when there is none).</summary>
        public byte[] BodyBytes { get; private set; }
        /// <summary>The answer as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }

        /// <summary>The first value of a header, by case-insensitive name; null when absent.</summary>
        /// <param name="name">The header's name.</param>
        public string Header(string name)
        {
            foreach (var h in Headers) if (string.Equals(h.Key, name, StringComparison.OrdinalIgnoreCase)) return h.Value;
            return null;
        }
    }
}
