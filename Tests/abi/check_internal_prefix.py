#!/usr/bin/env python3
"""The C code compiled into libjump.so names its internals jumpi_, never jump_ (run by check_abi.py;
standard library only).

jump_ is the public prefix: every jump_ name is declared in include/jump.h and exported (check 1 compares
the exports, `nm -D --defined-only`, with jump.h). The C helpers of the library (SOURCES: the fibers, the
Secret Service store, the shims that give Swift typed wrappers of libcurl, jansson and libcrypto) are not
exported; a jump_ name there could clash with a public function added later and reads as public API.
The check: every identifier starting with jump_ in SOURCES (function, variable, type or tag, defined or only
declared) must be one of include/jump.h's public names; internals use jumpi_.
self_test() shows it failing on a copy where one internal name is given the public prefix back.

Run alone: python3 Tests/abi/check_internal_prefix.py
"""
import os
import re
import shutil
import sys
import tempfile

from results import print_results

# The C sources of libjump.so's own C modules: whole folders, and the shim headers of the modules that only
# wrap a system library (their module.modulemap names nothing else).
SOURCES = ["Sources/CFiber", "Sources/CSecretService",
           "Sources/CCurl/shim.h", "Sources/CJansson/shim.h", "Sources/CCrypto/shim.h"]
LABEL = "11. libjump.so's own C sources name their internals jumpi_, not the public jump_ (%s)" % ", ".join(SOURCES)


def c_files(root):
    for entry in SOURCES:
        path = os.path.join(root, entry)
        if os.path.isfile(path):
            yield entry
        for directory, _, files in sorted(os.walk(path)):
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(directory, name), root)


def strip_comments(text):
    # A comment may mention a public function by name ("unlike jump_client_free ..."): not a definition.
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def public_names(root):
    with open(os.path.join(root, "include", "jump.h"), encoding="utf-8") as f:
        return set(re.findall(r"\bjump_\w+", strip_comments(f.read())))


def misnamed(root):
    """["file:line: name"] for the jump_ identifiers of SOURCES that include/jump.h does not declare."""
    public = public_names(root)
    found = []
    for rel in c_files(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            text = strip_comments(f.read())
        for number, line in enumerate(text.splitlines(), 1):
            for name in re.findall(r"\bjump_\w+", line):
                if name not in public:
                    found.append("%s:%d: %s (rename it jumpi_%s)" % (rel, number, name, name[len("jump_"):]))
    return found


def run_checks(root):
    files = list(c_files(root))
    if not files:
        return [(False, LABEL, "none of %s exists" % ", ".join(SOURCES))]
    found = misnamed(root)
    return [(not found, LABEL, "\n".join(found) if found else "%d files" % len(files))]


def self_test(root):
    """[(ok, label, detail)]: giving one internal function of a copy the public prefix back fails the check."""
    label = "11z. self-test: an internal C function named jump_ is reported"
    tmp = tempfile.mkdtemp(prefix="jump-prefix-selftest-")
    try:
        os.makedirs(os.path.join(tmp, "include"))
        shutil.copy(os.path.join(root, "include", "jump.h"), os.path.join(tmp, "include"))
        for rel in c_files(root):
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
            shutil.copy(os.path.join(root, rel), os.path.join(tmp, rel))
        if misnamed(tmp):
            return [(False, label, "cannot show it: the intact copy fails already")]
        path = os.path.join(tmp, "Sources", "CFiber", "fiber.c")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        changed = re.sub(r"\bjumpi_fiber_new\b", "jump_fiber_new", text)
        if changed == text:
            return [(False, label, "cannot show it: Sources/CFiber/fiber.c defines no jumpi_fiber_new")]
        with open(path, "w", encoding="utf-8") as f:
            f.write(changed)
        found = misnamed(tmp)
        shown = any(": jump_fiber_new " in x for x in found)
        return [(shown, label, "" if shown else "reported: %s" % found)]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(print_results(run_checks(here) + self_test(here)))
