// ConformanceRunner.Steps.cs - the generic steps (Tests/conformance/README.md, "Step scenarios"): a scenario
// whose input has "steps" is played step by step, each step one call of Jump.dll's public API.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Jump.Conformance
{
    internal static partial class Runner
    {
        /// <summary>{"status", the detail facts the step asks for} of a call; result receives what it returned.</summary>
        static Dictionary<string, object> StepStatus<T>(Dictionary<string, object> step, Func<T> call, out T result)
        {
            result = default(T);
            Dictionary<string, object> detail = null;
            string status = Ok;
            try
            {
                result = call();
            }
            catch (Exception e) when (e is JumpException || e is AggregateException || e is OperationCanceledException)
            {
                status = StatusOf(e);
                var jump = e as JumpException;
                if (jump != null) detail = jump.Detail;
            }
            var fact = new Dictionary<string, object> { { "status", status } };
            object spec;
            if (step.TryGetValue("detail", out spec))
                fact["detail"] = ((List<object>)spec).Cast<string>().ToDictionary(k => k, k => Json.Get(detail, k));
            if (step.TryGetValue("detail_keys", out spec))
            {
                var member = Json.Get(detail, (string)spec) as Dictionary<string, object>;
                fact["detail_keys"] = member == null ? null : member.Keys.OrderBy(k => k, StringComparer.Ordinal).Cast<object>().ToList();
            }
            if (step.TryGetValue("detail_paths", out spec))
            {
                var member = Json.Get(detail, (string)spec) as List<object>;
                fact["detail_paths"] = member == null ? null : member.Select(x => Json.Get(x, "path")).ToList();
            }
            return fact;
        }

        static Dictionary<string, object> StepStatus(Dictionary<string, object> step, Action call)
        {
            object ignored;
            return StepStatus<object>(step, () => { call(); return null; }, out ignored);
        }

        static Dictionary<string, object> PlaySteps(Scenario s)
        {
            var o = new Dictionary<string, object>();
            var clients = new Dictionary<string, JumpClient>();
            try
            {
                foreach (var raw in s.Steps)
                {
                    var step = (Dictionary<string, object>)s.Fill(raw);
                    string name = Json.Get(step, "client") as string ?? "";
                    JumpClient client;
                    clients.TryGetValue(name, out client);
                    object fact = null;
                    Dictionary<string, object> f;
                    string op = (string)step["do"];
                    switch (op)
                    {
                        case "open":
                            clients[name] = s.Client(Json.Get(step, "config") as string);
                            break;
                        case "close":
                            client.Dispose();
                            clients.Remove(name);
                            break;
                        case "register":
                            f = StepStatus(step, () => { client.RegisterTraditional((Dictionary<string, object>)step["user"], (string)step["password"]); });
                            f["signed_in"] = client.IsSignedIn;
                            fact = f;
                            break;
                        case "sign_in":
                            f = StepStatus(step, () => { client.SignIn((string)step["login"], (string)step["password"]); });
                            f["signed_in"] = client.IsSignedIn;
                            fact = f;
                            break;
                        case "sign_out":
                            f = StepStatus(step, () => client.SignOut());
                            f["signed_in"] = client.IsSignedIn;
                            fact = f;
                            break;
                        case "sync":
                        {
                            SyncResult synced;
                            f = StepStatus(step, () => client.Sync(), out synced);
                            f["changed"] = synced == null ? null : synced.Changed.Cast<object>().ToList();
                            fact = f;
                            break;
                        }
                        case "fetch":
                            fact = StepStatus(step, () => client.FetchRecord());
                            break;
                        case "request":
                        {
                            var given = Json.Get(step, "headers") as Dictionary<string, object>;
                            var headers = given == null ? null : given.ToDictionary(kv => kv.Key, kv => (string)kv.Value);
                            JumpHttpResponse answer;
                            f = StepStatus(step, () => client.Request((string)step["method"], (string)step["path"], headers, Json.Get(step, "body") as string), out answer);
                            f["http_status"] = answer == null ? null : (object)(long)answer.StatusCode;
                            fact = f;
                            break;
                        }
                        case "set":
                            using (var record = client.Record()) record.SetString((string)step["path"], (string)step["value"]);
                            break;
                        case "get":
                            fact = RecordString(client, (string)step["path"]);
                            break;
                        case "signed_in":
                            fact = client.IsSignedIn;
                            break;
                        case "admin":
                        {
                            var answer = s.Send((Dictionary<string, object>)step["request"]);
                            object counter;
                            if (step.TryGetValue("counter", out counter))
                            {
                                var value = Json.Get(Json.Get(answer, "counters"), (string)counter);
                                fact = value == null ? 0L : Convert.ToInt64(value);
                            }
                            break;
                        }
                        default:
                            throw new ArgumentException("unknown step " + op);
                    }
                    object key;
                    if (step.TryGetValue("out", out key)) o[(string)key] = fact;
                }
            }
            finally
            {
                foreach (var c in clients.Values) c.Dispose();
            }
            return o;
        }
    }
}
