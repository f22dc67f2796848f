"""The Go binding's typed results (bindings/go/results_generated.go), a backend of scripts/generate-bindings.py.

From jump_api.json's "documents": one struct per document (json tags, godoc from the descriptions), a string
type with constants for each key with "values", and an UnmarshalJSON per struct that keeps the document as it
came in Raw (keys a newer library adds stay reachable) and turns unit-bearing ints into time.Time and
time.Duration, and a String per struct that leaves Raw out and shows "secret" keys as ***. From the
functions' "result": one decoder per function, result<Function>(text) returning that function's Go type,
which the hand-written methods call: a schema change of a function's result changes the decoder's return
type, so a method whose declared type no longer matches fails to compile.

Nullable keys: a pointer where the zero value is a real value (bool, int, number, duration, a nested
document: nil is null), the zero value where it already means "none" (string "", time.Time{}, nil slice or
map, nil any). An optional key is tagged omitempty and decodes to the same zero value when absent.
"""

from typing import Any, Callable, Dict, List, Optional, Tuple

OUT = "bindings/go/results_generated.go"

# Words spelt in capitals in Go names (Go's initialisms).
INITIALISMS = {"id", "url", "uri", "api", "uuid", "json", "http", "ttl", "sms", "ip", "os", "utf8", "us", "eu"}

# Names a mechanical rule would make read badly, each with why. Field (document, key) -> Go field name:
FIELD_NAMES = {
    # Event.Event would repeat the type; the event's name is what the key holds
    ("event", "event"): "Name",
}
# Enum types, (document, key) -> (type name, constant prefix); any other is <Document><Key>, constants
# prefixed with the type name.
ENUM_NAMES = {
    # the event callback's "event": EventName, constants EventSignedIn, EventSignedOut, ...
    ("event", "event"): ("EventName", "Event"),
    ("log_line", "level"): ("LogLevel", "LogLevel"),
}

UNIT_TYPES = {"epoch_seconds": "time.Time", "seconds": "time.Duration", "milliseconds": "time.Duration"}
SCALARS = {"string": "string", "bool": "bool", "int": "int64", "number": "float64", "any": "any"}


def pascal(snake: str) -> str:
    return "".join(p.upper() if p in INITIALISMS else p[:1].upper() + p[1:] for p in snake.split("_") if p)


def value_name(value: str) -> str:
    """"signed_in" -> SignedIn, "secret-service" -> SecretService."""
    import re
    return "".join(pascal(w) for w in re.split(r"[^A-Za-z0-9]+", value) if w) or "Empty"


def comment(text: str, indent: str = "") -> List[str]:
    """A godoc comment, wrapped at about 110 columns."""
    words, lines, line = text.replace("\n", " ").split(), [], ""
    for w in words:
        if line and len(indent) + 3 + len(line) + 1 + len(w) > 112:
            lines.append(line)
            line = w
        else:
            line = (line + " " + w).strip()
    lines.append(line)
    return ["%s// %s" % (indent, l) if l else indent + "//" for l in lines]


def sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text.endswith(".") else text + "."


class Docs:
    def __init__(self, api: Dict[str, Any]):
        self.docs: Dict[str, Any] = api.get("documents", {})

    def check(self, t: str, where: str) -> None:
        if t.startswith("[") and t.endswith("]") or t.startswith("{") and t.endswith("}"):
            return self.check(t[1:-1], where)
        if t not in SCALARS and t not in self.docs:
            raise SystemExit("generators/go_results.py: %s: unknown type %r" % (where, t))

    def go_type(self, t: str, enum: Optional[str] = None) -> str:
        """T as a Go type (no pointer); enum replaces the innermost string."""
        if t.startswith("["):
            return "[]" + self.go_type(t[1:-1], enum)
        if t.startswith("{"):
            return "map[string]" + self.go_type(t[1:-1], enum)
        if t == "string" and enum:
            return enum
        if t in SCALARS:
            return SCALARS[t]
        return pascal(t)


def enum_names(doc: str, key: str) -> Tuple[str, str]:
    if (doc, key) in ENUM_NAMES:
        return ENUM_NAMES[(doc, key)]
    name = pascal(doc) + pascal(key)
    return name, name


def field_name(doc: str, key: str) -> str:
    return FIELD_NAMES.get((doc, key), pascal(key))


def unit_of(spec: Dict[str, Any]) -> Optional[str]:
    """The unit when the key is an int with one (a unit on anything else is only named in the comment)."""
    return spec.get("unit") if spec["type"] == "int" and spec.get("unit") in UNIT_TYPES else None


def field_type(docs: Docs, doc: str, key: str, spec: Dict[str, Any]) -> str:
    t = spec["type"]
    unit = unit_of(spec)
    enum = enum_names(doc, key)[0] if spec.get("values") else None
    base = UNIT_TYPES[unit] if unit else docs.go_type(t, enum)
    nullable = spec.get("nullable", False)
    pointer = (t in docs.docs and (nullable or spec.get("optional", False))) or \
        (nullable and (t in ("bool", "int", "number") and base != "time.Time"))
    return "*" + base if pointer else base


def field_comment(spec: Dict[str, Any]) -> str:
    text = spec.get("description", "").strip().rstrip(".")
    notes = []
    if spec.get("unit"):
        notes.append({"epoch_seconds": "seconds since the epoch in JSON", "seconds": "seconds in JSON",
                      "milliseconds": "milliseconds in JSON"}.get(spec["unit"], spec["unit"]))
    if spec.get("nullable"):
        notes.append("may be null")
    if spec.get("optional"):
        notes.append("may be absent")
    if spec.get("secret"):
        notes.append("a secret: never log it")
    return (text + " (" + "; ".join(notes) + ")." if notes else text + ".").strip()


def document(docs: Docs, name: str, doc: Dict[str, Any]) -> List[str]:
    typ = pascal(name)
    out: List[str] = []
    keys: Dict[str, Any] = doc.get("keys", {})
    for key, spec in keys.items():
        docs.check(spec["type"], "documents.%s.%s" % (name, key))
        if spec.get("values"):
            etype, prefix = enum_names(name, key)
            out.append("")
            out += comment("%s is the %s of %s %s: %s A value not listed here may come from a newer library: "
                           "it is kept as it came." % (etype, key, "an" if typ[0] in "AEIOU" else "a", typ,
                                                      sentence(spec.get("description", ""))))
            out.append("type %s string" % etype)
            out += ["", "// The %s values known to this binding." % etype, "const ("]
            out += aligned([["%s%s" % (prefix, value_name(v)), etype, "= " + go_string(v)] for v in spec["values"]], "\t")
            out.append(")")
    out.append("")
    out += comment("%s is %s (the %s document)." % (typ, doc.get("description", name).rstrip("."), name))
    out.append("type %s struct {" % typ)
    for key, spec in keys.items():
        out += comment("%s: %s" % (field_name(name, key), field_comment(spec)), "\t")
        tag = key + (",omitempty" if spec.get("optional") else "")
        out.append("\t%s %s `json:\"%s\"`" % (field_name(name, key), field_type(docs, name, key, spec), tag))
    out += ["\t// Raw is the document as libjump sent it, keys this binding does not name included.",
            "\tRaw json.RawMessage `json:\"-\"`", "}", ""]
    units = [(k, s) for k, s in keys.items() if unit_of(s)]
    out += comment("UnmarshalJSON decodes the document, keeps it in Raw%s." % (
        " and converts the keys with a unit to time.Time and time.Duration" if units else ""))
    out += ["func (v *%s) UnmarshalJSON(data []byte) error {" % typ, "\ttype plain %s" % typ]
    if units:
        # the outer fields shadow plain's of the same JSON name (encoding/json: the shallower field wins)
        out.append("\tvar doc struct {")
        out.append("\t\t*plain")
        out += aligned([[field_name(name, k), "*int64", "`json:\"%s\"`" % k] for k, _ in units], "\t\t")
        out += ["\t}", "\tdoc.plain = (*plain)(v)"]
    else:
        out.append("\tdoc := (*plain)(v)")
    out += ["\tif err := json.Unmarshal(data, doc); err != nil {" if not units else
            "\tif err := json.Unmarshal(data, &doc); err != nil {", "\t\treturn err", "\t}"]
    for k, s in units:
        f = field_name(name, k)
        if s["unit"] == "epoch_seconds":
            out.append("\tv.%s = epochSeconds(doc.%s)" % (f, f))
        else:
            scale = "time.Second" if s["unit"] == "seconds" else "time.Millisecond"
            ptr = field_type(docs, name, k, s).startswith("*")
            out.append("\tv.%s = %s(doc.%s, %s)" % (f, "durationOrNil" if ptr else "duration", f, scale))
    out += ["\tv.Raw = append(json.RawMessage(nil), data...)", "\treturn nil", "}", ""]
    # fmt's %v and %+v call String: secrets are redacted there, and Raw (which holds them too) left out
    secrets = [k for k, sp in keys.items() if sp.get("secret")]
    out += comment("String formats the document as %%+v does, but without Raw%s." % (
        " and with %s shown as ***" % ", ".join(field_name(name, k) for k in secrets) if secrets else ""))
    out += ["func (v %s) String() string {" % typ, "\ttype plain %s" % typ, "\tp := plain(v)"]
    for k in secrets:
        f, t = field_name(name, k), field_type(docs, name, k, keys[k])
        if t != "string":
            raise SystemExit("generators/go_results.py: documents.%s.%s: a secret of Go type %s (only strings are "
                             "redacted)" % (name, k, t))
        out += ["\tif p.%s != \"\" {" % f, "\t\tp.%s = \"***\"" % f, "\t}"]
    out += ["\tp.Raw = nil", "\treturn fmt.Sprintf(\"%+v\", p)", "}"]
    return out


def aligned(rows: List[List[str]], indent: str) -> List[str]:
    """Rows of columns padded as gofmt aligns them."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return [indent + " ".join(c.ljust(w) for c, w in zip(r, widths)) + " " + r[-1] for r in rows]


def go_string(text: str) -> str:
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def function_results(api: Dict[str, Any]) -> List[Tuple[Dict[str, Any], str]]:
    """(function, its result type) of every function with a document result; an _async form without a
    "result" of its own has its synchronous form's."""
    by_name = {f["name"]: f for f in api["functions"]}
    found = []
    for f in api["functions"]:
        if "jansson_of" in f:
            continue  # Go has no jansson
        result = f.get("result") or by_name.get(f.get("async_of", ""), {}).get("result")
        if result:
            found.append((f, result))
    return found


def decoder(docs: Docs, f: Dict[str, Any], result: str) -> List[str]:
    name = "result" + pascal(f["name"][len("jump_"):])
    docs.check(result, f["name"] + ".result")
    if result == "any":
        go, make = "any", "var v any\n\treturn v, decodeResult(%s, text, &v)"
    elif result in docs.docs:
        go, make = "*" + pascal(result), "v := new(%s)\n\treturn v, decodeResult(%%s, text, v)" % pascal(result)
    else:
        go = docs.go_type(result)
        make = "var v %s\n\treturn v, decodeResult(%%s, text, &v)" % go
    return ["", "// %s decodes what %s returns (%s)." % (name, f["name"], result),
            "func %s(text string) (%s, error) {" % (name, go), "\t" + make % go_string(f["name"]), "}"]


def results_go(common: Any, api: Dict[str, Any]) -> str:
    docs = Docs(api)
    body: List[str] = []
    for name, doc in docs.docs.items():
        body += document(docs, name, doc)
    for f, result in function_results(api):
        body += decoder(docs, f, result)
    text = "\n".join(body)
    imports = ['"encoding/json"', '"fmt"'] + (['"time"'] if "time." in text else [])
    helpers = []
    if "epochSeconds(" in text:
        helpers += ["", "// epochSeconds is a time in seconds since the epoch; null or absent is the zero time.",
                    "func epochSeconds(s *int64) time.Time {", "\tif s == nil {", "\t\treturn time.Time{}", "\t}",
                    "\treturn time.Unix(*s, 0)", "}"]
    if "duration(" in text:
        helpers += ["", "// duration is n units; null or absent is 0.",
                    "func duration(n *int64, unit time.Duration) time.Duration {", "\tif n == nil {", "\t\treturn 0",
                    "\t}", "\treturn time.Duration(*n) * unit", "}"]
    if "durationOrNil(" in text:
        helpers += ["", "// durationOrNil is n units, or nil when null or absent.",
                    "func durationOrNil(n *int64, unit time.Duration) *time.Duration {", "\tif n == nil {",
                    "\t\treturn nil", "\t}", "\td := time.Duration(*n) * unit", "\treturn &d", "}"]
    head = ["// Code " + common.GENERATED + ".", "",
            "// The documents libjump returns, as Go types: see scripts/generators/go_results.py for the rules",
            "// (nullable keys are pointers only where the zero value is a real value: bool, int, number, duration,",
            "// a nested document; null is \"\", the zero time.Time or a nil slice, map or any elsewhere).", "",
            "package jump", "", "import ("] + ["\t" + i for i in imports] + [")"]
    return "\n".join(head + body + helpers) + "\n"


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    return [(OUT, lambda api: results_go(common, api))]
