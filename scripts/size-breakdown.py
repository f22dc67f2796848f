#!/usr/bin/env python3
"""size-breakdown.py - what each library and each of our modules adds to libjump.so, from the linker's map.

Usage: size-breakdown.py [MAP]   (default build/gen/libjump.map, written by every `make lib`)

The map lists every input section the linker kept, with its size and the archive or object it came from;
sections the linker made itself (relocations, symbol and hash tables, PLT) are counted under "linker".
Only sections that are loaded are counted (no .debug_*, .comment or .symtab: `strip` removes those), so the
total is close to the stripped file's size. Prints a Markdown table, largest first.
"""
import collections
import os
import re
import sys

# Where an input file comes from, by path: the first pattern that matches names its group.
GROUPS = [
    (r"/swift_static/linux/libswiftCore\.a", "Swift runtime: libswiftCore (stdlib)"),
    (r"/swift_static/linux/libswift_RegexParser\.a|libswift_StringProcessing\.a", "Swift runtime: regex / string processing"),
    (r"/swift_static/linux/libswiftSynchronization\.a", "Swift runtime: Synchronization"),
    (r"/swift_static/linux/libswiftDispatch\.a|/libdispatch\.a|/libBlocksRuntime\.a", "Swift runtime: Dispatch"),
    (r"/swift_static/linux/libFoundationEssentials\.a", "FoundationEssentials"),
    (r"/swift_static/linux/lib_Foundation", "Foundation (collections, C shims)"),
    (r"/swift_static/linux/libswift_Concurrency\.a", "Swift runtime: Concurrency"),
    (r"/swift_static/linux/", "Swift runtime: other"),
    (r"/CCryptoBoringSSL\w*\.build/|/CCryptoBoringSSL", "swift-crypto: BoringSSL"),
    (r"/Crypto\w*\.build/", "swift-crypto: Swift"),
    (r"/JumpCore\.build/", "libjump: JumpCore"),
    (r"/Jump\.build/", "libjump: Jump (C ABI)"),
    (r"/(crt\w*\.o|libc_nonshared\.a|libgcc\w*\.a|libstdc\+\+\w*\.a|libatomic\w*\.a)", "C/C++ runtime (crt, libgcc, libstdc++)"),
]
# What the linker made itself, by the map's "** <kind>" name.
LINKER_PARTS = {
    "fill": "alignment padding",
    "eh_frame": "unwind tables (.eh_frame of every module)",
    "eh_frame_hdr": "unwind tables (.eh_frame of every module)",
    "merge": "merged strings and constants (every module)",
    "dynamic": "dynamic relocations (.rela.*)",
}
UNCOUNTED = re.compile(r"^\.(debug|comment|note\.GNU-stack|symtab|strtab|shstrtab|gnu_debuglink)")


def group_of(path):
    for pattern, name in GROUPS:
        if re.search(pattern, path):
            return name
    return "other: " + os.path.basename(path.split("(")[0])


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "build/gen/libjump.map"
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    except OSError as error:
        sys.exit(f"size-breakdown.py: {error} (make lib writes the map)")
    try:
        start = lines.index("Memory map")
    except ValueError:
        sys.exit(f"size-breakdown.py: {path} has no 'Memory map'")
    sizes = collections.Counter()
    output_section = ""
    pending = None  # an input section whose name filled its line; address, size and file follow
    entry = re.compile(r"^\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S.*)$")
    for line in lines[start + 1:]:
        if line.startswith(".") or (line and not line[0].isspace() and not line.startswith("*")):
            output_section = line.split()[0] if line.split() else ""
            pending = None
            continue
        if UNCOUNTED.match(output_section) or not output_section:
            continue
        stripped = line.strip()
        if stripped.startswith("** "):  # made by the linker: padding, unwind tables, relocations, symbol tables
            kind = re.sub(r"\s+0x.*$", "", stripped[3:])
            pending = "linker: " + LINKER_PARTS.get(kind.split()[0], "symbol, hash and version tables, PLT, GOT")
            fields = stripped.split()
            if len(fields) >= 3 and fields[-1].startswith("0x") and fields[-2].startswith("0x"):
                sizes[pending] += int(fields[-1], 16)
                pending = None
            continue
        if pending and pending.startswith("linker: "):
            fields = stripped.split()
            if len(fields) == 2 and fields[1].startswith("0x"):
                sizes[pending] += int(fields[1], 16)
            pending = None
            continue
        if stripped.startswith("."):
            fields = stripped.split()
            if len(fields) >= 4 and fields[2].startswith("0x"):
                sizes[group_of(" ".join(fields[3:]))] += int(fields[2], 16)
            else:
                pending = "input"
            continue
        if pending == "input":
            match = entry.match(line)
            if match:
                sizes[group_of(match.group(2))] += int(match.group(1), 16)
            pending = None
    merged = sizes
    total = sum(merged.values())
    print(f"| part of libjump.so (from {os.path.basename(path)}) | KiB | share |")
    print("|---|---:|---:|")
    for name, size in merged.most_common():
        if size * 1000 < total:  # under 0.1%: folded into the total only
            continue
        print(f"| {name} | {size / 1024:,.0f} | {100 * size / total:.1f}% |")
    print(f"| **total (loaded sections)** | **{total / 1024:,.0f}** | 100% |")


if __name__ == "__main__":
    main()
