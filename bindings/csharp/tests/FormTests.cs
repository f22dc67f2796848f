// FormTests.cs - the profile and password forms against the emulator (as bindings/python/tests/test_forms.py):
// update profile, change password, forgot password (the reset mail) and resend verification, with their
// async forms.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Jump.Tests
{
    internal static partial class Program
    {
        const string NewPassword = "brand new secret 7";

        /// <summary>A user made on the emulator (its admin API) and signed in through a new client.</summary>
        static JumpClient SignedInFormUser(out string email, out string uuid)
        {
            email = UniqueEmail();
            var user = Json.Parse(emu.Admin("POST", "/emulator/users", Json.Write(new Dictionary<string, object> {
                { "email", email }, { "password", Password },
                { "record", new Dictionary<string, object> { { "displayName", "Old Name" }, { "givenName", "Old" } } } })));
            uuid = Json.Get(Json.Get(user, "user"), "uuid") as string;
            var c = NewClient();
            c.SignIn(email, Password);
            return c;
        }

        static bool CanSignIn(string email, string password)
        {
            using (var other = NewClient())
            {
                try { other.SignIn(email, password); return true; }
                catch (JumpBadCredentialsException) { return false; }
            }
        }

        static List<object> Emails(string to, string kind = null)
        {
            var all = Json.Get(Json.Parse(emu.Admin("GET", "/emulator/emails")), "emails") as List<object> ?? new List<object>();
            return all.Where(m => string.Equals(Json.Get(m, "to") as string, to, StringComparison.OrdinalIgnoreCase)
                && (kind == null || Json.Get(m, "kind") as string == kind)).ToList();
        }

        [JumpTests]
        static class FormTests
        {
            [JumpTest]
            public static void update_profile_sends_the_form_and_refetches()
            {
                string email, uuid;
                using (var c = SignedInFormUser(out email, out uuid))
                using (var record = c.Record())
                {
                    record.SetString("/aboutMe", "edited before"); // an unsynced field travels with the form
                    emu.ClearCounters();
                    c.UpdateProfile(new Dictionary<string, object> { { "displayName", "New Name" }, { "birthday", "1985-04-03" } });
                    var stored = emu.User(uuid);
                    Assert.Equal("New Name", Json.Get(stored, "displayName") as string, "server displayName");
                    Assert.Equal("edited before", Json.Get(stored, "aboutMe") as string, "server aboutMe");
                    Assert.Equal(1L, emu.Count("POST /oauth/update_profile_native"), "one form post");
                    Assert.Equal("New Name", record.GetString("/displayName"), "the record was fetched again");
                    Assert.Equal(0, record.ChangedPaths().Length, "nothing left unsynced");
                    c.UpdateProfile("{\"familyName\":\"From JSON text\"}");
                    Assert.Equal("From JSON text", Json.Get(emu.User(uuid), "familyName") as string, "JSON text attributes");
                }
            }

            [JumpTest]
            public static void update_profile_validation_and_refusals()
            {
                string email, uuid;
                using (var c = SignedInFormUser(out email, out uuid))
                {
                    var e = Assert.Throws<JumpValidationException>(() => c.UpdateProfile(new Dictionary<string, object> {
                        { "displayName", new string('x', 80) }, { "birthday", "2999-01-01" } }), "too long, in the future");
                    Assert.True(e.InvalidFields.ContainsKey("displayName") && e.InvalidFields.ContainsKey("birthdate"),
                        "invalid fields: " + string.Join(",", e.InvalidFields.Keys));
                    using (var record = c.Record()) Assert.Equal("Old Name", record.GetString("/displayName"), "a refused value is not kept");
                    var unknown = Assert.Throws<JumpInvalidArgumentException>(() => c.UpdateProfile(new Dictionary<string, object> { { "noSuchAttribute", 1 } }), "unknown");
                    Assert.True(unknown.Message.Contains("noSuchAttribute"), "names it: " + unknown.Message);
                    c.SignOut();
                    Assert.Throws<JumpNotSignedInException>(() => c.UpdateProfile((string)null), "signed out");
                }
            }

            [JumpTest]
            public static void change_password_right_and_wrong_current()
            {
                string email, uuid;
                using (var c = SignedInFormUser(out email, out uuid))
                {
                    var e = Assert.Throws<JumpValidationException>(() => c.ChangePassword("not the password", NewPassword), "wrong current");
                    Assert.True(e.InvalidFields.ContainsKey("currentPassword"), "names the field");
                    Assert.True(!e.DetailJson.Contains("not the password"), "no password in the detail");
                    Assert.Throws<JumpInvalidArgumentException>(() => c.ChangePassword("", NewPassword), "an empty current password");
                    c.ChangePassword(Password, NewPassword);
                }
                Assert.True(CanSignIn(email, NewPassword) && !CanSignIn(email, Password), "the new password signs in, the old does not");
            }

            [JumpTest]
            public static void forgot_password_mails_a_reset_link()
            {
                string email, uuid;
                SignedInFormUser(out email, out uuid).Dispose();
                using (var c = NewClient())
                {
                    var e = Assert.Throws<JumpValidationException>(() => c.ForgotPassword(UniqueEmail()), "an unknown address");
                    Assert.True(e.InvalidFields.ContainsKey("forgotPasswordForm"), "a form-level message: " + e.DetailJson);
                    c.ForgotPassword(email);
                }
                var mails = Emails(email);
                Assert.Equal(1, mails.Count, "one mail");
                Assert.True(Json.Get(mails[0], "kind") as string != "verification" && !string.IsNullOrEmpty(Json.Get(mails[0], "code") as string),
                    "a reset mail with a code: " + Json.Write(mails[0]));
            }

            [JumpTest]
            public static void resend_verification_email_link_verifies()
            {
                string email, uuid;
                SignedInFormUser(out email, out uuid).Dispose();
                Assert.True(Json.Get(emu.User(uuid), "emailVerified") == null, "not verified yet");
                using (var c = NewClient()) c.ResendVerificationEmail(email);
                var mails = Emails(email, "verification");
                Assert.Equal(1, mails.Count, "one verification mail");
                Web.Call(Json.Get(mails[0], "link") as string);
                Assert.True(Json.Get(emu.User(uuid), "emailVerified") != null, "the link verified the email");
            }

            [JumpTest]
            public static void form_async_variants()
            {
                string email, uuid;
                using (var c = SignedInFormUser(out email, out uuid))
                {
                    Await(c.UpdateProfileAsync(new Dictionary<string, object> { { "displayName", "Async Name" } }));
                    Assert.Equal("Async Name", Json.Get(emu.User(uuid), "displayName") as string, "async update");
                    Assert.Throws<JumpInvalidArgumentException>(() => Await(c.UpdateProfileAsync("not json")), "bad JSON");
                    var wrong = Assert.Throws<JumpValidationException>(() => Await(c.ChangePasswordAsync("wrong password 1", NewPassword)), "wrong current");
                    Assert.True(wrong.InvalidFields.ContainsKey("currentPassword"), "invalid fields in a queued completion");
                    Await(c.ChangePasswordAsync(Password, NewPassword));
                    Await(c.ForgotPasswordAsync(email));
                    Await(c.ResendVerificationEmailAsync(email));
                    Assert.Equal(2, Emails(email).Count, "the reset and the verification mails");
                }
                Assert.True(CanSignIn(email, NewPassword), "the async change took");
            }
        }

        static void Await(System.Threading.Tasks.Task task, int timeoutMs = 15000)
        {
            if (!task.Wait(timeoutMs)) throw new TimeoutException("the task did not complete");
        }
    }
}
