// Utf8.cs - UTF-8 marshalling by hand: Mono's default string marshalling is not UTF-8 everywhere, and
// Marshal.PtrToStringUTF8 is missing from Mono 6.8 and old Unity profiles.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Jump
{
    internal static class Utf8
    {
        /// <summary>s as NUL-terminated UTF-8; null stays null (libjump then answers INVALID_ARGUMENT or
        /// "default", as the function documents). An embedded NUL is refused: C would silently cut the
        /// string there (a password "ab\0cd" must not become "ab").</summary>
        internal static byte[] Encode(string s, string argument)
        {
            if (s == null) return null;
            if (s.IndexOf('\0') >= 0)
                throw new ArgumentException("the string contains a NUL character", argument);
            // Encoding.UTF8 replaces lone surrogates with U+FFFD rather than throwing; libjump only ever
            // sees valid UTF-8.
            int n = Encoding.UTF8.GetByteCount(s);
            var bytes = new byte[n + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }

        /// <summary>Copies a NUL-terminated UTF-8 string the library still owns (NULL gives null).</summary>
        internal static string Read(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            int len = 0;
            while (Marshal.ReadByte(p, len) != 0) len++;
            var bytes = new byte[len];
            Marshal.Copy(p, bytes, 0, len);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>Copies a string the caller owns, then frees it with jump_string_free (never free()).</summary>
        internal static string Take(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            try { return Read(p); }
            finally { Native.jump_string_free(p); }
        }
    }
}
