#!/usr/bin/env python3
"""Repository hygiene (run by check_abi.py and scripts/run-tests.sh; standard library only).

  - no tracked file is larger than 1 MiB outside the test fixtures (FIXTURES below): a checkout stays small,
    and a build product or a crash dump committed by mistake is caught before it is merged;
  - a test run leaves the tree as it found it: scripts/run-tests.sh takes a snapshot of `git status` before the
    suites and compares it after them; a file a suite created (untracked and not ignored) or changed is
    reported by name. Outputs belong under build/ (ignored).
self_test() shows each check failing on a scratch git repository broken on purpose.

Run alone:
  python3 Tests/abi/check_hygiene.py                   the checks and their self-tests
  python3 Tests/abi/check_hygiene.py snapshot FILE     write the tree's state to FILE (before a test run)
  python3 Tests/abi/check_hygiene.py compare FILE      the "hygiene" summary after it: "1 passed, 0 failed" or
                                                       "0 passed, 1 failed" with the files the run left behind
Outside a git checkout (a release tarball) there is nothing to compare: both say so and pass.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from results import print_results

LIMIT = 1024 * 1024
# What counts as a test fixture: data a test reads as it is: the fuzzers' recorded server answers, and any
# folder named "fixtures" (bindings/node/test/fixtures/, ...). Only these may exceed LIMIT; anything else
# that large is a mistake.
FIXTURES = ("Tests/fuzz/answers/", "fixtures/")


def is_fixture(rel):
    return rel.startswith(FIXTURES[0]) or ("/" + FIXTURES[1]) in ("/" + rel)


def git(root, *args):
    p = subprocess.run(["git", "-C", root] + list(args), capture_output=True)
    return p.returncode, p.stdout


def in_checkout(root):
    rc, out = git(root, "rev-parse", "--is-inside-work-tree")
    return rc == 0 and out.strip() == b"true"


def large_files(root):
    """[(path, size)] of the tracked files over LIMIT outside FIXTURES."""
    _, out = git(root, "ls-files", "-z")
    big = []
    for rel in out.decode("utf-8", "replace").split("\0"):
        if not rel or is_fixture(rel):
            continue
        path = os.path.join(root, rel)
        if os.path.isfile(path) and not os.path.islink(path) and os.path.getsize(path) > LIMIT:
            big.append((rel, os.path.getsize(path)))
    return big


def check_large_files(root):
    label = "10. no tracked file over 1 MiB outside the test fixtures (%s, any */fixtures/)" % FIXTURES[0]
    if not in_checkout(root):
        return [(True, label, "not a git checkout: nothing to list")]
    big = large_files(root)
    return [(not big, label, "\n".join("%s: %d bytes" % b for b in big))]


def tree_state(root):
    """{path: digest} of what `git status --porcelain` lists (changed, added, untracked and not ignored):
    the digest tells a file changed by the run from one that was already changed before it."""
    _, out = git(root, "status", "--porcelain", "-z", "--untracked-files=all")
    state = {}
    entries = out.decode("utf-8", "replace").split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        code, rel = entry[:2], entry[3:]
        if code[0] in "RC":
            i += 1  # a rename's second field is the old path
        path = os.path.join(root, rel)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                state[rel] = code + " " + hashlib.sha256(f.read()).hexdigest()
        else:
            state[rel] = code + " " + ("(directory)" if os.path.isdir(path) else "(gone)")
    return state


def left_behind(before, after):
    """The paths whose state the run changed: new in `git status`, changed again, or back to clean."""
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def self_test(root):
    """[(ok, label, detail)]: on a scratch repository, a 1 MiB + 1 file outside the fixtures fails the size
    check (and the same file under a fixture folder does not), and a run that adds an untracked file or edits
    a tracked one is reported while an ignored output is not."""
    results = []
    tmp = tempfile.mkdtemp(prefix="jump-hygiene-selftest-")
    try:
        if git(tmp, "init", "-q")[0] != 0:
            return [(False, "10z. self-test: a scratch git repository", "git init failed")]
        ident = ["-c", "user.name=self-test", "-c", "user.email=self-test@localhost"]
        for rel, size in (("big.bin", LIMIT + 1), (FIXTURES[0] + "big.http", LIMIT + 1),
                          ("test/fixtures/big.json", LIMIT + 1), ("kept.txt", 3)):
            os.makedirs(os.path.dirname(os.path.join(tmp, rel)) or tmp, exist_ok=True)
            with open(os.path.join(tmp, rel), "wb") as f:
                f.write(b"x" * size)
        with open(os.path.join(tmp, ".gitignore"), "w") as f:
            f.write("build/\n")
        git(tmp, "add", "-A")
        git(tmp, *ident, "commit", "-q", "-m", "scratch")
        big = [p for p, _ in large_files(tmp)]
        shown = big == ["big.bin"]
        results.append((shown, "10z. self-test: a 1 MiB + 1 file is reported, the same under %s or "
                        "test/fixtures/ is not" % FIXTURES[0], "" if shown else "reported: %s" % big))

        before = tree_state(tmp)
        os.makedirs(os.path.join(tmp, "build"))
        for rel, text in (("build/out.log", "ignored"), ("stray.log", "left"), ("kept.txt", "edited")):
            with open(os.path.join(tmp, rel), "w") as f:
                f.write(text)
        dirty = left_behind(before, tree_state(tmp))
        shown = dirty == ["kept.txt", "stray.log"]
        results.append((shown, "10z. self-test: a run that leaves an untracked file and edits a tracked one "
                        "is reported, an ignored output is not", "" if shown else "reported: %s" % dirty))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return results


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if len(argv) == 3 and argv[1] == "snapshot":
        with open(argv[2], "w") as f:
            json.dump(tree_state(root) if in_checkout(root) else None, f)
        return 0
    if len(argv) == 3 and argv[1] == "compare":
        label = "the test run leaves the tree as it found it (git status)"
        with open(argv[2]) as f:
            before = json.load(f)
        if before is None or not in_checkout(root):
            return print_results([(True, label, "not a git checkout: nothing to compare")])
        dirty = left_behind(before, tree_state(root))
        detail = ("left behind (put outputs under build/, or ignore them in .gitignore):\n" +
                  "\n".join(dirty)) if dirty else ""
        return print_results([(not dirty, label, detail)])
    if len(argv) != 1:
        print(__doc__)
        return 2
    return print_results(check_large_files(root) + self_test(root))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
