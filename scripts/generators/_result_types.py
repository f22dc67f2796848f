"""What the typed-results backends (python.py, typescript.py) share: reading jump_api.json's "documents".

Not a backend itself (generate-bindings.py skips modules whose name starts with "_"). The schema is described in
docs/bindings.md ("Typed results"): a key's "type" is T := "string" | "bool" | "int" | "number" | "any" | a
document's name | "[T]" (array) | "{T}" (object with string keys); the flags nullable, optional, values, unit
and secret refine it.
"""

import re
from typing import Any, Callable, Dict, List, Tuple

SCALARS = ("string", "bool", "int", "number", "any")

UNIT_WORDS = {"epoch_seconds": "epoch seconds", "seconds": "seconds", "milliseconds": "milliseconds"}


def documents(api: Dict[str, Any]) -> Dict[str, Any]:
    return api.get("documents", {})


def render(t: str, scalar: Dict[str, str], document: Callable[[str], str],
           array: Callable[[str], str], mapping: Callable[[str], str]) -> str:
    """The type T in a language: scalar names the scalars, document() a document, array()/mapping() wrap."""
    if t.startswith("[") and t.endswith("]"):
        return array(render(t[1:-1], scalar, document, array, mapping))
    if t.startswith("{") and t.endswith("}"):
        return mapping(render(t[1:-1], scalar, document, array, mapping))
    if t in scalar:
        return scalar[t]
    if re.fullmatch(r"[a-z][a-z0-9_]*", t):
        return document(t)
    raise SystemExit("generate-bindings: jump_api.json: %r is not a type" % t)


def names_in(t: str) -> List[str]:
    """The documents a type string refers to."""
    return [n for n in re.findall(r"[a-z][a-z0-9_]*", t) if n not in SCALARS]


def ordered(api: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any]]]:
    """The documents, each after the ones its keys refer to (then in jump_api.json's order): a reader meets a
    type before its uses, and languages that need definitions first get them."""
    docs = documents(api)
    done: List[str] = []

    def visit(name: str, path: Tuple[str, ...]) -> None:
        if name in done or name in path or name not in docs:
            return
        for key in docs[name]["keys"].values():
            for ref in names_in(key["type"]):
                visit(ref, path + (name,))
        done.append(name)

    for name in docs:
        visit(name, ())
    return [(name, docs[name]) for name in done]


def pascal(snake: str) -> str:
    """sign_in_result -> SignInResult (the spec's type names)."""
    return "".join(p[:1].upper() + p[1:] for p in snake.split("_") if p)


def key_note(key: Dict[str, Any], absence: bool = True) -> str:
    """A key's description with what its flags say that a type cannot (unit, secret, and absence unless the
    language's type says it)."""
    text = key.get("description", "").strip()
    extra = []
    if "unit" in key:
        extra.append("in " + UNIT_WORDS.get(key["unit"], key["unit"]))
    if key.get("secret"):
        extra.append("a secret")
    if key.get("optional") and absence:
        extra.append("may be absent")
    sentences = [text] + (["; ".join(extra)] if extra else [])
    return " ".join(s[:1].upper() + s[1:] + ("" if s.endswith(".") else ".") for s in sentences if s)


def used_by(api: Dict[str, Any]) -> Dict[str, List[str]]:
    """document -> the functions whose "result" refers to it (for the doc comments), in jump_api.json's order;
    the _async and _jansson forms go without saying."""
    users: Dict[str, List[str]] = {}
    for f in api["functions"]:
        if "async_of" in f or "jansson_of" in f:
            continue
        for name in names_in(f.get("result", "")):
            if f["name"] not in users.setdefault(name, []):
                users[name].append(f["name"])
    return users
