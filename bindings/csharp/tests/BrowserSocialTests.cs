// BrowserSocialTests.cs - the browser flow of social sign-in driven over HTTP (as
// bindings/python/tests/test_social.py, test_social_share.py and test_social_engage_only.py): providers and
// the Engage configuration, SocialBegin/SocialComplete, completion URLs that do not belong, cancel on the
// provider, linking and unlinking, sharing, and Engage-only mode.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Jump.Tests
{
    internal static partial class Program
    {
        const string Article = "https://example.com/articles/42?ref=libjump";

        /// <summary>SocialBegin, the provider's page, SocialComplete: a browser sign-in.</summary>
        static SocialResult BrowserSignIn(JumpClient c, string provider, string name = null, string email = null,
            string identity = null, bool link = false)
        {
            var begun = c.SocialBegin(provider, link: link);
            string url = FakeIdP.Finish(begun.Url, name, email, identity);
            Assert.True(url.StartsWith(begun.CompletionPrefix, StringComparison.Ordinal), "the completion URL " + url + " starts with " + begun.CompletionPrefix);
            return c.SocialComplete(url);
        }

        static List<object> Activities()
        {
            return (List<object>)Json.Get(Json.Parse(emu.Admin("GET", "/emulator/engage/activities")), "activities");
        }

        [JumpTests]
        static class BrowserSocialTests
        {
            [JumpTest]
            public static void social_providers_and_engage_config()
            {
                var order = new[] { "yahoo", "twitter", "facebook", "openid" };
                string app = "order-app-" + Guid.NewGuid().ToString("N").Substring(0, 8);
                emu.Admin("POST", "/emulator/engage_apps", Json.Write(new Dictionary<string, object> {
                    { "engage_app_id", app }, { "api_key", app + "-key" }, { "providers", order }, { "sharing_providers", new[] { "twitter", "facebook" } } }));
                using (var config = SocialConfig())
                {
                    config.Set("engageAppId", app);
                    using (var c = new JumpClient(config))
                    {
                        var loaded = c.LoadEngageConfig();
                        Assert.True(loaded.Changed && !loaded.FromCache, "a first load");
                        var providers = c.GetProviders();
                        Assert.Equal(string.Join(",", order), string.Join(",", providers.SignIn.Select(p => p.Name)), "the server's order");
                        Assert.Equal("twitter,facebook", string.Join(",", providers.Sharing.Select(p => p.Name)), "sharing providers");
                        var openid = providers.SignIn.First(p => p.Name == "openid");
                        Assert.True(openid.RequiresInput && openid.Custom == null && !string.IsNullOrEmpty(openid.FriendlyName), "openid needs input");
                        var again = c.LoadEngageConfig();
                        Assert.True(!again.Changed && again.FromCache, "a 304 keeps the cached copy");
                    }
                }
                using (var config = SocialConfig())
                {
                    config.Set("engageAppId", "no-such-engage-app");
                    using (var c = new JumpClient(config)) Assert.Throws<JumpNotFoundException>(() => c.LoadEngageConfig(), "an unknown Engage app");
                }
            }

            [JumpTest]
            public static void social_browser_thin_registration_then_existing_identity()
            {
                string email = UniqueEmail();
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    var begun = c.SocialBegin("facebook");
                    Assert.True(begun.Completion == "device" && Web.Query(begun.Url)["state"] == begun.State, "a device sign-in: " + begun.Url);
                    var r = c.SocialComplete(FakeIdP.Finish(begun.Url, "Ada Facebook", email));
                    var identity = FakeIdP.IdentityByEmail(emu, "facebook", email);
                    Assert.True(r.Outcome == "registered" && r.IsNew && r.Provider == "facebook" && !r.Merged, "outcome: " + r.Json);
                    Assert.Equal(identity["identifier"] as string, r.Identifier, "identifier");
                    var linked = c.GetLinkedProfiles().Single();
                    Assert.True(linked.Identifier == r.Identifier && linked.Provider == "facebook" && linked.Email == email
                        && linked.DisplayName == "Ada Facebook" && linked.Domain == "facebook.com" && linked.Path.StartsWith("/profiles#", StringComparison.Ordinal),
                        "linked profile " + linked.Identifier + " " + linked.Path);
                    c.SignOut();
                    var again = BrowserSignIn(c, "facebook", identity: email);
                    Assert.True(again.Outcome == "signed_in" && !again.IsNew && again.Uuid == r.Uuid, "the same user: " + again.Json);
                }
            }

            [JumpTest]
            public static void social_browser_two_step_registration_async()
            {
                string email = UniqueEmail();
                using (var c = NewSocialClient())
                {
                    var begun = c.SocialBegin("linkedin");
                    var task = c.SocialCompleteAsync(FakeIdP.Finish(begun.Url, "Lin Ked", email));
                    var e = Assert.Throws<JumpRegistrationRequiredException>(() => Await(task), "a new identity");
                    Assert.True(!string.IsNullOrEmpty(e.SocialRegistrationToken) && e.PreregRecord["email"] as string == email, "prereg: " + e.PreregRecordJson);
                    var r = Await(c.RegisterSocialAsync(e.SocialRegistrationToken, e.PreregRecord));
                    Assert.True(r.IsNew && c.IsSignedIn, "registered: " + r.Json);
                    Assert.Equal(email, Json.Get(emu.User(r.Uuid), "email") as string, "the server's user");
                }
            }

            [JumpTest]
            public static void social_begin_options_and_refusals()
            {
                using (var c = NewSocialClient())
                {
                    var e = Assert.Throws<JumpValidationException>(() => c.SocialBegin("openid"), "openid needs input");
                    Assert.True(e.InvalidFields.ContainsKey("input"), "invalid_fields input");
                    Assert.Equal("https://me.example/", Web.Query(c.SocialBegin("openid", input: "https://me.example/").Url)["openid_identifier"], "input reaches the URL");
                    var redirect = c.SocialBegin("google", redirectUri: "http://127.0.0.1:9/callback");
                    Assert.True(redirect.Completion == "redirect" && redirect.CompletionPrefix.StartsWith("http://127.0.0.1:9/callback", StringComparison.Ordinal), "redirect: " + redirect.CompletionPrefix);
                    Assert.True(Web.Query(c.SocialBegin("google", forceReauth: true).Url).ContainsKey("force_reauth"), "force_reauth");
                    Assert.Equal("provider", Assert.Throws<JumpInvalidArgumentException>(() => c.SocialBegin("myspace"), "unknown").Argument, "argument");
                    Assert.Throws<JumpNotSignedInException>(() => c.SocialBegin("facebook", link: true), "link needs a session");
                }
            }

            [JumpTest]
            public static void social_complete_refuses_urls_that_do_not_belong()
            {
                using (var c = NewSocialClient(thinRegistration: true))
                using (var other = NewSocialClient(thinRegistration: true))
                {
                    var begun = c.SocialBegin("facebook");
                    string url = FakeIdP.Finish(begun.Url, "Bel Ong", UniqueEmail());
                    var uri = new Uri(url);
                    var wrong = new UriBuilder(uri) { Path = "/elsewhere" }.Uri.ToString();
                    Assert.Equal("wrong_location", Assert.Throws<JumpInvalidArgumentException>(() => c.SocialComplete(wrong), "elsewhere").Reason, "reason");
                    Assert.Equal("unknown_state", Assert.Throws<JumpInvalidArgumentException>(() => other.SocialComplete(url), "another client's").Reason, "reason");
                    Assert.True(!c.IsSignedIn && !other.IsSignedIn, "nobody signed in");
                    Assert.Equal("registered", c.SocialComplete(url).Outcome, "the right URL still completes it");
                    Assert.Equal("unknown_state", Assert.Throws<JumpInvalidArgumentException>(() => c.SocialComplete(url), "used").Reason, "a used URL");
                }
            }

            [JumpTest]
            public static void social_user_cancels_on_the_provider()
            {
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    var begun = c.SocialBegin("twitter");
                    string url = FakeIdP.Finish(begun.Url, cancel: true);
                    var e = Assert.Throws<JumpCancelledException>(() => c.SocialComplete(url), "cancelled");
                    Assert.True(e.Reason == "user_canceled" && !c.IsSignedIn, "reason " + e.Reason);
                }
            }

            [JumpTest]
            public static void social_link_and_unlink()
            {
                string email = UniqueEmail();
                string uuid = Json.Get(Json.Get(Json.Parse(emu.Admin("POST", "/emulator/users",
                    Json.Write(new Dictionary<string, object> { { "email", email }, { "password", Password } }))), "user"), "uuid") as string;
                using (var c = NewSocialClient())
                {
                    c.SignIn(email, Password);
                    Assert.Equal(0, c.GetLinkedProfiles().Count, "no identity yet");
                    var google = c.SocialSignInNative("google", ProviderToken(UniqueEmail()), link: true);
                    Assert.True(google.Outcome == "linked" && google.Uuid == uuid, "linked natively: " + google.Json);
                    var facebook = BrowserSignIn(c, "facebook", "Fa Ce", UniqueEmail(), link: true);
                    Assert.True(facebook.Outcome == "linked" && facebook.Uuid == uuid, "linked through the browser: " + facebook.Json);
                    Assert.Equal(google.Identifier + "," + facebook.Identifier, string.Join(",", c.GetLinkedProfiles().Select(p => p.Identifier)), "both");
                    c.UnlinkAccount(google.Identifier);
                    Assert.Equal(facebook.Identifier, string.Join(",", ServerIdentifiers(uuid)), "the server dropped google");
                    Await(c.UnlinkAccountAsync(facebook.Identifier));
                    Assert.True(c.GetLinkedProfiles().Count == 0 && ServerIdentifiers(uuid).Count == 0, "a password account may drop its last identity");
                    Assert.Throws<JumpNotFoundException>(() => c.UnlinkAccount(facebook.Identifier), "unknown now");
                }
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    var only = c.SocialSignInNative("facebook", ProviderToken(UniqueEmail()));
                    var e = Assert.Throws<JumpInvalidArgumentException>(() => c.UnlinkAccount(only.Identifier), "the last identity of a social account");
                    Assert.Equal("last_identity", e.Reason, "reason");
                }
            }

            [JumpTest]
            public static void social_share_activity_status_and_failures()
            {
                string email = UniqueEmail();
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    var facebook = BrowserSignIn(c, "facebook", "Sha Rer", email);
                    BrowserSignIn(c, "twitter", "Sha Rer", email, link: true);
                    emu.Admin("DELETE", "/emulator/engage/activities");
                    var shared = c.Share(new Dictionary<string, object> { { "action", "read an article" }, { "url", Article }, { "title", "Answer" } }, new[] { "facebook" });
                    Assert.True(shared.Results["facebook"].Ok && shared.Results["facebook"].Method == "activity", "shared: " + shared.Json);
                    var stored = Activities().Single();
                    Assert.True(Json.Get(stored, "provider") as string == "facebook" && Json.Get(stored, "identifier") as string == facebook.Identifier, "Engage has it");
                    var status = Await(c.ShareAsync(new Dictionary<string, object> { { "action", "is trying libjump" }, { "user_generated_content", "Hello" } }, new[] { "twitter" }));
                    Assert.True(status.Results["twitter"].Ok && status.Results["twitter"].Method == "set_status", "a status: " + status.Json);
                    var e = Assert.Throws<JumpServerException>(() => c.Share(new Dictionary<string, object> { { "action", "tries" }, { "url", Article } },
                        new[] { "facebook", "linkedin" }), "linkedin was never signed in");
                    Assert.True(e.ShareResults["facebook"].Ok && !e.ShareResults["linkedin"].Ok && e.ShareResults["linkedin"].ErrorClass == "not_signed_in",
                        "results: " + e.DetailJson);
                    emu.Admin("POST", "/emulator/engage/share_errors", "{\"provider\":\"facebook\",\"code\":6,\"msg\":\"Twitter duplicate status\",\"count\":1}");
                    var dup = Assert.Throws<JumpServerException>(() => c.Share(new Dictionary<string, object> { { "action", "tries" }, { "url", Article } }, new[] { "facebook" }), "an Engage error");
                    Assert.True(dup.ShareResults["facebook"].Code == 6 && dup.ShareResults["facebook"].Message == "Twitter duplicate status", "code and message");
                }
            }

            [JumpTest]
            public static void social_share_content_shortens_urls()
            {
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    BrowserSignIn(c, "facebook", "Con Tent", UniqueEmail());
                    const string smsLink = "https://example.com/s/very/long/path/for/sms";
                    var content = c.ShareContent(new Dictionary<string, object> {
                        { "action", "read an article" }, { "url", Article }, { "title", "The answer" }, { "description", "It is 42" },
                        { "email", new Dictionary<string, object> { { "subject", "Look at this" }, { "message_body", "Read " + Article }, { "urls", new[] { Article } } } },
                        { "sms", new Dictionary<string, object> { { "message", "See this" }, { "urls", new[] { smsLink } } } } });
                    Assert.True(content.EmailSubject == "Look at this" && content.SmsMessage.StartsWith("See this", StringComparison.Ordinal), "content: " + content.Json);
                    foreach (var pair in new[] { new[] { Article, content.EmailUrls[Article] }, new[] { smsLink, content.SmsUrls[smsLink] } })
                    {
                        Assert.True(pair[1] != pair[0] && pair[1].StartsWith(emu.Url + "/s/", StringComparison.Ordinal), "shortened: " + pair[1]);
                        var answer = Web.Call(pair[1]);
                        Assert.True(answer.Status == 302 && answer.Location == pair[0], "the short URL leads back: " + answer.Location);
                    }
                }
            }

            [JumpTest]
            public static void social_engage_only_mode_and_token_url()
            {
                string email = UniqueEmail();
                using (var config = JumpConfig.FromDictionary(new Dictionary<string, object> {
                    { "engageAppId", EngageAppId }, { "engageDomain", emu.Url }, { "storageDirectory", ":memory:" }, { "requestTimeoutMs", 10000 } }))
                using (var c = new JumpClient(config))
                {
                    var r = BrowserSignIn(c, "google", "Eve Engage", email);
                    Assert.True(r.Outcome == "authenticated" && r.Provider == "google" && r.Token != null && r.Token.Length == 40, "outcome: " + r.Outcome);
                    Assert.True(r.DeviceToken != null && r.TokenUrlResponse == null && r.ProfileJson.Contains(email), "device token, profile, no token URL");
                    Assert.True(!c.IsSignedIn, "no Capture session in this mode");
                    Assert.Throws<JumpNotSignedInException>(() => c.GetLinkedProfiles(), "no record");
                    Assert.Throws<JumpInvalidArgumentException>(() => c.SetTokenUrl("ftp://example.com/token"), "not http");
                    Assert.Throws<JumpInvalidArgumentException>(() => c.SetTokenUrl("http://example.com/token"), "plain http off loopback");
                    // A path the emulator does not serve: its 404 is an answer for the app to read, not a failure.
                    c.SetTokenUrl(emu.Url + "/no-such-token-url");
                    var answered = BrowserSignIn(c, "facebook", "Tok Url", UniqueEmail());
                    Assert.True(answered.TokenUrlResponse != null && answered.TokenUrlResponse.StatusCode == 404, "the token URL's answer: " + answered.Json);
                    c.SetTokenUrl(null);
                    Assert.True(BrowserSignIn(c, "facebook", "No Url", UniqueEmail()).TokenUrlResponse == null, "removed");
                }
            }
        }
    }
}
