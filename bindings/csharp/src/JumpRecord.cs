// JumpRecord.cs - a live view of the signed-in user's record (jump_record). Edits are local (and saved
// with the session) until JumpClient.Sync sends them.
using System;

namespace Jump
{
    public sealed class JumpRecord : IDisposable
    {
        readonly JumpRecordHandle _handle;

        internal JumpRecord(JumpRecordHandle handle) { _handle = handle; }

        /// <summary>The string at path ("/aboutMe"); null for a JSON null. JumpNotFoundException when the
        /// path does not exist, JumpInvalidArgumentException when it holds another type.</summary>
        public string GetString(string path)
        {
            IntPtr p;
            int status = Native.jump_record_get_string(_handle, Utf8.Encode(path, "path"), out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return Utf8.Take(p);
        }

        /// <summary>Sets the attribute at path to a string (null sets JSON null).</summary>
        public void SetString(string path, string value)
        {
            JumpException.Check(Native.jump_record_set_string(_handle, Utf8.Encode(path, "path"), Utf8.Encode(value, "value")));
        }

        /// <summary>The value at path as JSON text ("/" is the whole record).</summary>
        public string GetJson(string path)
        {
            IntPtr p;
            int status = Native.jump_record_get(_handle, Utf8.Encode(path, "path"), out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return Utf8.Take(p);
        }

        /// <summary>Sets the attribute at path to a JSON value (an object sets the members it names).</summary>
        public void SetJson(string path, string valueJson)
        {
            JumpException.Check(Native.jump_record_set(_handle, Utf8.Encode(path, "path"), Utf8.Encode(valueJson, "valueJson")));
        }

        /// <summary>The unsynced changes: {"changed":[paths],"update":{..},"requests":[..]}.</summary>
        public string ChangesJson()
        {
            IntPtr p;
            int status = Native.jump_record_changes(_handle, out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return Utf8.Take(p);
        }

        public void Dispose() { _handle.Dispose(); }
    }
}
