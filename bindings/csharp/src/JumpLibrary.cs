// JumpLibrary.cs - facts about the loaded libjump itself: its versions and its status descriptions.
namespace Jump
{
    /// <summary>The loaded libjump: its version, ABI and status descriptions. Loads the library on first use.</summary>
    public static class JumpLibrary
    {
        /// <summary>The library's version string, e.g. "0.1.0".</summary>
        public static string Version { get { return Utf8.Read(Native.jump_version()); } }

        /// <summary>The version as a number: (major &lt;&lt; 16) | (minor &lt;&lt; 8) | patch.</summary>
        public static uint VersionNumber { get { return Native.jump_version_number(); } }

        /// <summary>The ABI version (the soname suffix, libjump.so.1); bumped only when the ABI breaks. This
        /// binding was written for <see cref="ExpectedAbiVersion"/>.</summary>
        public static int AbiVersion { get { return Native.jump_abi_version(); } }

        /// <summary>The ABI this binding's declarations are for (include/jump.h's JUMP_ABI_VERSION).</summary>
        public const int ExpectedAbiVersion = 1;

        /// <summary>True when the library is at least major.minor.patch.</summary>
        /// <param name="major">The major version.</param>
        /// <param name="minor">The minor version.</param>
        /// <param name="patch">The patch version.</param>
        public static bool IsAtLeast(int major, int minor, int patch)
        {
            return VersionNumber >= (uint)((major << 16) | (minor << 8) | patch);
        }

        /// <summary>libjump's human-readable description of a status (jump_status_str), also for codes newer
        /// than this binding.</summary>
        /// <param name="status">The status.</param>
        public static string Describe(JumpStatus status) { return Utf8.Read(Native.jump_status_str((int)status)); }
    }
}
