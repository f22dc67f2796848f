// libjump quickstart (C#): register, sign in, edit the record, sync, and find the session again after a
// restart (a second client on the same storage directory). The first client awaits the async API as any
// .NET program does: its Tasks complete by themselves. The second is built for a frame loop
// (JumpDelivery.Pumped) and calls Pump() once per "frame", the way a Unity game's Update() would.
//
// Build and run against a local emulator (from the repository root):
//   bash bindings/csharp/build.sh                       # build/csharp/Jump.dll and Quickstart.exe
//   LD_LIBRARY_PATH=build/lib scripts/with-emulator.sh mono build/csharp/Quickstart.exe
//
// Arguments: [emulator URL (default $JUMP_EMULATOR_URL)] [storage directory (default: a new temporary one)].
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Jump;

static class Quickstart
{
    const string Password = "correct horse battery";

    static int Main(string[] args)
    {
        string url = args.Length > 0 ? args[0] : Environment.GetEnvironmentVariable("JUMP_EMULATOR_URL");
        if (string.IsNullOrEmpty(url))
        {
            Console.Error.WriteLine("usage: Quickstart.exe EMULATOR_URL [STORAGE_DIR] (or set JUMP_EMULATOR_URL)");
            return 2;
        }
        string storage = args.Length > 1 ? args[1] : Path.Combine(Path.GetTempPath(), "jump-quickstart-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(storage);
        var settings = new Dictionary<string, object> {
            { "captureDomain", url }, { "captureFlowDomain", url },
            { "captureClientId", "jump-default-client" }, { "captureAppId", "default-app" },
            { "captureFlowName", "standard" }, { "captureLocale", "en-US" },
            { "storageDirectory", storage },
        };
        Console.WriteLine("libjump " + JumpClient.LibraryVersion);
        try
        {
            // No async Main in C# 6: block on the async part here.
            FirstRun(settings).GetAwaiter().GetResult();
            Restart(settings);
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

    // An app's first run: awaits complete by themselves (JumpDelivery.Automatic, the default).
    static async Task FirstRun(Dictionary<string, object> settings)
    {
        string email = "quickstart-" + Guid.NewGuid().ToString("N").Substring(0, 8) + "@example.com";
        using (var config = JumpConfig.FromDictionary(settings))
        using (var client = new JumpClient(config))
        {
            client.Event += (sender, e) => Console.WriteLine("event: " + e.Name);

            // A fresh emulator has no users: register one (this signs it in), then sign out and in again.
            client.RegisterTraditional(new Dictionary<string, object> {
                { "email", email }, { "displayName", "Ada L" }, { "givenName", "Ada" }, { "familyName", "Lovelace" } },
                Password);
            client.SignOut();

            try { client.SignIn(email, "not the password"); }
            catch (JumpBadCredentialsException e) { Console.WriteLine("wrong password refused: " + e.StatusName); }

            SignInResult signedIn = await client.SignInAsync(email, Password); // no pump needed
            Console.WriteLine("signed in as " + signedIn.Uuid);

            using (JumpRecord record = client.Record())
            {
                Console.WriteLine("givenName: " + record.GetString("/givenName"));
                record.SetString("/aboutMe", "Written by the C# quickstart");
            }
            SyncResult synced = await client.SyncAsync();
            Console.WriteLine("synced: " + string.Join(", ", synced.Changed));
        }
    }

    // "Restart": a new client on the same storage directory restores the session from disk. This one is a
    // game's (JumpDelivery.Pumped): completions and events arrive only on the thread that calls Pump().
    static void Restart(Dictionary<string, object> settings)
    {
        using (var config = JumpConfig.FromDictionary(settings))
        using (var client = new JumpClient(config, JumpDelivery.Pumped))
        {
            JumpState state = client.State;
            if (!state.SignedIn) throw new Exception("the session did not survive the restart");
            RunFrames(client, client.FetchRecordAsync());
            using (JumpRecord record = client.Record())
                Console.WriteLine("still signed in after restart as " + state.Email + "; aboutMe: " + record.GetString("/aboutMe"));
            client.SignOut();
        }
    }

    // A game loop in miniature: one Pump() per "frame" until the task is done.
    static void RunFrames(JumpClient client, Task task)
    {
        while (!task.IsCompleted)
        {
            client.Pump();
            Thread.Sleep(16);
        }
        task.GetAwaiter().GetResult(); // rethrows the JumpException itself, not an AggregateException
    }
}
