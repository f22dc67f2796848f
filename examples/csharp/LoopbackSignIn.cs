// libjump social sign-in from a desktop or command-line C# app: the system browser and a loopback receiver
// (RFC 8252). libjump listens on 127.0.0.1, this program opens the provider's sign-in page in the browser, and
// the sign-in completes when the browser comes back to the listener. A new identity is registered (thin
// registration, or the two-step registration with what the provider told); Ctrl+C cancels the wait.
//
// Build and run against a local emulator (from the repository root):
//   bash bindings/csharp/build.sh
//   LD_LIBRARY_PATH=build/lib scripts/with-emulator.sh mono build/csharp/LoopbackSignIn.exe
//
// Arguments: [emulator URL (default $JUMP_EMULATOR_URL)] [provider (default facebook)]. The browser is
// $BROWSER (a command; the URL is appended to it) or xdg-open. Against the emulator the "provider" is its
// fake identity provider page: pick or create an identity there.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Jump;

static class LoopbackSignIn
{
    static int Main(string[] args)
    {
        string url = args.Length > 0 ? args[0] : Environment.GetEnvironmentVariable("JUMP_EMULATOR_URL");
        string provider = args.Length > 1 ? args[1] : "facebook";
        if (string.IsNullOrEmpty(url))
        {
            Console.Error.WriteLine("usage: LoopbackSignIn.exe EMULATOR_URL [PROVIDER] (or set JUMP_EMULATOR_URL)");
            return 2;
        }
        var settings = new Dictionary<string, object> {
            { "captureDomain", url }, { "captureFlowDomain", url },
            { "captureClientId", "jump-default-client" }, { "captureAppId", "default-app" },
            { "captureFlowName", "standard" }, { "captureLocale", "en-US" },
            { "engageAppId", "jump-default-engage" }, { "engageDomain", url },
            { "captureEnableThinRegistration", true },
            { "storageDirectory", ":memory:" },
        };
        using (var cancel = new CancellationTokenSource())
        {
            Console.CancelKeyPress += (sender, e) => { e.Cancel = true; cancel.Cancel(); };
            try
            {
                // No async Main in C# 6: block on the async part here.
                Run(settings, provider, cancel.Token).GetAwaiter().GetResult();
                return 0;
            }
            catch (OperationCanceledException)
            {
                Console.Error.WriteLine("cancelled");
                return 1;
            }
            catch (JumpException e)
            {
                Console.Error.WriteLine("failed: " + e.StatusName + ": " + e.Message);
                return 1;
            }
        }
    }

    static async Task Run(Dictionary<string, object> settings, string provider, CancellationToken cancel)
    {
        using (var config = JumpConfig.FromDictionary(settings))
        using (var client = new JumpClient(config))
        {
            var known = client.GetProviders().SignIn.Select(p => p.Name).ToList();
            Console.WriteLine("providers: " + string.Join(", ", known));
            SocialResult result = null;
            try
            {
                // OpenBrowser runs on a libjump thread ("jump-work"), once: it only hands the URL over.
                result = await client.SocialSignInLoopbackAsync(provider, OpenBrowser, TimeSpan.FromMinutes(5), cancellationToken: cancel);
            }
            catch (JumpRegistrationRequiredException e)
            {
                // No thin registration for this identity: complete what the provider told and register.
                var record = e.PreregRecord;
                if (!record.ContainsKey("displayName")) record["displayName"] = "New User";
                var registered = await client.RegisterSocialAsync(e.SocialRegistrationToken, record, cancel);
                Console.WriteLine("signed in with " + provider + " (registered) as " + registered.Uuid);
            }
            if (result != null)
                Console.WriteLine("signed in with " + (result.Provider ?? provider) + " (" + result.Outcome + ") as " + result.Uuid);
            foreach (var profile in client.GetLinkedProfiles())
                Console.WriteLine("linked: " + profile.Provider + " " + profile.Email);
            client.SignOut();
        }
    }

    // libjump's openUrl: hand the URL to the system browser and return at once.
    static void OpenBrowser(string url)
    {
        Console.WriteLine("Opening your browser to sign in. If nothing opens, visit:");
        Console.WriteLine("  " + url);
        string browser = Environment.GetEnvironmentVariable("BROWSER");
        string[] command = string.IsNullOrEmpty(browser) ? new[] { "xdg-open" } : browser.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
        var start = new ProcessStartInfo(command[0], string.Join(" ", command.Skip(1).Concat(new[] { "\"" + url + "\"" })))
        {
            UseShellExecute = false,
        };
        Process.Start(start).Dispose(); // not waited for: the browser goes on by itself
    }
}
