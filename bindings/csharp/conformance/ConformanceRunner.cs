// ConformanceRunner.cs - the C# binding's conformance runner (Tests/conformance/README.md is its contract): plays
// one scenario of Tests/conformance/scenarios.json with Jump.dll's public API against $JUMP_EMULATOR_URL and
// prints one outcome line. It judges nothing: Tests/conformance/run.py compares the line with "expect".
//   mono build/csharp/ConformanceRunner.exe <scenario name>      (built by build.sh)
using System;
using System.Collections.Generic;
using System.Linq;

namespace Jump.Conformance
{
    internal static partial class Runner
    {
        const string Ok = "JUMP_OK";

        static int Main(string[] args)
        {
            string name = args.Length > 0 ? args[0] : "";
            var line = new Dictionary<string, object> { { "scenario", name } };
            try
            {
                var s = new Scenario(name);
                Func<Scenario, Dictionary<string, object>> play;
                if (s.Steps != null) play = PlaySteps;
                else if (!Scenarios.TryGetValue(name, out play)) throw new ArgumentException("no such scenario in this runner");
                line["outcome"] = play(s);
            }
            catch (Exception e)
            {
                line["error"] = e.GetType().Name + ": " + e.Message;
                Console.Error.WriteLine(e);
            }
            Console.Out.WriteLine(Json.Write(line));
            Console.Out.Flush();
            return 0;
        }

        static readonly Dictionary<string, Func<Scenario, Dictionary<string, object>>> Scenarios =
            new Dictionary<string, Func<Scenario, Dictionary<string, object>>>
        {
            { "register_sign_in_bad_password", RegisterSignInBadPassword },
            { "edit_sync_plural_append", EditSyncPluralAppend },
            { "refresh_after_clock_moves", RefreshAfterClockMoves },
            { "passing_server_error", PassingServerError },
            { "sign_out_restart", SignOutRestart },
            { "sign_in_token_session", SignInTokenSession },
            { "cancel_async", CancelAsync },
            { "status_errors", StatusErrors },
            { "several_accounts", SeveralAccounts },
            { "loopback_social_sign_in", LoopbackSocialSignIn },
            { "host_storage", HostStorage },
            { "event_order", EventOrder },
            { "merge_flow", MergeFlow },
            { "api_key_mode", ApiKeyMode },
        };

        /// <summary>The status name of a failure: the JumpException's own; JUMP_E_CANCELLED for a Task that ended
        /// Canceled (the binding's idiom for jump_request_cancel).</summary>
        static string StatusOf(Exception e)
        {
            var agg = e as AggregateException;
            if (agg != null && agg.InnerExceptions.Count == 1) e = agg.InnerException;
            var jump = e as JumpException;
            if (jump != null) return jump.StatusName;
            if (e is OperationCanceledException) return "JUMP_E_CANCELLED";
            throw new InvalidOperationException("not a binding error: " + e.GetType().Name + ": " + e.Message, e);
        }

        /// <summary>The status name of a call: JUMP_OK, or its error's; result receives what it returned.</summary>
        static string Attempt<T>(Func<T> call, out T result)
        {
            result = default(T);
            try
            {
                result = call();
                return Ok;
            }
            catch (Exception e) when (e is JumpException || e is AggregateException || e is OperationCanceledException)
            {
                return StatusOf(e);
            }
        }

        static string Attempt(Action call)
        {
            object ignored;
            return Attempt<object>(() => { call(); return null; }, out ignored);
        }

        static string RecordString(JumpClient client, string path)
        {
            using (var record = client.Record()) return record.GetString(path);
        }

        static string Register(Scenario s, JumpClient client, out SignInResult result)
        {
            var user = s.Object("user");
            var password = s.String("password");
            return Attempt(() => client.RegisterTraditional(user, password), out result);
        }

        static Dictionary<string, object> Obj(params object[] pairs)
        {
            var d = new Dictionary<string, object>();
            for (int i = 0; i < pairs.Length; i += 2) d[(string)pairs[i]] = pairs[i + 1];
            return d;
        }

        static Dictionary<string, object> RegisterSignInBadPassword(Scenario s)
        {
            var o = new Dictionary<string, object>();
            string login = (string)s.Object("user")[s.String("sign_in_with")];
            using (var client = s.Client())
            {
                SignInResult registered, signed;
                string status = Register(s, client, out registered);
                o["register"] = Obj("status", status, "is_new", registered != null ? (object)registered.IsNew : null, "signed_in", client.IsSignedIn);
                o["sign_out"] = Obj("status", Attempt(client.SignOut), "signed_in", client.IsSignedIn);
                status = Attempt(() => client.SignIn(login, s.String("password")), out signed);
                o["sign_in"] = Obj("status", status, "is_new", signed != null ? (object)signed.IsNew : null,
                    "same_uuid", signed != null && registered != null && signed.Uuid == registered.Uuid, "signed_in", client.IsSignedIn);
                o["record_email"] = RecordString(client, "/email");
                status = Attempt(() => client.SignIn(login, s.String("wrong_password")), out signed);
                o["wrong_password"] = Obj("status", status, "signed_in", client.IsSignedIn);
            }
            return o;
        }

        static Dictionary<string, object> EditSyncPluralAppend(Scenario s)
        {
            var o = new Dictionary<string, object>();
            var edit = s.Object("edit");
            var append = s.Object("append");
            string plural = (string)append["plural"], editPath = (string)edit["path"];
            using (var client = s.Client())
            {
                SignInResult registered;
                Register(s, client, out registered);
                using (var record = client.Record()) record.SetString(editPath, (string)edit["value"]);
                SyncResult synced;
                string status = Attempt(client.Sync, out synced);
                o["sync_edit"] = Obj("status", status, "changed", synced != null ? synced.Changed : null);
                using (var record = client.Record())
                    o["append_path"] = record.Append(plural, (Dictionary<string, object>)append["element"]);
                status = Attempt(client.Sync, out synced);
                var renamed = synced != null ? synced.Renamed : new Dictionary<string, string>();
                var targets = renamed.Values.ToList();
                o["sync_append"] = Obj("status", status, "changed", synced != null ? synced.Changed : null,
                    "renamed_from", renamed.Keys.OrderBy(k => k, StringComparer.Ordinal).ToList(),
                    "renamed_to_server_id", targets.Count > 0 && targets.All(p => IsServerElement(p, plural)));
                o["fetch"] = Obj("status", Attempt(client.FetchRecord));
                string[] paths;
                using (var record = client.Record())
                {
                    o["edited_value"] = record.GetString(editPath);
                    o["plural_count"] = record.ElementCount(plural);
                    paths = record.ElementPaths(plural);
                    o["plural_members"] = paths.Select(p => record.GetString(p + "/" + (string)append["member"])).ToList();
                }
                o["element_paths_are_renamed"] = paths.SequenceEqual(targets);
                o["unsynced_changes"] = client.State.UnsyncedChanges;
            }
            return o;
        }

        /// <summary>Whether path is "&lt;plural&gt;#n" with n a positive integer (an id the server gave).</summary>
        static bool IsServerElement(string path, string plural)
        {
            if (!path.StartsWith(plural + "#", StringComparison.Ordinal)) return false;
            string id = path.Substring(plural.Length + 1);
            return id.Length > 0 && id[0] != '0' && id.All(c => c >= '0' && c <= '9');
        }

        static Dictionary<string, object> RefreshAfterClockMoves(Scenario s)
        {
            using (var client = s.Client())
            {
                SignInResult registered;
                Register(s, client, out registered);
                s.Admin("clear_counters");
                s.Admin("advance_clock");
                string fetched = Attempt(client.FetchRecord);
                return Obj("fetch", Obj("status", fetched),
                    "refresh_requests", s.Counter("counters", s.String("refresh_counter")),
                    "signed_in", client.IsSignedIn, "record_email", RecordString(client, "/email"));
            }
        }

        static Dictionary<string, object> SeveralAccounts(Scenario s)
        {
            var o = new Dictionary<string, object>();
            var users = ((List<object>)s.Get("users")).Cast<Dictionary<string, object>>().ToList();
            var ann = users[0];
            var bob = users[1];
            string password = s.String("password");
            using (var client = s.Client())
            {
                foreach (var user in users) // each registration signs its user in (a second account with "multiple")
                {
                    SignInResult registered;
                    string status = Attempt(() => client.RegisterTraditional(user, password), out registered);
                    if (status != Ok) throw new InvalidOperationException("registering a user: " + status);
                }
                foreach (var user in users) client.SignIn((string)user["email"], password);
                var saved = client.Accounts();
                o["after_two_sign_ins"] = AccountFacts(saved);
                var uuidOf = saved.Accounts.ToDictionary(a => a.Email, a => a.Uuid);
                string switched = Attempt(() => client.SwitchAccount(uuidOf[(string)ann["email"]]));
                o["switch"] = Obj("status", switched, "record_email", RecordString(client, "/email"));
                string removed = Attempt(() => client.RemoveAccount(uuidOf[(string)bob["email"]]));
                var left = AccountFacts(client.Accounts());
                o["remove"] = Obj("status", removed, "count", left["count"], "signed_in", client.IsSignedIn,
                    "active_email", left["active_email"]);
                o["switch_removed"] = Obj("status", Attempt(() => client.SwitchAccount(uuidOf[(string)bob["email"]])));
            }
            return o;
        }

        /// <summary>count, active_email (null when no account is active) and emails (sorted) of a list.</summary>
        static Dictionary<string, object> AccountFacts(SavedAccounts saved)
        {
            var active = saved.Accounts.FirstOrDefault(a => a.Uuid == saved.Active);
            return Obj("count", saved.Accounts.Count, "active_email", active != null ? active.Email : null,
                "emails", saved.Accounts.Select(a => a.Email).OrderBy(e => e, StringComparer.Ordinal).ToList());
        }

        static Dictionary<string, object> PassingServerError(Scenario s)
        {
            using (var client = s.Client())
            {
                SignInResult registered;
                Register(s, client, out registered);
                s.Admin("clear_counters");
                s.Admin("fault_once");
                string passing = Attempt(client.FetchRecord);
                var passingRequests = s.Counter("counters", s.String("entity_counter"));
                s.Admin("fault_lasting");
                string lasting = Attempt(client.FetchRecord);
                return Obj("passing", Obj("status", passing), "entity_requests_passing", passingRequests,
                    "lasting", Obj("status", lasting),
                    "entity_requests", s.Counter("counters", s.String("entity_counter")),
                    "signed_in", client.IsSignedIn);
            }
        }

        static Dictionary<string, object> SignOutRestart(Scenario s)
        {
            var o = new Dictionary<string, object>();
            SignInResult registered;
            using (var first = s.Client())
            {
                string status = Register(s, first, out registered);
                o["first"] = Obj("status", status, "signed_in", first.IsSignedIn);
            }
            using (var restored = s.Client())
            {
                o["restored"] = Obj("signed_in", restored.IsSignedIn,
                    "same_uuid", registered != null && restored.State.Uuid == registered.Uuid,
                    "record_email", RecordString(restored, "/email"));
                o["sign_out"] = Obj("status", Attempt(restored.SignOut), "signed_in", restored.IsSignedIn);
            }
            using (var after = s.Client()) o["after_sign_out"] = Obj("signed_in", after.IsSignedIn);
            return o;
        }
    }
}
