"""The Python binding's typed results (a backend of scripts/generate-bindings.py, which passes itself as `common`):
  bindings/python/jump/_results_generated.py   one TypedDict (total=False) per document of jump_api.json's
                                               "documents", keys exactly as in the JSON, Literal for "values",
                                               Optional for nullable keys, the descriptions as docstrings and
                                               #: comments (units and secrets said there)
bindings/python/jump/results.py (hand-written) re-exports them under the names the binding has always used.
Results stay the plain dicts json.loads gives: a TypedDict only tells a type checker the keys, so a key a newer
library adds, or a value not in "values" yet, is still there at run time.
"""

import keyword
from typing import Any, Callable, Dict, List, Tuple

types = None  # _result_types, loaded by outputs()

SCALAR = {"string": "str", "bool": "bool", "int": "int", "number": "float", "any": "Any"}
WIDTH = 116


def py_type(key: Dict[str, Any]) -> str:
    if "values" in key and key["type"] == "string":
        text = "Literal[%s]" % ", ".join('"%s"' % v for v in key["values"])
    else:
        text = types.render(key["type"], SCALAR, types.pascal, lambda t: "List[%s]" % t,
                            lambda t: "Dict[str, %s]" % t)
    # Any takes None already: Optional[Any] would say nothing more.
    return "Optional[%s]" % text if key.get("nullable") and text != "Any" else text


def wrap(text: str, first: str, rest: str) -> List[str]:
    """text as lines of at most WIDTH columns, the first starting with `first`, the others with `rest`."""
    lines, line = [], first
    for word in text.split():
        if len(line) + len(word) + 1 > WIDTH and line.strip() not in (first.strip(), ""):
            lines.append(line.rstrip())
            line = rest
        line += word + " "
    lines.append(line.rstrip())
    return lines


def document(name: str, doc: Dict[str, Any], users: List[str]) -> List[str]:
    cls = types.pascal(name)
    text = doc["description"].strip()
    if users:
        text += " Returned by: %s." % ", ".join(users)
    out = ["", "", "class %s(TypedDict, total=False):" % cls]
    body = wrap(text, '    """', "    ")
    body[-1] += '"""'
    out += body + [""]
    for key_name, key in doc["keys"].items():
        if not key_name.isidentifier() or keyword.iskeyword(key_name):
            raise SystemExit("generate-bindings: document %s: key %r is no Python identifier (a TypedDict "
                             "needs the functional form for it)" % (name, key_name))
        out += wrap(types.key_note(key), "    #: ", "    #: ")
        out.append("    %s: %s" % (key_name, py_type(key)))
    return out


def results(common: Any, api: Dict[str, Any]) -> str:
    docs = types.ordered(api)
    users = types.used_by(api)
    out = [
        "# " + common.GENERATED,
        '"""The typed shapes of the JSON documents libjump returns, one TypedDict per document of',
        "include/jump_api.json (import them from :mod:`jump.results`). All are ``total=False``: a key the library",
        "does not send in some case is no type error (read such keys with ``.get``); at run time every result is",
        'the plain ``dict`` json.loads gives, so keys a newer library adds are there too."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any, Dict, List, Literal, Optional, TypedDict",
        "",
        "__all__ = [",
    ]
    out += ['    "%s",' % types.pascal(n) for n in sorted(n for n, _ in docs)]
    out.append("]")
    for name, doc in docs:
        out += document(name, doc, users.get(name, []))
    return "\n".join(out) + "\n"


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    global types
    types = common.generator("_result_types")
    return [("bindings/python/jump/_results_generated.py", lambda api: results(common, api))]
