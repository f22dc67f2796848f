// JumpConfig.cs - settings for a client (the keys are listed in jump.h, "jump_config").
using System;
using System.Collections.Generic;

namespace Jump
{
    public sealed class JumpConfig : IDisposable
    {
        internal readonly JumpConfigHandle Handle;

        /// <summary>A config holding libjump's defaults.</summary>
        public JumpConfig()
        {
            JumpConfigHandle h;
            int status = Native.jump_config_new(out h);
            if (status != 0) { var error = JumpException.FromLastError(status); h.Dispose(); throw error; }
            Handle = h;
        }

        JumpConfig(JumpConfigHandle h) { Handle = h; }

        /// <summary>A config from a JSON object of keys, e.g. {"captureDomain":"...","storageDirectory":"..."}.</summary>
        public static JumpConfig FromJson(string json)
        {
            JumpConfigHandle h;
            int status = Native.jump_config_from_json(Utf8.Encode(json, "json"), out h);
            if (status != 0) { var error = JumpException.FromLastError(status); h.Dispose(); throw error; }
            return new JumpConfig(h);
        }

        /// <summary>A config from key/value pairs (strings, bools, integers, nested dictionaries).</summary>
        public static JumpConfig FromDictionary(IDictionary<string, object> settings)
        {
            return FromJson(Json.Write(settings));
        }

        /// <summary>Sets a string key; null restores its default.</summary>
        public JumpConfig Set(string key, string value)
        {
            JumpException.Check(Native.jump_config_set_string(Handle, Utf8.Encode(key, "key"), Utf8.Encode(value, "value")));
            return this;
        }

        public JumpConfig Set(string key, bool value)
        {
            JumpException.Check(Native.jump_config_set_bool(Handle, Utf8.Encode(key, "key"), value ? 1 : 0));
            return this;
        }

        public JumpConfig Set(string key, long value)
        {
            JumpException.Check(Native.jump_config_set_int(Handle, Utf8.Encode(key, "key"), value));
            return this;
        }

        /// <summary>The effective settings, defaults included, as JSON.</summary>
        public string ToJson()
        {
            IntPtr p;
            int status = Native.jump_config_to_json(Handle, out p);
            if (status != 0) throw JumpException.FromLastError(status);
            return Utf8.Take(p);
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
