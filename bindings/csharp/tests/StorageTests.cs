// StorageTests.cs - host storage (JumpConfig.SetStorage) against the emulator (as
// bindings/python/tests/test_storage.py): the session kept in a dictionary instead of files, restored from
// it, failures of each callback, the threads the callbacks run on, and the registration's lifetime.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;

namespace Jump.Tests
{
    internal static partial class Program
    {
        /// <summary>A dictionary-backed store with failure switches, counting its calls and their threads.</summary>
        sealed class DictStorage
        {
            public readonly Dictionary<string, byte[]> Data = new Dictionary<string, byte[]>();
            public int Loads, Saves, Erases;
            public volatile bool FailLoad, FailSave, FailErase;
            public readonly HashSet<string> Threads = new HashSet<string>();

            void Note(ref int counter)
            {
                Interlocked.Increment(ref counter);
                lock (Threads) Threads.Add(ThreadName());
            }

            public byte[] Load(string key)
            {
                Note(ref Loads);
                if (FailLoad) throw new IOException("the keychain is locked");
                lock (Data) { byte[] v; return Data.TryGetValue(key, out v) ? v : null; }
            }

            public void Save(string key, byte[] data)
            {
                Note(ref Saves);
                if (FailSave) throw new IOException("the keychain is full");
                lock (Data) Data[key] = data;
            }

            public void Erase(string key)
            {
                Note(ref Erases);
                if (FailErase) throw new IOException("the keychain is read-only");
                lock (Data) Data.Remove(key);
            }

            public Dictionary<string, byte[]> Sessions()
            {
                lock (Data) return Data.Where(kv => kv.Key.StartsWith("session-", StringComparison.Ordinal)).ToDictionary(kv => kv.Key, kv => kv.Value);
            }

            public JumpConfig Config(string storageDirectory)
            {
                return Program.Config(storageDirectory).SetStorage(Load, Save, Erase);
            }
        }

        /// <summary>The OS name of this thread (/proc/thread-self/comm): libjump names its own ("jump-work").</summary>
        static string ThreadName()
        {
            try { return File.ReadAllText("/proc/thread-self/comm").Trim(); }
            catch (IOException) { return "?"; }
        }

        [JumpTests]
        static class StorageTests
        {
            [JumpTest]
            public static void storage_keeps_the_session_and_writes_no_file()
            {
                var store = new DictStorage();
                string dir = NewStorage();
                using (var config = store.Config(dir))
                using (var c = new JumpClient(config))
                {
                    Assert.True(config.HasStorage, "HasStorage");
                    Assert.True(store.Loads >= 1 && !c.IsSignedIn, "the constructor looked for a saved session");
                    c.LoadFlow();
                    string uuid = c.RegisterTraditional(new Dictionary<string, object> { { "email", UniqueEmail() }, { "displayName", "Hosted" } }, Password).Uuid;
                    var sessions = store.Sessions();
                    Assert.Equal(1, sessions.Count, "one session entry: " + string.Join(",", store.Data.Keys));
                    var saved = System.Text.Encoding.UTF8.GetString(sessions.Values.First());
                    Assert.True(saved.Contains(uuid) && !saved.Contains(Password), "the session, without the password");
                    Assert.True(store.Data.Keys.Any(k => k.StartsWith("flow-", StringComparison.Ordinal)), "the flow cache too");
                    Assert.True(c.State.StorageErrorJson == null, "no storage error");
                }
                Assert.Equal(0, Directory.GetFileSystemEntries(dir).Length, "nothing written to storageDirectory");
            }

            [JumpTest]
            public static void storage_restores_a_new_client_without_network()
            {
                var store = new DictStorage();
                using (var config = store.Config(NewStorage()))
                {
                    string uuid;
                    using (var first = new JumpClient(config))
                    {
                        uuid = first.RegisterTraditional(new Dictionary<string, object> { { "email", UniqueEmail() }, { "displayName", "Hosted" } }, Password).Uuid;
                        using (var record = first.Record()) record.SetString("/aboutMe", "kept in the keychain");
                    }
                    emu.ClearCounters();
                    using (var second = new JumpClient(config))
                    {
                        var state = second.State;
                        Assert.True(state.SignedIn && state.Uuid == uuid && state.UnsyncedChanges && state.RestoreErrorJson == null, "restored: " + state.Json);
                        Assert.Equal(0, emu.Counters().Count, "restoring needs no network");
                        Assert.Equal("/aboutMe", string.Join(",", second.Sync().Changed), "the kept edit syncs");
                        second.SignOut();
                        Assert.True(store.Erases >= 1 && store.Sessions().Count == 0, "sign-out erased the session");
                    }
                }
            }

            [JumpTest]
            public static void storage_failing_load_is_a_restore_error_until_restore()
            {
                var store = new DictStorage();
                using (var config = store.Config(NewStorage()))
                {
                    string uuid;
                    using (var first = new JumpClient(config))
                        uuid = first.RegisterTraditional(new Dictionary<string, object> { { "email", UniqueEmail() }, { "displayName", "Hosted" } }, Password).Uuid;
                    store.FailLoad = true;
                    using (var c = new JumpClient(config))
                    {
                        Assert.True(!c.IsSignedIn && c.State.RestoreErrorJson != null, "a restore error, not signed out: " + c.State.Json);
                        Assert.Throws<JumpStorageException>(() => c.GetAccessToken(), "access token");
                        Assert.Throws<JumpStorageException>(() => c.Restore(), "restore while it fails");
                        Assert.True(store.Erases == 0 && store.Sessions().Count == 1, "nothing deleted");
                        store.FailLoad = false;
                        c.Restore();
                        Assert.True(c.IsSignedIn && c.State.Uuid == uuid && c.State.RestoreErrorJson == null, "restored: " + c.State.Json);
                    }
                }
            }

            [JumpTest]
            public static void storage_failing_save_shows_in_state_and_failing_erase_fails_sign_out()
            {
                var store = new DictStorage();
                using (var config = store.Config(NewStorage()))
                using (var c = new JumpClient(config))
                {
                    store.FailSave = true;
                    c.RegisterTraditional(new Dictionary<string, object> { { "email", UniqueEmail() }, { "displayName", "Hosted" } }, Password);
                    Assert.True(c.IsSignedIn && c.State.StorageErrorJson != null, "signed in, with a storage error: " + c.State.Json);
                    store.FailSave = false;
                    using (var record = c.Record()) record.SetString("/aboutMe", "saved at last");
                    Assert.True(c.State.StorageErrorJson == null && store.Sessions().Count == 1, "saved once the store works");
                    store.FailErase = true;
                    Assert.Throws<JumpStorageException>(() => c.SignOut(), "sign-out cannot erase");
                    Assert.Equal(1, store.Sessions().Count, "the session is still in the store");
                    store.FailErase = false;
                    c.SignOut();
                    Assert.Equal(0, store.Sessions().Count, "erased");
                }
            }

            [JumpTest]
            public static void storage_callbacks_run_on_the_caller_or_a_jump_work_thread()
            {
                var store = new DictStorage();
                var account = NewAccount();
                using (var config = store.Config(NewStorage()))
                using (var c = new JumpClient(config))
                {
                    string me = ThreadName();
                    lock (store.Threads) store.Threads.Clear();
                    c.SignIn(account.Key, Password);
                    lock (store.Threads) Assert.Equal(me, string.Join(",", store.Threads), "a synchronous call: this thread");
                    c.SignOut();
                    lock (store.Threads) store.Threads.Clear();
                    Await(c.SignInAsync(account.Key, Password));
                    lock (store.Threads)
                        Assert.True(store.Threads.Count > 0 && store.Threads.All(t => t == "jump-work"), "an async call: libjump's worker: " + string.Join(",", store.Threads));
                }
            }

            [JumpTest]
            public static void storage_is_released_with_the_last_config_or_client()
            {
                int before = HostRegistryCount();
                var store = new DictStorage();
                var config = store.Config(NewStorage());
                var c = new JumpClient(config);
                config.Dispose();
                Assert.Equal(before + 1, HostRegistryCount(), "the client still holds the storage");
                Assert.True(c.State.RestoreErrorJson == null, "state");
                c.Restore(); // still calls the storage
                Assert.True(store.Loads >= 2, "the storage was called after the config went");
                c.Dispose();
                Assert.Equal(before, HostRegistryCount(), "released with the last holder");

                using (var again = store.Config(NewStorage()))
                {
                    again.ClearStorage();
                    Assert.True(!again.HasStorage && HostRegistryCount() == before, "ClearStorage releases it");
                    using (var files = new JumpClient(again))
                        files.RegisterTraditional(new Dictionary<string, object> { { "email", UniqueEmail() }, { "displayName", "Files" } }, Password);
                }
                Assert.Throws<ArgumentNullException>(() => new JumpConfig().SetStorage(null, store.Save, store.Erase), "a missing delegate");
            }
        }
    }
}
