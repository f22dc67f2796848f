// ConformanceRunner.Tokens.cs - the scenarios of the conformance runner that use a sign-in token, cancel an
// async call, and map every status to the binding's exception type.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;

namespace Jump.Conformance
{
    internal static partial class Runner
    {
        static Dictionary<string, object> SignInTokenSession(Scenario s)
        {
            var o = new Dictionary<string, object>();
            string userId = (string)s.AdminResult("create_user");
            s.Values["${USER_ID}"] = userId;
            string token = (string)s.AdminResult("mint");
            SignInTokenInfo decoded;
            string status = Attempt(() => JumpClient.DecodeSignInToken(token), out decoded);
            o["decode"] = Obj("status", status, "user_id_matches", decoded != null && decoded.UserId == userId,
                "environment", decoded != null ? decoded.Environment : null, "region", decoded != null ? decoded.Region : null);
            using (var client = s.Client())
            {
                o["before"] = Obj("signed_in", client.Status.SignedIn);
                SignInWithTokenResult signed;
                status = Attempt(() => client.SignInWithToken(token), out signed);
                o["sign_in"] = Obj("status", status, "user_id_matches", signed != null && signed.UserId == userId,
                    "changed", signed != null ? (object)signed.Changed : null, "migrated", signed != null ? (object)signed.Migrated : null);
                var now = client.Status;
                o["status"] = Obj("signed_in", now.SignedIn, "use_sign_in_token", now.UseSignInToken,
                    "use_api_key", now.UseApiKey, "user_id_matches", now.UserId == userId);
                string path = s.String("profile_path");
                JumpHttpResponse put, got;
                status = Attempt(() => client.Request("PUT", path, new Dictionary<string, string> { { "Content-Type", "application/json" } },
                    Json.Write(s.Get("profile"))), out put);
                o["put"] = Obj("status", status, "http_status", put != null ? (object)put.StatusCode : null);
                status = Attempt(() => client.Request("GET", path), out got);
                o["get"] = Obj("status", status, "http_status", got != null ? (object)got.StatusCode : null,
                    "data", got != null ? Json.Get(Json.Parse(got.Body), "data") : null);
                string againToken = (string)s.AdminResult("mint");
                SignInWithTokenResult again;
                status = Attempt(() => client.SignInWithToken(againToken), out again);
                o["sign_in_again"] = Obj("status", status, "changed", again != null ? (object)again.Changed : null);
                o["sign_out"] = Obj("status", Attempt(client.SignOut));
                o["after_sign_out"] = Obj("signed_in", client.Status.SignedIn);
            }
            return o;
        }

        static Dictionary<string, object> CancelAsync(Scenario s)
        {
            using (var client = s.Client())
            {
                SignInResult registered;
                Register(s, client, out registered);
                s.Admin("clear_counters");
                s.Admin("delay");
                int completions = 0;
                long completedAt = -1;
                var watch = Stopwatch.StartNew();
                using (var cts = new CancellationTokenSource())
                {
                    var task = client.FetchRecordAsync(cts.Token);
                    var counted = task.ContinueWith(t =>
                    {
                        Interlocked.Increment(ref completions);
                        Interlocked.Exchange(ref completedAt, watch.ElapsedMilliseconds);
                    }, TaskContinuationOptions.ExecuteSynchronously);
                    long reachBy = watch.ElapsedMilliseconds + Convert.ToInt64(s.Get("reach_timeout_ms"));
                    while (s.Counter("counters", s.String("reached_counter")) < 1 && watch.ElapsedMilliseconds < reachBy) Thread.Sleep(20);
                    bool pending = !task.IsCompleted;
                    cts.Cancel();
                    long cancelledAt = watch.ElapsedMilliseconds;
                    counted.Wait(10000);
                    string status = Attempt(() => task.Wait(10000));
                    long at = Interlocked.Read(ref completedAt);
                    bool within = at >= 0 && at - cancelledAt < Convert.ToInt64(s.Get("cancel_deadline_ms"));
                    Thread.Sleep((int)Convert.ToInt64(s.Get("settle_ms")));
                    return Obj("pending_before_cancel", pending, "status", status, "completions", completions,
                        "within_deadline", within, "signed_in", client.IsSignedIn);
                }
            }
        }

        /// <summary>For each code, the binding's exception type for it: the public JumpException subtype whose
        /// parameterless instance carries that status (exactly one must), reporting its StatusName; a code
        /// without its own type is reported as "JumpException" (a gap in the binding's table).</summary>
        static Dictionary<string, object> StatusErrors(Scenario s)
        {
            var types = typeof(JumpException).Assembly.GetExportedTypes()
                .Where(t => t.IsSubclassOf(typeof(JumpException)) && !t.IsAbstract && t.GetConstructor(Type.EmptyTypes) != null)
                .Select(t => (JumpException)Activator.CreateInstance(t)).ToList();
            var names = new List<object>();
            foreach (var entry in (List<object>)s.Get("statuses"))
            {
                long code = (long)Json.Get(entry, "code");
                var matching = types.Where(e => (long)e.Status == code).ToList();
                names.Add(matching.Count == 1 ? matching[0].StatusName : "JumpException");
            }
            return Obj("names", names);
        }
    }
}
