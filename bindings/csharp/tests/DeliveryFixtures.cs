// DeliveryFixtures.cs - what DeliveryTests.cs drives: one real call of each async method of JumpClient (awaited
// with nobody pumping), the --exit-probe program, and counts of this process's threads and open files.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace Jump.Tests
{
    internal static partial class Program
    {
        /// <summary>How long one await may take before it counts as a hang.</summary>
        static readonly TimeSpan AwaitLimit = TimeSpan.FromSeconds(10);

        /// <summary>"Name(Type,Type)": one key per public async overload of JumpClient.</summary>
        static string Signature(MethodInfo m)
        {
            return m.Name + "(" + string.Join(",", m.GetParameters().Select(p => p.ParameterType.Name)) + ")";
        }

        static List<string> AsyncMethodsOfJumpClient()
        {
            return typeof(JumpClient).GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly)
                .Where(m => typeof(Task).IsAssignableFrom(m.ReturnType))
                .Select(Signature).OrderBy(s => s, StringComparer.Ordinal).ToList();
        }

        /// <summary>One real call of each async overload, awaited with nobody pumping. Each adds the clients
        /// it makes to `owned` (disposed by the runner, also after a hang); setup runs before the await with
        /// the synchronous calls.</summary>
        static Dictionary<string, Func<List<IDisposable>, Task>> AwaitCases()
        {
            Func<List<IDisposable>, JumpClient> client = owned => { var c = NewClient(); lock (owned) owned.Add(c); return c; };
            Func<List<IDisposable>, JumpClient> social = owned => { var c = NewSocialClient(); lock (owned) owned.Add(c); return c; };
            Func<JumpClient, JumpRegistrationRequiredException> needRegistration = c =>
            {
                try { c.SocialSignInNative("google", ProviderToken(UniqueEmail(), "Grace Hopper")); }
                catch (JumpRegistrationRequiredException e) { return e; }
                throw new AssertionException("a new identity without thin registration signed in");
            };
            return new Dictionary<string, Func<List<IDisposable>, Task>>
            {
                { "SignInAsync(String,String,CancellationToken)", async owned =>
                {
                    var account = NewAccount();
                    var r = await client(owned).SignInAsync(account.Key, Password);
                    Assert.Equal(account.Value, r.Uuid, "uuid");
                } },
                { "RegisterTraditionalAsync(IDictionary`2,String,CancellationToken)", async owned =>
                {
                    string email = UniqueEmail();
                    var c = client(owned);
                    var r = await c.RegisterTraditionalAsync(new Dictionary<string, object> {
                        { "email", email }, { "displayName", "Ada L" }, { "givenName", "Ada" }, { "familyName", "Lovelace" } }, Password);
                    Assert.True(r.IsNew && c.IsSignedIn, "registered and signed in: " + r.Json);
                } },
                { "SocialSignInNativeAsync(String,String,String,String,Boolean,CancellationToken)", async owned =>
                {
                    var c = NewSocialClient(thinRegistration: true);
                    lock (owned) owned.Add(c);
                    var r = await c.SocialSignInNativeAsync("facebook", ProviderToken(UniqueEmail()));
                    Assert.Equal("registered", r.Outcome, "outcome: " + r.Json);
                } },
                { "RegisterSocialAsync(String,IDictionary`2,CancellationToken)", async owned =>
                {
                    var c = social(owned);
                    var e = needRegistration(c);
                    var r = await c.RegisterSocialAsync(e.SocialRegistrationToken, e.PreregRecord);
                    Assert.True(r.IsNew && c.IsSignedIn, "registered: " + r.Json);
                } },
                { "RegisterSocialAsync(String,String,CancellationToken)", async owned =>
                {
                    var c = social(owned);
                    var e = needRegistration(c);
                    var r = await c.RegisterSocialAsync(e.SocialRegistrationToken, e.PreregRecordJson);
                    Assert.True(r.IsNew && c.IsSignedIn, "registered: " + r.Json);
                } },
                { "SignInMergeAsync(String,String,String,CancellationToken)", async owned =>
                {
                    string email = UniqueEmail();
                    var stage = StageMergeConflict(email, "capture", "facebook");
                    var c = social(owned);
                    string mergeToken = null;
                    try { c.SocialSignInNative("facebook", Json.Get(stage["conflicting_identity"], "token") as string); }
                    catch (JumpMergeRequiredException e) { mergeToken = e.MergeToken; }
                    Assert.True(mergeToken != null, "a merge token");
                    var r = await c.SignInMergeAsync(email, Password, mergeToken);
                    Assert.True(r.Merged, "merged: " + r.Json);
                } },
                { "SyncAsync(CancellationToken)", async owned =>
                {
                    var account = NewAccount();
                    var c = client(owned);
                    c.SignIn(account.Key, Password);
                    using (var record = c.Record()) record.SetString("/aboutMe", "synced without a pump");
                    using (var cts = new CancellationTokenSource()) // a token that can cancel, never cancelled
                    {
                        var r = await c.SyncAsync(cts.Token);
                        Assert.True(r.Changed.Contains("/aboutMe"), "synced paths: " + r.Json);
                    }
                } },
                { "FetchRecordAsync(CancellationToken)", async owned =>
                {
                    var account = NewAccount();
                    var c = client(owned);
                    c.SignIn(account.Key, Password);
                    await c.FetchRecordAsync();
                    using (var record = c.Record()) Assert.Equal("Ada", record.GetString("/givenName"), "fetched record");
                } },
                { "SwitchAccountAsync(String,CancellationToken)", async owned =>
                {
                    var first = NewAccount();
                    var second = NewAccount();
                    var c = MultiClient();
                    lock (owned) owned.Add(c);
                    c.SignIn(first.Key, Password);
                    c.SignIn(second.Key, Password);
                    await c.SwitchAccountAsync(first.Value);
                    Assert.Equal(first.Value, c.State.Uuid, "the first account is active again");
                } },
                { "SocialCompleteAsync(String,CancellationToken)", async owned =>
                {
                    var c = NewSocialClient(thinRegistration: true);
                    lock (owned) owned.Add(c);
                    var begun = c.SocialBegin("facebook");
                    var r = await c.SocialCompleteAsync(FakeIdP.Finish(begun.Url, "Aw Ait", UniqueEmail()));
                    Assert.Equal("registered", r.Outcome, "outcome: " + r.Json);
                } },
                { "SocialSignInLoopbackAsync(String,Action`1,Nullable`1,String,Boolean,Boolean,String,CancellationToken)", async owned =>
                {
                    var c = NewSocialClient(thinRegistration: true);
                    lock (owned) owned.Add(c);
                    var browser = new LoopbackBrowser("Aw Ait", UniqueEmail());
                    var r = await c.SocialSignInLoopbackAsync("google", browser.Open, TimeSpan.FromSeconds(9));
                    Assert.Equal("registered", r.Outcome, "outcome: " + r.Json);
                } },
                { "SignInWithTokenAsync(String,CancellationToken)", async owned =>
                {
                    var c = NewTokenClient();
                    lock (owned) owned.Add(c);
                    string user = TokenApi.NewUser(emu);
                    var r = await c.SignInWithTokenAsync(TokenApi.Mint(emu, user));
                    Assert.Equal(user, r.UserId, "user_id");
                } },
                { "RequestAsync(String,String,IDictionary`2,String,CancellationToken)", async owned =>
                {
                    var c = NewTokenClient();
                    lock (owned) owned.Add(c);
                    string user = TokenApi.NewUser(emu);
                    c.SignInWithToken(TokenApi.Mint(emu, user));
                    var r = await c.RequestAsync("PUT", "/v2/user/" + user + "/profile",
                        new Dictionary<string, string> { { "Content-Type", "application/json" } }, "{\"n\":1}");
                    Assert.Equal(200, r.StatusCode, "PUT: " + r.Json);
                } },
                { "RequestAsync(String,String,IDictionary`2,Byte[],CancellationToken)", async owned =>
                {
                    var c = NewTokenClient();
                    lock (owned) owned.Add(c);
                    string user = TokenApi.NewUser(emu);
                    c.SignInWithToken(TokenApi.Mint(emu, user));
                    var r = await c.RequestAsync("GET", "/v2/user/" + user + "/profile", null, (byte[])null);
                    Assert.Equal(200, r.StatusCode, "GET: " + r.Json);
                } },
                { "GetCredentialsAsync(TimeSpan,Boolean,CancellationToken)", async owned =>
                {
                    var account = NewAccount();
                    var c = client(owned);
                    c.SignIn(account.Key, Password);
                    var r = await c.GetCredentialsAsync(TimeSpan.FromMinutes(1), forceRefresh: true);
                    Assert.True(r.Refreshed && r.Kind == "capture", "refreshed: " + r);
                } },
                { "GetCredentialsAsync(Int64,Boolean,CancellationToken)", async owned =>
                {
                    var account = NewAccount();
                    var c = client(owned);
                    c.SignIn(account.Key, Password);
                    var r = await c.GetCredentialsAsync(60);
                    Assert.True(!r.Refreshed && r.AccessToken == c.GetAccessToken(), "no refresh: " + r);
                } },
                { "UnlinkAccountAsync(String,CancellationToken)", async owned =>
                {
                    var account = NewAccount();
                    var c = social(owned);
                    c.SignIn(account.Key, Password);
                    var linked = c.SocialSignInNative("google", ProviderToken(UniqueEmail()), link: true);
                    await c.UnlinkAccountAsync(linked.Identifier);
                    Assert.Equal(0, c.GetLinkedProfiles().Count, "unlinked");
                } },
                { "ShareAsync(IDictionary`2,IEnumerable`1,CancellationToken)", async owned =>
                {
                    var c = NewSocialClient(thinRegistration: true);
                    lock (owned) owned.Add(c);
                    BrowserSignIn(c, "facebook", "Sha Re", UniqueEmail());
                    var r = await c.ShareAsync(new Dictionary<string, object> { { "action", "awaits" }, { "url", Article } }, new[] { "facebook" });
                    Assert.True(r.Results["facebook"].Ok, "shared: " + r.Json);
                } },
                { "UpdateProfileAsync(IDictionary`2,CancellationToken)", async owned =>
                {
                    string email, uuid;
                    var c = SignedInFormUser(out email, out uuid);
                    lock (owned) owned.Add(c);
                    await c.UpdateProfileAsync(new Dictionary<string, object> { { "displayName", "Awaited" } });
                    Assert.Equal("Awaited", Json.Get(emu.User(uuid), "displayName") as string, "updated");
                } },
                { "UpdateProfileAsync(String,CancellationToken)", async owned =>
                {
                    string email, uuid;
                    var c = SignedInFormUser(out email, out uuid);
                    lock (owned) owned.Add(c);
                    await c.UpdateProfileAsync("{\"displayName\":\"Awaited Text\"}");
                    Assert.Equal("Awaited Text", Json.Get(emu.User(uuid), "displayName") as string, "updated");
                } },
                { "ChangePasswordAsync(String,String,CancellationToken)", async owned =>
                {
                    string email, uuid;
                    var c = SignedInFormUser(out email, out uuid);
                    lock (owned) owned.Add(c);
                    await c.ChangePasswordAsync(Password, NewPassword);
                    Assert.True(CanSignIn(email, NewPassword), "changed");
                } },
                { "ForgotPasswordAsync(String,CancellationToken)", async owned =>
                {
                    string email, uuid;
                    var c = SignedInFormUser(out email, out uuid);
                    lock (owned) owned.Add(c);
                    await c.ForgotPasswordAsync(email);
                    Assert.Equal(1, Emails(email).Count, "a reset mail");
                } },
                { "ResendVerificationEmailAsync(String,CancellationToken)", async owned =>
                {
                    string email, uuid;
                    var c = SignedInFormUser(out email, out uuid);
                    lock (owned) owned.Add(c);
                    await c.ResendVerificationEmailAsync(email);
                    Assert.Equal(1, Emails(email, "verification").Count, "a verification mail");
                } },
            };
        }

        /// <summary>JumpTests.exe --exit-probe URL: a console program as the issue describes it (awaits with no
        /// pump, never disposes its client), which prints when Main returns.</summary>
        static int ExitProbe(string url)
        {
            var settings = new Dictionary<string, object> {
                { "captureDomain", url }, { "captureFlowDomain", url }, { "captureClientId", "jump-default-client" },
                { "captureAppId", "default-app" }, { "captureFlowName", "standard" }, { "captureLocale", "en-US" },
                { "storageDirectory", ":memory:" } };
            Func<Task> run = async () =>
            {
                var client = new JumpClient(JumpConfig.FromDictionary(settings));
                client.Event += (sender, e) => { };
                await client.RegisterTraditionalAsync(new Dictionary<string, object> {
                    { "email", UniqueEmail() }, { "displayName", "Exit Probe" } }, Password);
                await client.FetchRecordAsync();
            };
            run().GetAwaiter().GetResult();
            // Mono 6.8 itself may hang at exit for up to 60 s when a thread-pool worker parks just as Main
            // returns (seen ~2 in 100 runs of a program without libjump): let the worker that ran the last
            // continuation park first, so that only the binding's own threads are measured.
            Thread.Sleep(300);
            Console.WriteLine("main returns at " + DateTime.UtcNow.Ticks);
            Console.Out.Flush();
            return 0;
        }

        /// <summary>How many threads of this process are named like the binding's pumping threads (Mono gives
        /// a managed thread's name to the OS thread, cut to 15 characters).</summary>
        static int PumpThreads()
        {
            int n = 0;
            foreach (var task in Directory.GetDirectories("/proc/self/task"))
            {
                try { if (File.ReadAllText(Path.Combine(task, "comm")).StartsWith("jump-csharp-eve", StringComparison.Ordinal)) n++; }
                catch (IOException) { } // the thread ended meanwhile
            }
            return n;
        }

        /// <summary>How many threads this process has (/proc/self/task), and their names, for a message.</summary>
        static int ProcessThreads(out string names)
        {
            var comms = new List<string>();
            foreach (var task in Directory.GetDirectories("/proc/self/task"))
            {
                try { comms.Add(File.ReadAllText(Path.Combine(task, "comm")).Trim()); }
                catch (IOException) { } // the thread ended meanwhile
            }
            names = string.Join(", ", comms.GroupBy(c => c).OrderBy(g => g.Key, StringComparer.Ordinal)
                .Select(g => g.Count() == 1 ? g.Key : g.Key + " x" + g.Count()));
            return comms.Count;
        }

        static int OpenFds() { return Directory.GetFileSystemEntries("/proc/self/fd").Length; }

        // In methods of their own (not inlined) so no reference to the clients stays in the test's frame.
        [MethodImpl(MethodImplOptions.NoInlining)]
        static void MakeAndForgetClients(int count, string email)
        {
            for (int i = 0; i < count; i++)
            {
                var c = NewClient();
                if (!c.SignInAsync(email, Password).Wait(AwaitLimit)) throw new TimeoutException("sign-in");
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static Task<SignInResult> SignInWithAClientNobodyKeeps(string email)
        {
            return NewClient().SignInAsync(email, Password);
        }
    }
}
