"""The functions' entries in include/jump.h (used by config_docs.py, which writes jump.h; this module writes no
file of its own), from jump_api.json's "functions": each function gets its own entry, as sqlite3.h gives each
function its own, made of
  its description (or its summary when it has none), wrapped in the header's comment style;
  "Ownership:" notes made from its parameters' (and its return value's) ownership kinds;
  "Returns:" its statuses, one line per status with when it is returned (jump_status functions only);
  for an _async function (async_of), where its callback runs and which outcome it gets;
  "May wait for:" its may_wait;
then its declaration, spelled from its return and parameter types.
The entries go between the lines "/* BEGIN FUNCTIONS from <first function>: ..." and "/* END FUNCTIONS */"
of jump.h: the regions split "functions" in its order, each region holding the functions from the one its
BEGIN line names up to the one the next region starts with. Everything outside the regions (the conventions,
the banners, typedefs, #defines and the comments that introduce a group of functions) stays hand-written.
A region edited by hand differs from what this writes (Tests/abi/check_generated.py); a function without
"statuses" or "may_wait" stops the generator (and fails check_api.py's check 7n)."""

import re
import textwrap
from typing import Any, Dict, List, Tuple

WIDTH = 116  # the header's longest line
BEGIN = "/* BEGIN FUNCTIONS from "
BEGIN_TAIL = ": generated from jump_api.json (make generate); do not edit */"
END = "/* END FUNCTIONS */"

# What each ownership kind says about a parameter in an entry's "Ownership:" line; None: nothing to say (the
# conventions cover it).
PARAM_NOTES = {
    "borrowed_string": "borrowed for the call",
    "borrowed_bytes": "borrowed for the call",
    "borrowed_json": "borrowed (its reference count untouched)",
    "out_string": "receives a string the caller frees with jump_string_free (NULL on failure)",
    "out_json": "receives a new reference the caller releases with json_decref",
    "handle_released": "released by this call (NULL is a no-op)",
    "released_string": "a string returned by libjump, freed by this call (NULL is a no-op)",
    "callback": "kept until libjump drops it, then userdata_free(userdata) runs exactly once",
    "host_function": "host code, called as its typedef says",
    "userdata_free": "called exactly once",
    "handle": None, "value": None, "length": None, "userdata": None, "out_value": None, "out_handle": None,
}
RETURN_NOTES = {
    "static_string": "the returned string is in static storage: never freed, never NULL",
    "library_string": "the returned string is the library's, valid until the next jump_* call on this thread",
}


def fail(message: str) -> None:
    raise SystemExit("include/jump.h functions: " + message)


def wrap(text: str, first: str, rest: str) -> List[str]:
    """Comment lines: the first starts with `first`, the others with `rest`."""
    if "*/" in text or "/*" in text:
        fail("a comment delimiter in %r" % text)
    return [l.rstrip() for l in textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest,
                                               break_on_hyphens=False, break_long_words=False)]


def sentence(text: str) -> str:
    text = text.strip()
    return text + ("" if text.endswith(".") else ".")


def handle_free(api: Dict[str, Any], ctype: str) -> str:
    name = ctype.replace("*", "").strip()
    for h in api["handles"]:
        if h["name"] == name:
            return h["freed_by"]
    fail("no handle %r" % name)
    return ""


def ownership(api: Dict[str, Any], f: Dict[str, Any]) -> str:
    has_callback = any(p["ownership"] == "callback" for p in f["parameters"])
    notes: List[Tuple[List[str], str]] = []
    for p in f["parameters"]:
        kind = p["ownership"]
        if kind not in PARAM_NOTES:
            fail("%s(%s): no note for ownership %r" % (f["name"], p["name"], kind))
        note = PARAM_NOTES[kind]
        if kind == "out_handle":
            note = "receives a new handle the caller frees with %s" % handle_free(api, p["type"])
        if kind == "userdata_free" and has_callback:
            note = None
        if note is None:
            continue
        if notes and notes[-1][1] == note:
            notes[-1][0].append(p["name"])
        else:
            notes.append(([p["name"]], note))
    parts = ["%s: %s" % (", ".join(names), note) for names, note in notes]
    if f["returns"]["ownership"] in RETURN_NOTES:
        parts.append(RETURN_NOTES[f["returns"]["ownership"]])
    return "; ".join(parts)


def statuses(f: Dict[str, Any]) -> List[Dict[str, str]]:
    found = f.get("statuses")
    if found is None or "may_wait" not in f:
        fail("%s lacks \"statuses\" or \"may_wait\" in jump_api.json" % f["name"])
    if isinstance(found, dict):
        found = [{"status": k, "when": v} for k, v in found.items()]
    return found


def may_wait(f: Dict[str, Any]) -> str:
    text = f["may_wait"].strip()
    return "nothing" + text[len("never"):] if text.startswith("never") else text


def declaration(f: Dict[str, Any], c_param: Any) -> List[str]:
    ret = f["returns"]["type"]
    head = "%s%s%s(" % (ret, "" if ret.endswith("*") else " ", f["name"])
    params = [c_param(p) for p in f["parameters"]] or ["void"]
    lines, line = [], head
    for i, p in enumerate(params):
        piece = p + (", " if i < len(params) - 1 else ");")
        if len(line) + len(piece.rstrip()) > WIDTH and line.strip() != head.strip():
            lines.append(line.rstrip())
            line = " " * len(head)
        line += piece
    lines.append(line.rstrip())
    return lines


def entry(api: Dict[str, Any], f: Dict[str, Any], c_param: Any) -> List[str]:
    found = statuses(f)
    names = {s["name"] for s in api["statuses"]}
    out = wrap(sentence(f.get("description") or f["summary"]), "/* ", " * ")
    own = ownership(api, f)
    if own:
        out += wrap("Ownership: " + sentence(own), " * ", " * ")
    if found:
        out.append(" * Returns:")
        for s in found:
            if s["status"] not in names:
                fail("%s: unknown status %r" % (f["name"], s["status"]))
            out += wrap("%s: %s" % (s["status"], sentence(s["when"])), " *   ", " *       ")
    if f.get("async_of"):
        out += wrap("Callback: runs exactly once, on libjump's \"jump-events\" thread (or through the host's "
                    "dispatcher, jump_client_set_dispatcher; in queue mode it is queued for "
                    "jump_client_next_event), with the outcome of %s: one of its statuses, and its result or "
                    "error detail." % f["async_of"], " * ", " * ")
        wait = may_wait(f)
        if wait == "nothing":
            wait = "nothing: it returns at once, and %s runs on a libjump thread (\"jump-work\")" % f["async_of"]
        out += wrap("May wait for: " + sentence(wait), " * ", " * ")
    else:
        out += wrap("May wait for: " + sentence(may_wait(f)), " * ", " * ")
    out.append(" */")
    return out + declaration(f, c_param)


def begin_line(name: str) -> str:
    return BEGIN + name + BEGIN_TAIL


def regions(api: Dict[str, Any], text: str, c_param: Any) -> str:
    """jump.h's text with every BEGIN FUNCTIONS .. END FUNCTIONS region written anew."""
    lines = text.split("\n")
    functions = api["functions"]
    order = [f["name"] for f in functions]
    starts = [i for i, l in enumerate(lines) if l.startswith(BEGIN)]
    ends = [i for i, l in enumerate(lines) if l.startswith(END)]
    if not starts or len(starts) != len(ends) or any(not (s < e) for s, e in zip(starts, ends)) or \
            any(not (e < s) for e, s in zip(ends, starts[1:])):
        fail("needs pairs of '%s<function>...' and '%s' lines (the generated function entries go between them)"
             % (BEGIN, END))
    firsts = []
    for s in starts:
        m = re.match(re.escape(BEGIN) + r"(jump_\w+)", lines[s])
        if not m or m.group(1) not in order:
            fail("line %d names no function of jump_api.json: %s" % (s + 1, lines[s]))
        firsts.append(order.index(m.group(1)))
    if firsts[0] != 0 or firsts != sorted(set(firsts)):
        fail("the regions must start with jump_api.json's first function and follow its order")
    bounds = firsts[1:] + [len(order)]
    out: List[str] = []
    previous = 0
    for (s, e), first, last in zip(zip(starts, ends), firsts, bounds):
        out += lines[previous:s]
        out.append(begin_line(order[first]))
        for k in range(first, last):
            if k > first:
                out.append("")
            out += entry(api, functions[k], c_param)
        out.append(END)
        previous = e + 1
    out += lines[previous:]
    return "\n".join(out)


def outputs(common: Any) -> List[Any]:
    return []  # jump.h is written by config_docs.py, which calls regions()
