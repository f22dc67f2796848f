// Http.cs - one HTTP request without following redirects (a 302 is an answer like any other), as a browser
// or an app's backend sends it: Web.cs's fake-identity-provider browser and token API use it, and so does the
// conformance runner's loopback browser (bindings/csharp/conformance, built with this file).
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Text;

namespace Jump.Tests
{
    internal sealed class HttpAnswer
    {
        public int Status;
        public WebHeaderCollection Headers;
        public string Text;
        public string Location { get { return Headers == null ? null : Headers["Location"]; } }
    }

    internal static class Web
    {
        /// <summary>One request: a form POST when form is given, a JSON body when json is; GET otherwise.</summary>
        public static HttpAnswer Call(string url, IDictionary<string, string> form = null, string method = null,
            IDictionary<string, string> headers = null, string json = null, int timeoutMs = 15000)
        {
            var request = (HttpWebRequest)WebRequest.Create(url);
            request.AllowAutoRedirect = false;
            request.Proxy = null; // loopback: never through a proxy from the environment
            request.Timeout = timeoutMs;
            request.Method = method ?? (form != null || json != null ? "POST" : "GET");
            if (headers != null) foreach (var h in headers) request.Headers[h.Key] = h.Value;
            byte[] body = null;
            if (form != null)
            {
                body = Encoding.UTF8.GetBytes(string.Join("&", form.Select(kv => Uri.EscapeDataString(kv.Key) + "=" + Uri.EscapeDataString(kv.Value ?? ""))));
                request.ContentType = "application/x-www-form-urlencoded";
            }
            else if (json != null)
            {
                body = Encoding.UTF8.GetBytes(json);
                request.ContentType = "application/json";
            }
            if (body != null)
            {
                request.ContentLength = body.Length;
                using (var s = request.GetRequestStream()) s.Write(body, 0, body.Length);
            }
            HttpWebResponse response;
            try { response = (HttpWebResponse)request.GetResponse(); }
            catch (WebException e)
            {
                response = e.Response as HttpWebResponse;
                if (response == null) throw;
            }
            using (response)
            using (var reader = new StreamReader(response.GetResponseStream(), Encoding.UTF8))
                return new HttpAnswer { Status = (int)response.StatusCode, Headers = response.Headers, Text = reader.ReadToEnd() };
        }

        /// <summary>The query parameters of a URL (the first value of each).</summary>
        public static Dictionary<string, string> Query(string url)
        {
            var result = new Dictionary<string, string>();
            var uri = new Uri(url);
            foreach (var pair in uri.Query.TrimStart('?').Split(new[] { '&' }, StringSplitOptions.RemoveEmptyEntries))
            {
                int eq = pair.IndexOf('=');
                string k = Uri.UnescapeDataString((eq < 0 ? pair : pair.Substring(0, eq)).Replace('+', ' '));
                string v = eq < 0 ? "" : Uri.UnescapeDataString(pair.Substring(eq + 1).Replace('+', ' '));
                if (!result.ContainsKey(k)) result[k] = v;
            }
            return result;
        }
    }
}
