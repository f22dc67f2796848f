"""The config keys' documentation (a backend of scripts/generate-bindings.py, which passes itself as `common`),
from jump_api.json's "config_keys" (which check 7j keeps equal to Sources/JumpCore/Config/ConfigKeys.swift):
  include/jump.h    the region between the BEGIN CONFIG KEYS and END CONFIG KEYS lines of jump_config's comment,
                    one entry per key as libcurl documents its options: name, type and allowed values, default,
                    meaning; and the regions between BEGIN FUNCTIONS and END FUNCTIONS lines, each function's
                    own entry (function_docs.py); the rest of jump.h is hand-written and kept as it is
  docs/config.md    the same keys as a table (README links to it)
A region edited by hand differs from what this writes, so Tests/abi/check_generated.py reports it like any
generated file; jump.h without both marker lines stops the generator."""

import json
import os
import textwrap
from typing import Any, Callable, Dict, List, Tuple

HEADER = "include/jump.h"
BEGIN = "BEGIN CONFIG KEYS, "  # + the generated-file line: fits the header's 100-column comment box
END = "END CONFIG KEYS"
WIDTH = 100  # the text between "/* " and " */" in jump.h's boxed comments


def literal(value: Any) -> str:
    return json.dumps(value)


def kind(key: Dict[str, Any]) -> str:
    """"string, one of "token", "code_and_token"", "int, 1..600000", "list of strings"."""
    text = {"string": "string", "bool": "boolean", "int": "integer", "object": "JSON object",
            "list": "list of strings"}[key["type"]]
    if "allowed_values" in key:
        text += ", one of " + ", ".join(literal(v) for v in key["allowed_values"])
    if "range" in key:
        text += ", %d..%d" % tuple(key["range"])
    return text


def default(key: Dict[str, Any]) -> str:
    return "unset" if key["default"] is None else literal(key["default"])


def facts(key: Dict[str, Any]) -> str:
    """"Type: integer, 1..600000. Default: 30000.": the words jump.h, C#'s ConfigKeys and Rust's config_keys give."""
    return "Type: %s. Default: %s." % (kind(key), default(key))


def sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def boxed(text: str) -> str:
    if "*/" in text or "/*" in text:
        raise SystemExit("jump.h config keys: a comment delimiter in %r" % text)
    if len(text) > WIDTH:
        raise SystemExit("jump.h config keys: a line longer than %d columns: %r" % (WIDTH, text))
    return "/* %s */" % text.ljust(WIDTH)


def header_region(api: Dict[str, Any], generated: str) -> List[str]:
    lines = [boxed(BEGIN + generated)]
    for key in api["config_keys"]:
        lines.append(boxed("  " + key["name"]))
        for part in (facts(key), sentence(key["meaning"])):
            for line in textwrap.wrap(part, WIDTH - 6, break_on_hyphens=False, break_long_words=False):
                lines.append(boxed("      " + line))
    lines.append(boxed(END))
    return lines


def header(common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        with open(os.path.join(common.ROOT, HEADER), encoding="utf-8") as f:
            lines = f.read().split("\n")
        starts = [i for i, l in enumerate(lines) if l.startswith("/* " + BEGIN)]
        ends = [i for i, l in enumerate(lines) if l.startswith("/* " + END)]
        if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
            raise SystemExit("%s: needs one '/* %s...' line and one '/* %s' line after it (the generated config "
                             "keys go between them)" % (HEADER, BEGIN, END))
        text = "\n".join(lines[:starts[0]] + header_region(api, common.GENERATED) + lines[ends[0] + 1:])
        return common.generator("function_docs").regions(api, text, common.c_param)
    return make


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(common: Any) -> Callable[[Dict[str, Any]], str]:
    def make(api: Dict[str, Any]) -> str:
        out = [
            "<!-- %s -->" % common.GENERATED,
            "# Config keys",
            "",
            "The keys of a `jump_config` (`jump_config_from_json`, `jump_config_set_string`, `_bool`, `_int`): an",
            "unknown key or a wrong type is an error naming the key. Setting a key to null (`NULL` in",
            "`jump_config_set_string`) restores its default. The same list is in `include/jump.h` (the `jump_config`",
            "comment) and in `include/jump_api.json`; [conventions.md](conventions.md#adding-a-config-key) says how",
            "to add one.",
            "",
            "| key | type | default | meaning |",
            "|---|---|---|---|",
        ]
        for key in api["config_keys"]:
            out.append("| `%s` | %s | %s | %s |" % (key["name"], cell(kind(key)),
                                                    cell("`%s`" % default(key) if key["default"] is not None
                                                         else "unset"), cell(sentence(key["meaning"]))))
        return "\n".join(out) + "\n"
    return make


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    return [(HEADER, header(common)), ("docs/config.md", markdown(common))]
