#!/usr/bin/env python3
"""Whether every binding's typed results follow include/jump_api.json's "documents" (run by check_abi.py;
standard library only).

Run alone: python3 Tests/abi/check_generated_types.py [ROOT]   (ROOT: a checkout, default this one)

The generator (scripts/generate-bindings.py --api FILE --out DIR) runs three times into temporary directories:
on jump_api.json as it is, on a copy where one document has a key more, and on a copy where another key of the
same document has another type. The bindings are not named here: a binding has typed results when one of its
generated files defines the document's type (class, interface, struct, record or type SyncResult). Each such
file must differ from the intact output in both edited runs, and mention the new key in one of the spellings
the bindings use (snake_case, camelCase, PascalCase). A backend that copied a fixed list of keys, or wrote its
file once by hand, fails here. self_test() shows it failing on a copy whose Python backend skips a document's
last key.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from check_generated import copy_checkout
from results import print_results

GENERATOR = "scripts/generate-bindings.py"
API = "include/jump_api.json"
BACKENDS = "scripts/generators"  # the generator's backends, one per binding (generate-bindings.py)
DOCUMENT = "sync_result"  # the document edited: every binding with typed results has it (jump_client_sync)
NEW_KEY = "retry_after_seconds"
RETYPED = ("requests", "string")  # requests: int -> string


def pascal(snake):
    return "".join(p[:1].upper() + p[1:] for p in snake.split("_"))


def spellings(key):
    camel = pascal(key)
    return {key, camel, camel[:1].lower() + camel[1:]}


def generate(root, api, out):
    """{relative path: text} the generator writes from api (a dict) into out."""
    os.makedirs(out)
    path = os.path.join(out, "jump_api.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(api, f, indent=2)
    files = os.path.join(out, "files")
    done = subprocess.run([sys.executable, os.path.join(root, GENERATOR), "--api", path, "--out", files],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError("%s --api %s failed: %s" % (GENERATOR, path, (done.stderr or done.stdout).strip()))
    found = {}
    for directory, _, names in os.walk(files):
        for name in names:
            full = os.path.join(directory, name)
            with open(full, encoding="utf-8", errors="replace") as f:
                found[os.path.relpath(full, files)] = f.read()
    return found


def binding_of(rel):
    parts = rel.split(os.sep)
    return parts[1] if parts[0] == "bindings" and len(parts) > 2 else parts[0]


def run_checks(root):
    """[(ok, label, detail)]: one line per binding with typed results, one saying how many were found."""
    with open(os.path.join(root, API), encoding="utf-8") as f:
        api = json.load(f)
    if DOCUMENT not in api.get("documents", {}):
        return [(False, "15. typed results follow jump_api.json", "jump_api.json has no document %s" % DOCUMENT)]
    added = json.loads(json.dumps(api))
    added["documents"][DOCUMENT]["keys"][NEW_KEY] = {"type": "int", "description": "a key added by the check",
                                                     "optional": True}
    retyped = json.loads(json.dumps(api))
    key, new_type = RETYPED
    retyped["documents"][DOCUMENT]["keys"][key]["type"] = new_type
    tmp = tempfile.mkdtemp(prefix="jump-generated-types-")
    try:
        intact = generate(root, api, os.path.join(tmp, "intact"))
        with_key = generate(root, added, os.path.join(tmp, "added"))
        with_type = generate(root, retyped, os.path.join(tmp, "retyped"))
    except AssertionError as e:
        return [(False, "15. typed results follow jump_api.json", str(e))]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    defines = re.compile(r"\b(class|interface|struct|record|type)\s+%s\b" % pascal(DOCUMENT))
    by_binding = {}
    for rel, text in sorted(intact.items()):
        if defines.search(text):
            by_binding.setdefault(binding_of(rel), []).append(rel)
    results = [(bool(by_binding), "15. typed results follow jump_api.json: %d bindings define %s (%s)"
                % (len(by_binding), pascal(DOCUMENT), ", ".join(sorted(by_binding)) or "none"),
                "" if by_binding else "no generated file defines %s" % pascal(DOCUMENT))]
    names = spellings(NEW_KEY)
    for binding, files in sorted(by_binding.items()):
        problems = []
        for rel in files:
            if with_key.get(rel) == intact[rel]:
                problems.append("%s: unchanged when %s gains the key %s" % (rel, DOCUMENT, NEW_KEY))
            elif not any(re.search(r"\b%s\b" % n, with_key.get(rel, "")) for n in names):
                problems.append("%s: names the new key %s in none of %s" % (rel, NEW_KEY, sorted(names)))
            if with_type.get(rel) == intact[rel]:
                problems.append("%s: unchanged when %s.%s becomes %s" % (rel, DOCUMENT, key, new_type))
        results.append((not problems, "15. %s: %s follows a new key and a retyped key of %s"
                        % (binding, ", ".join(files), DOCUMENT), "\n".join(problems)))
    return results


def self_test(root):
    """A copy whose Python backend leaves out each document's last key: the check must fail for python."""
    label = "15z. self-test: a backend that leaves out a document's new key is reported"
    tmp = tempfile.mkdtemp(prefix="jump-generated-types-selftest-")
    try:
        copy_checkout(root, tmp)  # the generator, its backends, jump_api.json and the generated files
        path = os.path.join(tmp, BACKENDS, "python.py")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        old = 'for key_name, key in doc["keys"].items():'
        if old not in text:
            return [(False, label, "the self-test's edit no longer applies: %r not in python.py" % old)]
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, 'for key_name, key in list(doc["keys"].items())[:-1]:'))
        failed = [lbl for ok, lbl, _ in run_checks(tmp) if not ok]
        ok = any(lbl.startswith("15. python:") for lbl in failed)
        return [(ok, label, "" if ok else "the check passed on the copy; failing: %s" % (failed or "none"))]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(here))
    sys.exit(print_results(run_checks(root) + self_test(root)))
