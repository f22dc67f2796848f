#!/usr/bin/env python3
"""Every config key of include/jump_api.json is read by the core (run by check_abi.py; standard library only).

A key that is accepted, validated and documented but read by nothing is a setting that silently does nothing.
"Read", precisely: the key's ConfigKey case is passed as an argument or a subscript (`(.key`, `, .key`,
`[.key`: config.string(.key), config.value(.key), values[.key]) or named as `ConfigKey.key` (not only for its
`.rawValue`, which is the key's name in a message), in a Swift file of Sources/JumpCore other than
Config/ConfigKeys.swift, which declares the cases with their types, defaults and allowed values; comments and
string literals are left out. The effective-config dump (JumpConfig.json) iterates allCases and names no key,
so it counts for none.

A key nothing reads yet is listed in KNOWN_UNREAD below with why, in this one place; the check fails on a key
neither read nor listed, on a listed key that is read (remove it from the list) and on a listed key that is no
config key. self_test() shows each failing.

Run alone: python3 Tests/abi/check_config_reads.py
"""
import os
import re
import sys

import core_sources
from core_sources import CORE, config_keys
from results import print_results

DECLARATIONS = "Sources/JumpCore/Config/ConfigKeys.swift"
LABEL = "13. every config key of include/jump_api.json is read in %s (ConfigKeys.swift aside)" % CORE

# Keys nothing reads yet: key -> why. Remove the entry when the key is read (the check then says so).
KNOWN_UNREAD = {}


def core_texts(root):
    """{path: Swift text without comments and string literals} of the core's files but ConfigKeys.swift."""
    return core_sources.core_texts(root, skip=(DECLARATIONS,), strings=True)


def readers(key, texts):
    pattern = re.compile(r"[(,\[]\s*\.%s\b|\bConfigKey\.%s\b(?!\.rawValue)" % (key, key))
    return sorted(path for path, text in texts.items() if pattern.search(text))


def problems(keys, texts, known):
    found = []
    for key in keys:
        read = readers(key, texts)
        if not read and key not in known:
            found.append("%s: nothing reads it (read it, or list it in KNOWN_UNREAD with why)" % key)
        elif read and key in known:
            found.append("%s: listed in KNOWN_UNREAD but read in %s (remove it from the list)" % (key, ", ".join(read)))
    for key in sorted(set(known) - set(keys)):
        found.append("%s: listed in KNOWN_UNREAD but not a config key of jump_api.json" % key)
    return found


def run_checks(root):
    keys = config_keys(root)
    found = problems(keys, core_texts(root), KNOWN_UNREAD)
    unread = ", ".join("%s (%s)" % kv for kv in sorted(KNOWN_UNREAD.items())) or "none"
    return [(not found, LABEL, "\n".join(found) if found else "%d keys; known unread: %s" % (len(keys), unread))]


def self_test(root):
    """[(ok, label, detail)]: a key whose reads are removed, a listed key that gets read, and a listed key that is
    no config key are each reported."""
    keys, texts = config_keys(root), core_texts(root)
    if problems(keys, texts, KNOWN_UNREAD):
        return [(False, "13z. self-test: config key reads", "cannot show it: the intact sources fail")]
    no_locale = {p: re.sub(r"\.captureLocale\b", ".removedRead", t) for p, t in texts.items()}
    cases = [
        ("a key nobody reads (captureLocale, its reads removed)", keys, no_locale, KNOWN_UNREAD,
         "captureLocale: nothing reads it"),
        ("a listed key that is read (captureLocale)", keys, texts, dict(KNOWN_UNREAD, captureLocale="test"),
         "captureLocale: listed in KNOWN_UNREAD but read in"),
        ("a listed key that is no config key", keys, texts, dict(KNOWN_UNREAD, noSuchKey="test"),
         "noSuchKey: listed in KNOWN_UNREAD but not a config key"),
    ]
    results = []
    for what, k, t, known, expect in cases:
        found = problems(k, t, known)
        shown = any(expect in p for p in found)
        results.append((shown, "13z. self-test: %s is reported" % what, "" if shown else "reported: %s" % found))
    return results


if __name__ == "__main__":
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.exit(print_results(run_checks(here) + self_test(here)))
