// Emulator.cs - starts a real jump-emulator process for the tests (like bindings/python/tests/conftest.py)
// and speaks its admin API (/emulator/..., docs/emulator.md).
using System;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Text;
using System.Threading;

namespace Jump.Tests
{
    internal sealed class Emulator : IDisposable
    {
        readonly Process _process;
        readonly StringBuilder _stderr = new StringBuilder();
        public readonly string Url;

        public Emulator(string binary)
        {
            if (!File.Exists(binary)) throw new FileNotFoundException("jump-emulator not found (build it, or set JUMP_EMULATOR)", binary);
            var info = new ProcessStartInfo(binary, "--port 0 --db :memory: --password-hash-cost 4")
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            _process = Process.Start(info);
            // Drain stderr (one line per request) so the emulator never blocks on a full pipe.
            new Thread(() =>
            {
                string line;
                while ((line = _process.StandardError.ReadLine()) != null)
                    lock (_stderr) { if (_stderr.Length < 1 << 20) _stderr.AppendLine(line); }
            }) { IsBackground = true }.Start();
            // The first stdout line is the bound URL; then keep draining stdout too.
            string url = null;
            var first = new Thread(() =>
            {
                url = _process.StandardOutput.ReadLine();
                while (_process.StandardOutput.ReadLine() != null) { }
            }) { IsBackground = true };
            first.Start();
            var watch = Stopwatch.StartNew();
            while (url == null && watch.ElapsedMilliseconds < 30000 && !_process.HasExited) Thread.Sleep(10);
            if (url == null || !url.StartsWith("http"))
            {
                Dispose();
                throw new InvalidOperationException("jump-emulator did not print its URL; stderr: " + Log);
            }
            Url = url.Trim().TrimEnd('/');
        }

        public string Log { get { lock (_stderr) return _stderr.ToString(); } }

        /// <summary>An admin call; returns the answer's body (throws on an HTTP error).</summary>
        public string Admin(string method, string path, string bodyJson = null)
        {
            var request = (HttpWebRequest)WebRequest.Create(Url + path);
            request.Method = method;
            request.Timeout = 10000;
            request.Proxy = null; // loopback: never through a proxy from the environment
            if (bodyJson != null)
            {
                var bytes = Encoding.UTF8.GetBytes(bodyJson);
                request.ContentType = "application/json";
                request.ContentLength = bytes.Length;
                using (var s = request.GetRequestStream()) s.Write(bytes, 0, bytes.Length);
            }
            try
            {
                using (var response = (HttpWebResponse)request.GetResponse())
                using (var reader = new StreamReader(response.GetResponseStream(), Encoding.UTF8))
                    return reader.ReadToEnd();
            }
            catch (WebException e)
            {
                string body = "";
                if (e.Response != null)
                    using (var reader = new StreamReader(e.Response.GetResponseStream(), Encoding.UTF8)) body = reader.ReadToEnd();
                throw new InvalidOperationException(method + " " + path + " failed: " + e.Message + " " + body);
            }
        }

        /// <summary>Delays the next request to path by delayMs (a "delay" fault).</summary>
        public void Delay(string path, int delayMs)
        {
            Admin("POST", "/emulator/faults", "{\"kind\":\"delay\",\"count\":1,\"path\":\"" + path + "\",\"delay_ms\":" + delayMs + "}");
        }

        public void ClearFaults() { Admin("DELETE", "/emulator/faults"); }

        /// <summary>Requests served per "METHOD /path" since the last ClearCounters.</summary>
        public System.Collections.Generic.Dictionary<string, long> Counters()
        {
            var result = new System.Collections.Generic.Dictionary<string, long>();
            var counters = Json.Get(Json.Parse(Admin("GET", "/emulator/counters")), "counters") as System.Collections.Generic.Dictionary<string, object>;
            if (counters != null) foreach (var kv in counters) if (kv.Value is long) result[kv.Key] = (long)kv.Value;
            return result;
        }

        /// <summary>How many times "METHOD /path" was served since the last ClearCounters.</summary>
        public long Count(string key) { long n; return Counters().TryGetValue(key, out n) ? n : 0; }

        public void ClearCounters() { Admin("DELETE", "/emulator/counters"); }

        /// <summary>The server's record of a user ({"user": {...}}).</summary>
        public object User(string uuid) { return Json.Get(Json.Parse(Admin("GET", "/emulator/users/" + uuid)), "user"); }

        public void Dispose()
        {
            try
            {
                if (!_process.HasExited)
                {
                    // SIGTERM would be gentler; Process.Kill is SIGKILL, fine for an in-memory emulator.
                    _process.Kill();
                    _process.WaitForExit(5000);
                }
            }
            catch (Exception) { }
        }
    }
}
