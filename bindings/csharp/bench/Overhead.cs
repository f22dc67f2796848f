// Overhead.cs - what a call through the C# binding costs under Mono, against Mono's own P/Invoke of a C
// no-op with the same signature (benchmarks/noop.c, built by bench.sh into build/bench/libnoop.so).
// Rows: raw P/Invoke of the jump_* function (libjump's own cost), and the binding's public API (plus
// SafeHandle AddRef/Release, UTF-8 marshalling, jump_string_free). No network: the client is signed out.
using System;
using System.Diagnostics;
using System.Runtime.InteropServices;
using Jump;

static class Overhead
{
    [DllImport("noop")] static extern int noop_int();
    [DllImport("noop")] static extern int noop_ptr(IntPtr handle);
    [DllImport("noop")] static extern IntPtr noop_str(int status);
    [DllImport("jump")] static extern int jump_abi_version();
    [DllImport("jump")] static extern IntPtr jump_status_str(int status);
    [DllImport("jump")] static extern int jump_config_from_json(byte[] json, out IntPtr config);
    [DllImport("jump")] static extern int jump_client_new(IntPtr config, out IntPtr client);
    [DllImport("jump")] static extern int jump_client_is_signed_in(IntPtr client);
    [DllImport("jump")] static extern void jump_client_free(IntPtr client);
    [DllImport("jump")] static extern void jump_config_free(IntPtr config);

    const int Calls = 200000, Rounds = 11;

    static double Median(Action<int> loop)
    {
        var samples = new double[Rounds];
        loop(1000); // warm-up: JIT and symbol resolution
        for (int r = 0; r < Rounds; r++)
        {
            var watch = Stopwatch.StartNew();
            loop(Calls);
            samples[r] = watch.Elapsed.TotalMilliseconds * 1e6 / Calls;
        }
        Array.Sort(samples);
        return samples[Rounds / 2];
    }

    static void Row(string what, double ns, double baseline)
    {
        Console.WriteLine("{0,-58} {1,8:F1} ns/call  {2,6:F2}x", what, ns, ns / baseline);
    }

    static string RuntimeName()
    {
        // Mono.Runtime.GetDisplayName is internal; reflection is how Mono's own tools read it.
        var mono = Type.GetType("Mono.Runtime");
        var name = mono == null ? null : mono.GetMethod("GetDisplayName",
            System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static);
        return name == null ? Environment.Version.ToString() : "Mono " + name.Invoke(null, null);
    }

    static int Main()
    {
        const string json = "{\"storageDirectory\":\":memory:\"}";
        IntPtr rawConfig, rawClient;
        if (jump_config_from_json(System.Text.Encoding.UTF8.GetBytes(json + "\0"), out rawConfig) != 0 ||
            jump_client_new(rawConfig, out rawClient) != 0)
        {
            Console.Error.WriteLine("could not create a client");
            return 1;
        }
        using (var client = new JumpClient(json))
        {
            int sink = 0;
            double noopInt = Median(n => { for (int i = 0; i < n; i++) sink += noop_int(); });
            double noopPtr = Median(n => { for (int i = 0; i < n; i++) sink += noop_ptr(rawClient); });
            double noopStr = Median(n => { for (int i = 0; i < n; i++) sink += noop_str(-7).ToInt32() & 1; });
            Console.WriteLine("{0}: P/Invoke of C no-ops: int() {1:F1} ns, int(ptr) {2:F1} ns, str(int) {3:F1} ns",
                RuntimeName(), noopInt, noopPtr, noopStr);
            Row("jump_abi_version() raw P/Invoke  vs noop_int", Median(n => { for (int i = 0; i < n; i++) sink += jump_abi_version(); }), noopInt);
            Row("jump_client_is_signed_in(IntPtr) raw  vs noop_ptr", Median(n => { for (int i = 0; i < n; i++) sink += jump_client_is_signed_in(rawClient); }), noopPtr);
            Row("JumpClient.IsSignedIn (SafeHandle)  vs noop_ptr", Median(n => { for (int i = 0; i < n; i++) sink += client.IsSignedIn ? 1 : 0; }), noopPtr);
            Row("jump_status_str(int) raw  vs noop_str", Median(n => { for (int i = 0; i < n; i++) sink += jump_status_str(-7).ToInt32() & 1; }), noopStr);
            Row("JumpClient.State (JSON out, UTF-8, parse)  vs noop_ptr", Median(n => { for (int i = 0; i < n; i++) sink += client.State.SignedIn ? 1 : 0; }), noopPtr);
            GC.KeepAlive(sink);
        }
        jump_client_free(rawClient);
        jump_config_free(rawConfig);
        return 0;
    }
}
