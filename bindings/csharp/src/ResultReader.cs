// ResultReader.cs - the conversions the generated result classes (Results.Generated.cs) read their members with:
// forgiving like Json.Get, because libjump's documents grow members and a result must not fail on what it ignores
// (a member of another type than described reads as null, false or 0; Json keeps the text).
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using J = Jump.Json;

namespace Jump
{
    internal static class ResultReader
    {
        internal static string Str(object v) { return v as string; }

        internal static bool Bool(object v) { return v is bool && (bool)v; }

        internal static bool? BoolOrNull(object v) { return v is bool ? (bool?)(bool)v : null; }

        internal static long? LongOrNull(object v)
        {
            if (v is long) return (long)v;
            if (v is double && Math.Floor((double)v) == (double)v && Math.Abs((double)v) < 9e18) return (long)(double)v;
            return null;
        }

        internal static long Long(object v) { return LongOrNull(v) ?? 0; }

        internal static double? DoubleOrNull(object v)
        {
            if (v is double) return (double)v;
            if (v is long) return (long)v;
            return null;
        }

        internal static double Double(object v) { return DoubleOrNull(v) ?? 0; }

        /// <summary>Epoch seconds (jump_api.json's unit "epoch_seconds").</summary>
        internal static DateTimeOffset? Epoch(object v)
        {
            var s = LongOrNull(v);
            if (s == null || s < -62135596800L || s > 253402300799L) return null; // what DateTimeOffset holds
            return DateTimeOffset.FromUnixTimeSeconds(s.Value);
        }

        /// <summary>A number of seconds or milliseconds (millisPerUnit 1000 or 1) as a TimeSpan.</summary>
        internal static TimeSpan? Span(object v, long millisPerUnit)
        {
            var n = DoubleOrNull(v);
            if (n == null) return null;
            double ms = n.Value * millisPerUnit;
            if (ms > TimeSpan.MaxValue.TotalMilliseconds || ms < TimeSpan.MinValue.TotalMilliseconds) return null;
            return TimeSpan.FromMilliseconds(ms);
        }

        /// <summary>Any JSON value as its text; null for JSON null or a missing member.</summary>
        internal static string Text(object v) { return v == null ? null : J.Write(v); }

        internal static T Doc<T>(object v, Func<object, T> make) where T : class
        {
            return v is Dictionary<string, object> ? make(v) : null;
        }

        internal static IReadOnlyList<T> List<T>(object v, Func<object, T> item)
        {
            var list = v as List<object>;
            return list == null ? null : list.Select(item).ToList();
        }

        internal static IReadOnlyDictionary<string, T> Map<T>(object v, Func<object, T> item)
        {
            var map = v as Dictionary<string, object>;
            if (map == null) return null;
            var result = new Dictionary<string, T>();
            foreach (var kv in map) result[kv.Key] = item(kv.Value);
            return result;
        }

        /// <summary>How ToString shows a member: strings quoted, lists and maps with their items.</summary>
        internal static string Show(object v)
        {
            if (v == null) return "null";
            if (v is string) return J.Write(v);
            if (v is bool) return (bool)v ? "true" : "false";
            if (v is DateTimeOffset) return ((DateTimeOffset)v).ToString("u", CultureInfo.InvariantCulture);
            if (v is IFormattable) return ((IFormattable)v).ToString(null, CultureInfo.InvariantCulture);
            var dict = v as IDictionary;
            if (dict != null)
            {
                var parts = new List<string>();
                foreach (DictionaryEntry e in dict) parts.Add(J.Write(e.Key) + ": " + Show(e.Value));
                return "{" + string.Join(", ", parts) + "}";
            }
            var items = v as IEnumerable;
            if (items != null) return "[" + string.Join(", ", items.Cast<object>().Select(Show)) + "]";
            return v.ToString();
        }

        /// <summary>How ToString shows a secret: whether there is one, never what it is.</summary>
        internal static string Secret(object v) { return v == null ? "null" : "<redacted>"; }
    }
}
