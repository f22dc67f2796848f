"""The Node.js binding's typed results (a backend of scripts/generate-bindings.py, which passes itself as `common`):
  bindings/node/types/results.generated.d.ts   one interface per document of jump_api.json's "documents", with
                                               the camelCase keys the binding hands over (lib/camel-keys.js),
                                               `?` for optional keys, `| null` for nullable ones, a union of
                                               string literals for "values", the descriptions as JSDoc
The hand-written types/*.d.ts re-export them under the names the binding has always used (index.d.ts exports
those), and narrow a few (SocialResult by outcome). At run time a result is the object camel-keys.js makes: keys a
newer library adds are there too.
"""

import os
import re
from typing import Any, Callable, Dict, List, Tuple

types = None  # _result_types, loaded by outputs()

SCALAR = {"string": "string", "bool": "boolean", "int": "number", "number": "number", "any": "JsonValue"}
WIDTH = 116
CAMEL_KEYS = "bindings/node/lib/camel-keys.js"
# The keys whose document value the binding hands over with the sender's own key names (camel-keys.js DATA:
# Capture's error answer). Its other DATA keys hold JSON values or maps, whose types name no keys. Checked
# against camel-keys.js below whenever the checkout has it.
KEPT_AS_SENT = {"server"}


def camel(key: str) -> str:
    """camel-keys.js's conversion: an underscore and the letter or digit after it become that one, upper."""
    return re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), key)


def check_kept_as_sent(common: Any, api: Dict[str, Any]) -> None:
    path = os.path.join(common.ROOT, CAMEL_KEYS)
    if not os.path.exists(path):
        return  # a copy of the generator alone (Tests/abi/check_generated.py's self-test)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = re.search(r"const DATA = new Set\(\[(.*?)\]\)", text, re.S)
    if found is None:
        raise SystemExit("generate-bindings: %s has no `const DATA = new Set([...])` any more" % CAMEL_KEYS)
    data = set(re.findall(r"'(\w+)'", re.sub(r"//[^\n]*", "", found.group(1))))
    docs = types.documents(api)
    documented = {k for d in docs.values() for k, key in d["keys"].items() if k in data and
                  any(n in docs for n in types.names_in(key["type"]))}
    if documented != KEPT_AS_SENT:
        raise SystemExit("generate-bindings: typescript.py KEPT_AS_SENT %s differs from the DATA keys of %s that "
                         "hold a document (%s)" % (sorted(KEPT_AS_SENT), CAMEL_KEYS, sorted(documented)))


def raw_documents(api: Dict[str, Any]) -> set:
    """The documents the binding hands over with their JSON key names: those under a KEPT_AS_SENT key, and
    what they hold."""
    docs = types.documents(api)
    todo = [n for d in docs.values() for k, key in d["keys"].items() if k in KEPT_AS_SENT
            for n in types.names_in(key["type"])]
    raw = set()
    while todo:
        name = todo.pop()
        if name not in raw and name in docs:
            raw.add(name)
            todo += [n for key in docs[name]["keys"].values() for n in types.names_in(key["type"])]
    return raw


def ts_type(key: Dict[str, Any]) -> str:
    if "values" in key and key["type"] == "string":
        text = " | ".join("'%s'" % v for v in key["values"])
    else:
        text = types.render(key["type"], SCALAR, types.pascal,
                            lambda t: ("Array<%s>" % t) if " " in t else t + "[]",
                            lambda t: "{ [key: string]: %s }" % t)
    return text + " | null" if key.get("nullable") and key["type"] != "any" else text


def jsdoc(text: str, indent: str) -> List[str]:
    words, lines, line = text.split(), [], indent + "/** "
    for word in words:
        if len(line) + len(word) + 4 > WIDTH and line.strip() not in ("/**", "*"):
            lines.append(line.rstrip())
            line = indent + " * "
        line += word + " "
    if len(lines) == 0:
        return [line.rstrip() + " */"]
    lines.append(line.rstrip())
    return lines + [indent + " */"]


def interface(name: str, doc: Dict[str, Any], users: List[str], raw: bool) -> List[str]:
    text = doc["description"].strip()
    if users:
        text += " Returned by: %s." % ", ".join(users)
    if raw:
        text += " Its keys are the sender's, not camelCased."
    out = [""] + jsdoc(text, "") + ["export interface %s {" % types.pascal(name)]
    for key_name, key in doc["keys"].items():
        field = key_name if raw else camel(key_name)
        if not re.fullmatch(r"[A-Za-z_$][\w$]*", field):
            field = "'%s'" % field
        out += jsdoc(types.key_note(key, absence=False), "  ")
        out.append("  %s%s: %s;" % (field, "?" if key.get("optional") else "", ts_type(key)))
    return out + ["}"]


def results(common: Any, api: Dict[str, Any]) -> str:
    check_kept_as_sent(common, api)
    users = types.used_by(api)
    raw = raw_documents(api)
    out = [
        "// " + common.GENERATED,
        "// The typed shapes of libjump's JSON documents, one interface per document of include/jump_api.json, with",
        "// the keys the binding hands over (camelCase, lib/camel-keys.js). The hand-written types/*.d.ts re-export",
        "// them under the binding's names; index.d.ts exports those.",
        "import type { JsonValue } from './config';",
    ]
    for name, doc in types.ordered(api):
        out += interface(name, doc, users.get(name, []), name in raw)
    return "\n".join(out) + "\n"


def outputs(common: Any) -> List[Tuple[str, Callable[[Dict[str, Any]], str]]]:
    global types
    types = common.generator("_result_types")
    return [("bindings/node/types/results.generated.d.ts", lambda api: results(common, api))]
