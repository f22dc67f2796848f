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
  4. NEEDED holds only libc/libm/libstdc++/libgcc_s/ld-linux/libcurl/libjansson (no Swift runtime, no
     Foundation, no libdispatch), the soname is libjump.so.<abi>, and ldd resolves everything;
  5. include/jump.h compiles cleanly as C99 and as C++, alone and with <jansson.h> before or after it;
  6. the library is marked non-unloadable (DF_1_NODELETE), as the header promises.
Ends with "N passed, N failed"; exits 1 on any failure.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

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


# ---------------------------------------------------------------------------------------------------------
# A small C declaration parser (enough for prototypes with pointers and function pointers)
# ---------------------------------------------------------------------------------------------------------

TOKEN = re.compile(r"[A-Za-z_]\w*|\.\.\.|[*(),\[\];{}=]|\"[^\"]*\"|\d+|\S")
DROP = {"_Nullable", "_Nonnull", "_Null_unspecified", "__nullable", "__nonnull", "extern", "static",
        "inline", "__inline", "restrict", "__restrict", "__restrict__", "volatile", "register"}
QUALIFIERS = {"const"}
BUILTIN = {"void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool", "bool"}
TAGS = {"struct", "enum", "union"}


class ParseError(Exception):
    pass


def tokenize(text):
    toks = []
    for t in TOKEN.findall(text):
        if t in DROP or t.startswith("SWIFT_"):
            continue
        toks.append(t)
    return toks


# Types: ("base", name, const) | ("ptr", target, const) | ("func", ret, [params], variadic)

class Parser:
    def __init__(self, toks):
        self.t = toks
        self.i = 0

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def take(self, expected=None):
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise ParseError("expected %r, found %r in %s" % (expected, tok, " ".join(self.t)))
        self.i += 1
        return tok

    def specifiers(self):
        const = False
        words = []
        named = None
        while True:
            tok = self.peek()
            if tok is None:
                break
            if tok in QUALIFIERS:
                const = True
                self.i += 1
            elif tok in TAGS:
                self.i += 1
                named = tok + " " + self.take()
            elif tok in BUILTIN:
                words.append(tok)
                self.i += 1
            elif re.match(r"[A-Za-z_]\w*$", tok) and not words and named is None:
                named = tok
                self.i += 1
            else:
                break
        if named is None and not words:
            raise ParseError("no type in %s" % " ".join(self.t))
        name = named if named is not None else " ".join(words)
        return ("base", name, const)

    def skip_group(self):
        """Skips a balanced (...) starting at the current '('; returns the tokens inside."""
        start = self.i
        depth = 0
        while True:
            tok = self.take()
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
                if depth == 0:
                    return self.t[start + 1:self.i - 1]

    def params(self):
        self.take("(")
        params, variadic = [], False
        if self.peek() == ")":
            self.take(")")
            return params, variadic
        if self.peek() == "void" and self.peek(1) == ")":
            self.i += 2
            return params, variadic
        while True:
            if self.peek() == "...":
                self.take()
                variadic = True
            else:
                base = self.specifiers()
                typ, name = self.declarator(base)
                params.append((typ, name))
            if self.peek() == ",":
                self.take()
                continue
            self.take(")")
            return params, variadic

    def declarator(self, base):
        """Parses a (possibly abstract) declarator applied to base; returns (type, name)."""
        typ = base
        while self.peek() == "*":
            self.take()
            const = False
            while self.peek() in QUALIFIERS:
                self.take()
                const = True
            typ = ("ptr", typ, const)
        inner = None
        name = None
        if self.peek() == "(" and self.peek(1) in ("*", "(", "^"):
            inner = self.skip_group()
        elif self.peek() is not None and re.match(r"[A-Za-z_]\w*$", self.peek()):
            name = self.take()
        while self.peek() in ("(", "["):
            if self.peek() == "(":
                params, variadic = self.params()
                typ = ("func", typ, params, variadic)
            else:
                while self.take() != "]":
                    pass
                typ = ("ptr", typ, False)  # arrays decay in parameters
        if inner is not None:
            sub = Parser(inner)
            typ, name = sub.declarator(typ)
            if sub.peek() is not None:
                raise ParseError("trailing tokens in declarator: %s" % " ".join(inner))
        return typ, name


def parse_declaration(text):
    p = Parser(tokenize(text))
    base = p.specifiers()
    typ, name = p.declarator(base)
    return typ, name


def render(typ, name=""):
    """C text for a type (abstract when name is empty)."""
    kind = typ[0]
    if kind == "base":
        s = ("const " if typ[2] else "") + typ[1]
        return s + (" " + name if name else "")
    if kind == "ptr":
        target = typ[1]
        inner = "*" + (" const" if typ[2] else "") + (" " + name if name else "")
        if target[0] == "func":
            return render_func(target, "(" + inner + ")")
        left = render(target).rstrip()
        return left + ("" if left.endswith("*") else " ") + inner
    if kind == "func":
        return render_func(typ, name)
    return repr(typ)


def render_func(typ, declarator):
    params = ", ".join(render(t) for t, _ in typ[2]) or "void"
    if typ[3]:
        params += ", ..."
    return "%s %s(%s)" % (render(typ[1]), declarator, params)


# ---------------------------------------------------------------------------------------------------------
# Normalisation
# ---------------------------------------------------------------------------------------------------------

HANDLE_TYPES = {"jump_config", "jump_client", "jump_record", "jump_request", "struct json_t", "json_t",
                "struct jump_config", "struct jump_client", "struct jump_record", "struct jump_request"}
INT_ALIASES = {"int": "int32_t", "signed int": "int32_t", "signed": "int32_t", "jump_status": "int32_t",
               "enum jump_status": "int32_t", "unsigned int": "uint32_t", "unsigned": "uint32_t",
               # Swift prints UInt (C size_t) as NSUInteger in the generated header
               "NSUInteger": "size_t"}
FALLBACK_TYPEDEFS = {
    "jump_callback": "void (*jump_callback)(void *, const char *)",
    "jump_free_fn": "void (*jump_free_fn)(void *)",
    "jump_dispatch_fn": "void (*jump_dispatch_fn)(void *, void (*)(void *), void *)",
    "jump_storage_sink": "void (*jump_storage_sink)(void *, const char *, size_t)",
    "jump_storage_load_fn": "jump_status (*jump_storage_load_fn)(void *, const char *, jump_storage_sink, void *)",
    "jump_storage_save_fn": "jump_status (*jump_storage_save_fn)(void *, const char *, const char *, size_t)",
    "jump_storage_erase_fn": "jump_status (*jump_storage_erase_fn)(void *, const char *)",
}


def normalise(typ, typedefs, top=True):
    kind = typ[0]
    if kind == "base":
        name = typ[1]
        if name in typedefs:
            return normalise(typedefs[name], typedefs, top)
        name = INT_ALIASES.get(name, name)
        if name in HANDLE_TYPES:
            name = "void"
        # const on a value (not behind a pointer) is not part of the ABI
        return ("base", name, False if top else typ[2])
    if kind == "ptr":
        target = normalise(typ[1], typedefs, top=False)
        if target[0] == "base" and target[1] == "void":
            target = ("base", "void", False)  # const jump_config * == void *
        return ("ptr", target, False if top else typ[2])
    if kind == "func":
        return ("func", normalise(typ[1], typedefs, True),
                [(normalise(t, typedefs, True), None) for t, _ in typ[2]], typ[3])
    return typ


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def strip_preprocessor(text):
    """Drops preprocessor directives, continuation lines included."""
    text = text.replace("\\\n", " ")
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))


def header_statements(text):
    text = strip_preprocessor(strip_comments(text)).replace('extern "C" {', " ")
    statements, depth, current = [], 0, []
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        if ch == ";" and depth == 0:
            statements.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    return [" ".join(s.split()) for s in statements if s.strip()]


def read_jump_header():
    """Returns ({name: (type, text)}, typedefs, problems)."""
    text = open(HEADER, encoding="utf-8").read()
    functions, typedefs, problems = {}, {}, []
    for st in header_statements(text):
        if st.startswith("typedef"):
            body = st[len("typedef"):].strip()
            if "{" in body or re.match(r"(struct|enum|union)\s+\w+\s+\w+$", body):
                continue  # enum / opaque struct typedefs: handled by the normalisation tables
            try:
                typ, name = parse_declaration(body)
                if name:
                    typedefs[name] = typ
            except ParseError as e:
                problems.append("cannot parse typedef %r: %s" % (st, e))
            continue
        if "(" not in st:
            continue
        try:
            typ, name = parse_declaration(st)
        except ParseError as e:
            problems.append("cannot parse %r: %s" % (st, e))
            continue
        if typ[0] == "func" and name:
            if name in functions:
                problems.append("%s is declared twice" % name)
            functions[name] = (typ, st)
    for name, text_ in FALLBACK_TYPEDEFS.items():
        if name not in typedefs:
            typedefs[name] = parse_declaration(text_)[0]
    return functions, typedefs, problems


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
    r"libc\.so\.\d+", r"libm\.so\.\d+", r"libstdc\+\+\.so\.\d+", r"libgcc_s\.so\.\d+",
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
    for lib in needed:
        if FORBIDDEN.search(lib):
            problems.append("needs a Swift/Foundation runtime library: %s" % lib)
        elif any(re.fullmatch(p, lib) for p in ALLOWED_NEEDED):
            continue
        elif any(re.fullmatch(p, lib) for p in GLIBC_PARTS):
            notes.append("%s (part of glibc)" % lib)
        else:
            problems.append("needs a library outside the allowed set: %s" % lib)
    report(not problems, "4. NEEDED only libc/libm/libstdc++/libgcc_s/ld-linux/libcurl/libjansson",
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

    passed = sum(1 for r in results if r)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
