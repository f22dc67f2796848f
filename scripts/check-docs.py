#!/usr/bin/env python3
"""The README is the front door, and it stays true: README.md against the tree (standard library only).

  - README.md is at most 300 lines (what does not fit goes to docs/guide.md, docs/testing.md or
    benchmarks/README.md);
  - its "Make targets" table names every target of the Makefile's .PHONY lists ($(addprefix P,$(VAR)) and
    $(VAR) are expanded from the Makefile's own variables), and each target it names is one of them;
  - its "Bindings" table names every folder of bindings/ (as `bindings/<name>` in the first column), and each
    binding it names is there;
  - its "Layout" table names every top-level folder of the checkout (tracked by git, not hidden) in its first
    column, alone or through a path inside it; where it names folders inside a top-level folder (Sources/Jump,
    Tests/c), it names every folder there; each path it names is in the checkout;
  - every relative link of README.md ([text](path), [text](path#anchor), [text](#anchor)) leads to a file or
    folder of the checkout, and an anchor to a heading of the Markdown file it names (GitHub's anchors); the
    same for the links of the Markdown files README.md links to (docs/guide.md, docs/testing.md, ...).
Each table's first column holds the names in backticks (`make lib`, `test-c`, `Sources/CFiber`, `bindings/go`).
A self-test then breaks a copy of README.md in memory, once per check (a row taken out, a row that names nothing,
an overlong file, a dead link), and shows that check failing.

Prints a PASS line per check that holds and a FAIL line per problem, saying what to change, then
"N passed, N failed"; exits 1 on any failure. Run by `make test` (the "docs" suite of scripts/run-tests.sh).

  python3 scripts/check-docs.py [--root DIR] [--no-self-test]
"""

import argparse
import os
import re
import subprocess
import sys

MAX_LINES = 300
TABLES = {"make": "Make targets", "bindings": "Bindings", "layout": "Layout"}


# ---------------------------------------------------------------------------------------------------------
# Reading the tree, the Makefile and the README
# ---------------------------------------------------------------------------------------------------------


def tracked_paths(root):
    """The checkout's files, relative to root: git's tracked files that exist, or (outside a git checkout, a
    release tarball) every file on disk but build outputs."""
    try:
        p = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=False)
    except OSError:
        p = None
    if p is not None and p.returncode == 0:
        files = [f for f in p.stdout.decode("utf-8", "replace").split("\0") if f]
        return [f for f in files if os.path.lexists(os.path.join(root, f))]
    found = []
    for here, dirs, names in os.walk(root):
        rel = os.path.relpath(here, root)
        dirs[:] = [d for d in dirs if not (rel == "." and (d == "build" or d.startswith(".build")))]
        found += [os.path.normpath(os.path.join(rel, n)) for n in names]
    return found


class Tree:
    """What exists: the files, and the folders holding them."""

    def __init__(self, files):
        self.files = set(files)
        self.dirs = set()
        for f in self.files:
            parts = f.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                self.dirs.add("/".join(parts[:i]))

    def exists(self, path):
        path = path.rstrip("/")
        return path in self.files or path in self.dirs

    def subdirs(self, folder):
        """The folders directly inside folder ("" for the top), by name."""
        prefix = folder + "/" if folder else ""
        return sorted({d[len(prefix):] for d in self.dirs if d.startswith(prefix) and "/" not in d[len(prefix):]})


def makefile_variables(text):
    """NAME := words (also =, ?=, +=) of the Makefile, continuation lines joined; the first definition wins,
    += appends."""
    variables = {}
    for line in re.sub(r"\\\n", " ", text).splitlines():
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(:=|\?=|\+=|=)\s*(.*)$", line)
        if not m or line.startswith("\t"):
            continue
        name, op, value = m.groups()
        if op == "+=":
            variables[name] = (variables.get(name, "") + " " + value).strip()
        elif name not in variables:
            variables[name] = value.strip()
    return variables


def phony_targets(text):
    """(targets, problems): every name of the Makefile's .PHONY lines, $(addprefix ...) and $(VAR) expanded."""
    variables = makefile_variables(text)
    targets, problems = [], []

    def expand(word):
        m = re.fullmatch(r"\$\(addprefix\s+([^,]*),\s*\$\(([A-Za-z_][A-Za-z0-9_]*)\)\)", word)
        if m and m.group(2) in variables:
            return [m.group(1) + w for w in variables[m.group(2)].split()]
        m = re.fullmatch(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", word)
        if m and m.group(1) in variables:
            return variables[m.group(1)].split()
        if "$" in word:
            problems.append("Makefile: cannot read the .PHONY entry %s (this check expands $(VAR) and "
                            "$(addprefix P,$(VAR)) only)" % word)
            return []
        return [word]

    for line in re.sub(r"\\\n", " ", text).splitlines():
        m = re.match(r"^\.PHONY\s*:(.*)$", line)
        if m:
            for word in make_words(m.group(1)):
                targets += expand(word)
    return list(dict.fromkeys(targets)), problems


def make_words(text):
    """The blank-separated words of a make line, a $(...) (which may hold blanks) counting as one."""
    words, word, depth = [], "", 0
    for i, ch in enumerate(text):
        if ch == "(" and (depth or (i and text[i - 1] == "$")):
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        if ch.isspace() and not depth:
            if word:
                words.append(word)
            word = ""
        else:
            word += ch
    if word:
        words.append(word)
    return words


def outside_code(text):
    """The README's lines, with fenced code blocks blanked (their line numbers kept)."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            lines.append("")
        else:
            lines.append("" if fenced else line)
    return lines


def heading_text(line):
    m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
    return m.group(2) if m else None


def split_row(line):
    """The cells of a Markdown table row; a | inside backticks or escaped as \\| is not a separator."""
    cells, cell, code, i = [], "", False, 0
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            cell += "|"
            i += 2
            continue
        if ch == "`":
            code = not code
        if ch == "|" and not code:
            cells.append(cell.strip())
            cell = ""
        else:
            cell += ch
        i += 1
    if cell.strip():
        cells.append(cell.strip())
    return cells


def table_under(text, title):
    """[(line number, names in backticks of the first column)] of the first table under the heading `title`,
    or None when there is no such heading or no table under it."""
    lines = outside_code(text)
    start = None
    for i, line in enumerate(lines):
        h = heading_text(line)
        if h is not None and h.strip().lower() == title.lower():
            start = i + 1
            break
    if start is None:
        return None
    rows = []
    i = start
    while i < len(lines) and heading_text(lines[i]) is None and not lines[i].lstrip().startswith("|"):
        i += 1
    if i >= len(lines) or not lines[i].lstrip().startswith("|"):
        return None
    header = True
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        cells = split_row(lines[i])
        if header:
            header = False  # the header row
        elif cells and re.fullmatch(r":?-{3,}:?", cells[0].replace(" ", "")):
            pass  # the separator row
        elif cells:
            rows.append((i + 1, re.findall(r"`([^`]+)`", cells[0])))
        i += 1
    return rows


def github_anchor(heading):
    """GitHub's anchor for a heading: links, code marks and punctuation dropped, lower case, spaces to '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(text):
    """Every anchor of a Markdown text's headings (repeats get -1, -2, ... as on GitHub)."""
    seen, anchors = {}, set()
    for line in outside_code(text):
        h = heading_text(line)
        if h is None:
            continue
        base = github_anchor(h)
        n = seen.get(base, 0)
        seen[base] = n + 1
        anchors.add(base if n == 0 else "%s-%d" % (base, n))
    return anchors


LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")


def links_of(text):
    """[(line number, target)] of the Markdown links outside code (fenced blocks and `spans`)."""
    found = []
    for n, line in enumerate(outside_code(text), 1):
        line = re.sub(r"`[^`]*`", "", line)
        found += [(n, m.group(1)) for m in LINK.finditer(line)]
    return found


# ---------------------------------------------------------------------------------------------------------
# The checks: each returns (label, [problems]); no problem is a PASS.
# ---------------------------------------------------------------------------------------------------------


def check_length(readme):
    count = len(readme.splitlines())
    problems = []
    if count > MAX_LINES:
        problems.append("README.md has %d lines, more than %d: move the detail to docs/guide.md, docs/testing.md "
                        "or benchmarks/README.md and link it" % (count, MAX_LINES))
    return "README.md is at most %d lines (%d)" % (MAX_LINES, count), problems


def missing_table(title):
    return ["README.md has no table under a heading \"## %s\"" % title]


def check_make(readme, makefile):
    title = TABLES["make"]
    label = "README.md's %s table names every .PHONY target of the Makefile, and only those" % title
    phony, problems = phony_targets(makefile)
    rows = table_under(readme, title)
    if rows is None:
        return label, problems + missing_table(title)
    named = {}
    for line, names in rows:
        for name in names:
            name = re.sub(r"^make\s+", "", name.strip())
            named.setdefault(name, line)
    for target in phony:
        if target not in named:
            problems.append("make target `%s` (in the Makefile's .PHONY) is missing from README.md's %s table: add "
                            "it to a row" % (target, title))
    for name, line in sorted(named.items(), key=lambda kv: kv[1]):
        if name not in phony:
            problems.append("README.md:%d: the %s table names `make %s`, which is not a .PHONY target of the "
                            "Makefile: remove it or correct the name" % (line, title, name))
    return label, problems


def check_bindings(readme, tree):
    title = TABLES["bindings"]
    label = "README.md's %s table names every folder of bindings/, and only those" % title
    rows = table_under(readme, title)
    if rows is None:
        return label, missing_table(title)
    problems, named = [], {}
    for line, names in rows:
        for name in names:
            name = name.strip().rstrip("/")
            if re.fullmatch(r"bindings/[^/]+", name):
                named.setdefault(name[len("bindings/"):], line)
    if not named and rows:
        problems.append("README.md's %s table names no `bindings/<name>` in its first column" % title)
    for binding in tree.subdirs("bindings"):
        if binding not in named:
            problems.append("binding `bindings/%s` is missing from README.md's %s table: add a row for it"
                            % (binding, title))
    for binding, line in sorted(named.items(), key=lambda kv: kv[1]):
        if not tree.exists("bindings/" + binding):
            problems.append("README.md:%d: the %s table names `bindings/%s`, which is not in the checkout: remove "
                            "the row or correct the name" % (line, title, binding))
    return label, problems


def check_layout(readme, tree):
    title = TABLES["layout"]
    label = "README.md's %s table names every top-level folder (and every folder where it lists some), and " \
            "only paths that exist" % title
    rows = table_under(readme, title)
    if rows is None:
        return label, missing_table(title)
    problems, named = [], {}
    for line, names in rows:
        for name in names:
            name = name.strip().rstrip("/")
            if name:
                named.setdefault(name, line)
    for name, line in sorted(named.items(), key=lambda kv: kv[1]):
        if not tree.exists(name):
            problems.append("README.md:%d: the %s table names `%s`, which is not in the checkout (tracked by git): "
                            "remove the row or correct the path" % (line, title, name))
    for top in tree.subdirs(""):
        if top.startswith("."):
            continue
        inside = [n for n in named if n == top or n.startswith(top + "/")]
        if not inside:
            problems.append("top-level folder `%s/` is missing from README.md's %s table: add a row for it"
                            % (top, title))
            continue
        # Where the table goes into a folder's folders, it goes into all of them.
        if not any("/" in n and tree.exists(n) and n in tree.dirs for n in inside):
            continue
        for sub in tree.subdirs(top):
            path = top + "/" + sub
            if not any(n == path or n.startswith(path + "/") for n in inside):
                problems.append("folder `%s/` is missing from README.md's %s table, which lists other folders of "
                                "`%s/`: add a row for it" % (path, title, top))
    return label, problems


def relative_links(text, root, doc):
    """[(line, target, path relative to root, anchor)] of the relative links of doc (a path relative to root)."""
    found = []
    base = os.path.dirname(os.path.join(root, doc))
    for line, target in links_of(text):
        if not target or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target) or target.startswith("//"):
            continue  # http:, https:, mailto: ...: not this check's
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(base, path)) if path else os.path.join(root, doc)
        found.append((line, target, os.path.relpath(full, root), anchor))
    return found


def link_problems(text, root, doc, texts=None):
    """What is wrong with the relative links of doc, whose text is given; texts: {path: text} read instead of
    the files (the self-test's broken copies)."""
    texts = dict(texts or {})
    texts[doc] = text
    problems = []
    for line, target, rel, anchor in relative_links(text, root, doc):
        full = os.path.join(root, rel)
        if rel not in texts and not os.path.exists(full):
            problems.append("%s:%d: the link to `%s` leads nowhere (%s does not exist)" % (doc, line, target, rel))
            continue
        if anchor and rel.endswith(".md") and (rel in texts or os.path.isfile(full)):
            if rel not in texts:
                with open(full, encoding="utf-8") as f:
                    texts[rel] = f.read()
            if anchor not in anchors_of(texts[rel]):
                problems.append("%s:%d: the link to `%s`: %s has no heading with the anchor #%s"
                                % (doc, line, target, rel, anchor))
    return problems


def check_links(readme, root):
    label = "every relative link of README.md leads to a file of the checkout (and an anchor to a heading)"
    return label, link_problems(readme, root, "README.md")


def check_linked_docs(readme, root, texts=None):
    """The Markdown files README.md links to (docs/guide.md, docs/testing.md, ...): their links too, so that
    what moved out of the README keeps leading somewhere."""
    label = "every relative link of the Markdown files README.md links to leads somewhere"
    texts = texts or {}
    problems, done = [], set()
    for _, _, rel, _ in relative_links(readme, root, "README.md"):
        if rel in done or rel == "README.md" or not rel.endswith(".md"):
            continue
        done.add(rel)
        if rel in texts:
            text = texts[rel]
        elif os.path.isfile(os.path.join(root, rel)):
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                text = f.read()
        else:
            continue  # check_links reports it
        problems += link_problems(text, root, rel, texts)
    return label, problems


def run_checks(root, readme, makefile, tree, texts=None):
    return [check_length(readme), check_make(readme, makefile), check_bindings(readme, tree),
            check_layout(readme, tree), check_links(readme, root), check_linked_docs(readme, root, texts)]


# ---------------------------------------------------------------------------------------------------------
# Self-test: each check fails on a README broken on purpose
# ---------------------------------------------------------------------------------------------------------


def without_line(text, number):
    lines = text.split("\n")
    del lines[number - 1]
    return "\n".join(lines)


def with_row_after(text, number, row):
    lines = text.split("\n")
    lines.insert(number, row)
    return "\n".join(lines)


def self_test(root, readme, makefile, tree):
    """[(ok, label, detail)]: each check shown failing on a broken copy of README.md (nothing is written)."""
    cases = []  # (what was broken, broken README, index of the check that must fail, text its problem names)

    def add(what, broken, index, expect):
        cases.append((what, broken, index, expect))

    cases_skipped = []
    make_rows = table_under(readme, TABLES["make"]) or []
    if make_rows:
        line, names = make_rows[-1]
        add("the last row of the Make targets table taken out", without_line(readme, line), 1,
            re.sub(r"^make\s+", "", names[0]) if names else "")
        add("a Make targets row naming a target the Makefile lacks",
            with_row_after(readme, line, "| `make no-such-target` | nothing |"), 1, "no-such-target")
    else:
        cases_skipped.append("Make targets")
    binding_rows = table_under(readme, TABLES["bindings"]) or []
    if binding_rows:
        line, names = binding_rows[0]
        add("the first row of the Bindings table taken out", without_line(readme, line), 2,
            names[0] if names else "")
        add("a Bindings row naming a binding that is not there",
            with_row_after(readme, line, "| `bindings/cobol` | COBOL |"), 2, "bindings/cobol")
    else:
        cases_skipped.append("Bindings")
    layout_rows = table_under(readme, TABLES["layout"]) or []
    if layout_rows:
        # A row that alone covers a top-level folder, and a row that alone names a folder inside one.
        def covering(path):
            return [ln for ln, ns in layout_rows for n in ns
                    if n.rstrip("/") == path or n.rstrip("/").startswith(path + "/")]
        top_row = next((covering(t)[0] for t in tree.subdirs("") if not t.startswith(".")
                        and len(set(covering(t))) == 1), None)
        if top_row:
            name = next(n for ln, ns in layout_rows if ln == top_row for n in ns)
            add("the Layout row of a top-level folder taken out", without_line(readme, top_row), 3,
                name.rstrip("/").split("/")[0] + "/")
        sub_row = next((covering(t + "/" + s)[0] for t in tree.subdirs("") for s in tree.subdirs(t)
                        if len(set(covering(t + "/" + s))) == 1
                        and len(set(covering(t))) > 1
                        and all(len(ns) == 1 for ln, ns in layout_rows if ln == covering(t + "/" + s)[0])), None)
        if sub_row:
            name = next(n for ln, ns in layout_rows if ln == sub_row for n in ns)
            add("the Layout row of a folder inside a top-level folder taken out", without_line(readme, sub_row), 3,
                name.rstrip("/") + "/")
        add("a Layout row naming a path that is not there",
            with_row_after(readme, layout_rows[0][0], "| `Tests/no-such-suite` | nothing |"), 3,
            "Tests/no-such-suite")
    else:
        cases_skipped.append("Layout")
    add("README.md padded to %d lines" % (MAX_LINES + 1),
        readme.rstrip("\n") + "\n" * (MAX_LINES + 2 - len(readme.rstrip("\n").splitlines())), 0, "more than")
    add("a link to a file that is not there", readme + "\n[gone](docs/no-such-file.md)\n", 4, "no-such-file.md")
    add("a link to a heading that is not there", readme + "\n[gone](README.md#no-such-heading)\n", 4,
        "#no-such-heading")

    linked = sorted({rel for _, _, rel, _ in relative_links(readme, root, "README.md")
                     if rel.endswith(".md") and rel != "README.md" and os.path.isfile(os.path.join(root, rel))})
    texts = {}
    if linked:
        with open(os.path.join(root, linked[0]), encoding="utf-8") as f:
            texts[linked[0]] = f.read() + "\n[gone](no-such-neighbour.md)\n"
        cases.append(("a dead link in %s, which README.md links to" % linked[0], readme, 5, "no-such-neighbour.md"))

    results = []
    for what, broken, index, expect in cases:
        label, problems = run_checks(root, broken, makefile, tree, texts)[index]
        caught = [p for p in problems if expect and expect in p]
        results.append((bool(caught), "self-test: %s fails the check" % what,
                        caught[0] if caught else "no problem naming %r among %r" % (expect, problems)))
    for title in cases_skipped:
        results.append((False, "self-test: README.md has a %s table to break" % title, "no such table"))
    return results


# ---------------------------------------------------------------------------------------------------------


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the checkout (default: the one holding this script)")
    parser.add_argument("--no-self-test", action="store_true", help="the checks alone")
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    with open(os.path.join(root, "Makefile"), encoding="utf-8") as f:
        makefile = f.read()
    tree = Tree(tracked_paths(root))

    passed = failed = 0
    for label, problems in run_checks(root, readme, makefile, tree):
        if not problems:
            print("PASS " + label)
            passed += 1
        for problem in problems:
            print("FAIL " + problem)
            failed += 1
    if not args.no_self_test:
        for ok, label, detail in self_test(root, readme, makefile, tree):
            print(("PASS " if ok else "FAIL ") + label)
            if not ok:
                print("    " + detail)
            passed += ok
            failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
