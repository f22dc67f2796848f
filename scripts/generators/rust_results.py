"""The Rust binding's typed results (a backend of scripts/generate-bindings.py, which passes itself as `common`):
  bindings/rust/jump/src/results_generated.rs   one struct per document of jump_api.json's "documents" (snake_case
                                                fields, Option for nullable or optional keys, SystemTime for
                                                epoch seconds, a #[non_exhaustive] enum with Unknown(String) for
                                                "values"), each decoded from the crate's json::Value by a
                                                generated FromValue impl, keeping the whole value (raw()), with a
                                                Debug that redacts the "secret" keys
bindings/rust/jump/src/results.rs (hand-written) holds the FromValue trait and its impls for the JSON types."""

import re
from typing import Any, Callable, Dict, List, Tuple

RS_KEYWORDS = {"as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
               "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
               "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
               "while", "yield", "try", "abstract", "final", "override", "macro", "priv", "typeof", "virtual"}
# Names the crate's hand-written API already uses: a document (or an enum of one) called so would shadow it.
RS_TAKEN = {"Status", "Error", "Result", "Value", "Client", "Config", "Record", "Pending", "Storage", "Job", "Dispatcher",
            "Completion", "EventCallback", "LogCallback", "FromValue", "Redacted"}
UNITS = {"seconds": "from_secs", "milliseconds": "from_millis"}


def pascal(text: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[^A-Za-z0-9]+", text) if p)


def field_name(key: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", key)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
    if name[:1].isdigit():
        name = "_" + name
    return "r#" + name if name in RS_KEYWORDS else name


def doc_lines(text: str, indent: str) -> List[str]:
    text = (text or "").strip() or "(not described in jump_api.json)"
    return [indent + "/// " + line for line in text.splitlines()]


def variant(value: str) -> str:
    name = pascal(value) or "Empty"
    return "V" + name if name[:1].isdigit() else name


def typed_documents(api: Dict[str, Any]) -> Dict[str, Any]:
    """The documents in the typed format (each key an object with a "type"); while jump_api.json is being
    converted, a document still in the old format (each key a string) is left out."""
    return {n: d for n, d in api.get("documents", {}).items()
            if all(isinstance(k, dict) and "type" in k for k in d.get("keys", {}).values())}


class Gen:
    def __init__(self, api: Dict[str, Any]):
        self.docs: Dict[str, Any] = typed_documents(api)
        self.enums: List[str] = []
        # document -> the functions whose result (or an element of it) it is, in jump_api.json's order
        self.users: Dict[str, List[str]] = {}
        for f in api["functions"]:
            if "result" in f and "jansson_of" not in f:  # the safe crate binds no _jansson function
                for name in re.findall(r"[a-z_][a-z0-9_]*", f["result"]):
                    self.users.setdefault(name, []).append(f["name"])

    def rust_type(self, t: str, doc: str, key: str, spec: Dict[str, Any]) -> str:
        if t.startswith("[") and t.endswith("]"):
            return "Vec<%s>" % self.rust_type(t[1:-1], doc, key, spec)
        if t.startswith("{") and t.endswith("}"):
            return "BTreeMap<String, %s>" % self.rust_type(t[1:-1], doc, key, spec)
        if t == "string":
            return self.enum(doc, key, spec) if spec.get("values") else "String"
        if t == "int":
            return "SystemTime" if spec.get("unit") == "epoch_seconds" else "i64"
        simple = {"bool": "bool", "number": "f64", "any": "Value"}
        if t in simple:
            return simple[t]
        if t in self.docs:
            return pascal(t)
        raise SystemExit("generate-bindings: %s.%s has the type `%s`, neither a JSON type nor a document" % (doc, key, t))

    def enum(self, doc: str, key: str, spec: Dict[str, Any]) -> str:
        name = pascal(doc) + pascal(key)
        if name in RS_TAKEN or name in {pascal(d) for d in self.docs}:
            raise SystemExit("generate-bindings: the Rust enum %s of %s.%s clashes with another name" % (name, doc, key))
        values = spec["values"]
        variants = [variant(v) for v in values]
        if "Unknown" in variants or len(set(variants)) != len(variants):
            raise SystemExit("generate-bindings: the values of %s.%s make clashing Rust variants" % (doc, key))
        out = ["", "/// The values of %s's \"%s\" known today; a newer libjump's is [`%s::Unknown`]." % (pascal(doc), key, name),
               "#[derive(Clone, Debug, PartialEq, Eq, Hash)]", "#[non_exhaustive]", "pub enum %s {" % name]
        for v, n in zip(values, variants):
            out += ["    /// `\"%s\"`" % v, "    %s," % n]
        out += ["    /// A value this crate does not know (a newer libjump's), as libjump sent it.", "    Unknown(String),", "}",
                "", "impl %s {" % name, "    /// The value as libjump spells it.", "    pub fn as_str(&self) -> &str {",
                "        match self {"]
        out += ["            %s::%s => \"%s\"," % (name, n, v) for v, n in zip(values, variants)]
        out += ["            %s::Unknown(other) => other," % name, "        }", "    }", "}", "",
                "impl From<&str> for %s {" % name, "    fn from(value: &str) -> %s {" % name, "        match value {"]
        out += ["            \"%s\" => %s::%s," % (v, name, n) for v, n in zip(values, variants)]
        out += ["            other => %s::Unknown(other.to_owned())," % name, "        }", "    }", "}", "",
                "impl FromValue for %s {" % name, "    fn from_value(value: &Value) -> Result<%s> {" % name,
                "        String::from_value(value).map(|s| %s::from(s.as_str()))" % name, "    }", "}"]
        self.enums += out
        return name

    def document(self, name: str, spec: Dict[str, Any]) -> List[str]:
        typ = pascal(name)
        if typ in RS_TAKEN:
            raise SystemExit("generate-bindings: the document %s would shadow the crate's %s" % (name, typ))
        fields: List[Tuple[str, str, str, Dict[str, Any]]] = []  # (json key, field, Rust type, spec)
        for key, k in spec["keys"].items():
            rust = self.rust_type(k["type"], name, key, k)
            if k.get("nullable") or k.get("optional"):
                rust = "Option<%s>" % rust
            fields.append((key, field_name(key), rust, k))
        out = [""] + doc_lines(spec.get("description", ""), "")
        users = self.users.get(name)
        if users:
            out += ["///", "/// The result (or part of it) of %s." % ", ".join("`%s`" % u for u in users)]
        out += ["#[derive(Clone, PartialEq)]", "pub struct %s {" % typ]
        for key, field, rust, k in fields:
            text = k.get("description", "")
            notes = []
            if k.get("unit"):
                notes.append("unit: %s" % k["unit"].replace("_", " "))
            if k.get("secret"):
                notes.append("a secret: Debug shows it as `<redacted>`")
            if k.get("optional"):
                notes.append("None when absent")
            out += doc_lines("%s (`\"%s\"`%s)" % (text.strip() or "The member", key, "".join("; " + n for n in notes)), "    ")
            out.append("    pub %s: %s," % (field, rust))
        out += ["    raw: Value,", "}", "", "impl %s {" % typ,
                "    /// The whole document as libjump gave it, keys this crate does not know included.",
                "    pub fn raw(&self) -> &Value {", "        &self.raw", "    }"]
        taken = {f for _, f, _, _ in fields}
        for key, field, rust, k in fields:
            if k.get("unit") in UNITS and k["type"] == "int":
                method = field.replace("r#", "") + "_duration"
                if method in taken:
                    raise SystemExit("generate-bindings: %s.%s: %s() clashes with a field" % (name, key, method))
                value = "self.%s" % field if rust.startswith("Option") else "Some(self.%s)" % field
                out += ["", "    /// `%s` as a Duration (None when absent or negative)." % field,
                        "    pub fn %s(&self) -> Option<Duration> {" % method,
                        "        %s.and_then(|n| u64::try_from(n).ok()).map(Duration::%s)" % (value, UNITS[k["unit"]]),
                        "    }"]
        out += ["}", "", "impl FromValue for %s {" % typ, "    fn from_value(value: &Value) -> Result<%s> {" % typ,
                "        object(value, \"%s\")?;" % name, "        Ok(%s {" % typ]
        out += ["            %s: member(value, \"%s\")?," % (field, key) for key, field, _, _ in fields]
        out += ["            raw: value.clone(),", "        })", "    }", "}", "",
                "impl fmt::Debug for %s {" % typ, "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {",
                "        f.debug_struct(\"%s\")" % typ]
        for key, field, rust, k in fields:
            label = field.replace("r#", "")
            if k.get("secret"):
                shown = "&self.%s.as_ref().map(|_| Redacted)" % field if rust.startswith("Option") else "&Redacted"
            else:
                shown = "&self.%s" % field
            out.append("            .field(\"%s\", %s)" % (label, shown))
        out += ["            .finish_non_exhaustive()", "    }", "}"]
        return out


def results(common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        gen = Gen(api)
        body: List[str] = []
        for name, spec in typed_documents(api).items():
            body += gen.document(name, spec)
        out = [
            "// " + common.GENERATED,
            "//! The documents libjump returns (include/jump_api.json's \"documents\") as structs. Decoding is lenient:",
            "//! unknown keys are ignored (each struct keeps the whole value: `raw()`), an absent optional key is",
            "//! `None`; a key of another type than described is an error ([`crate::Status::Internal`]).",
            "#![allow(unused_imports)]",
            "use std::collections::BTreeMap;",
            "use std::fmt;",
            "use std::time::{Duration, SystemTime};",
            "",
            "use crate::error::Result;",
            "use crate::json::Value;",
            "use crate::results::{member, object, FromValue, Redacted};",
        ]
        return "\n".join(out + body + gen.enums) + "\n"
    return make


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    return [("bindings/rust/jump/src/results_generated.rs", results(common))]
