"""The Rust binding's generated parts (a backend of scripts/generate-bindings.py, which passes itself as `common`):
  bindings/rust/jump-sys/src/lib.rs   the whole -sys crate: opaque handle types, the callback typedefs, the
                                      #defines and status codes as constants, one extern "C" fn per function
                                      (the _jansson ones too: json_t is an opaque type, as in jump.h)
  bindings/rust/jump/src/status.rs    the safe crate's Status enum: every failing jump_status (JUMP_OK is the Ok of
                                      jump::Result), Unknown(i32) for a newer code, its name and meaning
  bindings/rust/jump/src/config_keys_generated.rs   the safe crate's `jump::config_keys`: one `&str` constant
                                      per config key (REQUEST_TIMEOUT_MS = "requestTimeoutMs"), its meaning, type,
                                      allowed values, range and default as its doc comment, and ALL
Everything else in bindings/rust is hand-written and uses these names."""

from typing import Any, Callable, Dict, List, Tuple

RS_SCALARS = {
    "void": "()", "jump_status": "jump_status", "int": "c_int", "int32_t": "i32", "int64_t": "i64",
    "uint32_t": "u32", "uint64_t": "u64", "size_t": "usize", "double": "f64", "char": "c_char",
    }
RS_OPAQUE = ["jump_config", "jump_client", "jump_record", "jump_request"]
RS_KEYWORDS = {"type", "ref", "fn", "mod", "match", "move", "self", "box", "loop", "use", "impl", "in", "as"}

# Function pointer types written inline in a typedef (not typedefs of their own): what Rust calls them.
RS_INLINE_CALLBACK = {"void (*)(void *)": "Option<unsafe extern \"C\" fn(arg: *mut c_void)>"}


def rs_name(name: str) -> str:
    return "r#" + name if name in RS_KEYWORDS else name


def rs_type(ctype: str, callbacks: Dict[str, Any]) -> str:
    """A C type of jump.h as Rust spells it: pointers keep their constness, typedefs their names."""
    if ctype in RS_INLINE_CALLBACK:
        return RS_INLINE_CALLBACK[ctype]
    t = ctype.strip()
    depth = t.count("*")
    base = t.replace("*", "").strip()
    const = base.startswith("const ")
    base = base[len("const "):] if const else base
    base = base[len("struct "):] if base.startswith("struct ") else base
    if base in RS_OPAQUE or base == "json_t" or base in callbacks:
        rust = base
    elif base == "void" and depth:
        rust = "c_void"
    elif base in RS_SCALARS:
        rust = RS_SCALARS[base]
    else:
        raise SystemExit("generate-bindings: no Rust mapping for `%s`" % ctype)
    for level in range(depth):
        # the innermost pointer carries the const of the pointee; out-parameters (T **) are mutable pointers
        rust = ("*const " if const and level == 0 else "*mut ") + rust
    return rust


def sys_crate(common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        callbacks = {c["name"]: c for c in api["callbacks"]}
        titles = common.group_titles(api)
        out = [
            "// " + common.GENERATED,
            "//! Raw declarations of libjump's C API (include/jump.h): opaque handles, callback types, constants and",
            "//! one `extern \"C\"` function per function of include/jump_api.json. Every call is `unsafe`: the safe",
            "//! API is the `jump` crate. build.rs links libjump (JUMP_LIB_DIR, else pkg-config).",
            "#![allow(non_camel_case_types)]",
            "",
            "// std::os::raw, not core::ffi: core::ffi's c_char and c_int need Rust 1.64, Debian 12 has 1.63.",
            "pub use std::os::raw::{c_char, c_int, c_void};",
            "",
            "/// `jump_status`: a C enum, kept as its integer so that a code newer than this crate is still a value.",
            "pub type jump_status = c_int;",
            "",
        ]
        for s in api["statuses"]:
            out.append("/// %s" % s["meaning"])
            out.append("pub const %s: jump_status = %d;" % (s["name"], s["value"]))
        out.append("")
        for d in api["defines"]:
            if "parameters" in d:
                continue  # function-like macros (JUMP_VERSION_CHECK) have no constant to give
            out.append("/// %s" % d["meaning"])
            if isinstance(d["value"], str):
                out.append("pub const %s: &str = \"%s\";" % (d["name"], d["value"]))
            else:
                typ = "u32" if d["name"].startswith(("JUMP_VERSION", "JUMP_CREDENTIALS")) else "i32"
                out.append("pub const %s: %s = %d;" % (d["name"], typ, d["value"]))
        out.append("")
        for name in RS_OPAQUE + ["json_t"]:
            # The usual opaque-type pattern: unsized-like, !Send, !Sync and !Unpin, only ever behind a pointer.
            out.append("/// An opaque `%s` (only ever behind a pointer)." % name)
            out.append("#[repr(C)]")
            out.append("pub struct %s {" % name)
            out.append("    _private: [u8; 0],")
            out.append("    _marker: core::marker::PhantomData<(*mut u8, core::marker::PhantomPinned)>,")
            out.append("}")
        out.append("")
        for c in api["callbacks"]:
            params = ", ".join("%s: %s" % (rs_name(p["name"]), rs_type(p["type"], callbacks)) for p in c["parameters"])
            ret = "" if c["returns"] == "void" else " -> " + rs_type(c["returns"], callbacks)
            out.append("/// %s" % c["meaning"])
            out.append("pub type %s = Option<unsafe extern \"C\" fn(%s)%s>;" % (c["name"], params, ret))
        for group, functions in common.by_group(api, api["functions"]):
            out += ["", "// " + titles[group], "extern \"C\" {"]
            for f in functions:
                params = ", ".join("%s: %s" % (rs_name(p["name"]), rs_type(p["type"], callbacks))
                                   for p in f["parameters"])
                r = f["returns"]["type"]
                ret = "" if r == "void" else " -> " + rs_type(r, callbacks)
                out.append("    /// %s" % f["summary"])
                out.append("    pub fn %s(%s)%s;" % (f["name"], params, ret))
            out.append("}")
        return "\n".join(out) + "\n"
    return make


def status_enum(common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        # JUMP_OK is no failure: success is the Ok of jump::Result, so the enum names the failing codes only.
        statuses = [s for s in api["statuses"] if s["value"] != 0]
        stems = [common.status_stem(s["name"]) for s in statuses]
        if "Unknown" in stems:
            raise SystemExit("generate-bindings: a status whose Rust variant is Unknown clashes with Status::Unknown(i32)")
        out = [
            "// " + common.GENERATED,
            "//! Every failing `jump_status` of include/jump.h as [`Status`].",
            "",
            "/// Why a call failed: a failing `jump_status` of jump.h. Success is no status (it is the `Ok` of",
            "/// [`crate::Result`]), so `JUMP_OK` has no variant. Codes are never renumbered. Non-exhaustive: a newer",
            "/// libjump may add statuses, and a code this crate does not name is [`Status::Unknown`].",
            "///",
            "/// ```",
            "/// use jump::Status;",
            "/// assert_eq!(Status::from_code(-7), Some(Status::BadCredentials));",
            "/// assert_eq!(Status::BadCredentials.name(), \"JUMP_E_BAD_CREDENTIALS\");",
            "/// assert_eq!(Status::from_code(0), None); // JUMP_OK: no failure",
            "/// assert_eq!(Status::from_code(-1000), Some(Status::Unknown(-1000)));",
            "/// ```",
            "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]",
            "#[non_exhaustive]",
            "pub enum Status {",
        ]
        for s, stem in zip(statuses, stems):
            out.append("    /// %s (%d): %s" % (s["name"], s["value"], s["meaning"]))
            out.append("    %s," % stem)
        out += [
            "    /// A failing code this crate does not name (a newer libjump's), as libjump returned it;",
            "    /// [`Status::from_code`] never makes one for a code named above.",
            "    Unknown(i32),",
            "}",
            "",
            "impl Status {",
            "    /// Every status this crate names, in the order of jump.h ([`Status::Unknown`] aside).",
            "    pub const ALL: [Status; %d] = [%s];" % (len(statuses), ", ".join("Status::%s" % t for t in stems)),
            "",
            "    /// The status of a code: `None` for `JUMP_OK` (0, no failure), [`Status::Unknown`] for a code this",
            "    /// crate does not know (a newer libjump).",
            "    pub fn from_code(code: i32) -> Option<Status> {",
            "        match code {",
            "            0 => None,",
        ]
        out += ["            %d => Some(Status::%s)," % (s["value"], t) for s, t in zip(statuses, stems)]
        out += [
            "            other => Some(Status::Unknown(other)),",
            "        }",
            "    }",
            "",
            "    /// The C code (negative).",
            "    pub fn code(self) -> i32 {",
            "        match self {",
        ]
        out += ["            Status::%s => %d," % (t, s["value"]) for s, t in zip(statuses, stems)]
        out += [
            "            Status::Unknown(code) => code,",
            "        }",
            "    }",
            "",
            "    /// The enumerator's name in jump.h, e.g. `\"JUMP_E_NETWORK\"` (the detail's \"status_name\");",
            "    /// `\"JUMP_E_UNKNOWN\"` for [`Status::Unknown`].",
            "    pub fn name(self) -> &'static str {",
            "        match self {",
        ]
        out += ["            Status::%s => \"%s\"," % (t, s["name"]) for s, t in zip(statuses, stems)]
        out += [
            "            Status::Unknown(_) => \"JUMP_E_UNKNOWN\",",
            "        }",
            "    }",
            "",
            "    /// What the status means, as jump.h says it.",
            "    pub fn meaning(self) -> &'static str {",
            "        match self {",
        ]
        out += ["            Status::%s => \"%s\"," % (t, s["meaning"].replace('"', '\\"')) for s, t in zip(statuses, stems)]
        out += [
            "            Status::Unknown(_) => \"a status this version of the binding does not know (a newer libjump)\",",
            "        }",
            "    }",
            "}",
        ]
        return "\n".join(out) + "\n"
    return make


def markdown_text(text: str) -> str:
    """Plain text as rustdoc (Markdown) text: the characters Markdown or rustdoc would read as markup escaped
    (brackets would be intra-doc links, <x> an HTML tag, * emphasis, ` code; a _ inside a word is no emphasis);
    a URL as code (rustdoc's bare_urls lint)."""
    import re
    text = "".join("\\" + ch if ch in "\\`*[]<>" else ch for ch in text)
    return re.sub(r"(\"https?://[^\s\"\\]+\"|\bhttps?://[^\s\"',;)\\]+)", r"`\1`", text)


def config_keys(common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        docs = common.generator("config_docs")  # the key facts as jump.h words them
        keys = api["config_keys"]
        names = [common.generator("_shared").upper_snake(k["name"]) for k in keys]  # as Java's ConfigKey
        if len(set(names)) != len(names):
            raise SystemExit("generate-bindings: two config keys have the same Rust constant")
        out = [
            "// " + common.GENERATED,
            "//! The config keys of jump.h as constants, for [`Config`](crate::Config)'s setters and",
            "//! [`Config::from_json`](crate::Config::from_json)'s JSON (include/jump_api.json's \"config_keys\"):",
            "//! each says what the key means, its type, allowed values or range, and its default.",
            "//!",
            "//! ```",
            "//! use jump::config_keys::{REQUEST_TIMEOUT_MS, STORAGE_DIRECTORY};",
            "//! # fn main() -> jump::Result<()> {",
            "//! let mut config = jump::Config::new()?;",
            "//! config.set_string(STORAGE_DIRECTORY, Some(\":memory:\"))?.set_int(REQUEST_TIMEOUT_MS, 20000)?;",
            "//! assert_eq!(config.to_json()?.get(REQUEST_TIMEOUT_MS).and_then(|v| v.as_i64()), Some(20000));",
            "//! assert!(jump::config_keys::ALL.contains(&\"requestTimeoutMs\"));",
            "//! # Ok(())",
            "//! # }",
            "//! ```",
        ]
        for k, name in zip(keys, names):
            out += ["", "/// %s" % markdown_text(docs.sentence(k["meaning"].replace("\n", " "))),
                    "///", "/// Key `%s`. %s" % (k["name"], markdown_text(docs.facts(k))),
                    "pub const %s: &str = \"%s\";" % (name, k["name"])]
        out += ["", "/// Every key above, in jump.h's order.", "pub const ALL: [&str; %d] = [" % len(names)]
        out += ["    %s," % n for n in names]
        out += ["];"]
        return "\n".join(out) + "\n"
    return make


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    return [
        ("bindings/rust/jump-sys/src/lib.rs", sys_crate(common)),
        ("bindings/rust/jump/src/status.rs", status_enum(common)),
        ("bindings/rust/jump/src/config_keys_generated.rs", config_keys(common)),
    ]
