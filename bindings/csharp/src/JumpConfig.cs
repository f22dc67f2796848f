// JumpConfig.cs - settings for a client (the keys are listed in jump.h, "jump_config").
using System;
using System.Collections.Generic;

namespace Jump
{
    /// <summary>Settings for a client (the keys are listed in jump.h and include/jump_api.json: captureDomain,
    /// storageDirectory, engageAppId, ...), and where its session is kept (<see cref="SetStorage"/>). A client
    /// takes a copy when it is made, so a config may be disposed, or changed for the next client, at once.</summary>
    public sealed partial class JumpConfig : IDisposable
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

        /// <summary>A config from a JSON object of keys, e.g. {"captureDomain":"...","storageDirectory":"..."}.
        /// An unknown key or a wrong type: JumpInvalidArgumentException.</summary>
        /// <param name="json">The settings as a JSON object.</param>
        public static JumpConfig FromJson(string json)
        {
            JumpConfigHandle h;
            int status = Native.jump_config_from_json(Utf8.Encode(json, "json"), out h);
            if (status != 0) { var error = JumpException.FromLastError(status); h.Dispose(); throw error; }
            return new JumpConfig(h);
        }

        /// <summary>A config from key/value pairs (strings, bools, integers, nested dictionaries).</summary>
        /// <param name="settings">The settings.</param>
        public static JumpConfig FromDictionary(IDictionary<string, object> settings)
        {
            return FromJson(Json.Write(settings));
        }

        /// <summary>Sets a string key; null restores its default.</summary>
        /// <param name="key">The key (an unknown one: JumpInvalidArgumentException).</param>
        /// <param name="value">The value, or null.</param>
        /// <returns>This config, for chaining.</returns>
        public JumpConfig Set(string key, string value)
        {
            JumpException.Check(Native.jump_config_set_string(Handle, Utf8.Encode(key, "key"), Utf8.Encode(value, "value")));
            return this;
        }

        /// <summary>Sets a boolean key.</summary>
        /// <param name="key">The key (an unknown one: JumpInvalidArgumentException).</param>
        /// <param name="value">The value.</param>
        /// <returns>This config, for chaining.</returns>
        public JumpConfig Set(string key, bool value)
        {
            JumpException.Check(Native.jump_config_set_bool(Handle, Utf8.Encode(key, "key"), value ? 1 : 0));
            return this;
        }

        /// <summary>Sets an integer key.</summary>
        /// <param name="key">The key (an unknown one: JumpInvalidArgumentException).</param>
        /// <param name="value">The value.</param>
        /// <returns>This config, for chaining.</returns>
        public JumpConfig Set(string key, long value)
        {
            JumpException.Check(Native.jump_config_set_int(Handle, Utf8.Encode(key, "key"), value));
            return this;
        }

        /// <summary>Sets a list key (pinnedPublicKeys: "sha256//&lt;base64&gt;" hashes); null restores its default.</summary>
        /// <param name="key">The key (an unknown one: JumpInvalidArgumentException).</param>
        /// <param name="values">The strings, or null.</param>
        /// <returns>This config, for chaining.</returns>
        public JumpConfig Set(string key, IEnumerable<string> values)
        {
            string json = values == null ? null : Json.Write(new List<object>(values));
            JumpException.Check(Native.jump_config_set_string(Handle, Utf8.Encode(key, "key"), Utf8.Encode(json, "value")));
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

        /// <summary>Releases the config (clients made from it keep their copy, and their host storage).</summary>
        public void Dispose() { Handle.Dispose(); }
    }
}
