// Web.cs - plain HTTP for the tests: what a browser does on the emulator's fake identity provider pages
// (bindings/python/tests/conftest.py's FakeIdP, ported) and what an app's backend asks of the token API, over
// Http.cs's Web.Call.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Text.RegularExpressions;

namespace Jump.Tests
{
    /// <summary>The fake identity provider's page: its forms (action, inputs, buttons).</summary>
    internal sealed class IdpPage
    {
        internal sealed class Form
        {
            public string Action;
            public List<Dictionary<string, string>> Inputs = new List<Dictionary<string, string>>();
            public List<Dictionary<string, string>> Buttons = new List<Dictionary<string, string>>();
        }

        public readonly string Url;
        public readonly string Text;
        public readonly List<Form> Forms = new List<Form>();

        static readonly Regex FormTag = new Regex("<form\\b([^>]*)>(.*?)</form>", RegexOptions.Singleline | RegexOptions.IgnoreCase);
        static readonly Regex InputTag = new Regex("<input\\b([^>]*)>", RegexOptions.IgnoreCase);
        static readonly Regex ButtonTag = new Regex("<button\\b([^>]*)>(.*?)</button>", RegexOptions.Singleline | RegexOptions.IgnoreCase);
        static readonly Regex Attribute = new Regex("([\\w-]+)\\s*=\\s*\"([^\"]*)\"");

        static Dictionary<string, string> Attributes(string text)
        {
            var result = new Dictionary<string, string>();
            foreach (Match m in Attribute.Matches(text)) result[m.Groups[1].Value] = WebUtility.HtmlDecode(m.Groups[2].Value);
            return result;
        }

        public IdpPage(string url, string text)
        {
            Url = url;
            Text = text;
            foreach (Match f in FormTag.Matches(text))
            {
                var attributes = Attributes(f.Groups[1].Value);
                string action;
                var form = new Form { Action = new Uri(new Uri(url), attributes.TryGetValue("action", out action) ? action : "").ToString() };
                foreach (Match i in InputTag.Matches(f.Groups[2].Value)) form.Inputs.Add(Attributes(i.Groups[1].Value));
                foreach (Match b in ButtonTag.Matches(f.Groups[2].Value))
                {
                    var button = Attributes(b.Groups[1].Value);
                    button["text"] = WebUtility.HtmlDecode(Regex.Replace(b.Groups[2].Value, "<[^>]*>", ""));
                    form.Buttons.Add(button);
                }
                Forms.Add(form);
            }
        }

        static string Of(Dictionary<string, string> d, string key) { string v; return d.TryGetValue(key, out v) ? v : null; }

        /// <summary>Submits the form holding #id as a browser would: its inputs (hidden ones as they are, others
        /// from fields) and the clicked button's name=value.</summary>
        public HttpAnswer Submit(string id, IDictionary<string, string> fields = null)
        {
            var form = Forms.FirstOrDefault(f => f.Buttons.Any(b => Of(b, "id") == id) || f.Inputs.Any(i => Of(i, "id") == id));
            if (form == null) throw new AssertionException("no form with #" + id + " on the page: " + Text.Substring(0, Math.Min(2000, Text.Length)));
            var data = new Dictionary<string, string>();
            foreach (var input in form.Inputs) if (Of(input, "name") != null) data[input["name"]] = Of(input, "value") ?? "";
            if (fields != null) foreach (var kv in fields) data[kv.Key] = kv.Value;
            foreach (var button in form.Buttons)
                if (Of(button, "id") == id && Of(button, "name") != null) data[button["name"]] = Of(button, "value") ?? "";
            return Web.Call(form.Action, data, "POST");
        }

        public IEnumerable<Dictionary<string, string>> IdentityButtons()
        {
            return Forms.SelectMany(f => f.Buttons).Where(b => (Of(b, "id") ?? "").StartsWith("identity-", StringComparison.Ordinal));
        }
    }

    /// <summary>Drives the emulator's fake identity provider pages like a browser (without one).</summary>
    internal static class FakeIdP
    {
        public static IdpPage Open(string url)
        {
            var answer = Web.Call(url);
            Assert.Equal(200, answer.Status, "GET " + url + ": " + answer.Text);
            return new IdpPage(url, answer.Text);
        }

        /// <summary>Opens the start URL, then creates an identity (name and email), continues as an existing one
        /// (the button whose label holds identity), or cancels; returns where the provider sends the browser
        /// (the completion URL).</summary>
        public static string Finish(string url, string name = null, string email = null, string identity = null, bool cancel = false)
        {
            var page = Open(url);
            HttpAnswer answer;
            if (cancel) answer = page.Submit("cancel");
            else if (identity != null)
            {
                var button = page.IdentityButtons().FirstOrDefault(b => b["text"].Contains(identity));
                if (button == null) throw new AssertionException("no identity button for " + identity);
                answer = page.Submit(button["id"]);
            }
            else answer = page.Submit("create-identity", new Dictionary<string, string> { { "display_name", name }, { "email", email } });
            Assert.True(answer.Status >= 300 && answer.Status < 400 && answer.Location != null,
                "the provider redirected: " + answer.Status + " " + answer.Text);
            return new Uri(new Uri(url), answer.Location).ToString();
        }

        /// <summary>The provider's identity with that email (as /emulator/identities lists it).</summary>
        public static Dictionary<string, object> IdentityByEmail(Emulator emu, string provider, string email)
        {
            var all = Json.Get(Json.Parse(emu.Admin("GET", "/emulator/identities?provider=" + Uri.EscapeDataString(provider))), "identities") as List<object>;
            var found = all.Cast<Dictionary<string, object>>()
                .Where(i => Json.Get(Json.Get(i, "profile"), "email") as string == email || Json.Get(i, "email") as string == email).ToList();
            Assert.Equal(1, found.Count, provider + " identities with " + email);
            return found[0];
        }
    }

    /// <summary>What an app's backend asks of the token API (the emulator's team key): users and sign-in tokens.</summary>
    internal static class TokenApi
    {
        public const string TeamKey = "jump-team-key";

        public static Dictionary<string, object> Call(Emulator emu, string method, string path, string json = null, string key = TeamKey)
        {
            var answer = Web.Call(emu.Url + path, null, method, new Dictionary<string, string> { { "x-jump-api-key", key } }, json ?? (method == "GET" ? null : "{}"));
            Assert.True(answer.Status < 300, method + " " + path + ": " + answer.Status + " " + answer.Text);
            return answer.Text.Length == 0 ? new Dictionary<string, object>() : (Dictionary<string, object>)Json.Parse(answer.Text);
        }

        public static string NewUser(Emulator emu)
        {
            return (string)Call(emu, "POST", "/v2/user", "{\"client_user_id\":\"" + Guid.NewGuid().ToString("N") + "\"}")["user_id"];
        }

        public static string Mint(Emulator emu, string userId)
        {
            return (string)Call(emu, "POST", "/v2/user/" + userId + "/sign_in_token")["sign_in_token"];
        }
    }
}
