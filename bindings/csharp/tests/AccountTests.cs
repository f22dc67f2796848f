// AccountTests.cs - several accounts in one client (config key "accounts" = "multiple"), against the emulator (as
// bindings/python/tests/test_accounts.py): two users signed in, listed, switched without a password (blocking and
// async), one removed while the other stays signed in and usable, NotFound on an unknown uuid.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;

namespace Jump.Tests
{
    internal static partial class Program
    {
        /// <summary>A user made on the emulator (its admin API) with a displayName: its email and uuid.</summary>
        static KeyValuePair<string, string> AdminUser(string displayName)
        {
            string email = UniqueEmail();
            var user = Json.Parse(emu.Admin("POST", "/emulator/users", Json.Write(new Dictionary<string, object> {
                { "email", email }, { "password", Password },
                { "record", new Dictionary<string, object> { { "displayName", displayName } } } })));
            return new KeyValuePair<string, string>(email, Json.Get(Json.Get(user, "user"), "uuid") as string);
        }

        /// <summary>A client with accounts "multiple" on a storage directory of its own.</summary>
        static JumpClient MultiClient()
        {
            using (var config = JumpConfig.FromDictionary(new Dictionary<string, object> {
                { "captureDomain", emu.Url }, { "captureClientId", "jump-default-client" }, { "captureAppId", "default-app" },
                { "captureFlowName", "standard" }, { "captureLocale", "en-US" }, { "captureFlowDomain", emu.Url },
                { "storageDirectory", NewStorage() }, { "secretStore", "file" }, { "requestTimeoutMs", 10000 },
                { ConfigKeys.Accounts, "multiple" } }))
                return new JumpClient(config);
        }

        /// <summary>uuid -> active, of the saved accounts.</summary>
        static Dictionary<string, bool> AccountUuids(JumpClient c)
        {
            return c.Accounts().Accounts.ToDictionary(a => a.Uuid, a => a.Active);
        }

        [JumpTests]
        static class AccountTests
        {
            [JumpTest]
            public static void single_mode_lists_the_signed_in_user()
            {
                var a = AdminUser("Single A");
                var b = AdminUser("Single B");
                using (var c = NewClient(NewStorage()))
                {
                    var none = c.Accounts();
                    Assert.Equal(0, none.Accounts.Count, "no account before a sign-in");
                    Assert.Equal<string>(null, none.Active, "no active account");
                    c.SignIn(a.Key, Password);
                    var listed = AccountUuids(c);
                    Assert.Equal(1, listed.Count, "one account");
                    Assert.True(listed[a.Value], "the signed-in user, active");
                    Assert.Throws<JumpNotFoundException>(() => c.SwitchAccount(b.Value), "switch to a user never signed in");
                }
            }

            [JumpTest]
            public static void two_users_switch_without_a_password_and_one_is_removed()
            {
                var a = AdminUser("Multi A");
                var b = AdminUser("Multi B");
                using (var c = MultiClient())
                {
                    var switched = new List<string>();
                    c.Event += (sender, e) =>
                    {
                        if (e.Name == JumpEventEvent.AccountSwitched) lock (switched) switched.Add(e.Uuid);
                    };
                    c.SignIn(a.Key, Password);
                    c.SignIn(b.Key, Password);

                    var listed = c.Accounts();
                    Assert.Equal(2, listed.Accounts.Count, "two saved accounts");
                    Assert.Equal(b.Value, listed.Active, "the last sign-in is active");
                    Assert.Equal(b.Value, listed.Accounts[0].Uuid, "the active one first");
                    var first = listed.Accounts.Single(x => x.Uuid == a.Value);
                    Assert.Equal(a.Key, first.Email, "email");
                    Assert.Equal("Multi A", first.DisplayName, "displayName");
                    Assert.True(first.SignedIn && !first.Active && !first.ReauthenticationRequired, "A signed in, not active");
                    Assert.True(first.LastUsed.HasValue, "lastUsed");

                    emu.ClearCounters();
                    c.SwitchAccount(a.Value);
                    Assert.True(c.IsSignedIn, "signed in after the switch");
                    Assert.Equal(a.Value, c.State.Uuid, "state uuid after switching to A");
                    using (var record = c.Record()) Assert.Equal(a.Key, record.GetString("/email"), "A's record");
                    Assert.True(c.SwitchAccountAsync(b.Value).Wait(15000), "async switch completes");
                    Assert.Equal(b.Value, c.State.Uuid, "state uuid after switching to B");
                    using (var record = c.Record()) Assert.Equal(b.Key, record.GetString("/email"), "B's record");
                    c.SwitchAccount(a.Value);
                    Assert.Equal(0L, emu.Count("POST /oauth/auth_native_traditional"), "no password, no sign-in request");
                    // B's sign-in made B active (an event too); the last three are the switches
                    string expected = string.Join(",", a.Value, b.Value, a.Value);
                    var deadline = DateTime.UtcNow.AddSeconds(5);
                    while (DateTime.UtcNow < deadline)
                    {
                        lock (switched)
                            if (switched.Count >= 3 && string.Join(",", switched.Skip(switched.Count - 3)) == expected) break;
                        Thread.Sleep(20);
                    }
                    lock (switched)
                        Assert.Equal(expected, string.Join(",", switched.Skip(switched.Count - 3)),
                            "account_switched events");

                    c.RemoveAccount(b.Value);
                    var left = AccountUuids(c);
                    Assert.Equal(1, left.Count, "one account left");
                    Assert.True(left[a.Value], "A, active");
                    Assert.True(c.IsSignedIn, "A still signed in");
                    using (var record = c.Record()) record.SetString("/aboutMe", "still usable");
                    c.Sync();
                    Assert.Equal("still usable", Json.Get(emu.User(a.Value), "aboutMe") as string, "A's sync reached the server");

                    var e1 = Assert.Throws<JumpNotFoundException>(() => c.SwitchAccount(b.Value), "switch to the removed account");
                    Assert.Equal(JumpStatus.NotFound, e1.Status, "status");
                    Assert.Throws<JumpNotFoundException>(() => c.SwitchAccountAsync("no-such-uuid").Wait(15000), "async switch to an unknown uuid");
                    Assert.Throws<JumpNotFoundException>(() => c.RemoveAccount("no-such-uuid"), "remove an unknown uuid");
                    Assert.Equal(a.Value, c.State.Uuid, "a refused switch changes nothing");
                }
            }

            [JumpTest]
            public static void removing_the_active_account_signs_no_one_else_in()
            {
                var a = AdminUser("Active A");
                var b = AdminUser("Active B");
                using (var c = MultiClient())
                {
                    c.SignIn(a.Key, Password);
                    c.SignIn(b.Key, Password);
                    c.RemoveAccount(b.Value);
                    Assert.True(!c.IsSignedIn, "no user active");
                    Assert.Equal<string>(null, c.Accounts().Active, "no active uuid");
                    var left = AccountUuids(c);
                    Assert.True(left.Count == 1 && !left[a.Value], "A saved, not active");
                    c.SwitchAccount(a.Value);
                    Assert.True(c.IsSignedIn, "signed in after switching to A");
                    Assert.Equal(a.Value, c.State.Uuid, "A active");
                }
            }
        }
    }
}
