// ConformanceRunner.Flows.cs - the scenarios of issue 41 (Tests/conformance/README.md, loopback_social_sign_in
// ... api_key_mode): the loopback social sign-in with a browser played over HTTP, host storage, the order of
// events, the merge flow and API-key mode.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using Jump.Tests;

namespace Jump.Conformance
{
    internal static partial class Runner
    {
        /// <summary>One request of the loopback scenario's browser, redirects not followed (tests/Http.cs):
        /// its HTTP status (location receives the Location header).</summary>
        static int BrowserCall(string url, IDictionary<string, object> form, out string location)
        {
            var answer = Web.Call(url, form == null ? null : form.ToDictionary(kv => kv.Key, kv => kv.Value as string),
                timeoutMs: 30000);
            location = answer.Location;
            return answer.Status;
        }

        /// <summary>The browser of the loopback sign-in: the provider's start page, its form posted to
        /// .../callback (the start URL's query kept) with the identity, then the provider's redirect to the
        /// listener; that landing page's HTTP status.</summary>
        static int Browse(string url, IDictionary<string, object> identity)
        {
            string location;
            int status = BrowserCall(url, null, out location);
            if (status != 200) throw new InvalidOperationException("the provider's start page answered " + status);
            var start = new UriBuilder(url);
            if (start.Path.EndsWith("/start", StringComparison.Ordinal))
                start.Path = start.Path.Substring(0, start.Path.Length - "/start".Length) + "/callback";
            string callback = start.Uri.ToString();
            status = BrowserCall(callback, identity, out location);
            if (status < 300 || status >= 400 || location == null)
                throw new InvalidOperationException("the provider answered " + status + " without a redirect");
            string ignored;
            return BrowserCall(new Uri(new Uri(callback), location).ToString(), null, out ignored);
        }

        static Dictionary<string, object> LoopbackSocialSignIn(Scenario s)
        {
            var identity = s.Object("identity");
            object landing = null;
            var landed = new ManualResetEventSlim(false);
            Action<string> openUrl = url => // hands the URL to the "browser" (a thread) and returns
            {
                new Thread(() =>
                {
                    try { landing = (long)Browse(url, identity); }
                    catch (Exception e) { Console.Error.WriteLine("browser: " + e.Message); }
                    finally { landed.Set(); }
                }) { IsBackground = true }.Start();
            };
            using (var client = s.Client())
            {
                SocialResult result;
                string status = Attempt(() => client.SocialSignInLoopback(s.String("provider"), openUrl,
                    TimeSpan.FromMilliseconds(Convert.ToInt64(s.Get("timeout_ms")))), out result);
                landed.Wait(10000);
                return Obj("status", status, "signed_in", client.IsSignedIn,
                    "is_new", result != null ? (object)result.IsNew : null,
                    "provider", result != null ? result.Provider : null,
                    "landing_status", landed.IsSet ? landing : null);
            }
        }

        /// <summary>Host storage in a dictionary, counting saves (the delegates of JumpConfig.SetStorage).</summary>
        sealed class MapStorage
        {
            public readonly Dictionary<string, byte[]> Entries = new Dictionary<string, byte[]>();
            public int Saves;

            public byte[] Load(string key)
            {
                lock (Entries) { byte[] data; return Entries.TryGetValue(key, out data) ? data : null; }
            }

            public void Save(string key, byte[] data)
            {
                lock (Entries) { Saves++; Entries[key] = data; }
            }

            public void Erase(string key)
            {
                lock (Entries) Entries.Remove(key);
            }
        }

        static Dictionary<string, object> HostStorage(Scenario s)
        {
            var store = new MapStorage();
            Func<JumpClient> hosted = () =>
            {
                using (var config = JumpConfig.FromJson(s.ConfigJson()).SetStorage(store.Load, store.Save, store.Erase))
                    return new JumpClient(config);
            };
            var o = new Dictionary<string, object>();
            using (var first = hosted())
            {
                SignInResult registered;
                o["register"] = Obj("status", Register(s, first, out registered));
            }
            lock (store.Entries) o["saved_entries"] = store.Saves >= 1 && store.Entries.Count > 0;
            using (var second = hosted())
            {
                string restored = Attempt(second.Restore);
                o["restored"] = Obj("status", restored, "signed_in", second.IsSignedIn, "record_email", RecordString(second, "/email"));
            }
            return o;
        }

        static Dictionary<string, object> EventOrder(Scenario s)
        {
            var events = new List<string>();
            var edit = s.Object("edit");
            string last = s.String("last_event");
            var o = new Dictionary<string, object>();
            using (var client = s.Client())
            {
                client.Event += (sender, e) => { lock (events) events.Add(e.Name); }; // on the delivery thread
                SignInResult registered;
                o["register"] = Obj("status", Register(s, client, out registered));
                using (var record = client.Record()) record.SetString((string)edit["path"], (string)edit["value"]);
                o["sync"] = Obj("status", Attempt(() => { client.Sync(); }));
                o["sign_out"] = Obj("status", Attempt(client.SignOut));
                var watch = Stopwatch.StartNew();
                long wait = Convert.ToInt64(s.Get("wait_ms"));
                while (watch.ElapsedMilliseconds < wait)
                {
                    lock (events) if (events.Contains(last)) break;
                    Thread.Sleep(10);
                }
                Thread.Sleep((int)Convert.ToInt64(s.Get("settle_ms")));
                lock (events) o["events"] = events.Cast<object>().ToList();
            }
            return o;
        }

        static Dictionary<string, object> MergeFlow(Scenario s)
        {
            var stage = s.Admin("stage");
            string account = (string)Json.Get(Json.Get(stage, "user"), "uuid");
            string token = (string)Json.Get(Json.Get(stage, "conflicting_identity"), "token");
            var o = new Dictionary<string, object>();
            using (var client = s.Client())
            {
                string status = Ok, mergeToken = null;
                try { client.SocialSignInNative(s.String("provider"), token); }
                catch (JumpException e)
                {
                    status = StatusOf(e);
                    var merge = e as JumpMergeRequiredException;
                    if (merge != null) mergeToken = merge.MergeToken;
                }
                o["social"] = Obj("status", status, "has_merge_token", !string.IsNullOrEmpty(mergeToken), "signed_in", client.IsSignedIn);
                SignInResult merged;
                status = Attempt(() => client.SignInMerge(s.String("login"), s.String("password"), mergeToken ?? ""), out merged);
                o["merge"] = Obj("status", status, "signed_in", client.IsSignedIn,
                    "same_uuid_as_password_account", merged != null && merged.Uuid == account,
                    "merged", merged != null ? (object)merged.Merged : null);
            }
            return o;
        }

        static Dictionary<string, object> ApiKeyMode(Scenario s)
        {
            string apiKey = (string)s.AdminResult("create_team");
            s.Values["${API_KEY}"] = apiKey;
            string userId = (string)s.AdminResult("create_user");
            s.Values["${USER_ID}"] = userId;
            var o = new Dictionary<string, object>();
            using (var client = s.Client())
            {
                o["use_api_key"] = Obj("status", Attempt(() => client.UseApiKey(apiKey, userId, s.String("environment"), s.String("region"))));
                var now = client.Status;
                o["status"] = Obj("use_api_key", now.UseApiKey, "use_sign_in_token", now.UseSignInToken,
                    "signed_in", now.SignedIn, "user_id_matches", now.UserId == userId);
                JumpHttpResponse answer;
                string status = Attempt(() => client.Request("GET", s.String("user_path")), out answer);
                o["request"] = Obj("status", status, "http_status", answer != null ? (object)(long)answer.StatusCode : null);
                status = Attempt(client.SignOut);
                now = client.Status;
                o["sign_out"] = Obj("status", status, "use_api_key", now.UseApiKey, "signed_in", now.SignedIn);
            }
            return o;
        }
    }
}
