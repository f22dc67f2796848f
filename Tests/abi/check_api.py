"""Checks of include/jump_api.json against every other copy of its lists (run by check_abi.py; standard library only).

Sources of truth: include/jump.h for the functions, their signatures, the jump_status codes and the #defines;
Sources/JumpCore/Config/ConfigKeys.swift for the config keys. include/jump_api.json describes all of them (by
hand) and every other copy is compared with it:
  - include/jump.h: functions, signatures, handle sections, callback typedefs, handles, statuses, #defines,
    the config keys named in the jump_config comment, the keys of the JSON documents;
  - the library's exports (passed in by check_abi.py);
  - JumpStatus.swift, ConfigKeys.swift, LibraryVersion.swift (read as text, not compiled);
  - bindings/python/jump: _native.py (ABI_VERSION), __init__.py (__version__);
  - Tests/c/test_config.c (documented keys, defaults), examples/c/quickstart.c (status names);
  - itself: each function that hands out JSON names its document ("result"), and each document is typed and used
    (the schema: docs/bindings.md, Typed results).
The bindings' declarations and status tables are not copies any more: scripts/generate-bindings.py writes them
from jump_api.json, and check_generated.py says when a committed one is stale.
Every check takes a root directory, so self_test() can run them on deliberately broken copies in a temporary
directory and show that each break is reported (a checker that cannot fail proves nothing).

Adding a function: add it to jump_api.json's "functions" (with its description, "statuses" and "may_wait",
check 7n), export it from Swift, run `make generate` (it writes the function's entry and declaration in
include/jump.h's generated region of its handle's section), then python3 Tests/abi/check_abi.py: each line
that fails names what is missing or differs.
"""
import json
import os
import re
import shutil
import tempfile

from cdecl import read_header, render

FILES = {
    "api": "include/jump_api.json",
    "header": "include/jump.h",
    "swift_status": "Sources/JumpCore/Support/JumpStatus.swift",
    "swift_config": "Sources/JumpCore/Config/ConfigKeys.swift",
    "swift_version": "Sources/JumpCore/Support/LibraryVersion.swift",
    "py_init": "bindings/python/jump/__init__.py",
    "py_native": "bindings/python/jump/_native.py",
    "c_config": "Tests/c/test_config.c",
    "c_example": "examples/c/quickstart.c",
}

# The C types each ownership kind of jump_api.json may have: a wrong kind (an out_string that is not char **)
# is as misleading to a binding generator as a wrong type.
OWNERSHIP_TYPES = {
    "status": r"jump_status",
    "value": r"int|int32_t|int64_t|uint32_t|size_t|jump_status",
    "length": r"size_t",
    "none": r"void",
    "static_string": r"const char \*",
    "library_string": r"const char \*",
    "borrowed_string": r"const char \*",
    "borrowed_bytes": r"const char \*",
    "released_string": r"char \*",
    "out_string": r"char \*\*",
    "borrowed_json": r"const struct json_t \*",
    "out_json": r"struct json_t \*\*",
    "handle": r"(const )?jump_(config|client|record|request) \*",
    "handle_released": r"jump_(config|client|record|request) \*",
    "out_handle": r"jump_(config|client|record|request) \*\*",
    "out_value": r"(int|int32_t|int64_t|uint64_t|double|size_t) \*",
    "callback": r"jump_callback",
    "userdata": r"void \*",
    "userdata_free": r"jump_free_fn",
    "host_function": r"jump_\w+_fn",
}
RETURN_OWNERSHIPS = {"status", "value", "none", "static_string", "library_string"}


def read(root, key):
    with open(os.path.join(root, FILES[key]), encoding="utf-8") as f:
        return f.read()


def load_api(root):
    return json.loads(read(root, "api"))


def diff_lists(what, expected, actual, expected_from, actual_from):
    """Problems for two lists that should be equal (order included)."""
    if list(expected) == list(actual):
        return []
    missing = [x for x in expected if x not in actual]
    extra = [x for x in actual if x not in expected]
    problems = ["%s in %s but not in %s: %s" % (what, expected_from, actual_from, x) for x in missing]
    problems += ["%s in %s but not in %s: %s" % (what, actual_from, expected_from, x) for x in extra]
    return problems or ["%s: %s and %s differ in order:\n%s\n%s" % (what, expected_from, actual_from,
                                                                     list(expected), list(actual))]


def c_string_array(text, name):
    """The string literals of the C array initializer `name[] = {...};`, or None when there is no such array."""
    m = re.search(r"\b%s\[\]\s*=\s*\{(.*?)\};" % re.escape(name), text, re.S)
    return re.findall(r'"([^"]*)"', m.group(1)) if m else None


# ---------------------------------------------------------------------------------------------------------
# Functions and types (jump.h, the exports)
# ---------------------------------------------------------------------------------------------------------

def check_function_names(root, api, exports):
    header, _, problems = read_header(os.path.join(root, FILES["header"]))
    names = [f["name"] for f in api["functions"]]
    problems += ["listed twice in jump_api.json: %s" % n for n in sorted({n for n in names if names.count(n) > 1})]
    problems += ["declared in jump.h, missing from jump_api.json: %s" % n for n in sorted(set(header) - set(names))]
    problems += ["in jump_api.json, not declared in jump.h: %s" % n for n in sorted(set(names) - set(header))]
    if exports is not None:
        problems += ["in jump_api.json, not exported by the library: %s" % n for n in sorted(set(names) - exports)]
        problems += ["exported, missing from jump_api.json: %s" % n for n in sorted(exports - set(names))]
    return problems


def check_function_signatures(root, api):
    header, _, problems = read_header(os.path.join(root, FILES["header"]))
    for f in api["functions"]:
        if f["name"] not in header:
            continue
        typ = header[f["name"]][0]
        if f["returns"]["type"] != render(typ[1]):
            problems.append("%s returns `%s` in jump.h, `%s` in jump_api.json" % (f["name"], render(typ[1]),
                                                                                  f["returns"]["type"]))
        want = [(name, render(t)) for t, name in typ[2]]
        have = [(p["name"], p["type"]) for p in f["parameters"]]
        if want != have:
            problems.append("%s parameters: jump.h (%s), jump_api.json (%s)" % (
                f["name"], ", ".join("%s %s" % (t, n) for n, t in want), ", ".join("%s %s" % (t, n) for n, t in have)))
    return problems


def header_sections(text, api):
    """{function: group} from the banners of jump.h: a group's banner is the comment line "/* <title>"."""
    lines = text.splitlines()
    banners, problems = [], []
    for g in api["groups"]:
        hits = [i for i, l in enumerate(lines) if l.startswith("/* " + g["title"])]
        if len(hits) != 1:
            problems.append("group %s: %d banner lines in jump.h start with \"/* %s\"" % (g["name"], len(hits), g["title"]))
        banners += [(i, g["name"]) for i in hits]
    sections = {}
    for i, line in enumerate(lines):
        m = re.match(r"[a-z][\w ]*[\s*](jump_\w+)\(", line)  # a declaration starts in column 0
        if m:
            before = [g for b, g in sorted(banners) if b < i]
            sections[m.group(1)] = before[-1] if before else None
    return sections, problems


def check_function_fields(root, api):
    sections, problems = header_sections(read(root, "header"), api)
    names = {f["name"] for f in api["functions"]}
    if set(api["ownership"]) != set(OWNERSHIP_TYPES):
        problems += diff_lists("ownership kind", sorted(OWNERSHIP_TYPES), sorted(api["ownership"]),
                               "check_api.py", "jump_api.json's \"ownership\" legend")
    for f in api["functions"]:
        n = f["name"]
        if n in sections and f["group"] != sections[n]:
            problems.append("%s: group %r, but jump.h declares it in section %r" % (n, f["group"], sections[n]))
        if not f.get("summary", "").strip():
            problems.append("%s: no summary" % n)
        for suffix, key in (("_async", "async_of"), ("_jansson", "jansson_of")):
            base = n[:-len(suffix)] if n.endswith(suffix) else None
            if (key in f) != (base is not None):
                problems.append("%s: %s %s" % (n, "lacks" if base else "must not have", key))
            elif base is not None and f[key] is not None and (f[key] != base or base not in names):
                problems.append("%s: %s is %r, expected %r (a function of jump_api.json)" % (n, key, f[key], base))
        ret = f["returns"]
        if ret["ownership"] not in RETURN_OWNERSHIPS or not re.fullmatch(OWNERSHIP_TYPES[ret["ownership"]], ret["type"]):
            problems.append("%s: return ownership %r does not fit `%s`" % (n, ret["ownership"], ret["type"]))
        for p in f["parameters"]:
            kind = p["ownership"]
            if kind not in OWNERSHIP_TYPES or kind in ("none", "static_string", "library_string", "status"):
                problems.append("%s(%s): unknown parameter ownership %r" % (n, p["name"], kind))
            elif not re.fullmatch(OWNERSHIP_TYPES[kind], p["type"]):
                problems.append("%s(%s): ownership %r does not fit `%s`" % (n, p["name"], kind, p["type"]))
            if p["direction"] != ("out" if kind.startswith("out_") else "in"):
                problems.append("%s(%s): direction %r does not fit ownership %r" % (n, p["name"], p["direction"], kind))
    return problems


def check_types(root, api):
    """Callback typedefs and opaque handles of jump_api.json against jump.h."""
    text = read(root, "header")
    _, typedefs, problems = read_header(os.path.join(root, FILES["header"]))
    declared = {n for n in typedefs if re.search(r"typedef[^;]*\(\s*\*\s*%s\s*\)" % n, text)}
    listed = [c["name"] for c in api["callbacks"]]
    problems += diff_lists("callback typedef", sorted(declared), sorted(listed), "jump.h", "jump_api.json")
    for c in api["callbacks"]:
        if c["name"] not in declared:
            continue
        func = typedefs[c["name"]][1]  # a pointer to a function
        want = [render(func[1])] + ["%s %s" % (render(t), n or "") for t, n in func[2]]
        have = [c["returns"]] + ["%s %s" % (p["type"], p["name"]) for p in c["parameters"]]
        if want != have:
            problems.append("%s: jump.h %s, jump_api.json %s" % (c["name"], want, have))
        if not c.get("thread"):
            problems.append("%s: no \"thread\" (on which thread it runs)" % c["name"])
    handles = re.findall(r"typedef struct (\w+) \1;", text)
    problems += diff_lists("handle", sorted(handles), sorted(h["name"] for h in api["handles"]), "jump.h", "jump_api.json")
    names = {f["name"] for f in api["functions"]}
    for h in api["handles"]:
        for fn in [h["freed_by"]] + [c for c in h["created_by"] if re.fullmatch(r"jump_\w+", c)]:
            if fn not in names:
                problems.append("handle %s names %s, which is not a function of jump_api.json" % (h["name"], fn))
    return problems


# ---------------------------------------------------------------------------------------------------------
# Status codes
# ---------------------------------------------------------------------------------------------------------

def header_statuses(text):
    body = re.search(r"typedef enum jump_status \{(.*?)\} jump_status;", text, re.S).group(1)
    return [(m.group(1), int(m.group(2)), m.group(3)) for m in
            re.finditer(r"(JUMP_\w+)\s*=\s*(-?\d+),?[ \t]*(?:/\*\s*(.*?)\s*\*/)?", body)]


def check_statuses_header(root, api):
    problems = []
    listed = [(s["name"], s["value"]) for s in api["statuses"]]
    declared = header_statuses(read(root, "header"))
    problems += diff_lists("status", [(n, v) for n, v, _ in declared], listed, "jump.h", "jump_api.json")
    meanings = {s["name"]: s["meaning"] for s in api["statuses"]}
    for name, _, comment in declared:
        if comment and meanings.get(name, comment) != comment:
            problems.append("%s: meaning %r in jump_api.json, %r in jump.h" % (name, meanings[name], comment))
    return problems


def by_index(api):
    """The status names indexed by -value, as the C copies keep them."""
    ordered = sorted(api["statuses"], key=lambda s: -s["value"])
    if [-s["value"] for s in ordered] != list(range(len(ordered))):
        return None
    return [s["name"] for s in ordered]


def check_statuses_swift(root, api):
    text = read(root, "swift_status")
    values = {c.strip("`"): int(v) for c, v in re.findall(r"case (`?\w+`?) = (-?\d+)", text)}
    names = dict(re.findall(r"case \.(\w+): return \"(JUMP_\w+)\"", text))
    swift = sorted(((names.get(c, "(no name for .%s)" % c), v) for c, v in values.items()), key=lambda x: -x[1])
    listed = sorted(((s["name"], s["value"]) for s in api["statuses"]), key=lambda x: -x[1])
    return diff_lists("status", listed, swift, "jump_api.json", "JumpStatus.swift")


def check_statuses_c(root, api):
    names = by_index(api)
    if names is None:
        return ["jump_api.json's status values are not 0, -1, -2, ... without gaps; the C copies index by -value"]
    problems = []
    for key, array in (("c_example", "names"),):
        copy = c_string_array(read(root, key), array)
        if copy is None:
            problems.append("%s: no array %s[] = {...}" % (FILES[key], array))
        else:
            problems += diff_lists("status", names, copy, "jump_api.json", "%s %s[]" % (FILES[key], array))
    return problems


# ---------------------------------------------------------------------------------------------------------
# #defines and versions
# ---------------------------------------------------------------------------------------------------------

def header_defines(text):
    """{name: value} (an int or a string; a tuple of parameter names for a function-like macro)."""
    text = text.replace("\\\n", " ")
    defines = {}
    for name, params, value in re.findall(r"^#define (JUMP_\w+)(\([^)]*\))?[ \t]*(.*)$", text, re.M):
        if name == "JUMP_H":
            continue  # the include guard
        if params:
            defines[name] = tuple(p.strip() for p in params[1:-1].split(","))
        elif value.startswith('"'):
            defines[name] = value.strip('"')
        else:
            defines[name] = int(value.rstrip("uUlL"), 0)  # 1u: an unsigned flag
    return defines


def api_defines(api):
    return {d["name"]: tuple(d["parameters"]) if "parameters" in d else d["value"] for d in api["defines"]}


def check_defines(root, api):
    declared, listed = header_defines(read(root, "header")), api_defines(api)
    problems = diff_lists("#define", sorted(declared), sorted(listed), "jump.h", "jump_api.json")
    problems += ["%s: %r in jump.h, %r in jump_api.json" % (n, declared[n], listed[n])
                 for n in sorted(set(declared) & set(listed)) if declared[n] != listed[n]]
    if problems:
        return problems
    major, minor, patch = (declared["JUMP_VERSION_" + p] for p in ("MAJOR", "MINOR", "PATCH"))
    if declared["JUMP_VERSION"] != "%d.%d.%d" % (major, minor, patch):
        problems.append("JUMP_VERSION %r is not MAJOR.MINOR.PATCH" % declared["JUMP_VERSION"])
    if declared["JUMP_VERSION_NUMBER"] != (major << 16) | (minor << 8) | patch:
        problems.append("JUMP_VERSION_NUMBER 0x%06x is not (MAJOR << 16) | (MINOR << 8) | PATCH"
                        % declared["JUMP_VERSION_NUMBER"])
    return problems


def check_versions(root, api):
    d = api_defines(api)
    swift = dict(re.findall(r"static let (major|minor|patch|abi): \w+ = (\d+)", read(root, "swift_version")))
    py_version = re.search(r'^__version__ = "([^"]*)"', read(root, "py_init"), re.M)
    py_abi = re.search(r"^ABI_VERSION = (\d+)", read(root, "py_native"), re.M)
    copies = [
        ("LibraryVersion.swift major", swift.get("major"), d["JUMP_VERSION_MAJOR"]),
        ("LibraryVersion.swift minor", swift.get("minor"), d["JUMP_VERSION_MINOR"]),
        ("LibraryVersion.swift patch", swift.get("patch"), d["JUMP_VERSION_PATCH"]),
        ("LibraryVersion.swift abi", swift.get("abi"), d["JUMP_ABI_VERSION"]),
        ("bindings/python/jump/__init__.py __version__ (pyproject.toml reads it)",
         py_version and py_version.group(1), d["JUMP_VERSION"]),
        ("bindings/python/jump/_native.py ABI_VERSION", py_abi and py_abi.group(1), d["JUMP_ABI_VERSION"]),
    ]
    return ["%s is %s, jump_api.json says %s" % (what, got, want) for what, got, want in copies
            if got is None or str(got) != str(want)]


# ---------------------------------------------------------------------------------------------------------
# Config keys
# ---------------------------------------------------------------------------------------------------------

def swift_int(text):
    """An Int64 literal of ConfigKeys.swift: 600_000, (1 << 30)."""
    text = text.strip().strip("()").replace("_", "")
    shift = re.fullmatch(r"(\d+)\s*<<\s*(\d+)", text)
    return int(shift.group(1)) << int(shift.group(2)) if shift else int(text)


def swift_config_keys(text):
    """[{name, type, default, allowed_values?, range?}] as ConfigKeys.swift defines them."""
    cases = re.search(r"enum ConfigKey\b[^{]*\{(.*?)\benum Kind\b", text, re.S).group(1)
    names = [n.strip() for line in re.findall(r"^\s*case ([\w, ]+)$", cases, re.M) for n in line.split(",")]

    def switch(var):
        m = re.search(r"\bvar %s\b(.*?)(?=\bvar \w+|\Z)" % var, text, re.S)
        table = {}
        for keys, value in re.findall(r"^\s*case ((?:\.\w+,?\s*)+):\s*return (.+?)\s*$", m.group(1), re.M):
            for key in re.findall(r"\.(\w+)", keys):
                table[key] = value
        return table

    kinds, defaults, allowed, ranges = switch("kind"), switch("defaultValue"), switch("allowedValues"), switch("allowedRange")
    keys = []
    for n in names:
        key = {"name": n, "type": kinds.get(n, ".string").lstrip(".")}
        value = defaults.get(n)
        if value is None:
            key["default"] = None
        elif value.startswith('"'):
            key["default"] = json.loads(value)
        elif value in ("true", "false"):
            key["default"] = value == "true"
        else:
            key["default"] = swift_int(value)
        if n in allowed:
            key["allowed_values"] = re.findall(r'"([^"]*)"', allowed[n])
        if n in ranges:
            low, high = ranges[n].split("...")
            key["range"] = [swift_int(low), swift_int(high)]
        keys.append(key)
    return keys


def check_config_swift(root, api):
    swift = {k["name"]: k for k in swift_config_keys(read(root, "swift_config"))}
    listed = {k["name"]: k for k in api["config_keys"]}
    problems = diff_lists("config key", sorted(swift), sorted(listed), "ConfigKeys.swift", "jump_api.json")
    for name in sorted(set(swift) & set(listed)):
        for field in ("type", "default", "allowed_values", "range"):
            if swift[name].get(field) != listed[name].get(field):
                problems.append("%s %s: %r in ConfigKeys.swift, %r in jump_api.json"
                                % (name, field, swift[name].get(field), listed[name].get(field)))
    return problems


def check_config_header(root, api):
    lines = read(root, "header").splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("/* jump_config:"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("/* ---"))
    comment = re.sub(r'"[^"]*"', " ", " ".join(lines[start:end]))  # values ("signInForm") are not keys
    named = set(re.findall(r"\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b", comment))
    # A one-word key (proxy) has no capital to tell it from prose: it counts when the comment has the word.
    named |= {k["name"] for k in api["config_keys"] if k["name"].islower() and re.search(r"\b%s\b" % k["name"], comment)}
    return diff_lists("config key", sorted(k["name"] for k in api["config_keys"]), sorted(named), "jump_api.json",
                      "jump.h's jump_config comment")


def check_config_c(root, api):
    text = read(root, "c_config")
    listed = {k["name"]: k for k in api["config_keys"]}
    problems = diff_lists("config key", sorted(listed), sorted(c_string_array(text, "documented_keys") or []),
                          "jump_api.json", "Tests/c/test_config.c documented_keys")
    body = re.search(r"TEST\(defaults_in_to_json\)(.*?)\nTEST\(", text, re.S).group(1)
    pairs = [(k, json.loads('"%s"' % v)) for k, v in re.findall(r'\{"(\w+)", "([^"]*)"\}', body)]
    pairs += [(k, int(v)) for k, v in re.findall(r'\{"(\w+)", (-?\d+)\}', body)]
    for key, value in pairs:
        if key not in listed or listed[key]["default"] != value:
            problems.append("Tests/c/test_config.c expects %s to default to %r, jump_api.json says %r"
                            % (key, value, listed.get(key, {}).get("default", "(no such key)")))
    return problems


# What a document key may say about itself (the schema of "documents": docs/bindings.md, Typed results).
KEY_FIELDS = {"type", "description", "nullable", "optional", "values", "unit", "secret"}
UNITS = {"epoch_seconds", "seconds", "milliseconds"}


def check_documents(root, api):
    """Each document has a description and typed keys (every key named in jump.h, as jump.h documents it)."""
    text = read(root, "header")
    problems = []
    for d, doc in sorted(api["documents"].items()):
        if not isinstance(doc.get("description"), str) or not doc["description"].strip():
            problems.append("document %s: no \"description\"" % d)
        for k, key in sorted(doc["keys"].items()):
            if '"%s"' % k not in text:
                problems.append("document %s: key %r is not in jump.h" % (d, k))
            if not isinstance(key, dict) or not isinstance(key.get("type"), str) or not key.get("description"):
                problems.append("document %s: key %r needs {\"type\", \"description\"}" % (d, k))
                continue
            problems += ["document %s: key %r: unknown field %r" % (d, k, f) for f in sorted(set(key) - KEY_FIELDS)]
            if "values" in key and (key["type"] != "string" or not key["values"]
                                    or not all(isinstance(v, str) for v in key["values"])):
                problems.append("document %s: key %r: \"values\" are for strings only" % (d, k))
            if "unit" in key and (key["type"] != "int" or key["unit"] not in UNITS):
                problems.append("document %s: key %r: \"unit\" is one of %s, on ints only" % (d, k, sorted(UNITS)))
    return problems


SCALARS = {"string", "bool", "int", "number", "any"}
# The out parameters that carry a JSON document (ownership out_json, or a string the C API names so).
JSON_OUT_NAMES = {"out_json", "out_result", "out_response"}


def type_problems(t, documents):
    """What is wrong with a type string T := scalar | document | "[T]" | "{T}" (docs/bindings.md, Typed results)."""
    if not isinstance(t, str) or not t:
        return ["%r is not a type" % (t,)]
    if t[0] + t[-1] in ("[]", "{}"):
        return type_problems(t[1:-1], documents)
    if t in SCALARS or t in documents:
        return []
    return ["%r names no document" % t]


def document_names(t):
    return [n for n in re.findall(r"[a-z_][a-z0-9_]*", t) if n not in SCALARS]


def returns_json(f):
    """The function hands back a JSON document: an out_json parameter, a JSON string out parameter, or a
    function named for the JSON it gives (jump_config_to_json)."""
    return any(p.get("direction") == "out" and (p["ownership"] == "out_json" or
                                                (p["ownership"] == "out_string" and p["name"] in JSON_OUT_NAMES))
               for p in f["parameters"]) or f["name"].endswith("_to_json")


def check_results(root, api):
    """Every function that returns a JSON document (or an _async form of one) says its "result"; every type
    names known documents; every document is used by a function's result, a callback or another document."""
    documents = api["documents"]
    functions = {f["name"]: f for f in api["functions"]}
    problems = []
    for f in api["functions"]:
        n, result = f["name"], f.get("result")
        base = functions.get(f.get("async_of") or f.get("jansson_of") or "")
        if result is None and returns_json(f):
            problems.append("%s returns a JSON document but has no \"result\" (its type)" % n)
        if base is not None and base.get("result") != result:
            problems.append("%s: \"result\" %r differs from %s's %r (its completion's result is that one's)"
                            % (n, result, base["name"], base.get("result")))
        if result is not None:
            problems += ["%s: \"result\" %s" % (n, p) for p in type_problems(result, documents)]
    for d, doc in sorted(documents.items()):
        for k, key in sorted(doc["keys"].items()):
            if isinstance(key, dict):
                problems += ["document %s: key %r: type %s" % (d, k, p)
                             for p in type_problems(key.get("type"), documents)]
    roots = [f["result"] for f in api["functions"] if "result" in f]
    roots += [d for c in api["callbacks"] for d in c.get("documents", [])]
    used, todo = set(), [n for t in roots for n in document_names(t)]
    while todo:
        name = todo.pop()
        if name in used or name not in documents:
            continue
        used.add(name)
        todo += [n for key in documents[name]["keys"].values() if isinstance(key, dict)
                 for n in document_names(key.get("type", ""))]
    problems += ["document %s is used by nothing (no function's \"result\", no callback's \"documents\", no "
                 "other document's key)" % d for d in sorted(set(documents) - used)]
    return problems


# ---------------------------------------------------------------------------------------------------------
# Running, and the self-test
# ---------------------------------------------------------------------------------------------------------

# jump.h's generated function regions (scripts/generators/function_docs.py writes them; check_generated.py says
# when one differs from what it writes, e.g. after a hand edit).
FUNCTIONS_BEGIN = "/* BEGIN FUNCTIONS from "
FUNCTIONS_END = "/* END FUNCTIONS */"


def function_entries(f):
    """[(status, when)] of a function's "statuses" (a list of {status, when} or an object status: when)."""
    found = f["statuses"]
    if isinstance(found, dict):
        return list(found.items())
    return [(s.get("status"), s.get("when")) for s in found]


def check_function_contracts(root, api):
    """Every function has "statuses" and "may_wait" (its own entry in jump.h is made of them), each declaration
    of jump.h lies inside a generated BEGIN FUNCTIONS .. END FUNCTIONS region."""
    problems = []
    names = {s["name"] for s in api["statuses"]}
    for f in api["functions"]:
        n = f["name"]
        if "statuses" not in f:
            problems.append("%s: no \"statuses\" (each jump_status it may return, with when)" % n)
        elif not isinstance(f["statuses"], (list, dict)):
            problems.append("%s: \"statuses\" is neither a list of {status, when} nor an object" % n)
        else:
            entries = function_entries(f)
            for status, when in entries:
                if status not in names:
                    problems.append("%s: unknown status %r in \"statuses\"" % (n, status))
                if not isinstance(when, str) or not when.strip():
                    problems.append("%s: status %s without a \"when\"" % (n, status))
            listed = [s for s, _ in entries]
            problems += ["%s: %s listed twice in \"statuses\"" % (n, s) for s in sorted({s for s in listed
                                                                                      if listed.count(s) > 1})]
            if f["returns"]["ownership"] == "status":
                if "JUMP_OK" not in listed:
                    problems.append("%s: \"statuses\" lacks JUMP_OK (with what it means)" % n)
            elif listed:
                problems.append("%s: returns %s, not a jump_status: \"statuses\" must be []" % (n, f["returns"]["type"]))
        wait = f.get("may_wait")
        if not isinstance(wait, str) or not wait.strip():
            problems.append("%s: no \"may_wait\" (\"never\" or what it may wait for)" % n)
        elif f.get("async_of") and not wait.startswith("never"):
            problems.append("%s: an _async function returns at once: \"may_wait\" must be \"never\"" % n)
    lines = read(root, "header").splitlines()
    inside, regions = False, 0
    for i, line in enumerate(lines):
        if line.startswith(FUNCTIONS_BEGIN):
            if inside:
                problems.append("jump.h line %d: BEGIN FUNCTIONS inside another region" % (i + 1))
            inside, regions = True, regions + 1
        elif line.startswith(FUNCTIONS_END):
            if not inside:
                problems.append("jump.h line %d: END FUNCTIONS without BEGIN FUNCTIONS" % (i + 1))
            inside = False
        else:
            m = re.match(r"[a-z][\w ]*[\s*](jump_\w+)\(", line)
            if m and not inside:
                problems.append("jump.h line %d: %s is declared outside the generated function regions (its "
                                "entry comes from jump_api.json: make generate)" % (i + 1, m.group(1)))
    if inside or not regions:
        problems.append("jump.h: no complete BEGIN FUNCTIONS .. END FUNCTIONS region")
    return problems


CHECKS = [
    ("7a. jump_api.json functions == jump.h functions == library exports", "names"),
    ("7b. jump_api.json signatures == jump.h signatures", "signatures"),
    ("7c. jump_api.json function fields (group = jump.h section, _async/_jansson, ownership fits type)", "fields"),
    ("7d. jump_api.json callback typedefs and handles == jump.h", "types"),
    ("7e. statuses: jump_api.json == jump.h enum", "st_header"),
    ("7f. statuses: JumpStatus.swift == jump_api.json", "st_swift"),
    ("7g. statuses: examples/c/quickstart.c == jump_api.json", "st_c"),
    ("7h. #defines: jump_api.json == jump.h", "defines"),
    ("7i. versions: LibraryVersion.swift, Python __version__ and ABI_VERSION == jump_api.json", "versions"),
    ("7j. config keys: jump_api.json == ConfigKeys.swift (names, types, defaults, allowed values, ranges)", "cfg_swift"),
    ("7k. config keys: jump.h's jump_config comment names exactly jump_api.json's", "cfg_header"),
    ("7l. config keys: Tests/c/test_config.c (documented_keys, defaults) == jump_api.json", "cfg_c"),
    ("7m. documents: typed keys (type, description, values on strings, unit on ints), each in jump.h", "documents"),
    ("7n. functions: each has \"statuses\" (JUMP_OK included) and \"may_wait\"; jump.h declares each inside a "
     "generated region", "contracts"),
    ("7o. results: each function returning JSON (and its _async, _jansson forms) has a \"result\" naming known "
     "documents; every document is used", "results"),
]


def run_checks(root, exports=None):
    """[(ok, label, detail)] for every check on the files under root (exports: the library's, or None)."""
    try:
        api = load_api(root)
    except (OSError, ValueError) as e:
        return [(False, "7. read include/jump_api.json", str(e))]
    run = {
        "names": lambda: check_function_names(root, api, exports),
        "signatures": lambda: check_function_signatures(root, api),
        "fields": lambda: check_function_fields(root, api),
        "types": lambda: check_types(root, api),
        "st_header": lambda: check_statuses_header(root, api),
        "st_swift": lambda: check_statuses_swift(root, api),
        "st_c": lambda: check_statuses_c(root, api),
        "defines": lambda: check_defines(root, api),
        "versions": lambda: check_versions(root, api),
        "cfg_swift": lambda: check_config_swift(root, api),
        "cfg_header": lambda: check_config_header(root, api),
        "cfg_c": lambda: check_config_c(root, api),
        "documents": lambda: check_documents(root, api),
        "contracts": lambda: check_function_contracts(root, api),
        "results": lambda: check_results(root, api),
    }
    results = []
    for label, key in CHECKS:
        try:
            problems = run[key]()
        except Exception as e:  # a file that no longer has the expected shape is a failure, not a crash
            problems = ["cannot check: %s: %s" % (type(e).__name__, e)]
        results.append((not problems, label, "\n".join(problems)))
    return results


def edit_text(old, new):
    def edit(text):
        if old not in text:
            raise AssertionError("the self-test's edit no longer applies: %r not found" % old)
        return text.replace(old, new, 1)
    return edit


def edit_api(change):
    def edit(text):
        api = json.loads(text)
        change(api)
        return json.dumps(api)
    return edit


def drop(items, name):
    before = len(items)
    items[:] = [x for x in items if x["name"] != name]
    assert len(items) == before - 1, "the self-test's edit no longer applies: no %s" % name


def retype(api):
    param = next(f for f in api["functions"] if f["name"] == "jump_config_set_int")["parameters"][2]
    param["type"] = "int32_t"


def strip_field(name, field):
    def change(api):
        f = next(f for f in api["functions"] if f["name"] == name)
        assert field in f, "the self-test's edit no longer applies: %s has no %s" % (name, field)
        del f[field]
    return change


def renumber(api):
    next(s for s in api["statuses"] if s["name"] == "JUMP_E_CONFLICT")["value"] = -20


def set_result(name, result):
    def change(api):
        next(f for f in api["functions"] if f["name"] == name)["result"] = result
    return change


def add_document(name):
    def change(api):
        api["documents"][name] = {"description": "a document no function returns",
                                  "keys": {"status": {"type": "int", "description": "a key jump.h names"}}}
    return change


# (what is broken, which file, how, the check that must fail)
BREAKS = [
    ("a function missing from jump_api.json", "api",
     edit_api(lambda a: drop(a["functions"], "jump_record_revert")), "names"),
    ("a wrong parameter type in jump_api.json", "api", edit_api(retype), "signatures"),
    ("a renumbered status in jump_api.json", "api", edit_api(renumber), "st_header"),
    ("a function without \"statuses\" in jump_api.json", "api",
     edit_api(strip_field("jump_client_sync", "statuses")), "contracts"),
    ("a function without \"may_wait\" in jump_api.json", "api",
     edit_api(strip_field("jump_record_get", "may_wait")), "contracts"),
    ("a declaration moved out of jump.h's generated regions", "header",
     edit_text("/* END FUNCTIONS */\n", "/* END FUNCTIONS */\nint jump_x(void);\n"), "contracts"),
    ("a function returning JSON without \"result\"", "api",
     edit_api(strip_field("jump_client_linked_profiles", "result")), "results"),
    ("an _async form whose \"result\" differs from its function's", "api",
     edit_api(strip_field("jump_client_sync_async", "result")), "results"),
    ("a \"result\" naming no document", "api", edit_api(set_result("jump_client_sync", "[sync_outcome]")), "results"),
    ("a document nothing uses", "api", edit_api(add_document("orphan")), "results"),
    ("a document key with an unknown type", "api",
     edit_api(lambda a: a["documents"]["sync_result"]["keys"]["requests"].update(type="integer")), "results"),
    ("a document key without a description", "api",
     edit_api(lambda a: a["documents"]["sync_result"]["keys"]["requests"].pop("description")), "documents"),
    ("a renumbered status in JumpStatus.swift", "swift_status",
     edit_text("case conflict = -18", "case conflict = -20"), "st_swift"),
    ("a config key missing from jump_api.json", "api",
     edit_api(lambda a: drop(a["config_keys"], "webLoginCookieName")), "cfg_swift"),
    ("a config key missing from Tests/c/test_config.c", "c_config", edit_text('"webLoginCookieName"', '"x"'), "cfg_c"),
    ("a status name missing from examples/c/quickstart.c", "c_example", edit_text('"JUMP_E_CONFLICT",', ""), "st_c"),
    ("another version in LibraryVersion.swift", "swift_version",
     edit_text("static let minor: UInt32 = ", "static let minor: UInt32 = 9"), "versions"),
]


def self_test(root, exports=None):
    """[(ok, label, detail)]: each BREAKS entry, applied to a copy of the files, must fail its check."""
    results = []
    labels = dict((key, label) for label, key in CHECKS)
    tmp = tempfile.mkdtemp(prefix="jump-api-selftest-")

    def copy_files(name):
        copy = os.path.join(tmp, name)
        for rel in FILES.values():
            os.makedirs(os.path.dirname(os.path.join(copy, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(root, rel), os.path.join(copy, rel))
        return copy

    try:
        # A check that fails on the intact files shows nothing when it fails on a broken copy too.
        failing = {lbl for ok, lbl, _ in run_checks(copy_files("intact"), exports) if not ok}
        for what, key, edit, expected in BREAKS:
            label = "7z. self-test: %s is reported (%s)" % (what, labels[expected].split(" ")[0])
            if labels[expected] in failing:
                results.append((False, label, "cannot show it: the check fails on the intact files already"))
                continue
            copy = copy_files(str(len(results)))
            path = os.path.join(copy, FILES[key])
            try:
                with open(path, encoding="utf-8") as f:
                    broken = edit(f.read())
            except AssertionError as e:
                results.append((False, label, str(e)))
                continue
            with open(path, "w", encoding="utf-8") as f:
                f.write(broken)
            failed = {lbl for ok, lbl, _ in run_checks(copy, exports) if not ok}
            ok = labels[expected] in failed
            results.append((ok, label, "" if ok else "the check passed on the broken copy; failing: %s"
                            % (sorted(failed) or "none")))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return results
