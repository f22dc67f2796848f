// libjump sign-in-token session (C#): an app whose own backend signs its users in. The app names its user
// (IdentifyExternalUser); libjump asks the app for a sign-in token only when it has no session for that user,
// keeps the session (refreshing it as needed), and sends authorized requests to the API with it. A second
// client on the same storage (a restart) finds the session again and asks for nothing.
//
// Build and run against a local emulator (from the repository root):
//   bash bindings/csharp/build.sh
//   LD_LIBRARY_PATH=build/lib scripts/with-emulator.sh mono build/csharp/SignInTokenSession.exe
//
// Arguments: [emulator URL (default $JUMP_EMULATOR_URL)] [storage directory (default: a new temporary one)].
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Text;
using System.Threading.Tasks;
using Jump;

static class SignInTokenSession
{
    static string api;

    static int Main(string[] args)
    {
        api = args.Length > 0 ? args[0] : Environment.GetEnvironmentVariable("JUMP_EMULATOR_URL");
        if (string.IsNullOrEmpty(api))
        {
            Console.Error.WriteLine("usage: SignInTokenSession.exe EMULATOR_URL [STORAGE_DIR] (or set JUMP_EMULATOR_URL)");
            return 2;
        }
        string storage = args.Length > 1 ? args[1] : Path.Combine(Path.GetTempPath(), "jump-token-session-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(storage);
        var settings = new Dictionary<string, object> {
            { "signInTokenAuthBaseUrl", api }, { "signInTokenApiBaseUrl", api }, { "storageDirectory", storage } };
        string appUser = "app-user-" + Guid.NewGuid().ToString("N").Substring(0, 8);
        try
        {
            FirstRun(settings, appUser).GetAwaiter().GetResult();
            Restart(settings, appUser);
            return 0;
        }
        catch (JumpException e)
        {
            Console.Error.WriteLine("failed: " + e.StatusName + ": " + e.Message);
            return 1;
        }
        finally
        {
            try { Directory.Delete(storage, true); } catch (Exception) { }
        }
    }

    static async Task FirstRun(Dictionary<string, object> settings, string appUser)
    {
        using (var config = JumpConfig.FromDictionary(settings))
        using (var client = new JumpClient(config))
        {
            // authenticate runs on this thread, during the call, and only when libjump needs a credential.
            IdentifyResult identified = client.IdentifyExternalUser(appUser, Backend.Login);
            ClientStatus status = client.Status;
            Console.WriteLine("identify: " + identified.Action + "; signed in as " + status.UserId + " (app user " + status.ExternalUserId + ")");

            // One call before every API request: no network while the token lasts another minute.
            JumpCredentials credentials = await client.GetCredentialsAsync(TimeSpan.FromMinutes(1));
            Console.WriteLine("credential: " + credentials.Kind + ", expires in " + credentials.ExpiresIn);

            JumpHttpResponse put = client.Request("PUT", "/v2/user/" + status.UserId + "/profile",
                new Dictionary<string, string> { { "Content-Type", "application/json" } }, "{\"visits\":1}");
            Console.WriteLine("saved the profile: HTTP " + put.StatusCode);
        }
    }

    // "Restart": a new client on the same storage restores the session; identify is a no-op.
    static void Restart(Dictionary<string, object> settings, string appUser)
    {
        using (var config = JumpConfig.FromDictionary(settings))
        using (var client = new JumpClient(config))
        {
            IdentifyResult again = client.IdentifyExternalUser(appUser, user => { throw new InvalidOperationException("not needed"); });
            JumpHttpResponse profile = client.Request("GET", "/v2/user/" + client.Status.UserId + "/profile");
            Console.WriteLine("after restart: identify " + again.Action + "; profile " + profile.Body);
            client.SignOut();
            Console.WriteLine("signed out: " + !client.Status.SignedIn);
        }
    }

    /// <summary>Stands in for the app's backend, which holds the team's API key (never ship it in an app): it
    /// makes the user on first sight and mints a sign-in token for them.</summary>
    static class Backend
    {
        const string TeamKey = "jump-team-key"; // the emulator's team

        public static IdentifyCredential Login(string appUser)
        {
            Console.WriteLine("asking the backend for a sign-in token for " + appUser);
            string userId = Post("/v2/user", "{\"client_user_id\":\"" + appUser + "\"}", "user_id");
            string token = Post("/v2/user/" + userId + "/sign_in_token", "{}", "sign_in_token");
            ShowToken(token);
            return IdentifyCredential.SignInToken(token);
        }

        static void ShowToken(string token)
        {
            SignInTokenInfo info = JumpClient.DecodeSignInToken(token); // no network: what the token says
            Console.WriteLine("the token is for " + info.UserId + " (" + info.Environment + ", " + info.Region + ")");
        }

        static string Post(string path, string json, string member)
        {
            var request = (HttpWebRequest)WebRequest.Create(api + path);
            request.Method = "POST";
            request.Proxy = null;
            request.ContentType = "application/json";
            request.Headers["x-jump-api-key"] = TeamKey;
            var body = Encoding.UTF8.GetBytes(json);
            using (var s = request.GetRequestStream()) s.Write(body, 0, body.Length);
            using (var response = request.GetResponse())
            using (var reader = new StreamReader(response.GetResponseStream(), Encoding.UTF8))
            {
                string text = reader.ReadToEnd();
                // A real backend parses JSON; this stand-in finds one string member.
                int at = text.IndexOf("\"" + member + "\"", StringComparison.Ordinal);
                at = text.IndexOf('"', text.IndexOf(':', at)) + 1;
                return text.Substring(at, text.IndexOf('"', at) - at);
            }
        }
    }
}
