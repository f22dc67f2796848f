// ApiContract.cs - checks the binding against include/jump_api.json (the API as data): every function but the
// _jansson variants has a P/Invoke declaration with the same number of parameters and compatible types, and every
// jump_status has its JumpStatus value and its own exception type. The declarations are generated from that
// file (scripts/generate-bindings.py); this checks what the compiler and Mono's marshaller made of them.
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;

namespace Jump.Tests
{
    internal static class ApiContract
    {
        // C type (as spelled in jump_api.json) -> the managed parameter types allowed for it.
        static readonly Dictionary<string, string[]> Allowed = new Dictionary<string, string[]>
        {
            { "const char *", new[] { "Byte[]", "IntPtr" } },
            { "char *", new[] { "IntPtr" } },
            { "char **", new[] { "IntPtr&" } },
            { "int", new[] { "Int32" } },
            { "int32_t", new[] { "Int32" } },
            { "uint32_t", new[] { "UInt32" } },
            { "int64_t", new[] { "Int64" } },
            { "int *", new[] { "Int32&" } },
            { "int64_t *", new[] { "Int64&" } },
            { "uint64_t *", new[] { "UInt64&" } },
            { "double *", new[] { "Double&" } },
            { "size_t *", new[] { "UIntPtr&" } },
            { "size_t", new[] { "UIntPtr" } },
            { "void *", new[] { "IntPtr" } },
            { "void", new[] { "Void" } },
            { "jump_status", new[] { "Int32" } },
            { "jump_callback", new[] { "Callback", "IntPtr" } },
            { "jump_free_fn", new[] { "FreeFn", "IntPtr" } },
            { "jump_dispatch_fn", new[] { "DispatchFn" } },
            { "jump_storage_load_fn", new[] { "StorageLoadFn" } },
            { "jump_storage_save_fn", new[] { "StorageSaveFn" } },
            { "jump_storage_erase_fn", new[] { "StorageEraseFn" } },
            { "jump_open_url_fn", new[] { "OpenUrlFn" } },
            { "jump_authenticate_fn", new[] { "AuthenticateFn" } },
            { "jump_config *", new[] { "JumpConfigHandle", "IntPtr" } },
            { "const jump_config *", new[] { "JumpConfigHandle" } },
            { "jump_config **", new[] { "JumpConfigHandle&" } },
            { "jump_client *", new[] { "JumpClientHandle", "IntPtr" } },
            { "jump_client **", new[] { "JumpClientHandle&" } },
            { "jump_record *", new[] { "JumpRecordHandle", "IntPtr" } },
            { "jump_record **", new[] { "JumpRecordHandle&" } },
            { "jump_request *", new[] { "JumpRequestHandle", "IntPtr" } },
            { "jump_request **", new[] { "JumpRequestHandle&" } },
        };

        static object LoadApi()
        {
            string root = Environment.GetEnvironmentVariable("JUMP_ROOT") ?? Directory.GetCurrentDirectory();
            return Json.Parse(File.ReadAllText(Path.Combine(root, "include/jump_api.json")));
        }

        static string Normalise(string cType) { return string.Join(" ", cType.Replace("*", " * ").Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries)).Replace("* *", "**"); }

        public static void PInvokesMatchTheApi()
        {
            var functions = new Dictionary<string, Dictionary<string, object>>();
            foreach (var f in (List<object>)Json.Get(LoadApi(), "functions"))
                functions[(string)Json.Get(f, "name")] = (Dictionary<string, object>)f;
            var native = typeof(JumpClient).Assembly.GetType("Jump.Native", true);
            var problems = new List<string>();
            var undeclared = new HashSet<string>();
            foreach (var kv in functions)
                if (!kv.Value.ContainsKey("jansson_of")) undeclared.Add(kv.Key); // C# has no jansson
            foreach (var m in native.GetMethods(BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public))
            {
                if ((m.Attributes & MethodAttributes.PinvokeImpl) == 0) continue;
                undeclared.Remove(m.Name);
                Dictionary<string, object> f;
                if (!functions.TryGetValue(m.Name, out f)) { problems.Add(m.Name + ": not in jump_api.json"); continue; }
                var cParams = (List<object>)Json.Get(f, "parameters");
                var ps = m.GetParameters();
                if (cParams.Count != ps.Length) { problems.Add(m.Name + ": " + ps.Length + " parameters, C has " + cParams.Count); continue; }
                Check(problems, m.Name + " returns", (string)Json.Get(Json.Get(f, "returns"), "type"), m.ReturnType, true);
                for (int i = 0; i < ps.Length; i++)
                    Check(problems, m.Name + " parameter " + Json.Get(cParams[i], "name"), (string)Json.Get(cParams[i], "type"), ps[i].ParameterType, false);
            }
            foreach (var name in undeclared) problems.Add(name + ": no P/Invoke declaration");
            Assert.True(problems.Count == 0, string.Join("; ", problems));
        }

        static void Check(List<string> problems, string what, string cType, Type managed, bool isReturn)
        {
            string c = Normalise(cType);
            string name = managed.Name;
            string[] allowed;
            // Returned strings are borrowed (static or library-owned) or owned; always IntPtr, never string.
            if (isReturn && c == "const char *") allowed = new[] { "IntPtr" };
            else if (!Allowed.TryGetValue(c, out allowed)) { problems.Add(what + ": no mapping for C type '" + c + "'"); return; }
            if (Array.IndexOf(allowed, name) < 0) problems.Add(what + ": " + name + " for C " + c);
        }

        public static void StatusesHaveTypedExceptions()
        {
            var seen = new HashSet<Type>();
            var local = typeof(JumpException).GetMethod("Local", BindingFlags.Static | BindingFlags.NonPublic);
            foreach (var s in (List<object>)Json.Get(LoadApi(), "statuses"))
            {
                long value = (long)Json.Get(s, "value");
                string name = (string)Json.Get(s, "name");
                Assert.True(Enum.IsDefined(typeof(JumpStatus), (int)value), "JumpStatus lacks " + name);
                if (value == 0) continue;
                var e = (JumpException)local.Invoke(null, new object[] { (JumpStatus)(int)value, "x" });
                Assert.Equal(name, e.StatusName, "StatusName of " + value);
                Assert.True(e.GetType() != typeof(JumpException) && seen.Add(e.GetType()), name + " has no exception type of its own");
            }
            Assert.Equal(Enum.GetValues(typeof(JumpStatus)).Length, seen.Count + 1, "JumpStatus values vs jump_api.json statuses");
        }
    }
}
