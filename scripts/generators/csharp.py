"""The C# binding's config keys (a backend of scripts/generate-bindings.py, which passes itself as `common`):
  bindings/csharp/src/ConfigKeys.Generated.cs   `public static class ConfigKeys`: one string constant per config
                                                key of jump_api.json's "config_keys" (RequestTimeoutMs =
                                                "requestTimeoutMs"), its meaning as the <summary>, its type,
                                                allowed values, range and default as <remarks>, and All
JumpConfig.Set and JumpConfig.FromJson take these names. The binding's other generated files are written by
generate-bindings.py itself (Native.Generated.cs, Errors.Generated.cs) and by csharp_results.py."""

from typing import Any, Callable, Dict, List, Tuple


def key_constant(key: str) -> str:
    """requestTimeoutMs -> RequestTimeoutMs (C# constants are PascalCase; the key's own words are kept)."""
    return key[:1].upper() + key[1:]


def config_keys(common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        docs = common.generator("config_docs")  # the key facts as jump.h words them
        keys = api["config_keys"]
        names = [key_constant(k["name"]) for k in keys]
        if len(set(names)) != len(names) or "All" in names:
            raise SystemExit("generate-bindings: two config keys have the same C# constant, or one is All")
        out = [
            "// " + common.GENERATED,
            "//",
            "// The config keys of jump.h (include/jump_api.json's \"config_keys\") as constants.",
            "using System;",
            "using System.Collections.Generic;",
            "",
            "namespace Jump",
            "{",
            "    /// <summary>The config keys, as <see cref=\"JumpConfig.Set(string, string)\"/> and",
            "    /// <see cref=\"JumpConfig.FromJson\"/> take them: each says what the key means, its type, allowed",
            "    /// values or range, and its default.</summary>",
            "    public static class ConfigKeys",
            "    {",
        ]
        for k, name in zip(keys, names):
            out += ["        /// <summary>%s</summary>" % common.xml(docs.sentence(k["meaning"].replace("\n", " "))),
                    "        /// <remarks>Key <c>%s</c>. %s</remarks>" % (k["name"], common.xml(docs.facts(k))),
                    "        public const string %s = \"%s\";" % (name, k["name"])]
        out += ["        /// <summary>Every key above, in jump.h's order.</summary>",
                "        public static readonly IReadOnlyList<string> All = Array.AsReadOnly(new[]",
                "        {"]
        out += ["            %s," % n for n in names]
        out += ["        });", "    }", "}"]
        return "\n".join(out) + "\n"
    return make


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    return [("bindings/csharp/src/ConfigKeys.Generated.cs", config_keys(common))]
