// ExceptionTests.cs - what apps and their tests can do with the binding's types without a server: make the
// exceptions the binding throws (public constructors, for mocks), read the library's versions and status
// descriptions, and see that the JSON parser is not public API.
using System;
using System.Linq;
using System.Reflection;

namespace Jump.Tests
{
    internal static partial class Program
    {
        [JumpTests]
        static class ExceptionTests
        {
            [JumpTest]
            public static void exceptions_have_public_constructors()
            {
                var plain = new JumpException(JumpStatus.Timeout, "slow");
                Assert.True(plain.Status == JumpStatus.Timeout && plain.StatusName == "JUMP_E_TIMEOUT" && plain.Message == "slow", "JumpException(status, message)");
                Assert.Equal(-4L, plain.Detail["status"], "its detail is made from the status");
                var merge = new JumpMergeRequiredException("merge", "{\"merge_token\":\"t\",\"existing_provider\":\"capture\",\"conflicting_provider\":\"google\"}");
                Assert.True(merge.MergeToken == "t" && merge.ExistingProvider == "capture" && merge.ConflictingProvider == "google", "typed members read the detail");
                Assert.Equal(JumpStatus.MergeRequired, merge.Status, "the type's own status");
                var cause = new InvalidOperationException("cause");
                var wrapped = new JumpStorageException("wrapped", cause);
                Assert.True(ReferenceEquals(cause, wrapped.InnerException) && wrapped.Status == JumpStatus.Storage, "inner exception");
                Assert.Equal("JUMP_E_NOT_FOUND", new JumpNotFoundException().Message, "the parameterless one says the status");
                var validation = new JumpValidationException("bad", "{\"invalid_fields\":{\"email\":[\"taken\"]}}");
                Assert.Equal("taken", validation.InvalidFields["email"].Single(), "InvalidFields from a made detail");
                // Every generated type has the four public constructors.
                var types = typeof(JumpException).Assembly.GetTypes().Where(t => t.IsSubclassOf(typeof(JumpException))).ToList();
                Assert.True(types.Count >= 19, "one type per failure status: " + types.Count);
                foreach (var t in types)
                    foreach (var signature in new[] { new Type[0], new[] { typeof(string) }, new[] { typeof(string), typeof(string) }, new[] { typeof(string), typeof(Exception) } })
                        Assert.True(t.GetConstructor(signature) != null, t.Name + "(" + string.Join(",", signature.Select(s => s.Name)) + ") is public");
            }

            [JumpTest]
            public static void library_versions_and_status_descriptions()
            {
                Assert.Equal(JumpClient.LibraryVersion, JumpLibrary.Version, "one version");
                var parts = JumpLibrary.Version.Split('.').Select(int.Parse).ToArray();
                Assert.Equal((uint)((parts[0] << 16) | (parts[1] << 8) | parts[2]), JumpLibrary.VersionNumber, "the number agrees with the string");
                Assert.Equal(JumpLibrary.ExpectedAbiVersion, JumpLibrary.AbiVersion, "the ABI this binding was written for");
                Assert.True(JumpLibrary.IsAtLeast(parts[0], parts[1], parts[2]) && !JumpLibrary.IsAtLeast(parts[0] + 1, 0, 0), "IsAtLeast");
                string described = JumpLibrary.Describe(JumpStatus.BadCredentials);
                Assert.True(!string.IsNullOrEmpty(described) && described != JumpLibrary.Describe(JumpStatus.Timeout), "a description: " + described);
                Assert.True(!string.IsNullOrEmpty(JumpLibrary.Describe((JumpStatus)(-999))), "also for an unknown code");
            }

            [JumpTest]
            public static void json_parser_is_not_public_api()
            {
                var json = typeof(JumpClient).Assembly.GetType("Jump.Json", true);
                Assert.True(!json.IsPublic, "Jump.Json is internal");
                var leaks = typeof(JumpClient).Assembly.GetExportedTypes()
                    .SelectMany(t => t.GetMembers(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly))
                    .Where(m => (m is MethodInfo && ((MethodInfo)m).ReturnType == json) || (m is PropertyInfo && ((PropertyInfo)m).PropertyType == json))
                    .Select(m => m.DeclaringType.Name + "." + m.Name).ToList();
                Assert.True(leaks.Count == 0, "public members of the parser's type: " + string.Join(", ", leaks));
            }
        }
    }
}
