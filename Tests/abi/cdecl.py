"""A small C declaration parser for include/jump.h and the compiler-generated Swift header (standard library only).

Shared by check_abi.py (header vs library) and check_api.py (header vs include/jump_api.json): one parser, so
both checks read the header the same way.
"""
import re

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


def read_header(path):
    """Returns ({name: (type, text)}, typedefs, problems) for the header at path."""
    text = open(path, encoding="utf-8").read()
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
