#!/usr/bin/env python3
"""Writes the jump(3) man page from include/jump.h, the one source of the conventions, the status codes and
the function list: the page is an overview (what the library is, how to build against it, its conventions,
its statuses, its configuration keys, its functions by handle) that points to the header for each function's
contract. The keys come from the header's generated config block (itself made from include/jump_api.json).
Each function is listed with its summary, the statuses it may return and when (its "statuses"), and what it
may wait for (its "may_wait"), read from jump_api.json beside the header (the same data jump.h's generated
function entries are made of); without that file the page lists the functions' names only.

Usage: make-man.py include/jump.h OUT    (standard library only)
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any, Dict, List, Optional, Tuple


def roff(text: str) -> str:
    """Plain text as roff: backslashes doubled, a leading dot or quote kept literal, dashes as hyphens."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text.startswith((".", "'")) else text


def conventions(header: str) -> List[str]:
    """The bullets of the header's "Conventions" comment, one string each."""
    block = re.search(r"Conventions \(.*?\):\n(.*?)\n \*/", header, re.S)
    if block is None:
        raise SystemExit("include/jump.h: no Conventions block")
    bullets: List[str] = []
    for line in block.group(1).splitlines():
        text = line.lstrip(" *").rstrip()
        if line.lstrip().startswith("*  - "):
            bullets.append(text[2:] if text.startswith("- ") else text)
        elif bullets and text:
            bullets[-1] += " " + text
    return bullets


def statuses(header: str) -> List[Tuple[str, str, str]]:
    enum = re.search(r"typedef enum jump_status \{(.*?)\} jump_status;", header, re.S)
    if enum is None:
        raise SystemExit("include/jump.h: no jump_status enum")
    found = []
    for line in enum.group(1).splitlines():
        match = re.match(r"\s*(JUMP_\w+)\s*=\s*(-?\d+),?\s*(?:/\*\s*(.*?)\s*\*/)?", line)
        if match:
            found.append((match.group(1), match.group(2), match.group(3) or "success"))
    return found


def config_keys(header: str) -> List[Tuple[str, str, str]]:
    """(name, "Type: ... Default: ...", meaning) of each key in the header's generated config block."""
    block = re.search(r"/\* BEGIN CONFIG KEYS[^\n]*\n(.*?)\n/\* END CONFIG KEYS", header, re.S)
    if block is None:
        raise SystemExit("include/jump.h: no BEGIN/END CONFIG KEYS block")
    keys: List[List[str]] = []
    for line in block.group(1).splitlines():
        text = line[2:-2] if line.startswith("/*") and line.endswith("*/") else line
        if re.match(r"^   \S", text):
            keys.append([text.strip(), "", ""])
        elif keys and text.strip():
            if not keys[-1][1] and text.strip().startswith("Type:"):
                keys[-1][1] = text.strip()
            else:
                keys[-1][2] = (keys[-1][2] + " " + text.strip()).strip()
    return [(name, kind, meaning) for name, kind, meaning in keys]


def sections(header: str) -> List[Tuple[str, List[str]]]:
    """(section title, function names) in header order; a title is the first line of a banner comment."""
    result: List[Tuple[str, List[str]]] = []
    lines = header.splitlines()
    for i, line in enumerate(lines):
        below = lines[i + 1] if i + 1 < len(lines) else ""
        if re.match(r"/\* -{20,}", line) and below.startswith("/* ") and not re.match(r"/\* -{20,}", below):
            title = lines[i + 1].strip("/* ").rstrip()
            title = title.split(". ")[0].split(" Keys (")[0].rstrip(":.")
            result.append((title, []))
        function = re.match(r"^(?:[A-Za-z_][\w ]*?[\s*]+)(jump_\w+)\(", line)
        if function and result and not line.startswith(("#", " ", "typedef")):
            result[-1][1].append(function.group(1))
    return [(title, names) for title, names in result if names]


def function_items(f: Dict[str, Any]) -> List[str]:
    """A function's .TP item: its summary, what it returns and when, what it may wait for."""
    out = [".TP", ".B " + f["name"], roff(f["summary"])]
    found = f.get("statuses") or []
    if isinstance(found, dict):
        found = [{"status": k, "when": v} for k, v in found.items()]
    if found:
        out += [".br", "Returns:"]
        for s in found:
            out += [".br", "\\ \\ " + roff("%s: %s" % (s["status"], s["when"].rstrip(".") + "."))]
    if f.get("async_of"):
        out += [".br", roff("The outcome of %s comes to the callback, on the jump-events thread (or the host's "
                            "dispatcher or event queue)." % f["async_of"])]
    if "may_wait" in f:
        wait = f["may_wait"]
        out += [".br", roff("May wait for: " + ("nothing" + wait[len("never"):] if wait.startswith("never") else wait)
                            + ("" if wait.endswith(".") else "."))]
    return out


def page(header: str, api: Optional[Dict[str, Any]] = None) -> str:
    version = re.search(r'#define JUMP_VERSION "([^"]+)"', header)
    if version is None:
        raise SystemExit("include/jump.h: no JUMP_VERSION")
    out = [
        '.TH JUMP 3 "" "libjump %s" "libjump manual"' % version.group(1),
        ".SH NAME",
        "jump \\- the JUMP sign\\-in and user\\-record SDK core (C API)",
        ".SH SYNOPSIS",
        ".nf",
        ".B #include <jump.h>",
        ".PP",
        "cc app.c $(pkg\\-config \\-\\-cflags \\-\\-libs jump)",
        ".fi",
        ".SH DESCRIPTION",
        "libjump signs users in (Janrain Capture traditional and social sign\\-in, Engage browser sign\\-in, "
        "backend\\-issued sign\\-in tokens) and keeps their profile record, synced minimally and persisted "
        "securely. It is a C ABI over a Swift core; the shared library carries its own runtime.",
        ".PP",
        "This page is an overview. The contract of each function (arguments, ownership, statuses, the JSON "
        "it takes and gives) is written next to its declaration in",
        ".IR jump.h ,",
        "installed with the library.",
        ".SH CONVENTIONS",
    ]
    for bullet in conventions(header):
        out += [".IP \\(bu 2", roff(bullet)]
    out += [".SH STATUS CODES", "Every fallible function returns one of these; they are never renumbered."]
    for name, value, meaning in statuses(header):
        out += [".TP", ".BR %s \" (%s)\"" % (name, value.replace("-", "\\-")), roff(meaning)]
    out += [".SH CONFIGURATION KEYS",
            "The keys of a jump_config (JSON names; an unknown key or a wrong type is an error), as jump.h lists "
            "them:"]
    for name, kind, meaning in config_keys(header):
        out += [".TP", ".B " + name, roff(kind), ".br", roff(meaning)]
    out += [".SH FUNCTIONS"]
    functions = {f["name"]: f for f in (api or {}).get("functions", [])}
    for title, names in sections(header):
        if functions:
            out += [".SS " + roff(title), ".ad l"]
            for name in names:
                out += function_items(functions[name]) if name in functions else [".TP", ".B " + name]
        else:
            out += [".SS " + roff(title), ".nf"] + [".B " + name for name in names] + [".fi"]
    out += [
        ".SH FILES",
        ".TP",
        ".I jump.h",
        "the header, with the reference for every function",
        ".TP",
        ".I libjump.so.1",
        "the library (soname); its debug information is in a separate file found through .gnu_debuglink",
        ".TP",
        ".I jump.pc",
        "pkg\\-config metadata",
        ".TP",
        ".B jump\\-emulator",
        "a local server speaking the same protocol, with an admin API and a dashboard at /emulator",
        ".SH SEE ALSO",
        ".BR pkg\\-config (1),",
        ".BR jansson (3)",
        "",
    ]
    return "\n".join(out)


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    api = None
    described = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "jump_api.json")
    if os.path.exists(described):
        with open(described, encoding="utf-8") as f:
            api = json.load(f)
    with open(sys.argv[1], encoding="utf-8") as source:
        text = page(source.read(), api)
    with open(sys.argv[2], "w", encoding="utf-8") as target:
        target.write(text)


if __name__ == "__main__":
    main()
