// Json.cs - a minimal JSON reader/writer. libjump speaks JSON text; Mono's profile and Unity lack
// System.Text.Json, and the binding must not pull in a package. Objects become Dictionary<string, object>,
// arrays List<object>, numbers long (when integral) or double, plus string, bool and null.
//
// Internal: the public API gives typed results, JSON text or dictionaries, never this parser, so it can change
// (or be replaced by System.Text.Json where that exists) without breaking apps. The tests compile their own
// copy of this file.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Jump
{
    internal static class Json
    {
        /// <summary>Parses JSON text; FormatException on malformed input (never anything worse).</summary>
        public static object Parse(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            int i = 0;
            object v = Value(text, ref i, 0);
            Skip(text, ref i);
            if (i != text.Length) throw new FormatException("JSON: trailing characters at " + i);
            return v;
        }

        /// <summary>Serializes null, bool, string, numbers, IDictionary (string keys) and IEnumerable.</summary>
        public static string Write(object value)
        {
            var sb = new StringBuilder();
            Write(sb, value, 0);
            return sb.ToString();
        }

        // The same bound libjump enforces (JUMP_JSON_MAX_DEPTH): no input can exhaust the stack.
        const int MaxDepth = 64;

        static void Skip(string s, ref int i)
        {
            while (i < s.Length && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
        }

        static object Value(string s, ref int i, int depth)
        {
            if (depth > MaxDepth) throw new FormatException("JSON: nested too deeply");
            Skip(s, ref i);
            if (i >= s.Length) throw new FormatException("JSON: unexpected end");
            char c = s[i];
            if (c == '{')
            {
                var d = new Dictionary<string, object>();
                i++; Skip(s, ref i);
                if (i < s.Length && s[i] == '}') { i++; return d; }
                while (true)
                {
                    Skip(s, ref i);
                    if (i >= s.Length || s[i] != '"') throw new FormatException("JSON: expected a key at " + i);
                    string key = Str(s, ref i);
                    Skip(s, ref i);
                    Expect(s, ref i, ':');
                    d[key] = Value(s, ref i, depth + 1);
                    Skip(s, ref i);
                    if (i < s.Length && s[i] == ',') { i++; continue; }
                    Expect(s, ref i, '}');
                    return d;
                }
            }
            if (c == '[')
            {
                var l = new List<object>();
                i++; Skip(s, ref i);
                if (i < s.Length && s[i] == ']') { i++; return l; }
                while (true)
                {
                    l.Add(Value(s, ref i, depth + 1));
                    Skip(s, ref i);
                    if (i < s.Length && s[i] == ',') { i++; continue; }
                    Expect(s, ref i, ']');
                    return l;
                }
            }
            if (c == '"') return Str(s, ref i);
            if (Word(s, ref i, "true")) return true;
            if (Word(s, ref i, "false")) return false;
            if (Word(s, ref i, "null")) return null;
            int start = i;
            while (i < s.Length && "+-0123456789.eE".IndexOf(s[i]) >= 0) i++;
            string num = s.Substring(start, i - start);
            long l64;
            if (num.IndexOfAny(new[] { '.', 'e', 'E' }) < 0 && long.TryParse(num, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out l64))
                return l64;
            double dbl;
            if (num.Length > 0 && double.TryParse(num, NumberStyles.Float, CultureInfo.InvariantCulture, out dbl)) return dbl;
            throw new FormatException("JSON: unexpected character at " + start);
        }

        static void Expect(string s, ref int i, char c)
        {
            if (i >= s.Length || s[i] != c) throw new FormatException("JSON: expected '" + c + "' at " + i);
            i++;
        }

        static bool Word(string s, ref int i, string w)
        {
            if (string.CompareOrdinal(s, i, w, 0, w.Length) != 0) return false;
            i += w.Length;
            return true;
        }

        static string Str(string s, ref int i)
        {
            i++; // opening quote
            var sb = new StringBuilder();
            while (true)
            {
                if (i >= s.Length) throw new FormatException("JSON: unterminated string");
                char c = s[i++];
                if (c == '"') return sb.ToString();
                if (c != '\\') { sb.Append(c); continue; }
                if (i >= s.Length) throw new FormatException("JSON: unterminated escape");
                char e = s[i++];
                switch (e)
                {
                    case '"': sb.Append('"'); break;
                    case '\\': sb.Append('\\'); break;
                    case '/': sb.Append('/'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'u':
                        if (i + 4 > s.Length) throw new FormatException("JSON: bad \\u escape");
                        sb.Append((char)int.Parse(s.Substring(i, 4), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
                        i += 4;
                        break;
                    default: throw new FormatException("JSON: bad escape \\" + e);
                }
            }
        }

        static void Write(StringBuilder sb, object v, int depth)
        {
            if (depth > MaxDepth) throw new ArgumentException("JSON: nested too deeply");
            if (v == null) { sb.Append("null"); return; }
            if (v is bool) { sb.Append((bool)v ? "true" : "false"); return; }
            var str = v as string;
            if (str != null) { Quote(sb, str); return; }
            if (v is int || v is long || v is short || v is uint || v is ulong || v is byte || v is sbyte || v is ushort)
            { sb.Append(Convert.ToString(v, CultureInfo.InvariantCulture)); return; }
            if (v is double || v is float || v is decimal)
            { sb.Append(Convert.ToDouble(v, CultureInfo.InvariantCulture).ToString("R", CultureInfo.InvariantCulture)); return; }
            var dict = v as IDictionary;
            if (dict != null)
            {
                sb.Append('{');
                bool first = true;
                foreach (DictionaryEntry kv in dict)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Quote(sb, Convert.ToString(kv.Key, CultureInfo.InvariantCulture));
                    sb.Append(':');
                    Write(sb, kv.Value, depth + 1);
                }
                sb.Append('}');
                return;
            }
            var list = v as IEnumerable;
            if (list != null)
            {
                sb.Append('[');
                bool first = true;
                foreach (var item in list)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Write(sb, item, depth + 1);
                }
                sb.Append(']');
                return;
            }
            throw new ArgumentException("JSON: cannot write a " + v.GetType().Name);
        }

        static void Quote(StringBuilder sb, string s)
        {
            sb.Append('"');
            foreach (char c in s)
            {
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    default:
                        if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else sb.Append(c);
                        break;
                }
            }
            sb.Append('"');
        }

        /// <summary>The member key of a parsed JSON object; null when obj is not an object or lacks it.</summary>
        public static object Get(object obj, string key)
        {
            var d = obj as Dictionary<string, object>;
            object v;
            return d != null && d.TryGetValue(key, out v) ? v : null;
        }

        // Typed reads of a member, forgiving like Get: a missing member or one of another type gives the
        // default, because libjump's documents grow members and a result must not fail on what it ignores.

        public static string GetString(object obj, string key) { return Get(obj, key) as string; }

        public static bool GetBool(object obj, string key) { var v = Get(obj, key); return v is bool && (bool)v; }

        public static long? GetLong(object obj, string key)
        {
            var v = Get(obj, key);
            if (v is long) return (long)v;
            if (v is double && Math.Floor((double)v) == (double)v && Math.Abs((double)v) < 9e18) return (long)(double)v;
            return null;
        }

        public static Dictionary<string, object> GetObject(object obj, string key) { return Get(obj, key) as Dictionary<string, object>; }

        public static List<object> GetList(object obj, string key) { return Get(obj, key) as List<object>; }

        /// <summary>The member as JSON text; null when it is missing or JSON null.</summary>
        public static string GetText(object obj, string key) { var v = Get(obj, key); return v == null ? null : Write(v); }

        /// <summary>The strings of an array member (other items skipped); empty when missing.</summary>
        public static string[] GetStrings(object obj, string key)
        {
            var result = new List<string>();
            var list = GetList(obj, key);
            if (list != null) foreach (var item in list) if (item is string) result.Add((string)item);
            return result.ToArray();
        }
    }
}
