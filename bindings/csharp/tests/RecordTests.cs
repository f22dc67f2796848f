// RecordTests.cs - the record model against the emulator (as bindings/python/tests/test_record_model.py):
// typed getters, plurals (append, remove, replace, count, paths, renamed ids), clear, revert, discard, and the
// schema refusing edits before any request.
using System;
using System.Collections.Generic;
using System.Linq;

namespace Jump.Tests
{
    internal static partial class Program
    {
        /// <summary>A user made with plural elements (registration makes none), signed in through c; its uuid.</summary>
        static string SignedInWithPhotos(JumpClient c, params string[] photos)
        {
            string email = UniqueEmail();
            var record = new Dictionary<string, object> {
                { "givenName", "Ada" },
                { "photos", (photos.Length == 0 ? new[] { "a.png", "b.png" } : photos).Select(v => (object)new Dictionary<string, object> { { "value", v } }).ToList() },
                { "profiles", new List<object> { new Dictionary<string, object> { { "identifier", "id-" + email }, { "domain", "example.com" },
                    { "friends", new List<object> { new Dictionary<string, object> { { "displayName", "Bo" } } } } } } },
            };
            emu.Admin("POST", "/emulator/users", Json.Write(new Dictionary<string, object> { { "email", email }, { "password", Password }, { "record", record } }));
            c.SignIn(email, Password);
            return c.State.Uuid;
        }

        [JumpTests]
        static class RecordTests
        {
            [JumpTest]
            public static void record_typed_getters()
            {
                using (var c = NewClient())
                {
                    SignedInWithPhotos(c);
                    using (var record = c.Record())
                    {
                        record.SetJson("/primaryAddress/zip", "\"75001\"");
                        Assert.Equal("75001", record.GetString("/primaryAddress/zip"), "a nested string");
                        var photo = record.ElementPaths("/photos")[0];
                        long id = record.GetInt64(photo + "/id");
                        Assert.True(id > 0 && photo == "/photos#" + id, "the element id " + id + " in its path " + photo);
                        Assert.Equal((double)id, record.GetDouble(photo + "/id"), "an integer as a double");
                        Assert.Throws<JumpNotFoundException>(() => record.GetInt64("/aboutMe"), "JSON null has no value");
                        Assert.Throws<JumpInvalidArgumentException>(() => record.GetBool("/givenName"), "a string is not a bool");
                        Assert.Throws<JumpNotFoundException>(() => record.GetBool("/noSuchAttribute"), "no such path");
                    }
                }
            }

            [JumpTest]
            public static void record_plurals_append_remove_and_renamed_ids()
            {
                using (var c = NewClient())
                {
                    string uuid = SignedInWithPhotos(c);
                    string local;
                    using (var record = c.Record())
                    {
                        Assert.Equal(2, record.ElementCount("/photos"), "two photos");
                        local = record.Append("/photos", new Dictionary<string, object> { { "value", "new.png" } });
                        Assert.Equal("/photos#-1", local, "a local element path");
                        record.SetString(local + "/type", "extra");
                        record.Remove(record.ElementPaths("/photos")[0]);
                        var profile = record.ElementPaths("/profiles")[0];
                        record.AppendJson(profile + "/friends", "{\"displayName\":\"Cy\"}");
                        Assert.Equal(2, record.ElementCount("/photos"), "one removed, one appended");
                    }
                    var synced = c.Sync();
                    string renamed;
                    Assert.True(synced.Renamed.TryGetValue(local, out renamed) && int.Parse(renamed.Split('#')[1]) > 0, "renamed: " + synced.Json);
                    using (var record = c.Record())
                    {
                        Assert.Equal("new.png", record.GetString(renamed + "/value"), "the element under its server id");
                        Assert.True(record.ElementPaths("/photos").All(p => int.Parse(p.Split('#')[1]) > 0), "only server ids now");
                    }
                    var server = emu.User(uuid);
                    var values = ((List<object>)Json.Get(server, "photos")).Select(p => Json.Get(p, "value") as string).ToList();
                    Assert.Equal("b.png,new.png", string.Join(",", values), "server photos");
                    var friends = (List<object>)Json.Get(((List<object>)Json.Get(server, "profiles"))[0], "friends");
                    Assert.Equal("Bo,Cy", string.Join(",", friends.Select(f => Json.Get(f, "displayName") as string)), "nested plural");
                }
            }

            [JumpTest]
            public static void record_replace_plural_and_clear()
            {
                using (var c = NewClient())
                {
                    string uuid = SignedInWithPhotos(c);
                    using (var record = c.Record())
                    {
                        record.ReplacePlural("/photos", new List<IDictionary<string, object>> {
                            new Dictionary<string, object> { { "value", "x.png" } }, new Dictionary<string, object> { { "id", 999 }, { "value", "y.png" } } });
                        Assert.Equal(2, record.ElementCount("/photos"), "two new elements");
                        Assert.True(record.ElementPaths("/photos").All(p => p.Contains("#-")), "new elements: their ids are ignored");
                        c.Sync();
                        record.ReplacePluralJson("/statuses", "[{\"status\":\"hello\"}]");
                        record.SetString("/aboutMe", "to be cleared");
                        c.Sync();
                        record.Clear("/statuses");
                        record.Clear("/aboutMe");
                        Assert.Equal(0, record.ElementCount("/statuses"), "a cleared plural has no elements");
                        Assert.Equal(null, record.GetString("/aboutMe"), "a cleared value is null");
                        c.Sync();
                    }
                    var server = emu.User(uuid);
                    Assert.Equal("x.png,y.png", string.Join(",", ((List<object>)Json.Get(server, "photos")).Select(p => Json.Get(p, "value"))), "server photos");
                    var statuses = Json.Get(server, "statuses") as List<object>;
                    Assert.True(statuses == null || statuses.Count == 0, "server statuses cleared");
                    Assert.True(Json.Get(server, "aboutMe") == null, "server aboutMe cleared");
                }
            }

            [JumpTest]
            public static void record_revert_and_discard_changes()
            {
                using (var c = NewClient())
                {
                    SignedInWithPhotos(c);
                    using (var record = c.Record())
                    {
                        record.SetString("/givenName", "Edited");
                        record.SetString("/aboutMe", "edited too");
                        record.Revert("/givenName");
                        Assert.Equal("Ada", record.GetString("/givenName"), "reverted to the server's value");
                        Assert.Equal("/aboutMe", string.Join(",", record.ChangedPaths()), "the other edit stays");
                        record.Append("/photos", new Dictionary<string, object> { { "value", "z.png" } });
                        record.DiscardChanges();
                        Assert.Equal(0, record.ChangedPaths().Length, "nothing unsynced");
                        Assert.Equal(2, record.ElementCount("/photos"), "the append is gone");
                        Assert.True(!c.State.UnsyncedChanges, "the state agrees");
                    }
                }
            }

            [JumpTest]
            public static void record_schema_refuses_locally()
            {
                using (var c = NewClient())
                {
                    SignedInWithPhotos(c);
                    Assert.Throws<JumpNotSignedInException>(() => { using (var other = NewClient()) other.LoadSchema(); }, "the schema needs a session");
                    c.LoadSchema();
                    c.LoadFlow();
                    Assert.True(c.State.FlowVersion != null, "the flow is cached: " + c.State.Json);
                    Assert.Equal("memory", c.State.SecretStore, "secret_store of a :memory: client");
                    using (var record = c.Record())
                    {
                        emu.ClearCounters();
                        foreach (var edit in new[] { new[] { "/birthday", "\"yesterday\"" }, new[] { "/aboutMe", "5" }, new[] { "/uuid", "\"x\"" } })
                        {
                            var e = Assert.Throws<JumpInvalidArgumentException>(() => record.SetJson(edit[0], edit[1]), "refused " + edit[0]);
                            Assert.Equal(edit[0], e.Argument, "names the path");
                        }
                        Assert.Throws<JumpInvalidArgumentException>(() => record.Append("/photos", new Dictionary<string, object> { { "colour", "red" } }), "unknown member");
                        Assert.Equal(0, record.ChangedPaths().Length, "nothing changed");
                        Assert.Equal(0, emu.Counters().Count, "no request");
                    }
                }
            }
        }
    }
}
