// Results.Social.cs - the results of the social calls: the Engage configuration, providers, a begun browser
// sign-in, linked identities and sharing.
using System;
using System.Collections.Generic;
using J = Jump.Json;

namespace Jump
{
    /// <summary>The result of LoadEngageConfig: {"changed","from_cache"}.</summary>
    public sealed class EngageConfigResult
    {
        internal EngageConfigResult(string json)
        {
            var d = J.Parse(json ?? "{}");
            Changed = J.GetBool(d, "changed");
            FromCache = J.GetBool(d, "from_cache");
        }
        /// <summary>True when the server sent a new configuration.</summary>
        public bool Changed { get; private set; }
        /// <summary>True when the cached copy is in use (a 304, or an unreachable server).</summary>
        public bool FromCache { get; private set; }
    }

    /// <summary>A sign-in provider of the Engage app.</summary>
    public sealed class SignInProvider
    {
        internal SignInProvider(object d)
        {
            Name = J.GetString(d, "name");
            FriendlyName = J.GetString(d, "friendly_name");
            RequiresInput = J.GetBool(d, "requires_input");
            InputPrompt = J.GetString(d, "input_prompt");
            InputLabel = J.GetString(d, "input_label");
            Custom = J.GetString(d, "custom");
        }
        /// <summary>The name SocialBegin takes ("facebook", a custom provider's id).</summary>
        public string Name { get; private set; }
        /// <summary>The name to show ("Facebook").</summary>
        public string FriendlyName { get; private set; }
        /// <summary>True when SocialBegin needs the user's input (OpenID).</summary>
        public bool RequiresInput { get; private set; }
        /// <summary>What to ask the user, for such a provider.</summary>
        public string InputPrompt { get; private set; }
        /// <summary>The input field's label.</summary>
        public string InputLabel { get; private set; }
        /// <summary>null for the server's providers, "openid" or "saml" for the app's custom ones.</summary>
        public string Custom { get; private set; }
    }

    /// <summary>A sharing provider of the Engage app.</summary>
    public sealed class SharingProvider
    {
        internal SharingProvider(object d)
        {
            Name = J.GetString(d, "name");
            FriendlyName = J.GetString(d, "friendly_name");
            PropertiesJson = J.GetText(d, "properties");
        }
        /// <summary>The name Share takes.</summary>
        public string Name { get; private set; }
        /// <summary>The name to show.</summary>
        public string FriendlyName { get; private set; }
        /// <summary>Engage's social_sharing_properties (JSON text), or null.</summary>
        public string PropertiesJson { get; private set; }
    }

    /// <summary>The result of GetProviders: {"sign_in":[..],"sharing":[..],"hide_tagline"}.</summary>
    public sealed class SocialProviders
    {
        internal SocialProviders(string json)
        {
            Json = json;
            var d = J.Parse(json);
            var signIn = new List<SignInProvider>();
            var list = J.GetList(d, "sign_in");
            if (list != null) foreach (var p in list) signIn.Add(new SignInProvider(p));
            SignIn = signIn;
            var sharing = new List<SharingProvider>();
            list = J.GetList(d, "sharing");
            if (list != null) foreach (var p in list) sharing.Add(new SharingProvider(p));
            Sharing = sharing;
            HideTagline = J.GetBool(d, "hide_tagline");
        }
        /// <summary>The sign-in providers: the server's order, the app's custom providers last.</summary>
        public IReadOnlyList<SignInProvider> SignIn { get; private set; }
        /// <summary>The sharing providers.</summary>
        public IReadOnlyList<SharingProvider> Sharing { get; private set; }
        /// <summary>True when the app asks not to show Engage's tagline.</summary>
        public bool HideTagline { get; private set; }
        /// <summary>The providers as libjump gave them (JSON text).</summary>
        public string Json { get; private set; }
    }

    /// <summary>A begun browser sign-in: {"url","state","completion","completion_prefix"}.</summary>
    public sealed class SocialBeginResult
    {
        internal SocialBeginResult(string json)
        {
            var d = J.Parse(json);
            Url = J.GetString(d, "url");
            State = J.GetString(d, "state");
            Completion = J.GetString(d, "completion");
            CompletionPrefix = J.GetString(d, "completion_prefix");
        }
        /// <summary>Open this in the system browser.</summary>
        public string Url { get; private set; }
        /// <summary>The sign-in's state (it ties the completion to this begin).</summary>
        public string State { get; private set; }
        /// <summary>"device" (the browser ends on Engage's /signin/device) or "redirect" (on the redirect URI
        /// with ?token=).</summary>
        public string Completion { get; private set; }
        /// <summary>A browser URL starting with this completes the sign-in: pass it to SocialComplete.</summary>
        public string CompletionPrefix { get; private set; }
    }

    /// <summary>A linked identity of the signed-in user: {"identifier","domain","provider","display_name",
    /// "email","path"}.</summary>
    public sealed class LinkedProfile
    {
        LinkedProfile(object d)
        {
            Identifier = J.GetString(d, "identifier");
            Domain = J.GetString(d, "domain");
            Provider = J.GetString(d, "provider");
            DisplayName = J.GetString(d, "display_name");
            Email = J.GetString(d, "email");
            Path = J.GetString(d, "path");
        }

        internal static IReadOnlyList<LinkedProfile> ListOf(string json)
        {
            var result = new List<LinkedProfile>();
            var list = J.Parse(json) as List<object>;
            if (list != null) foreach (var p in list) result.Add(new LinkedProfile(p));
            return result;
        }

        /// <summary>The identity (what UnlinkAccount takes).</summary>
        public string Identifier { get; private set; }
        /// <summary>The provider's domain ("facebook.com").</summary>
        public string Domain { get; private set; }
        /// <summary>The provider ("facebook").</summary>
        public string Provider { get; private set; }
        /// <summary>The name the provider gave.</summary>
        public string DisplayName { get; private set; }
        /// <summary>The email the provider gave.</summary>
        public string Email { get; private set; }
        /// <summary>The profile's element path in the record ("/profiles#12").</summary>
        public string Path { get; private set; }
    }

    /// <summary>How a share went for one provider: {"ok","method"} or {"ok":false,"error_class","code","message"}.</summary>
    public sealed class ShareOutcome
    {
        internal ShareOutcome(object d)
        {
            Ok = J.GetBool(d, "ok");
            Method = J.GetString(d, "method");
            ErrorClass = J.GetString(d, "error_class");
            Code = J.GetLong(d, "code");
            Message = J.GetString(d, "message");
        }

        internal static IReadOnlyDictionary<string, ShareOutcome> MapOf(object results)
        {
            var map = new Dictionary<string, ShareOutcome>();
            var d = results as Dictionary<string, object>;
            if (d != null) foreach (var kv in d) map[kv.Key] = new ShareOutcome(kv.Value);
            return map;
        }

        /// <summary>True when the provider took the share.</summary>
        public bool Ok { get; private set; }
        /// <summary>"activity" or "set_status", when it worked.</summary>
        public string Method { get; private set; }
        /// <summary>When it failed: "invalid_parameter", "reauthenticate", "rate_limit", "media", "duplicate",
        /// "character_limit", "provider", "not_signed_in" or "failed".</summary>
        public string ErrorClass { get; private set; }
        /// <summary>Engage's error code, when it failed.</summary>
        public long? Code { get; private set; }
        /// <summary>Engage's message, when it failed.</summary>
        public string Message { get; private set; }
    }

    /// <summary>The result of Share: {"results":{"provider":{..}}}.</summary>
    public sealed class ShareResult
    {
        internal ShareResult(string json)
        {
            Json = json;
            Results = ShareOutcome.MapOf(J.Get(J.Parse(json), "results"));
        }
        /// <summary>Each provider's outcome.</summary>
        public IReadOnlyDictionary<string, ShareOutcome> Results { get; private set; }
        /// <summary>The result as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }
    }

    /// <summary>The result of ShareContent: {"email":{"subject","body","urls"},"sms":{"message","urls"}}.</summary>
    public sealed class ShareContentResult
    {
        internal ShareContentResult(string json)
        {
            Json = json;
            var d = J.Parse(json);
            var email = J.Get(d, "email");
            var sms = J.Get(d, "sms");
            EmailSubject = J.GetString(email, "subject");
            EmailBody = J.GetString(email, "body");
            EmailUrls = Urls(email);
            SmsMessage = J.GetString(sms, "message");
            SmsUrls = Urls(sms);
        }

        static IReadOnlyDictionary<string, string> Urls(object part)
        {
            var map = new Dictionary<string, string>();
            var urls = J.GetObject(part, "urls");
            if (urls != null) foreach (var kv in urls) if (kv.Value is string) map[kv.Key] = (string)kv.Value;
            return map;
        }

        /// <summary>The email's subject.</summary>
        public string EmailSubject { get; private set; }
        /// <summary>The email's body.</summary>
        public string EmailBody { get; private set; }
        /// <summary>The email's long URLs and their short forms.</summary>
        public IReadOnlyDictionary<string, string> EmailUrls { get; private set; }
        /// <summary>The SMS text.</summary>
        public string SmsMessage { get; private set; }
        /// <summary>The SMS's long URLs and their short forms.</summary>
        public IReadOnlyDictionary<string, string> SmsUrls { get; private set; }
        /// <summary>The content as libjump gave it (JSON text).</summary>
        public string Json { get; private set; }
    }
}
