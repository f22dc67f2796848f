#!/usr/bin/env python3
"""A config key's default lives in ConfigKey alone: no literal fallback after a config read in the core (run by
check_abi.py; standard library only).

Sources/JumpCore/Config/ConfigKeys.swift gives each key its default (jump_api.json and jump.h say the same, check
7j), and JumpConfig's accessors return it: `config.defaulted(.captureLocale)` is "en-US" unless set. A read
followed by its own fallback, `config.string(.captureLocale) ?? "en-US"`, is a second default that nothing keeps
equal to the first (and a key whose documented default differs from what the code does). The check finds, in
every Swift file of Sources/JumpCore (comments left out), a JumpConfig accessor called with a config key of
jump_api.json (`.string(.key)`, `.int(.key)`, `.bool(.key)`, `.list(.key)`, `.value(.key)`, `.defaulted(.key)`),
optionally followed by member reads (`?.stringValue`), then `??` and a literal (a string, a number, true, false,
an array or nil), also after other fallbacks in a chain (`?? base?.base ?? ""`). A fallback that is not a
literal (a default computed from other settings, as captureRedirectUri's Capture base URL) is allowed.
self_test() shows it failing on each form.

Run alone: python3 Tests/abi/check_config_defaults.py
"""
import os
import re
import sys

import core_sources
from core_sources import CORE, config_keys
from results import print_results

LABEL = "14. no literal fallback after a config read in %s (defaults live in ConfigKey)" % CORE
ACCESSORS = ("string", "int", "bool", "list", "value", "defaulted")
LITERAL = r'(?:"|-?\d|true\b|false\b|nil\b|\[)'


def core_texts(root):
    """{path: Swift text without comments} of the core's files (string literals kept: they are what is found;
    a "//" after a colon, as in a URL, is not a comment)."""
    return core_sources.core_texts(root, comments=r"(?<!:)//[^\n]*|/\*.*?\*/")


def fallback_pattern(keys):
    read = r"\.(?:%s)\(\s*\.(%s)\s*\)" % ("|".join(ACCESSORS), "|".join(map(re.escape, keys)))
    members = r"(?:\??\.\w+)*"
    chain = r"(?:\s*\?\?\s*[\w.?]+(?:\([^()\n]*\))?)*"  # fallbacks that are not literals, before the literal one
    return re.compile(read + members + chain + r"\s*\?\?\s*" + LITERAL)


def problems(keys, texts):
    pattern = fallback_pattern(keys)
    found = []
    for path, text in sorted(texts.items()):
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append("%s:%d: %s: a literal fallback after reading %s; its default belongs in ConfigKey "
                         "(ConfigKeys.swift), read it with config.defaulted(.%s) or the accessor of its type"
                         % (path, line, m.group(0).strip(), m.group(1), m.group(1)))
    return found


def run_checks(root):
    keys, texts = config_keys(root), core_texts(root)
    found = problems(keys, texts)
    return [(not found, LABEL, "\n".join(found) if found else "%d Swift files, %d keys" % (len(texts), len(keys)))]


def self_test(root):
    """[(ok, label, detail)]: each form of a literal fallback is reported in a copy of the sources; the accessor
    and a computed fallback are not."""
    keys, texts = config_keys(root), core_texts(root)
    if problems(keys, texts):
        return [(False, "14z. self-test: literal config fallbacks", "cannot show it: the intact sources fail")]
    added = "Sources/JumpCore/Config/SelfTest.swift"
    cases = [
        ("a string fallback", 'locale = config.string(.captureLocale) ?? "en-US"\n', True),
        ("a number after a member read", "retries = config.value(.maxRetries)?.intValue ?? 2\n", True),
        ("a literal at the end of a chain", 'uri = config.string(.captureRedirectUri) ?? base?.base ?? ""\n', True),
        ("a boolean fallback", "thin = config.value(.captureEnableThinRegistration)?.boolValue ?? false\n", True),
        ("the accessor (not a fallback)", "locale = config.defaulted(.captureLocale)\n", False),
        ("a computed fallback", "uri = config.string(.captureRedirectUri) ?? base?.base\n", False),
    ]
    results = []
    for what, line, expected in cases:
        found = problems(keys, dict(texts, **{added: "func f() {\n    " + line + "}\n"}))
        shown = any(added in p for p in found) == expected
        verb = "is reported" if expected else "is not reported"
        results.append((shown, "14z. self-test: %s %s" % (what, verb), "" if shown else "reported: %s" % found))
    return results


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(print_results(run_checks(here) + self_test(here)))
