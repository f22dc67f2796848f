"""The Java binding's typed results, a backend of scripts/generate-bindings.py: one record per document of
jump_api.json in bindings/java/generated/io/libjump/<Document>.java.

Each record has one component per key (camelCase) and a last component `json`, the document as libjump sent
it (keys a newer library adds stay reachable; `get(key)` reads one). Javadoc comes from the descriptions. Types:
string String, bool boolean, int long, number double, any Object (as Json.parse reads it), a document its
record, [T] List<T>, {T} Map<String, T> (both unmodifiable); epoch seconds are an Instant, seconds and
milliseconds a Duration; a key with "values" is a nested enum with an UNKNOWN constant for a value a newer
library adds. A nullable key is boxed (null for JSON null); an absent optional key is zero, false, an empty
list or map, or null for an object. Secret keys are redacted in toString, which also leaves out json.
Decoding (`of`, package-private) reads a parsed document through the hand-written Decode helpers; a value of
an unexpected type is read as absent, as the hand-written records always did.
"""

import re
from typing import Any, Callable, Dict, List, Optional, Tuple

SRC = "bindings/java/generated/io/libjump/"

# Component names a mechanical rule would make read badly, (document, key) -> name, each with why:
COMPONENT_NAMES = {
    # Event.event() would repeat the type; the event's name is what the key holds (and the record's name
    # for it before it was generated)
    ("event", "event"): "name",
}
JAVA_KEYWORDS = {"abstract", "boolean", "case", "class", "default", "do", "double", "final", "for", "if", "int",
                 "interface", "long", "new", "package", "private", "public", "return", "static", "switch",
                 "this", "throw", "try", "void", "while", "char", "byte", "short", "float", "import", "native"}
# Record member names every record has: a key with one of these names would clash.
RESERVED = {"json", "get", "toString", "hashCode", "equals", "of"}
SCALARS = {"string": "String", "bool": "Boolean", "int": "Long", "number": "Double", "any": "Object"}
PRIMITIVE = {"bool": ("boolean", "false"), "int": ("long", "0"), "number": ("double", "0")}
UNITS = {"epoch_seconds": ("Instant", "epochSeconds"), "seconds": ("Duration", "seconds"),
         "milliseconds": ("Duration", "milliseconds")}


def pascal(snake: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in snake.split("_") if p)


def camel(snake: str) -> str:
    p = pascal(snake)
    return p[:1].lower() + p[1:]


def component(doc: str, key: str) -> str:
    name = COMPONENT_NAMES.get((doc, key), camel(key))
    if name in JAVA_KEYWORDS or name in RESERVED:
        raise SystemExit("generators/java_results.py: documents.%s.%s is named %r in Java, a reserved name: "
                         "add it to COMPONENT_NAMES" % (doc, key, name))
    return name


def constant(value: str) -> str:
    c = re.sub(r"[^A-Za-z0-9]+", "_", value).strip("_").upper()
    return c if c and not c[0].isdigit() else "V_" + c


doc_text: Callable[[str], str]  # text for Javadoc, HTML and tags escaped: _shared.javadoc_text, set by outputs()


def sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


class Types:
    def __init__(self, api: Dict[str, Any]):
        self.docs: Dict[str, Any] = api.get("documents", {})

    def check(self, t: str, where: str) -> None:
        if t[:1] in "[{":
            return self.check(t[1:-1], where)
        if t not in SCALARS and t not in self.docs:
            raise SystemExit("generators/java_results.py: %s: unknown type %r" % (where, t))

    def boxed(self, t: str, enum: Optional[str]) -> str:
        if t.startswith("["):
            return "List<%s>" % self.boxed(t[1:-1], enum)
        if t.startswith("{"):
            return "Map<String, %s>" % self.boxed(t[1:-1], enum)
        if t == "string" and enum:
            return enum
        return SCALARS.get(t) or pascal(t)

    def reader(self, t: str, enum: Optional[str]) -> str:
        """A Function<Object, T> reading one value of T (null when it is not one)."""
        if t.startswith("["):
            return "v -> Decode.list(v, %s)" % self.reader(t[1:-1], enum)
        if t.startswith("{"):
            return "v -> Decode.map(v, %s)" % self.reader(t[1:-1], enum)
        if t == "string" and enum:
            return enum + "::of"
        if t in SCALARS:
            return {"string": "Decode::string", "bool": "Decode::bool", "int": "Decode::integer",
                    "number": "Decode::number", "any": "v -> v"}[t]
        return pascal(t) + "::of"


def field(types: Types, doc: str, key: str, spec: Dict[str, Any]) -> Tuple[str, str]:
    """(Java type, the expression reading it from `o`, a parsed document)."""
    t, nullable = spec["type"], spec.get("nullable", False)
    enum = pascal(component(doc, key)) if spec.get("values") else None
    value = 'Json.get(o, "%s")' % key
    if t == "int" and spec.get("unit") in UNITS:
        typ, fn = UNITS[spec["unit"]]
        expr = "Decode.%s(%s)" % (fn, value)
        if typ == "Duration" and not nullable:
            expr = "Decode.orZero(%s)" % expr
        return typ, expr
    if t in PRIMITIVE and not nullable:
        prim, zero = PRIMITIVE[t]
        return prim, "Decode.%s(%s, %s)" % ({"bool": "bool", "int": "integer", "number": "number"}[t], value, zero)
    if t[:1] in "[{":
        kind = "list" if t[0] == "[" else "map"
        inner = types.reader(t[1:-1], enum)
        expr = "Decode.%s(%s, %s)" % (kind, value, inner)
        if not nullable:
            expr = "Decode.%sOrEmpty(%s)" % (kind, expr)
        return types.boxed(t, enum), expr
    reader = types.reader(t, enum)
    call = reader[:-len("::of")] + ".of(%s)" % value if reader.endswith("::of") else \
        "Decode.%s(%s)" % (reader[len("Decode::"):], value) if reader.startswith("Decode::") else value
    return types.boxed(t, enum), call


def param_doc(spec: Dict[str, Any]) -> str:
    text = spec.get("description", "").strip().rstrip(".")
    notes = []
    if spec.get("nullable"):
        notes.append("null when JSON null")
    if spec.get("optional"):
        notes.append("may be absent")
    if spec.get("secret"):
        notes.append("a secret: left out of toString")
    return doc_text(text + (" (" + "; ".join(notes) + ")" if notes else ""))


def enum_lines(name: str, key: str, spec: Dict[str, Any]) -> List[str]:
    out = ["", "    /** The values of \"%s\" known to this binding; {@link #UNKNOWN} for one a newer library sends. */" % key,
           "    public enum %s {" % name]
    for v in spec["values"]:
        out += ["        /** \"%s\". */" % doc_text(v), "        %s(\"%s\")," % (constant(v), v)]
    out += ["        /** A value this binding does not know (the record's json holds it). */",
            "        UNKNOWN(null);", "",
            "        private final String json;", "",
            "        %s(String json) {" % name, "            this.json = json;", "        }", "",
            "        /**", "         * The value as JSON has it.", "         *",
            "         * @return e.g. \"%s\"; null for UNKNOWN" % doc_text(spec["values"][0]), "         */",
            "        public String json() {", "            return json;", "        }", "",
            "        /** {@return json(), or \"UNKNOWN\": text made of it reads as before it was an enum} */",
            "        @Override",
            "        public String toString() {", "            return JsonEnum.text(this, json);", "        }", "",
            "        static %s of(Object value) {" % name,
            "            return JsonEnum.of(value, values(), %s::json, UNKNOWN);" % name, "        }", "    }"]
    return out


def record_java(common: Any, types: Types, name: str, doc: Dict[str, Any]) -> str:
    typ = pascal(name)
    keys: Dict[str, Any] = doc.get("keys", {})
    comps: List[Tuple[str, str, str, Dict[str, Any], str]] = []  # (component, type, expr, spec, key)
    for key, spec in keys.items():
        types.check(spec["type"], "documents.%s.%s" % (name, key))
        jtype, expr = field(types, name, key, spec)
        comps.append((component(name, key), jtype, expr, spec, key))
    body = "\n".join(c[1] for c in comps)
    imports = [i for i, used in (("java.time.Duration", "Duration" in body), ("java.time.Instant", "Instant" in body),
                                 ("java.util.List", "List<" in body), ("java.util.Map", "Map<" in body)) if used]
    out = ["// " + common.GENERATED, "", "package io.libjump;", ""]
    if imports:
        out += ["import %s;" % i for i in imports] + [""]
    out += ["/**", " * %s" % doc_text(sentence(doc.get("description", name))), " *"]
    for c, jtype, _, spec, _ in comps:
        out.append(" * @param %s %s" % (c, param_doc(spec)))
    out += [" * @param json the whole document as JSON text, keys this binding does not name included", " */"]
    params = ["%s %s" % (jtype, c) for c, jtype, _, _, _ in comps] + ["String json"]
    out += wrap("public record %s(" % typ, params, ") {", " " * len("public record %s(" % typ))
    out += ["    static %s of(Object o) {" % typ, "        if (!(o instanceof java.util.Map)) return null;",
            "        return new %s(" % typ]
    args = ["                %s," % expr for _, _, expr, _, _ in comps] + ["                Json.write(o));"]
    out += args + ["    }"]
    out += ["", "    /**", "     * A member of the document, named or not by a component.", "     *",
            "     * @param key the member's JSON name", "     * @return its JSON value as {@link Json#parse} reads it, or null",
            "     */", "    public Object get(String key) {", "        return Json.get(Json.parse(json), key);", "    }"]
    secrets = [c for c, _, _, spec, _ in comps if spec.get("secret")]
    out += ["", "    /** {@return the components but json%s, e.g. %s[...]} */" % (
        (" (" + ", ".join(secrets) + ": secrets, shown as *** when set)") if secrets else "", typ),
            "    @Override", "    public String toString() {",
            "        return RecordText.of(%s);" % ", ".join(["this"] + ['"%s"' % c for c in secrets]), "    }"]
    if "body" in keys and "body_base64" in keys:
        # an HTTP answer: its body is text, or base64 when it is not UTF-8; bytes() is either as bytes
        out += ["", "    /**", "     * The body as bytes, whichever way the document carries it.", "     *",
                "     * @return body as UTF-8, or body_base64 decoded; empty when there is neither", "     */",
                "    public byte[] bytes() {",
                "        if (bodyBase64 != null) return java.util.Base64.getDecoder().decode(bodyBase64);",
                "        return body == null ? new byte[0] : Utf8.encode(body);", "    }"]
    for c, _, _, spec, key in comps:
        if spec.get("values"):
            out += enum_lines(pascal(c), key, spec)
    out.append("}")
    return "\n".join(out) + "\n"


def result_type(types: Types, t: str) -> Tuple[str, str]:
    """(Java type, the expression reading it from `o`) of a function's "result"."""
    types.check(t, "a result")
    if t in types.docs:
        return pascal(t), "%s.of(o)" % pascal(t)
    if t[:1] in "[{":
        kind = "list" if t[0] == "[" else "map"
        return types.boxed(t, None), "Decode.%sOrEmpty(Decode.%s(o, %s))" % (kind, kind, types.reader(t[1:-1], None))
    if t == "any":
        return "Object", "o"
    reader = types.reader(t, None)
    return types.boxed(t, None), "%s(o)" % reader.replace("::", ".")


def results_java(common: Any, api: Dict[str, Any]) -> str:
    """Results: the decoder of each function's "result", named after the function, whose return type is
    generated: the hand-written methods call it, so one cannot return another type than the schema says."""
    types = Types(api)
    by_name = {f["name"]: f for f in api["functions"]}
    out = ["// " + common.GENERATED, "", "package io.libjump;", "", "import java.util.List;", "import java.util.Map;", "",
           "/** The decoder of each function's result (a parsed document, as Client.parse gives it). */",
           "final class Results {", "    private Results() {}"]
    for f in api["functions"]:
        result = f.get("result") or by_name.get(f.get("async_of", ""), {}).get("result")
        if not result or "jansson_of" in f:
            continue
        typ, expr = result_type(types, result)
        out += ["", "    /** What %s returns (%s). */" % (f["name"], doc_text(result)),
                "    static %s %s(Object o) {" % (typ, camel(f["name"][len("jump_"):])),
                "        return %s;" % expr, "    }"]
    out.append("}")
    return "\n".join(out) + "\n"


def wrap(head: str, items: List[str], tail: str, indent: str, sep: str = ", ") -> List[str]:
    """head + items joined by sep + tail, wrapped before 120 columns (continuation lines start with indent)."""
    lines, line = [], head
    for i, item in enumerate(items):
        piece = item + (sep.rstrip() if i < len(items) - 1 else tail)
        if len(line) + len(piece) > 118 and line.strip() and line != head:
            lines.append(line.rstrip())
            line = indent + (item if not sep.startswith(" +") else item)
            line += sep.rstrip() if i < len(items) - 1 else tail
        else:
            line += piece
        if i < len(items) - 1:
            line += " "
    lines.append(line)
    return lines


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    import json
    import os
    # The documents are read here, when the outputs are listed (one file per document): the same file
    # generate-bindings.py reads by default.
    with open(os.path.join(common.ROOT, "include", "jump_api.json"), encoding="utf-8") as f:
        names = list(json.load(f).get("documents", {}))

    global doc_text
    doc_text = common.generator("_shared").javadoc_text

    def make(name: str) -> Callable[[Dict[str, Any]], str]:
        def run(api: Dict[str, Any]) -> str:
            types = Types(api)
            if name not in types.docs:
                raise SystemExit("generators/java_results.py: document %s is gone from the API file" % name)
            return record_java(common, types, name, types.docs[name])
        return run
    return [(SRC + pascal(n) + ".java", make(n)) for n in names] + \
        [(SRC + "Results.java", lambda api: results_java(common, api))]
