// Scenario.cs - one scenario of Tests/conformance/scenarios.json for the C# runner: its input with the
// placeholders replaced, its client config, and the admin requests it sends with the platform's HTTP client.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Text;

namespace Jump.Conformance
{
    internal sealed class Scenario
    {
        readonly Dictionary<string, object> _input;
        readonly Dictionary<string, object> _configs;
        readonly string _url;
        /// <summary>Placeholder -> value; ${USER_ID} is added once the scenario knows it.</summary>
        public readonly Dictionary<string, string> Values = new Dictionary<string, string>();

        public Scenario(string name)
        {
            var document = (Dictionary<string, object>)Json.Parse(File.ReadAllText(Env("JUMP_CONFORMANCE_SCENARIOS"), Encoding.UTF8));
            _url = Env("JUMP_EMULATOR_URL").TrimEnd('/');
            Values["${EMULATOR_URL}"] = _url;
            Values["${STORAGE_DIR}"] = Path.Combine(Env("JUMP_CONFORMANCE_TMP"), "storage");
            var scenario = ((List<object>)document["scenarios"]).Cast<Dictionary<string, object>>()
                .FirstOrDefault(x => (string)x["name"] == name);
            if (scenario == null) throw new ArgumentException("no scenario " + name + " in scenarios.json");
            _input = (Dictionary<string, object>)scenario["input"];
            _configs = (Dictionary<string, object>)document["configs"];
        }

        static string Env(string name)
        {
            string value = Environment.GetEnvironmentVariable(name);
            if (string.IsNullOrEmpty(value)) throw new InvalidOperationException("$" + name + " is not set (run through Tests/conformance/run.py)");
            return value;
        }

        /// <summary>value with its placeholders replaced (recursively).</summary>
        public object Fill(object value)
        {
            var text = value as string;
            if (text != null)
            {
                foreach (var kv in Values) text = text.Replace(kv.Key, kv.Value);
                return text;
            }
            var dict = value as Dictionary<string, object>;
            if (dict != null) return dict.ToDictionary(kv => kv.Key, kv => Fill(kv.Value));
            var list = value as List<object>;
            if (list != null) return list.Select(Fill).ToList();
            return value;
        }

        public object Get(string key) { return Fill(_input[key]); }
        public string String(string key) { return (string)Get(key); }
        public Dictionary<string, object> Object(string key) { return (Dictionary<string, object>)Get(key); }

        public JumpClient Client(string config = null)
        {
            return new JumpClient(ConfigJson(config));
        }

        /// <summary>configs[config] (default input.config) as JSON, placeholders replaced.</summary>
        public string ConfigJson(string config = null)
        {
            return Json.Write(Fill(_configs[config ?? (string)_input["config"]]));
        }

        /// <summary>The generic steps of a step scenario (placeholders not yet replaced), or null.</summary>
        public List<object> Steps
        {
            get { object steps; return _input.TryGetValue("steps", out steps) ? (List<object>)steps : null; }
        }

        /// <summary>Sends input[key], an admin request; its JSON answer (an empty object for an empty body).</summary>
        public Dictionary<string, object> Admin(string key)
        {
            return Send(Object(key));
        }

        /// <summary>Sends an admin request ({method, path, headers?, body?}); its JSON answer.</summary>
        public Dictionary<string, object> Send(Dictionary<string, object> spec)
        {
            var request = (HttpWebRequest)WebRequest.Create(_url + (string)spec["path"]);
            request.Method = (string)spec["method"];
            request.Timeout = 30000;
            request.Proxy = null; // loopback: never through a proxy from the environment
            request.ContentType = "application/json";
            object headers;
            if (spec.TryGetValue("headers", out headers))
                foreach (var kv in (Dictionary<string, object>)headers)
                    if (!kv.Key.Equals("Content-Type", StringComparison.OrdinalIgnoreCase)) request.Headers[kv.Key] = (string)kv.Value;
            object body;
            if (spec.TryGetValue("body", out body))
            {
                var bytes = Encoding.UTF8.GetBytes(Json.Write(body));
                request.ContentLength = bytes.Length;
                using (var stream = request.GetRequestStream()) stream.Write(bytes, 0, bytes.Length);
            }
            else if (request.Method == "POST")
            {
                request.ContentLength = 0;
            }
            using (var response = (HttpWebResponse)request.GetResponse())
            using (var reader = new StreamReader(response.GetResponseStream(), Encoding.UTF8))
            {
                string text = reader.ReadToEnd();
                return text.Trim().Length == 0 ? new Dictionary<string, object>() : (Dictionary<string, object>)Json.Parse(text);
            }
        }

        public object AdminResult(string key)
        {
            return Admin(key)[(string)((Dictionary<string, object>)_input[key])["result"]];
        }

        public long Counter(string key, string name)
        {
            var counters = Json.Get(Admin(key), "counters");
            var value = Json.Get(counters, name);
            return value == null ? 0 : Convert.ToInt64(value);
        }
    }
}
