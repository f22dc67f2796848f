// JumpRecord.cs - a live view of the signed-in user's record (jump_record). Edits are local (and saved
// with the session, so they survive a restart) until JumpClient.Sync sends them.
//
// Paths: "/" (the whole record), "/aboutMe", "/primaryAddress/city", "/photos#12/value" (a plural element by
// id; elements appended locally have negative ids, "/photos#-1", until a sync gives them the server's).
using System;
using System.Collections.Generic;
using System.Linq;

namespace Jump
{
    /// <summary>A live view of the signed-in user's record (from <see cref="JumpClient.Record"/>; dispose it
    /// when done). After sign-out or another sign-in its calls throw JumpNotSignedInException. An edit that
    /// cannot be saved to storage throws JumpStorageException and is not made.</summary>
    public sealed class JumpRecord : IDisposable
    {
        readonly JumpRecordHandle _handle;

        internal JumpRecord(JumpRecordHandle handle) { _handle = handle; }

        /// <summary>The string at path ("/aboutMe"); null for a JSON null. JumpNotFoundException when the
        /// path does not exist, JumpInvalidArgumentException when it holds another type.</summary>
        /// <param name="path">The attribute's path.</param>
        public string GetString(string path)
        {
            IntPtr p;
            return JumpClient.TakeResult(Native.jump_record_get_string(_handle, Utf8.Encode(path, "path"), out p), p);
        }

        /// <summary>The integer at path (a JSON integer, or a real with an integral value). JSON null:
        /// JumpNotFoundException; another type: JumpInvalidArgumentException.</summary>
        /// <param name="path">The attribute's path.</param>
        public long GetInt64(string path)
        {
            long value;
            JumpException.Check(Native.jump_record_get_int64(_handle, Utf8.Encode(path, "path"), out value));
            return value;
        }

        /// <summary>The number at path as a double (integers converted). JSON null: JumpNotFoundException.</summary>
        /// <param name="path">The attribute's path.</param>
        public double GetDouble(string path)
        {
            double value;
            JumpException.Check(Native.jump_record_get_double(_handle, Utf8.Encode(path, "path"), out value));
            return value;
        }

        /// <summary>The boolean at path. JSON null: JumpNotFoundException; another type: JumpInvalidArgumentException.</summary>
        /// <param name="path">The attribute's path.</param>
        public bool GetBool(string path)
        {
            int value;
            JumpException.Check(Native.jump_record_get_bool(_handle, Utf8.Encode(path, "path"), out value));
            return value != 0;
        }

        /// <summary>Sets the attribute at path to a string (null sets JSON null).</summary>
        /// <param name="path">The attribute's path.</param>
        /// <param name="value">The string, or null.</param>
        public void SetString(string path, string value)
        {
            JumpException.Check(Native.jump_record_set_string(_handle, Utf8.Encode(path, "path"), Utf8.Encode(value, "value")));
        }

        /// <summary>The value at path as JSON text ("/" is the whole record). JumpNotFoundException when the
        /// path does not exist.</summary>
        /// <param name="path">The path.</param>
        public string GetJson(string path)
        {
            IntPtr p;
            return JumpClient.TakeResult(Native.jump_record_get(_handle, Utf8.Encode(path, "path"), out p), p);
        }

        /// <summary>Sets the attribute at path (also inside a plural element) to a JSON value; an object sets
        /// the members it names. Reserved attributes (id, uuid, created, lastUpdated), unknown attributes, wrong
        /// types and whole plurals: JumpInvalidArgumentException naming the path.</summary>
        /// <param name="path">The attribute's path.</param>
        /// <param name="valueJson">The value as JSON text.</param>
        public void SetJson(string path, string valueJson)
        {
            JumpException.Check(Native.jump_record_set(_handle, Utf8.Encode(path, "path"), Utf8.Encode(valueJson, "valueJson")));
        }

        /// <summary>Clears the value at path: JSON null for a value or an object, no elements for a plural.</summary>
        /// <param name="path">The path.</param>
        public void Clear(string path)
        {
            JumpException.Check(Native.jump_record_clear(_handle, Utf8.Encode(path, "path")));
        }

        /// <summary>Appends an element (without "id") to the plural at pluralPath.</summary>
        /// <param name="pluralPath">The plural ("/photos", "/profiles#5/friends").</param>
        /// <param name="element">The element's attributes.</param>
        /// <returns>The new element's path, e.g. "/photos#-1".</returns>
        public string Append(string pluralPath, IDictionary<string, object> element)
        {
            return AppendJson(pluralPath, element == null ? null : Json.Write(element));
        }

        /// <summary>Append with the element as JSON text (an object).</summary>
        /// <param name="pluralPath">The plural.</param>
        /// <param name="elementJson">The element as a JSON object.</param>
        /// <returns>The new element's path.</returns>
        public string AppendJson(string pluralPath, string elementJson)
        {
            IntPtr p;
            int status = Native.jump_record_append(_handle, Utf8.Encode(pluralPath, "pluralPath"), Utf8.Encode(elementJson, "elementJson"), out p);
            return JumpClient.TakeResult(status, p);
        }

        /// <summary>Removes the plural element at elementPath ("/photos#12").</summary>
        /// <param name="elementPath">The element's path.</param>
        public void Remove(string elementPath)
        {
            JumpException.Check(Native.jump_record_remove(_handle, Utf8.Encode(elementPath, "elementPath")));
        }

        /// <summary>Replaces every element of the plural with elements (new elements: any "id" in them is
        /// ignored).</summary>
        /// <param name="pluralPath">The plural.</param>
        /// <param name="elements">The new elements.</param>
        public void ReplacePlural(string pluralPath, IEnumerable<IDictionary<string, object>> elements)
        {
            ReplacePluralJson(pluralPath, elements == null ? null : Json.Write(elements.ToList()));
        }

        /// <summary>ReplacePlural with the elements as JSON text (an array of objects).</summary>
        /// <param name="pluralPath">The plural.</param>
        /// <param name="elementsJson">The elements as a JSON array.</param>
        public void ReplacePluralJson(string pluralPath, string elementsJson)
        {
            JumpException.Check(Native.jump_record_replace_plural(_handle, Utf8.Encode(pluralPath, "pluralPath"),
                Utf8.Encode(elementsJson, "elementsJson")));
        }

        /// <summary>The number of elements of the plural at pluralPath.</summary>
        /// <param name="pluralPath">The plural.</param>
        public int ElementCount(string pluralPath)
        {
            UIntPtr count;
            JumpException.Check(Native.jump_record_element_count(_handle, Utf8.Encode(pluralPath, "pluralPath"), out count));
            return checked((int)count.ToUInt64());
        }

        /// <summary>The paths of the plural's elements, in order: ["/photos#12", "/photos#-1"].</summary>
        /// <param name="pluralPath">The plural.</param>
        public string[] ElementPaths(string pluralPath)
        {
            IntPtr p;
            string json = JumpClient.TakeResult(Native.jump_record_element_paths(_handle, Utf8.Encode(pluralPath, "pluralPath"), out p), p);
            var list = Json.Parse(json) as List<object>;
            return list == null ? new string[0] : list.OfType<string>().ToArray();
        }

        /// <summary>The unsynced changes, exactly what a sync would send now:
        /// {"changed":[paths],"update":{..},"requests":[..]}.</summary>
        public string ChangesJson()
        {
            IntPtr p;
            return JumpClient.TakeResult(Native.jump_record_changes(_handle, out p), p);
        }

        /// <summary>The unsynced changes, typed: the paths, the root's entity.update attributes and the requests a
        /// sync would send now.</summary>
        public RecordChanges Changes() { return new RecordChanges(ChangesJson()); }

        /// <summary>The paths with unsynced changes ("changed" of <see cref="ChangesJson"/>).</summary>
        public string[] ChangedPaths() { return Json.GetStrings(Json.Parse(ChangesJson()), "changed"); }

        /// <summary>Drops the unsynced edits at path and below, back to the value the server last acknowledged
        /// (e.g. to take the server's value after a JumpConflictException).</summary>
        /// <param name="path">The path.</param>
        public void Revert(string path)
        {
            JumpException.Check(Native.jump_record_revert(_handle, Utf8.Encode(path, "path")));
        }

        /// <summary>Drops all unsynced changes, back to the last state the server acknowledged.</summary>
        public void DiscardChanges() { JumpException.Check(Native.jump_record_discard_changes(_handle)); }

        /// <summary>Releases the view (the record belongs to the client). Idempotent.</summary>
        public void Dispose() { _handle.Dispose(); }
    }
}
