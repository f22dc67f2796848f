#!/usr/bin/env python3
"""ABI check of libjump: include/jump.h against build/lib/libjump.so and build/gen/jump-swift.h.

Run from anywhere: python3 Tests/abi/check_abi.py   (standard library only)

Checks, one line each (the signature check has one line per function):
  1. the jump_* functions declared in include/jump.h are exactly the defined dynamic symbols of the .so,
     every exported symbol starts with jump_ and carries the version node JUMP_<abi>;
  2. each declaration's C signature agrees with the compiler-generated header (build/gen/jump-swift.h)
     after normalisation (nullability, const placement, handle types == void *, jump_status == int ==
     int32_t, NSUInteger == size_t, callback and storage typedefs expanded, parameter names ignored);
  3. the .so needs no Swift symbol from elsewhere ($s..., swift_...);
  4. NEEDED holds only libc/libm/libgcc_s/ld-linux/libcurl/libjansson (libstdc++ is linked in), plus libraries libcurl
     itself loads (libcrypto for the refresh HMAC and base64; no Swift runtime, no Foundation, no
     libdispatch), the soname is libjump.so.<abi>, and ldd resolves everything;
  5. include/jump.h compiles cleanly as C99 and as C++, alone and with <jansson.h> before or after it;
  6. the library is marked non-unloadable (DF_1_NODELETE), as the header promises;
  7. include/jump_api.json (the API as data) agrees with jump.h, the exports, the Swift sources and the
     copies that are still written by hand, and a self-test shows each of those checks failing on
     deliberately broken copies (check_api.py says what is compared with what);
  8. the bindings' generated files (scripts/generate-bindings.py: ctypes SIGNATURES, the C tests' loader
     list, C#'s P/Invokes, the status tables, the config-key constants of Go, Java, Rust and C#) are what
     the generator writes from jump_api.json now, shown failing on an edited copy (check_generated.py);
  9. each binding (Python, C#, Node.js) reaches every function of jump_api.json but those its
     coverage-exceptions.json lists with a reason (check_coverage.py);
 10. no tracked file over 1 MiB outside the test fixtures (check_hygiene.py, which also tells
     scripts/run-tests.sh whether a test run left the tree dirty);
 11. the library's own C sources (fibers, Secret Service, the shims) name no internal jump_: jumpi_
     (check_internal_prefix.py; the exported side is check 1);
 12. the Node.js addon's C files call downward only: arguments < bridge < work < entry (check_layers.py);
 13. every config key of jump_api.json is read in Sources/JumpCore, but those check_config_reads.py's
     KNOWN_UNREAD lists with why (check_config_reads.py);
 14. no literal fallback after a config read in Sources/JumpCore: a key's default lives in ConfigKey alone
     (check_config_defaults.py);
 15. every binding's generated typed results follow jump_api.json's "documents": a key added to a document and
     a key retyped change each file that defines the document's type (check_generated_types.py).
Ends with "N passed, N failed"; exits 1 on any failure.

Adding a function: declare and document it in include/jump.h (in its handle's section) and export it from
Swift (@_cdecl); add it to include/jump_api.json's "functions" (copy a neighbour: types spelled as in jump.h,
ownership from the file's "ownership" legend) and run `make generate`. Then run this: each FAIL line names
what is missing or differs (9. lists the function for each binding that does not call it yet: bind it there,
or add it to that binding's coverage-exceptions.json with the reason).
The C parser is cdecl.py, shared with check_api.py.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The C declaration parser lives in cdecl.py, shared with check_api.py (the include/jump_api.json checks).
from cdecl import (ParseError, normalise, parse_declaration, read_header, render,  # noqa: E402
                   strip_comments, strip_preprocessor)
import check_api  # noqa: E402
import check_config_defaults  # noqa: E402
import check_config_reads  # noqa: E402
import check_coverage  # noqa: E402
import check_generated  # noqa: E402
import check_generated_types  # noqa: E402
import check_hygiene  # noqa: E402
import check_internal_prefix  # noqa: E402
import check_layers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = os.path.join(ROOT, "include", "jump.h")
LIBRARY = os.environ.get("JUMP_LIBRARY_PATH") or os.path.join(ROOT, "build", "lib", "libjump.so")
GEN_HEADER = os.path.join(ROOT, "build", "gen", "jump-swift.h")

results = []  # (ok, line)


def report(ok, name, detail=""):
    line = ("PASS " if ok else "FAIL ") + name
    if detail:
        line += ": " + detail if ok else "\n" + "\n".join("    " + d for d in detail.splitlines())
    print(line, flush=True)
    results.append(ok)


def run(cmd, **kw):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, **kw)
        return p.returncode, p.stdout, p.stderr
    except FileNotFoundError as e:
        return 127, "", str(e)


def read_jump_header():
    """Returns ({name: (type, text)}, typedefs, problems) for include/jump.h."""
    return read_header(HEADER)


def read_gen_header():
    text = open(GEN_HEADER, encoding="utf-8", errors="replace").read()
    text = strip_preprocessor(strip_comments(text))
    functions, problems = {}, []
    for m in re.finditer(r"SWIFT_EXTERN\b(.*?);", text, flags=re.S):
        decl = " ".join(m.group(1).split())
        if not re.search(r"\bjump_\w+\s*\(", decl):
            continue
        try:
            typ, name = parse_declaration(decl)
        except ParseError as e:
            problems.append("cannot parse %r: %s" % (decl, e))
            continue
        if typ[0] != "func" or not name:
            continue
        if name in functions and functions[name][0] != typ:
            problems.append("%s is declared twice, differently" % name)
        functions[name] = (typ, decl)
    return functions, problems


# ---------------------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------------------

def dynamic_symbols(defined):
    flag = "--defined-only" if defined else "--undefined-only"
    rc, out, err = run(["nm", "-D", flag, LIBRARY])
    if rc != 0:
        raise RuntimeError("nm -D %s failed: %s" % (flag, err.strip()))
    symbols = []
    for line in out.splitlines():
        parts = line.split()
        if not parts:
            continue
        if defined and len(parts) >= 3:
            kind, full = parts[-2], parts[-1]
        elif not defined:
            kind, full = parts[-2] if len(parts) >= 2 else "U", parts[-1]
        else:
            continue
        name, _, version = full.partition("@")
        version = version.lstrip("@")
        symbols.append((name, version, kind, full))
    return symbols


def check_exports(header_functions):
    name = "1. exported symbols == functions declared in include/jump.h"
    try:
        symbols = dynamic_symbols(True)
    except RuntimeError as e:
        report(False, name, str(e))
        return
    abi = read_abi_version()
    node = "JUMP_%s" % abi
    exported, problems, others, local = {}, [], [], 0
    for sym, version, kind, full in symbols:
        if kind == "A" and re.match(r"[A-Z][A-Z0-9_]*$", sym) and not version:
            continue  # a version node (e.g. JUMP_1) listed as an absolute symbol
        if kind in ("b", "d", "r", "t", "n", "s", "g"):
            local += 1  # LOCAL binding in .dynsym (localised by the version script): not exported
            continue
        if not sym.startswith("jump_"):
            others.append(full)
            continue
        exported[sym] = (version, kind)
    declared = set(header_functions)
    missing = sorted(declared - set(exported))
    extra = sorted(set(exported) - declared)
    for m in missing:
        problems.append("declared in jump.h but not exported: %s" % m)
    for x in extra:
        problems.append("exported but not declared in jump.h: %s" % x)
    for o in others[:40]:
        problems.append("exported symbol without the jump_ prefix: %s" % o)
    if len(others) > 40:
        problems.append("... and %d more symbols without the jump_ prefix" % (len(others) - 40))
    report(not problems, name, "\n".join(problems) if problems else
           "%d functions (%d local-binding entries in .dynsym ignored)" % (len(declared), local))

    bad_version = sorted("%s@%s" % (s, v[0] or "(none)") for s, v in exported.items() if v[0] != node)
    not_code = sorted("%s (%s)" % (s, v[1]) for s, v in exported.items() if v[1] not in ("T", "t", "W", "i"))
    problems = ["not versioned %s: %s" % (node, b) for b in bad_version] + \
               ["not a function symbol: %s" % n for n in not_code]
    report(not problems, "1b. every jump_ export is a function with the default version %s" % node,
           "\n".join(problems))


def read_abi_version():
    m = re.search(r"#define\s+JUMP_ABI_VERSION\s+(\d+)", open(HEADER, encoding="utf-8").read())
    return m.group(1) if m else "1"


def check_signatures(header_functions, typedefs):
    if not os.path.exists(GEN_HEADER):
        report(False, "2. signatures agree with build/gen/jump-swift.h", "%s does not exist" % GEN_HEADER)
        return
    gen, problems = read_gen_header()
    for p in problems:
        report(False, "2. parsing build/gen/jump-swift.h", p)
    for name in sorted(header_functions):
        label = "2. signature of %s" % name
        htyp, htext = header_functions[name]
        if name not in gen:
            report(False, label, "not in build/gen/jump-swift.h (not exported through @c/@_cdecl?)")
            continue
        gtyp, gtext = gen[name]
        hn, gn = normalise(htyp, typedefs), normalise(gtyp, {})
        diffs = []
        if hn[1] != gn[1]:
            diffs.append("return type: header `%s` (= %s), Swift `%s` (= %s)"
                         % (render(htyp[1]), render(hn[1]), render(gtyp[1]), render(gn[1])))
        hp, gp = hn[2], gn[2]
        if len(hp) != len(gp):
            diffs.append("parameter count: header %d, Swift %d" % (len(hp), len(gp)))
        for i, ((ht, _), (gt, _)) in enumerate(zip(hp, gp)):
            if ht != gt:
                pname = htyp[2][i][1] or "#%d" % (i + 1)
                diffs.append("parameter %d (%s): header `%s` (= %s), Swift `%s` (= %s)"
                             % (i + 1, pname, render(htyp[2][i][0]), render(ht), render(gtyp[2][i][0]), render(gt)))
        if hn[3] != gn[3]:
            diffs.append("variadic in one and not the other")
        if diffs:
            diffs.append("header: %s" % htext)
            diffs.append("Swift:  %s" % gtext)
        report(not diffs, label, "\n".join(diffs))
    extra = sorted(set(gen) - set(header_functions))
    report(not extra, "2b. build/gen/jump-swift.h declares no jump_ function missing from jump.h",
           "\n".join("only in jump-swift.h: %s" % e for e in extra))


def check_undefined_swift():
    name = "3. no undefined Swift symbols"
    try:
        symbols = dynamic_symbols(False)
    except RuntimeError as e:
        report(False, name, str(e))
        return
    bad = sorted({full for sym, _, _, full in symbols
                  if sym.startswith(("$s", "_$s", "$S", "_$S", "swift_", "_swift_", "$e", "_T0"))})
    report(not bad, name, "\n".join(bad[:60]) + ("\n... %d in all" % len(bad) if len(bad) > 60 else ""))


ALLOWED_NEEDED = [
    r"libc\.so\.\d+", r"libm\.so\.\d+", r"libgcc_s\.so\.\d+",
    r"ld-linux[-\w.]*\.so\.\d+", r"libcurl(-gnutls|-nss)?\.so\.\d+", r"libjansson\.so\.\d+",
]
GLIBC_PARTS = [r"libpthread\.so\.0", r"libdl\.so\.2", r"librt\.so\.1"]  # stubs inside glibc >= 2.34
FORBIDDEN = re.compile(r"libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libicu")


def check_dependencies():
    rc, out, err = run(["readelf", "-d", "-W", LIBRARY])
    if rc != 0:
        report(False, "4. dynamic dependencies", "readelf -d failed: %s" % err.strip())
        return
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
    soname = re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out)
    problems, notes = [], []
    # A library libcurl loads anyway costs a process nothing more: libjump may use it (libcrypto).
    curl_loads = set()
    for lib in needed:
        if re.fullmatch(r"libcurl(-gnutls|-nss)?\.so\.\d+", lib):
            curl_path = re.search(re.escape(lib) + r" => (\S+)", run(["ldd", LIBRARY])[1])
            if curl_path:
                curl_loads = set(re.findall(r"^\s*(\S+) =>", run(["ldd", curl_path.group(1)])[1], re.M))
    for lib in needed:
        if FORBIDDEN.search(lib):
            problems.append("needs a Swift/Foundation runtime library: %s" % lib)
        elif any(re.fullmatch(p, lib) for p in ALLOWED_NEEDED):
            continue
        elif any(re.fullmatch(p, lib) for p in GLIBC_PARTS):
            notes.append("%s (part of glibc)" % lib)
        elif lib in curl_loads:
            notes.append("%s (libcurl loads it already)" % lib)
        else:
            problems.append("needs a library outside the allowed set: %s" % lib)
    report(not problems, "4. NEEDED only libc/libm/libgcc_s/ld-linux/libcurl/libjansson (+ what libcurl loads)",
           "\n".join(problems) if problems else ", ".join(needed + (["note: " + n for n in notes])))

    expected = "libjump.so.%s" % read_abi_version()
    report(soname == [expected], "4b. soname is %s" % expected,
           "" if soname == [expected] else "soname: %s" % (soname or "(none)"))

    rc, out, err = run(["ldd", LIBRARY])
    problems = []
    if rc != 0:
        problems.append("ldd failed: %s" % (err.strip() or out.strip()))
    for line in out.splitlines():
        if "not found" in line:
            problems.append("unresolved: %s" % line.strip())
        if FORBIDDEN.search(line):
            problems.append("loads a Swift/Foundation runtime library: %s" % line.strip())
    report(not problems, "4c. ldd resolves every dependency and loads no Swift runtime", "\n".join(problems))

    flags = re.findall(r"\(FLAGS_1\)\s+Flags:\s*(.*)", out and run(["readelf", "-d", "-W", LIBRARY])[1] or "")
    ok = any("NODELETE" in f for f in flags)
    report(ok, "6. the library is non-unloadable (DF_1_NODELETE)", "" if ok else "FLAGS_1: %s" % (flags or "(none)"))


HEADER_USE = r"""
static void use_jansson_types(void) {
    json_t *detail = NULL;
    json_t *value = json_string("x");
    jump_record *record = NULL;
    if (jump_error_last_jansson(&detail) == JUMP_OK) json_decref(detail);
    (void)jump_record_set_jansson(record, "/aboutMe", value);
    (void)jump_config_from_jansson(value, NULL);
    json_decref(value);
}
"""


def check_header_compiles():
    variants = [
        ("C99", "c", '#include "jump.h"\n', ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]),
        ("C99, <jansson.h> before", "c", '#include <jansson.h>\n#include "jump.h"\n' + HEADER_USE,
         ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]),
        ("C99, <jansson.h> after", "c", '#include "jump.h"\n#include <jansson.h>\n' + HEADER_USE,
         ["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]),
        ("C++", "cpp", '#include "jump.h"\n', ["c++", "-Wall", "-Werror"]),
        ("C++, <jansson.h> before", "cpp", '#include <jansson.h>\n#include "jump.h"\n' + HEADER_USE,
         ["c++", "-Wall", "-Werror"]),
        ("C++, <jansson.h> after", "cpp", '#include "jump.h"\n#include <jansson.h>\n' + HEADER_USE,
         ["c++", "-Wall", "-Werror"]),
    ]
    tmp = tempfile.mkdtemp(prefix="jump-abi-")
    try:
        for label, ext, source, cmd in variants:
            path = os.path.join(tmp, "t." + ext)
            with open(path, "w") as f:
                f.write(source)
                if "use_jansson_types" in source:
                    f.write("void (*keep)(void) = use_jansson_types;\n" if ext == "c"
                            else "void (*keep)(void) = use_jansson_types;\n")
            rc, out, err = run(cmd + ["-fsyntax-only", "-I" + os.path.join(ROOT, "include"), path])
            text = (out + err).strip()
            lines = [l for l in text.splitlines() if "error" in l or "warning" in l][:12]
            report(rc == 0 and not text, "5. include/jump.h compiles: %s (%s)" % (label, " ".join(cmd)),
                   "\n".join(lines) if lines else text[:2000])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    os.chdir(ROOT)
    try:
        header_functions, typedefs, problems = read_jump_header()
    except OSError as e:
        report(False, "0. read include/jump.h", str(e))
        header_functions, typedefs, problems = {}, {}, []
    for p in problems:
        report(False, "0. parse include/jump.h", p)
    if not header_functions:
        report(False, "0. include/jump.h declares functions", "no function declarations found")

    if os.path.exists(LIBRARY):
        check_exports(header_functions)
    else:
        report(False, "1. exported symbols", "%s does not exist (build it with make lib)" % LIBRARY)
    check_signatures(header_functions, typedefs)
    if os.path.exists(LIBRARY):
        check_undefined_swift()
        check_dependencies()
    else:
        report(False, "3/4/6. library checks", "%s does not exist" % LIBRARY)
    check_header_compiles()

    # include/jump_api.json against jump.h, the exports, the Swift sources, the Python binding, the C tests.
    exports = None
    if os.path.exists(LIBRARY):
        try:
            exports = {s for s, _, kind, _ in dynamic_symbols(True)
                       if s.startswith("jump_") and kind in ("T", "W", "i")}
        except RuntimeError as e:
            report(False, "7. library exports for include/jump_api.json", str(e))
    for ok, label, detail in check_api.run_checks(ROOT, exports) + check_api.self_test(ROOT, exports):
        report(ok, label, detail)

    # The bindings' generated files against include/jump_api.json, and what each binding reaches of it.
    for ok, label, detail in check_generated.run_checks(ROOT) + check_generated.self_test(ROOT):
        report(ok, label, detail)
    for ok, label, detail in check_coverage.run_checks(ROOT) + check_coverage.self_test(ROOT):
        report(ok, label, detail)
    for ok, label, detail in check_hygiene.check_large_files(ROOT) + check_hygiene.self_test(ROOT):
        report(ok, label, detail)
    for ok, label, detail in check_internal_prefix.run_checks(ROOT) + check_internal_prefix.self_test(ROOT):
        report(ok, label, detail)
    for ok, label, detail in check_layers.run_checks(ROOT) + check_layers.self_test(ROOT):
        report(ok, label, detail)
    for ok, label, detail in check_config_reads.run_checks(ROOT) + check_config_reads.self_test(ROOT):
        report(ok, label, detail)
    for ok, label, detail in check_config_defaults.run_checks(ROOT) + check_config_defaults.self_test(ROOT):
        report(ok, label, detail)
    for ok, label, detail in check_generated_types.run_checks(ROOT) + check_generated_types.self_test(ROOT):
        report(ok, label, detail)

    passed = sum(1 for r in results if r)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
