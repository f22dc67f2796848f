#!/usr/bin/env python3
"""The Node.js addon's C files call downward only (run by check_abi.py; standard library only).

bindings/node/src has four layers, the lowest first: 1 arguments (args.c), 2 bridge (bridge*.c), 3 work (the
calls: work.c, requests.c, sync_calls.c, module.c), 4 entry (jump_addon.c). Each .c file says its own at its
top, as "Layer N of 4 (name)"; that line is what this check reads, so the comment cannot drift from the rule.
A file refers to a function of another file (calls it, or passes it as a pointer) only when that file's layer is
the same or lower; files of one layer may use each other. A layer that needs something of a higher one takes it
as a function pointer (bridge_post_work takes work.c's two ends). The check fails on an upward reference, and
on a .c file without its layer line. self_test() shows both failing on an edited copy.

Run alone: python3 Tests/abi/check_layers.py
"""
import os
import re
import shutil
import sys
import tempfile

from results import print_results

SOURCE = "bindings/node/src"
LAYER = re.compile(r"^ \* Layer (\d+) of \d+ \(([\w ]+)\)", re.M)
LABEL = "12. the Node.js addon's C files call downward only (%s: arguments < bridge < work < entry)" % SOURCE


def strip_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def exported_functions(text):
    """The names of the functions a file defines for the others (not static)."""
    names = set()
    for m in re.finditer(r"^([A-Za-z_][\w \t*]*?)\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{", text, re.M):
        if not re.search(r"\bstatic\b", m.group(1)):
            names.add(m.group(2))
    return names


def upward_calls(root):
    """["problem"] for the .c files of SOURCE: a missing layer line, a reference to a function of a higher layer."""
    directory = os.path.join(root, SOURCE)
    files, problems = {}, []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".c"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            raw = f.read()
        m = LAYER.search(raw[:raw.find("*/") + 2] if "*/" in raw else "")
        if m is None:
            problems.append("%s: no \"Layer N of 4 (name)\" line in its top comment" % name)
            continue
        files[name] = (int(m.group(1)), m.group(2), strip_comments(raw))
    defined = {}
    for name, (_, _, text) in files.items():
        for function in exported_functions(text):
            defined[function] = name
    for name, (layer, layer_name, text) in sorted(files.items()):
        for number, line in enumerate(text.splitlines(), 1):
            for word in set(re.findall(r"\b[A-Za-z_]\w*\b", line)):
                home = defined.get(word)
                if home is None or home == name or files[home][0] <= layer:
                    continue
                problems.append("%s:%d (layer %d, %s) uses %s of %s (layer %d, %s)"
                                % (name, number, layer, layer_name, word, home, files[home][0], files[home][1]))
    if not files:
        problems.append("no .c files in %s" % SOURCE)
    return problems


def run_checks(root):
    problems = upward_calls(root)
    return [(not problems, LABEL, "\n".join(problems))]


def self_test(root):
    """[(ok, label, detail)]: args.c calling the bridge, and a file without its layer line, are reported."""
    results = []
    tmp = tempfile.mkdtemp(prefix="jump-layers-selftest-")
    try:
        copy = os.path.join(tmp, SOURCE)
        shutil.copytree(os.path.join(root, SOURCE), copy)
        if upward_calls(tmp):
            return [(False, "12z. self-test: upward calls in the addon", "cannot show it: the intact copy fails")]
        with open(os.path.join(copy, "args.c"), "a", encoding="utf-8") as f:
            f.write("\nint selftest_upward(napi_env env) { return bridge_of(env) != NULL; }\n")
        found = upward_calls(tmp)
        shown = any(p.startswith("args.c:") and "bridge_of of bridge.c" in p for p in found)
        results.append((shown, "12z. self-test: args.c (layer 1) calling bridge_of (bridge.c, layer 2) is reported",
                        "" if shown else "reported: %s" % found))
        shutil.rmtree(copy)
        shutil.copytree(os.path.join(root, SOURCE), copy)
        path = os.path.join(copy, "module.c")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(LAYER.sub(" * (no layer)", text))
        found = upward_calls(tmp)
        shown = any(p.startswith("module.c: no ") for p in found)
        results.append((shown, "12z. self-test: a .c file without its layer line is reported",
                        "" if shown else "reported: %s" % found))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return results


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(print_results(run_checks(here) + self_test(here)))
