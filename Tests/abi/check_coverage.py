#!/usr/bin/env python3
"""Which functions of include/jump_api.json each binding reaches, against its list of those it does not
(run by check_abi.py; standard library only).

Run alone: python3 Tests/abi/check_coverage.py

Every binding declares every function (generated), but declaring is not binding: a function is reached when
the binding's own code calls it, read statically:
  - Python: `.jump_x` or "jump_x" in bindings/python/jump/*.py but the generated _signatures_generated.py
    (calls are _native.lib.jump_x(...); handles name their free function as a string);
  - C#: `Native.jump_x(` in bindings/csharp/src/*.cs but the generated Native.Generated.cs;
  - Rust: `sys::jump_x(` in bindings/rust/jump/src/*.rs (the safe crate; jump-sys only declares, and its
    lib.rs and the safe crate's status.rs are generated);
  - Node.js: the addon (bindings/node/src/*.c, read as one file) calls it from an addon method the JavaScript
    layer (lib/*.js, index.js) uses, or from the module's setup; helpers count for the methods that use them;
  - Java: `Native.jump_x(` in bindings/java/src/io/libjump/*.java (hand-written; the generated are in generated/), or a call
    `jump_x(` in the JNI glue's hand-written C (bindings/java/native/*.c but the generated
    jump_jni_generated.c: the host-function glue and the helpers every generated wrapper uses);
  - Go: `C.jump_x(` in bindings/go/*.go but the tests (*_test.go) and the generated *_generated.go (cgo
    calls C functions as C.name; bridge.h's C helpers call none of jump.h's).
Each binding lists the functions it does not reach, with why, in bindings/<binding>/coverage-exceptions.json.
The check fails on a function neither reached nor listed, and on one listed but reached (the list would lie).
self_test() shows both failing.
"""
import json
import os
import re
import shutil
import sys
import tempfile

from results import print_results

API = "include/jump_api.json"


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def sources(root, directory, suffixes, skip=()):
    out = {}
    for name in sorted(os.listdir(os.path.join(root, directory))):
        if name.endswith(suffixes) and name not in skip:
            out[name] = read(root, os.path.join(directory, name))
    return out


def python_reached(root, names):
    text = "\n".join(sources(root, "bindings/python/jump", (".py",), skip=("_signatures_generated.py",)).values())
    return {n for n in names if re.search(r"""[."']%s\b""" % n, text)}


def csharp_reached(root, names):
    text = "\n".join(sources(root, "bindings/csharp/src", (".cs",), skip=("Native.Generated.cs",)).values())
    return {n for n in names if re.search(r"\bNative\.%s\s*\(" % n, text)}


def rust_reached(root, names):
    text = "\n".join(sources(root, "bindings/rust/jump/src", (".rs",), skip=("status.rs",)).values())
    return {n for n in names if re.search(r"\bsys::%s\s*\(" % n, text)}


def c_definitions(text):
    """{function: body} of the top-level function definitions of a C file (a body ends at a "}" in column 0)."""
    defs = {}
    for m in re.finditer(r"^[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*\{", text, re.M):
        end = text.find("\n}", m.end())
        defs[m.group(1)] = text[m.end():end if end >= 0 else len(text)]
    return defs


def node_reached(root, names):
    addon = "\n".join(sources(root, "bindings/node/src", (".c",)).values())
    js = "\n".join(list(sources(root, "bindings/node/lib", (".js",), skip=("statuses.generated.js",)).values())
                   + [read(root, "bindings/node/index.js")])
    defs = c_definitions(addon)
    init = defs.get("init", "")
    # An addon method counts when the JavaScript layer uses it; the rest of init (the constructor, the
    # module's properties) always runs.
    unused = {fn for js_name, fn in re.findall(r'METHOD\("(\w+)",\s*(\w+)\)', init)
              if not re.search(r"\.%s\b" % js_name, js)}
    todo = [i for i in re.findall(r"\b[A-Za-z_]\w*\b", init) if i in defs and i not in unused]
    seen, reached = set(), set()
    while todo:
        fn = todo.pop()
        if fn in seen:
            continue
        seen.add(fn)
        for ident in re.findall(r"\b[A-Za-z_]\w*\b", defs[fn]):
            if ident in names:
                reached.add(ident)
            elif ident in defs:
                todo.append(ident)
    reached |= {n for n in names if re.search(r"\b%s\s*\(" % n, init)}
    return reached


def java_reached(root, names):
    java = "\n".join(sources(root, "bindings/java/src/io/libjump", (".java",), skip=("Native.java",)).values())
    glue = "\n".join(sources(root, "bindings/java/native", (".c",), skip=("jump_jni_generated.c",)).values())
    return {n for n in names if re.search(r"\bNative\.%s\s*\(" % n, java) or re.search(r"\b%s\s*\(" % n, glue)}


def go_reached(root, names):
    files = sources(root, "bindings/go", (".go",))
    text = "\n".join(t for name, t in files.items() if not name.endswith(("_test.go", "_generated.go")))
    return {n for n in names if re.search(r"\bC\.%s\s*\(" % n, text)}


BINDINGS = [
    ("9a", "Python", "bindings/python/coverage-exceptions.json", python_reached),
    ("9b", "C#", "bindings/csharp/coverage-exceptions.json", csharp_reached),
    ("9c", "Node.js", "bindings/node/coverage-exceptions.json", node_reached),
    ("9d", "Go", "bindings/go/coverage-exceptions.json", go_reached),
    ("9e", "Java", "bindings/java/coverage-exceptions.json", java_reached),
    ("9f", "Rust", "bindings/rust/coverage-exceptions.json", rust_reached),
]


def check_binding(root, api, listed_file, reached_by, listed=None):
    """(ok, detail) for one binding; listed: its exceptions ({name: reason}), read from listed_file when None."""
    names = [f["name"] for f in api["functions"]]
    if listed is None:
        listed = json.loads(read(root, listed_file))["unreached"]
    reached = reached_by(root, set(names))
    problems = ["%s: neither reached nor listed in %s (bind it, or list it with the reason)" % (n, listed_file)
                for n in names if n not in reached and n not in listed]
    problems += ["%s: listed in %s but reached (remove it from the list)" % (n, listed_file)
                 for n in names if n in reached and n in listed]
    problems += ["%s: listed in %s without a reason" % (n, listed_file)
                 for n in listed if not str(listed[n]).strip()]
    problems += ["%s: listed in %s, not a function of %s" % (n, listed_file, API) for n in listed if n not in names]
    summary = "%d of %d reached, %d listed as not reached" % (len(reached), len(names), len(listed))
    return not problems, "\n".join(problems) if problems else summary


def run_checks(root):
    api = json.loads(read(root, API))
    results = []
    for number, binding, listed_file, reached_by in BINDINGS:
        label = "%s. %s reaches every function of %s but those %s lists" % (number, binding, API, listed_file)
        try:
            ok, detail = check_binding(root, api, listed_file, reached_by)
        except (OSError, ValueError, KeyError) as e:
            ok, detail = False, "cannot check: %s: %s" % (type(e).__name__, e)
        results.append((ok, label, detail))
    return results


def self_test(root):
    """[(ok, label, detail)]: a list that forgets an unreached function and one that names a reached function
    both fail, and each binding's way of telling "reached" sees a call disappear."""
    return self_test_lists(root) + self_test_reach(root)


# (binding, a function it lists as unreached, a function it reaches)
LIST_CASES = [("Python", "jump_error_last_jansson", "jump_client_sign_in"),
              ("Go", "jump_error_last_jansson", "jump_client_sign_in_async"),
              ("Java", "jump_error_last_jansson", "jump_client_sign_in"),
              ("Rust", "jump_error_last_jansson", "jump_client_sign_in")]


def self_test_lists(root):
    api = json.loads(read(root, API))
    results = []
    # each listed binding's reader must report both kinds of lie.
    for binding, unreached, reached in LIST_CASES:
        listed_file, reached_by = next((f, r) for _, b, f, r in BINDINGS if b == binding)
        listed = json.loads(read(root, listed_file))["unreached"]
        forgotten = {n: why for n, why in listed.items() if n != unreached}
        claimed = dict(listed, **{reached: "pretends to be unreached"})
        for what, changed, expect in (
                ("an unreached function missing from the list", forgotten, "neither reached nor listed"),
                ("a reached function in the list", claimed, "but reached")):
            ok, detail = check_binding(root, api, listed_file, reached_by, changed)
            shown = not ok and expect in detail
            results.append((shown, "9z. self-test: %s is reported (%s)" % (what, listed_file),
                            "" if shown else "the check passed on the changed list: %s" % detail))
    return results


# (binding, directory copied, a pattern, the function no longer reached once the pattern is gone from every file
# of the directory): each way of telling "reached" must see a call disappear.
UNREACH = [
    ("Python", "bindings/python/jump", r"\.jump_client_sign_out\b", "jump_client_sign_out"),
    ("C#", "bindings/csharp/src", r"\bNative\.jump_client_sign_out\b", "jump_client_sign_out"),
    ("Node.js", "bindings/node", r"\.state\b(?=\s*\()", "jump_client_state"),  # the addon method state()
    ("Rust", "bindings/rust/jump/src", r"\bsys::jump_client_sign_out\b", "jump_client_sign_out"),
    ("Java", "bindings/java", r"\bNative\.jump_client_sign_out\b", "jump_client_sign_out"),
    # a function reached from the glue's hand-written C only (jj_take_string frees every string it copies)
    ("Java", "bindings/java", r"\bjump_string_free\s*\(", "jump_string_free"),
    ("Go", "bindings/go", r"\bC\.jump_client_sign_out\b", "jump_client_sign_out"),
]


def self_test_reach(root):
    api = json.loads(read(root, API))
    names = {f["name"] for f in api["functions"]}
    reach = {binding: reached_by for _, binding, _, reached_by in BINDINGS}
    results = []
    tmp = tempfile.mkdtemp(prefix="jump-coverage-selftest-")
    try:
        for binding, directory, pattern, function in UNREACH:
            label = "9z. self-test: %s stops reaching %s when %s no longer calls it" % (binding, function, directory)
            copy = os.path.join(tmp, binding + "-" + function)
            shutil.copytree(os.path.join(root, directory), os.path.join(copy, directory),
                            ignore=shutil.ignore_patterns("node_modules", "__pycache__", "test"))
            if function not in reach[binding](copy, names):
                results.append((False, label, "cannot show it: not reached in the intact copy"))
                continue
            edited = 0
            for directory_, _, files in os.walk(os.path.join(copy, directory)):
                for name in files:
                    # the callers, not the Node addon's C (the Java glue's C is a caller: its own pattern)
                    if not name.endswith((".py", ".cs", ".js", ".java", ".rs", ".go")) and not (binding == "Java" and name.endswith(".c")):
                        continue
                    path = os.path.join(directory_, name)
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                    changed = re.sub(pattern, "_removed_call", text)
                    if changed != text:
                        edited += 1
                        with open(path, "w", encoding="utf-8") as f:
                            f.write(changed)
            ok = edited > 0 and function not in reach[binding](copy, names)
            results.append((ok, label, "" if ok else "still counted as reached (%d files edited)" % edited))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return results


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return print_results(run_checks(root) + self_test(root))


if __name__ == "__main__":
    sys.exit(main())
