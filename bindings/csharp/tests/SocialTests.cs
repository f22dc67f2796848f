// SocialTests.cs - the social error paths against the real emulator (as bindings/python/tests/test_social.py):
// native provider tokens, two-step registration (JumpRegistrationRequiredException -> RegisterSocial) and
// merge (JumpMergeRequiredException -> SignInMerge or a social sign-in with the merge token).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Jump.Tests
{
    internal static partial class Program
    {
        // The emulator's built-in Engage app (bindings/python/tests/conftest.py: ENGAGE_APP_ID).
        const string EngageAppId = "jump-default-engage";

        /// <summary>Config plus the emulator's Engage app (the same host), as conftest's social_config.</summary>
        static JumpConfig SocialConfig(bool thinRegistration = false, string storage = null)
        {
            return JumpConfig.FromDictionary(new Dictionary<string, object> {
                { "captureDomain", emu.Url },
                { "captureClientId", "jump-default-client" },
                { "captureAppId", "default-app" },
                { "captureFlowName", "standard" },
                { "captureLocale", "en-US" },
                { "captureFlowDomain", emu.Url },
                { "storageDirectory", storage ?? ":memory:" },
                { "requestTimeoutMs", 10000 },
                { "engageAppId", EngageAppId },
                { "engageDomain", emu.Url },
                { "captureEnableThinRegistration", thinRegistration },
            });
        }

        static JumpClient NewSocialClient(bool thinRegistration = false)
        {
            using (var config = SocialConfig(thinRegistration)) return new JumpClient(config);
        }

        /// <summary>The emulator's stand-in for a provider SDK's access token (the headless path of
        /// /signin/oauth_token): a JSON object with the profile.</summary>
        static string ProviderToken(string email, string name = "Nat Ive")
        {
            return Json.Write(new Dictionary<string, object> { { "email", email }, { "display_name", name } });
        }

        /// <summary>POST /emulator/merge_conflict: a user holding email that signs in through existingProvider
        /// ("capture": a password account) and a provider identity with the same email.</summary>
        static Dictionary<string, object> StageMergeConflict(string email, string existingProvider, string provider)
        {
            var body = new Dictionary<string, object> { { "email", email }, { "existing_provider", existingProvider }, { "provider", provider } };
            if (existingProvider == "capture") body["password"] = Password;
            return (Dictionary<string, object>)Json.Parse(emu.Admin("POST", "/emulator/merge_conflict", Json.Write(body)));
        }

        /// <summary>The identifiers of the server's record's profiles.</summary>
        static List<string> ServerIdentifiers(string uuid)
        {
            var result = new List<string>();
            var user = Json.Get(Json.Parse(emu.Admin("GET", "/emulator/users/" + uuid)), "user");
            var profiles = Json.Get(user, "profiles") as List<object>;
            if (profiles != null) foreach (var p in profiles) result.Add(Json.Get(p, "identifier") as string);
            return result;
        }

        [JumpTests]
        static class SocialTests
        {
            [JumpTest]
            public static void social_native_thin_registration_then_sign_in()
            {
                string email = UniqueEmail();
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    var r = c.SocialSignInNative("facebook", ProviderToken(email));
                    Assert.Equal("registered", r.Outcome, "outcome: " + r.Json);
                    Assert.True(r.IsNew && !r.Merged, "is_new, not merged");
                    Assert.Equal("facebook", r.Provider, "provider");
                    Assert.True(c.IsSignedIn && c.State.Uuid == r.Uuid, "signed in as the new user");
                    var ids = ServerIdentifiers(r.Uuid);
                    Assert.True(ids.Count == 1 && ids[0] == r.Identifier, "server profiles: " + string.Join(",", ids));
                    c.SignOut();
                    var again = c.SocialSignInNative("facebook", Json.Write(new Dictionary<string, object> { { "identifier", r.Identifier } }));
                    Assert.Equal("signed_in", again.Outcome, "outcome again");
                    Assert.True(!again.IsNew && again.Uuid == r.Uuid, "the same user");
                }
            }

            [JumpTest]
            public static void social_native_refused_arguments()
            {
                using (var c = NewSocialClient())
                {
                    var e = Assert.Throws<JumpInvalidArgumentException>(() => c.SocialSignInNative("myspace", ProviderToken(UniqueEmail())), "unknown provider");
                    Assert.Equal("provider", Json.Get(e.Detail, "argument") as string, "argument");
                    Assert.Throws<ArgumentException>(() => c.SocialSignInNative("google", "a\0b"), "NUL in the token");
                    Assert.True(!c.IsSignedIn, "not signed in");
                }
            }

            [JumpTest]
            public static void social_two_step_registration()
            {
                string email = UniqueEmail();
                using (var c = NewSocialClient())
                {
                    var e = Assert.Throws<JumpRegistrationRequiredException>(
                        () => c.SocialSignInNative("google", ProviderToken(email, "Grace Hopper")), "native sign-in of a new identity");
                    Assert.Equal(JumpStatus.RegistrationRequired, e.Status, "Status");
                    Assert.Equal("JUMP_E_REGISTRATION_REQUIRED", e.StatusName, "StatusName");
                    Assert.True(!string.IsNullOrEmpty(e.SocialRegistrationToken), "social_registration_token: " + e.DetailJson);
                    Assert.True(e.Message.IndexOf(e.SocialRegistrationToken, StringComparison.Ordinal) < 0, "the token is not in the message");
                    Assert.Equal("google", e.Provider, "provider");
                    var prereg = e.PreregRecord;
                    Assert.Equal(email, prereg["email"] as string, "prereg_record email: " + e.PreregRecordJson);
                    Assert.Equal("Grace Hopper", prereg["displayName"] as string, "prereg_record displayName");
                    Assert.True(e.PreregFieldsJson.Contains(email), "prereg_fields: " + e.PreregFieldsJson);
                    Assert.True(e.MergeToken == null, "no merge token");
                    Assert.True(!c.IsSignedIn, "not signed in");

                    var bad = e.PreregRecord;
                    bad["email"] = "not an email address";
                    var v = Assert.Throws<JumpValidationException>(() => c.RegisterSocial(e.SocialRegistrationToken, bad), "invalid attributes");
                    Assert.True(v.InvalidFields.ContainsKey("emailAddress"), "invalid fields: " + v.DetailJson);
                    Assert.True(!c.IsSignedIn, "still not signed in");

                    prereg["givenName"] = "Grace";
                    prereg["familyName"] = "Hopper";
                    var r = c.RegisterSocial(e.SocialRegistrationToken, prereg); // the token survives a validation failure
                    Assert.True(r.IsNew && !string.IsNullOrEmpty(r.Uuid), "is_new: " + r.Json);
                    Assert.True(c.IsSignedIn && c.State.Uuid == r.Uuid, "signed in as the new user");
                    string server = emu.Admin("GET", "/emulator/users/" + r.Uuid);
                    Assert.True(server.Contains(email) && server.Contains("Hopper"), "the server's user: " + server);
                    Assert.Equal(1, ServerIdentifiers(r.Uuid).Count, "one linked identity");

                    c.SignOut();
                    Assert.Throws<JumpInvalidArgumentException>(() => c.RegisterSocial(e.SocialRegistrationToken, e.PreregRecordJson), "a spent token");
                    Assert.True(!c.IsSignedIn, "a spent token signs nobody in");
                }
            }

            [JumpTest]
            public static void social_two_step_registration_async()
            {
                string email = UniqueEmail();
                using (var c = NewSocialClient())
                {
                    c.StartBackgroundPump();
                    var e = Assert.Throws<JumpRegistrationRequiredException>(
                        () => Await(c.SocialSignInNativeAsync("linkedin", ProviderToken(email, "Lin Ked"))), "async native sign-in");
                    Assert.True(!string.IsNullOrEmpty(e.SocialRegistrationToken), "token in a queued completion: " + e.DetailJson);
                    Assert.Equal(email, e.PreregRecord["email"] as string, "prereg_record in a queued completion");
                    var r = Await(c.RegisterSocialAsync(e.SocialRegistrationToken, e.PreregRecordJson));
                    Assert.True(r.IsNew && c.IsSignedIn, "registered and signed in: " + r.Json);
                    Assert.True(emu.Admin("GET", "/emulator/users/" + r.Uuid).Contains(email), "the server has the user");
                }
            }

            [JumpTest]
            public static void merge_through_traditional_sign_in()
            {
                string email = UniqueEmail();
                var stage = StageMergeConflict(email, "capture", "facebook");
                string uuid = Json.Get(stage["user"], "uuid") as string;
                string conflictingToken = Json.Get(stage["conflicting_identity"], "token") as string;
                string conflictingId = Json.Get(stage["conflicting_identity"], "identifier") as string;
                using (var c = NewSocialClient())
                {
                    var e = Assert.Throws<JumpMergeRequiredException>(() => c.SocialSignInNative("facebook", conflictingToken), "conflicting sign-in");
                    Assert.Equal(JumpStatus.MergeRequired, e.Status, "Status");
                    Assert.Equal("JUMP_E_MERGE_REQUIRED", e.StatusName, "StatusName");
                    Assert.Equal("capture", e.ExistingProvider, "existing_provider");
                    Assert.Equal("facebook", e.ConflictingProvider, "conflicting_provider");
                    Assert.True(!string.IsNullOrEmpty(e.MergeToken), "merge_token: " + e.DetailJson);
                    Assert.True(e.Message.IndexOf(e.MergeToken, StringComparison.Ordinal) < 0, "the merge token is not in the message");
                    Assert.True(e.SocialRegistrationToken == null, "no registration token");
                    Assert.True(!c.IsSignedIn && ServerIdentifiers(uuid).Count == 0, "nothing changed");

                    var bad = Assert.Throws<JumpBadCredentialsException>(() => c.SignInMerge(email, "not the password", e.MergeToken), "wrong password");
                    Assert.True(bad.DetailJson.IndexOf("not the password", StringComparison.Ordinal) < 0, "no password in the detail");
                    Assert.True(!c.IsSignedIn && ServerIdentifiers(uuid).Count == 0, "a wrong password merges nothing");

                    // The merge token survives the wrong password; the right one merges (pumped like a frame loop).
                    var task = c.SignInMergeAsync(email, Password, e.MergeToken);
                    Harness.PumpUntil(c, task);
                    var r = task.Result;
                    Assert.True(r.Merged && !r.IsNew, "merged: " + r.Json);
                    Assert.Equal(uuid, r.Uuid, "uuid");
                    Assert.True(c.IsSignedIn, "signed in");
                    var ids = ServerIdentifiers(uuid);
                    Assert.True(ids.Count == 1 && ids[0] == conflictingId, "server profiles: " + string.Join(",", ids));

                    c.SignOut();
                    Assert.Equal(uuid, c.SocialSignInNative("facebook", conflictingToken).Uuid, "facebook now signs in to the account");
                    c.SignOut();
                    Assert.Equal(uuid, c.SignIn(email, Password).Uuid, "the password still signs in");
                }
            }

            [JumpTest]
            public static void merge_through_social_sign_in()
            {
                string email = UniqueEmail();
                var stage = StageMergeConflict(email, "google", "facebook");
                string uuid = Json.Get(stage["user"], "uuid") as string;
                string existingToken = Json.Get(stage["existing_identity"], "token") as string;
                string existingId = Json.Get(stage["existing_identity"], "identifier") as string;
                string conflictingToken = Json.Get(stage["conflicting_identity"], "token") as string;
                string conflictingId = Json.Get(stage["conflicting_identity"], "identifier") as string;
                using (var c = NewSocialClient(thinRegistration: true))
                {
                    var e = Assert.Throws<JumpMergeRequiredException>(() => c.SocialSignInNative("facebook", conflictingToken), "conflicting sign-in");
                    Assert.Equal("google", e.ExistingProvider, "existing_provider");
                    Assert.Equal("facebook", e.ConflictingProvider, "conflicting_provider");
                    Assert.True(!string.IsNullOrEmpty(e.MergeToken), "merge_token");
                    Assert.True(!c.IsSignedIn, "not signed in");

                    // The same through a queued completion (the token is judged afresh): the same typed detail.
                    var conflict = c.SocialSignInNativeAsync("facebook", conflictingToken);
                    Harness.PumpUntil(c, conflict);
                    var ea = Assert.Throws<JumpMergeRequiredException>(() => conflict.Wait(), "async conflicting sign-in");
                    Assert.True(ea.ExistingProvider == "google" && ea.ConflictingProvider == "facebook" && !string.IsNullOrEmpty(ea.MergeToken),
                        "async detail: existing " + ea.ExistingProvider + ", conflicting " + ea.ConflictingProvider);

                    var r = c.SocialSignInNative(e.ExistingProvider, existingToken, mergeToken: ea.MergeToken);
                    Assert.Equal("signed_in", r.Outcome, "outcome: " + r.Json);
                    Assert.True(r.Merged && !r.IsNew, "merged");
                    Assert.Equal(uuid, r.Uuid, "uuid");
                    Assert.Equal("google", r.Provider, "provider");
                    var ids = ServerIdentifiers(uuid);
                    Assert.True(ids.Count == 2 && ids.Contains(existingId) && ids.Contains(conflictingId), "server profiles: " + string.Join(",", ids));

                    c.SignOut();
                    var again = c.SocialSignInNative("facebook", conflictingToken);
                    Assert.True(again.Outcome == "signed_in" && again.Uuid == uuid && !again.Merged, "facebook now signs in: " + again.Json);
                }
            }
        }
    }
}
