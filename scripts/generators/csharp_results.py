"""The C# binding's typed results (a backend of scripts/generate-bindings.py, which passes itself as `common`):
  bindings/csharp/src/Results.Generated.cs   one sealed partial class per document of jump_api.json's "documents"
                                             (PascalCase properties, DateTimeOffset/TimeSpan for units, a class of
                                             string constants per "values" key, the JSON text in Json, ToString
                                             redacting the "secret" keys), read with the binding's Json helper
bindings/csharp/src/Results.cs (hand-written) keeps the members older versions had that are not keys (StatusCode,
BodyBytes, RestoreErrorJson, ...) and ResultReader.cs the conversions the generated constructors call.
Mono's mcs (build.sh) has no records, hence classes."""

import re
from typing import Any, Callable, Dict, List, Tuple

# Public class names older versions of the binding gave these documents: kept, so code written against them
# still compiles. Every other document's class is its name in PascalCase.
CS_CLASS = {
    "client_state": "JumpState",
    "sign_in_status": "ClientStatus",
    "social_outcome": "SocialResult",
    "social_begin": "SocialBeginResult",
    "share_content": "ShareContentResult",
    "credentials": "JumpCredentials",
    "http_response": "JumpHttpResponse",
    # "Event" would be the name of its own "event" property (CS0542), and reads as System's.
    "event": "JumpEvent",
}
# Suffixes a key's name carries for its unit: the TimeSpan/DateTimeOffset property says it by its type.
UNIT_SUFFIX = re.compile(r"_(seconds|ms|milliseconds)$")


def pascal(text: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^A-Za-z0-9]+", text) if p)


def has_any(t: str) -> bool:
    return re.sub(r"[\[\]{}]", "", t) == "any"


class Gen:
    def __init__(self, common: Any, api: Dict[str, Any]):
        self.common = common
        self.docs: Dict[str, Any] = {n: d for n, d in api.get("documents", {}).items()
                                     if all(isinstance(k, dict) and "type" in k for k in d.get("keys", {}).values())}
        self.constants: List[str] = []
        self.users: Dict[str, List[str]] = {}
        for f in api["functions"]:
            if "result" in f and "jansson_of" not in f:
                for name in re.findall(r"[a-z_][a-z0-9_]*", f["result"]):
                    self.users.setdefault(name, []).append(f["name"])

    def cls(self, doc: str) -> str:
        return CS_CLASS.get(doc, pascal(doc))

    def xml(self, text: str) -> str:
        return self.common.xml((text or "").strip() or "(not described in jump_api.json)")

    def conv(self, t: str, spec: Dict[str, Any], depth: int, top: bool) -> Tuple[str, str]:
        """(C# type, a conversion of the object `v{depth}`) for a JSON type; `top`: a key's own value, where
        nullable and optional apply (elements of arrays and maps are never null but for documents)."""
        v = "v%d" % depth
        nullable = top and (spec.get("nullable") or spec.get("optional"))
        if t.startswith("[") and t.endswith("]"):
            inner, f = self.conv(t[1:-1], spec, depth + 1, False)
            make = "R.List(%s, v%d => %s)" % (v, depth + 1, f)
            return "IReadOnlyList<%s>" % inner, make if nullable else "%s ?? new %s[0]" % (make, inner)
        if t.startswith("{") and t.endswith("}"):
            inner, f = self.conv(t[1:-1], spec, depth + 1, False)
            make = "R.Map(%s, v%d => %s)" % (v, depth + 1, f)
            return ("IReadOnlyDictionary<string, %s>" % inner,
                    make if nullable else "%s ?? new Dictionary<string, %s>()" % (make, inner))
        unit = spec.get("unit") if t == "int" else None
        if unit == "epoch_seconds":
            return ("DateTimeOffset?", "R.Epoch(%s)" % v) if nullable else ("DateTimeOffset", "R.Epoch(%s).GetValueOrDefault()" % v)
        if unit in ("seconds", "milliseconds"):
            f = "R.Span(%s, %s)" % (v, "1000" if unit == "seconds" else "1")
            return ("TimeSpan?", f) if nullable else ("TimeSpan", f + ".GetValueOrDefault()")
        # Value types are nullable where JSON may say null; an absent optional key reads as false or 0.
        strict = top and spec.get("nullable")
        scalars = {"string": ("string", "R.Str(%s)"), "bool": ("bool", "R.Bool(%s)"), "int": ("long", "R.Long(%s)"),
                   "number": ("double", "R.Double(%s)"), "any": ("string", "R.Text(%s)")}
        if t in scalars:
            typ, f = scalars[t]
            if strict and typ in ("bool", "long", "double"):
                return typ + "?", "R.%sOrNull(%s)" % (f[2:f.index("(")], v)
            return typ, f % v
        if t in self.docs:
            return self.cls(t), "R.Doc(%s, o => new %s(o, null))" % (v, self.cls(t))
        raise SystemExit("generate-bindings: a C# result key has the type `%s`, neither a JSON type nor a document" % t)

    def values_class(self, owner: str, prop: str, spec: Dict[str, Any]) -> str:
        name = owner + prop
        out = ["", "    /// <summary>The values of %s.%s known today; a newer libjump may send another (compare, do not" % (owner, prop),
               "    /// switch exhaustively).</summary>", "    public static class %s" % name, "    {"]
        seen = set()
        for value in spec["values"]:
            const = pascal(value) or "Empty"
            const = "V" + const if const[:1].isdigit() else const
            if const in seen or const == name:
                raise SystemExit("generate-bindings: the values of %s.%s make clashing C# constants" % (owner, prop))
            seen.add(const)
            out += ["        /// <summary>\"%s\"</summary>" % self.common.xml(value),
                    "        public const string %s = \"%s\";" % (const, value)]
        out.append("    }")
        self.constants += out
        return name

    def document(self, name: str, spec: Dict[str, Any]) -> List[str]:
        cls = self.cls(name)
        props: List[Tuple[str, str, str, str, Dict[str, Any]]] = []  # (key, property, type, conversion, spec)
        for key, k in spec["keys"].items():
            t = k["type"]
            stem = UNIT_SUFFIX.sub("", key) if k.get("unit") in ("seconds", "milliseconds") else key
            prop = pascal(stem) + ("Json" if has_any(t) else "")
            if prop in (cls, "Json") or prop in [p[1] for p in props]:
                raise SystemExit("generate-bindings: %s.%s: the C# property %s clashes" % (name, key, prop))
            typ, conv = ("string", "R.Text(v0)") if has_any(t) else self.conv(t, k, 0, True)
            props.append((key, prop, typ, conv, k))
        out = ["", "    /// <summary>%s" % self.xml(spec.get("description", ""))]
        users = self.users.get(name)
        if users:
            out.append("    /// The result (or part of it) of %s." % ", ".join(users))
        out += ["    /// </summary>", "    public sealed partial class %s" % cls, "    {",
                "        internal %s(string json) : this(J.Parse(json), json) { }" % cls, "",
                "        internal %s(object d, string json)" % cls, "        {",
                "            Json = json ?? J.Write(d);"]
        for key, prop, typ, conv, k in props:
            out.append("            { var v0 = J.Get(d, \"%s\"); %s = %s; }" % (key, prop, conv))
        out.append("        }")
        for key, prop, typ, conv, k in props:
            text = k.get("description", "")
            notes = ["\"%s\"" % key]
            if k.get("values"):
                notes.append("values: " + self.values_class(cls, prop, k))
            if has_any(k["type"]):
                notes.append("as JSON text")
            if k.get("unit"):
                notes.append(k["unit"].replace("_", " ") + " in JSON")
            if typ in ("bool", "long", "double") and k.get("optional"):
                notes.append("%s when absent" % ("false" if typ == "bool" else "0"))
            elif k.get("nullable") or k.get("optional"):
                notes.append("null when " + " or ".join(w for w, f in (("JSON null", "nullable"), ("absent", "optional")) if k.get(f)))
            if k.get("secret"):
                notes.append("a secret: ToString leaves it out")
            out += ["", "        /// <summary>%s (%s)</summary>" % (self.xml(text), self.common.xml("; ".join(notes))),
                    "        public %s %s { get; private set; }" % (typ, prop)]
        out += ["", "        /// <summary>The document as libjump gave it (JSON text): keys this binding does not know"
                    " are there too%s.</summary>" % ("; it holds the secrets" if any(p[4].get("secret") for p in props) else ""),
                "        public string Json { get; private set; }", "",
                "        /// <summary>The members, secrets left out.</summary>",
                "        public override string ToString()", "        {",
                "            return \"%s { \" + string.Join(\", \", new[] {" % cls]
        shown = []
        for key, prop, typ, conv, k in props:
            value = "R.Secret(%s)" % prop if k.get("secret") else "R.Show(%s)" % prop
            shown.append("                \"%s = \" + %s," % (prop, value))
        out += shown + ["            }) + \" }\";", "        }", "    }"]
        return out


def results(common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        gen = Gen(common, api)
        body: List[str] = []
        for name, spec in gen.docs.items():
            body += gen.document(name, spec)
        out = [
            "// " + common.GENERATED,
            "//",
            "// The documents libjump returns (include/jump_api.json's \"documents\") as classes, read leniently: an unknown",
            "// key is ignored (Json keeps it), an absent or mistyped one is null, false or 0. Results.cs holds the members",
            "// older versions had beyond the keys; ResultReader.cs (R) the conversions.",
            "using System;",
            "using System.Collections.Generic;",
            "using J = Jump.Json;",
            "using R = Jump.ResultReader;",
            "",
            "namespace Jump",
            "{",
        ]
        return "\n".join(out + body[1:] + gen.constants + ["}"]) + "\n"
    return make


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    return [("bindings/csharp/src/Results.Generated.cs", results(common))]
