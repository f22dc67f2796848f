"""The Go binding's generated parts (bindings/go), a backend of scripts/generate-bindings.py.

cgo reads include/jump.h itself, so Go needs no declaration of a C function: what is generated is the
status table (the Status type, one constant and one sentinel error per status, their names and meanings)
and the config keys (one constant per key). The hand-written code (errors.go, client.go, ...) uses them.
"""

from typing import Any, Callable, Dict, List, Tuple

# Go spells initialisms in capitals (OK, URL, ID): status stems are camel-cased word by word, so the few that
# hold one are respelt here.
GO_STEM = {"Ok": "OK"}
# Config key constants: camelCase words whose Go spelling is an initialism.
GO_INITIALISMS = {"Id": "ID", "Url": "URL", "Uri": "URI", "Api": "API"}


def go_stem(common: Any, name: str) -> str:
    stem = common.status_stem(name)
    return GO_STEM.get(stem, stem)


def go_string(text: str) -> str:
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def statuses(common: Any, api: Dict[str, Any]) -> str:
    by_index = common.statuses_by_index(api)  # also checks the values run 0, -1, -2, ... without gaps
    meaning = {s["name"]: s["meaning"] for s in api["statuses"]}
    out = [
        "// Code " + common.GENERATED + ".",
        "",
        "package jump",
        "",
        "import \"errors\"",
        "",
        "// Status is a jump_status of include/jump.h: 0 (StatusOK) or a negative code, never renumbered.",
        "type Status int32",
        "",
        "// The jump_status values.",
        "const (",
    ]
    for name in by_index:
        value = -by_index.index(name)
        out.append("\t// Status%s is %s: %s." % (go_stem(common, name), name, meaning[name]))
        out.append("\tStatus%s Status = %d" % (go_stem(common, name), value))
    out += [")", "", "// The sentinel error of each failure status: errors.Is(err, ErrExpired) holds for every error of",
            "// this package whose Status is StatusExpired (and errors.As gives the *Error with its Detail).", "var ("]
    for s in common.failures(api):
        stem = go_stem(common, s["name"])
        out.append("\t// Err%s stands for %s: %s." % (stem, s["name"], s["meaning"]))
        out.append("\tErr%s = errors.New(%s)" % (stem, go_string("jump: " + s["name"])))
    out += [")", "", "// statusNames are the enumerator names, indexed by -status.", "var statusNames = [...]string{"]
    out += ["\t%s," % go_string(name) for name in by_index]
    out += ["}", "", "// statusMeanings are what each status means (jump.h's comments), indexed by -status.",
            "var statusMeanings = [...]string{"]
    out += ["\t%s," % go_string(meaning[name]) for name in by_index]
    out += ["}", "", "// statusErrors are the sentinel errors, indexed by -status (nil for StatusOK).",
            "var statusErrors = [...]error{"]
    out += ["\tnil," if name == "JUMP_OK" else "\tErr%s," % go_stem(common, name) for name in by_index]
    out += ["}"]
    return "\n".join(out) + "\n"


def key_constant(key: str) -> str:
    parts, word = [], ""
    for ch in key:
        if ch.isupper() and word:
            parts.append(word)
            word = ch
        else:
            word += ch
    parts.append(word)
    parts = [p[:1].upper() + p[1:] for p in parts]
    return "Key" + "".join(GO_INITIALISMS.get(p, p) for p in parts)


def config_keys(common: Any, api: Dict[str, Any]) -> str:
    out = [
        "// Code " + common.GENERATED + ".",
        "",
        "package jump",
        "",
        "// The config keys (Config.SetString, SetBool, SetInt and ConfigFromJSON take these names).",
        "const (",
    ]
    for k in api["config_keys"]:
        default = "" if k.get("default") is None else "; default %s" % json_text(k["default"])
        out.append("\t// %s (%s%s): %s." % (key_constant(k["name"]), k["type"], default,
                                            k["meaning"].rstrip(".").replace("\n", " ")))
        out.append("\t%s = %s" % (key_constant(k["name"]), go_string(k["name"])))
    out.append(")")
    return "\n".join(out) + "\n"


def json_text(value: Any) -> str:
    import json
    return json.dumps(value)


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    return [
        ("bindings/go/statuses_generated.go", lambda api: statuses(common, api)),
        ("bindings/go/config_keys_generated.go", lambda api: config_keys(common, api)),
    ]
