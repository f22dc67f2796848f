"""The Python code blocks of README.md and docs/*.md run, as written, against a fresh (reset) emulator.

The snippets are fragments: they use names the surrounding prose sets up (``url``, ``config``, ``email``,
``password``, ``webbrowser``, even ``jump``). Each block's free names are found with ``symtable`` and bound
here to the emulator's equivalents:

* ``url``: the emulator's base URL; ``config``: a config for its Capture and Engage apps;
* ``webbrowser``: a stand-in whose ``open(url)`` plays the browser on the emulator's fake identity provider
  (a new identity, or the existing one of ``email`` in the merge variant), the way test_social_loopback does;
* ``email`` / ``password``: an account with a password;
* ``jump``: the package.

An account a block signs in to with literal credentials (``client.sign_in("ann@example.com", "...")``) is
registered first, as the prose assumes it exists. A name no rule knows fails the test, naming it: a new snippet
needs a binding here (or an ``import``). Blocks that handle MergeRequired run a second time with the browser
choosing an identity whose email belongs to the password account, so that branch runs too.
"""

from __future__ import annotations

import builtins
import re
import symtable
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest

import jump

from conftest import ROOT, FakeIdP, http_call, unique_email

FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
LITERAL_SIGN_IN = re.compile(r"""\.sign_in\(\s*(["'])([^"']+@[^"']+)\1\s*,\s*(["'])([^"']+)\3\s*\)""")


def documents() -> List[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def snippets() -> List[Tuple[str, str]]:
    """(id "README.md:92", code) for every ```python block."""
    found = []
    for doc in documents():
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append((f"{doc.relative_to(ROOT)}:{line}", m.group(1)))
    return found


def free_names(code: str) -> Set[str]:
    """Names the block reads but never binds (nor are builtins)."""
    top = symtable.symtable(code, "<snippet>", "exec")
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    used: Set[str] = set()
    tables = [top]
    while tables:
        table = tables.pop()
        tables.extend(table.get_children())
        for s in table.get_symbols():
            if s.is_referenced() and (table is top or s.is_global()):
                used.add(s.get_name())
    return {n for n in used - bound if not hasattr(builtins, n)}


class Browser:
    """``webbrowser`` for the snippets: open() plays the browser on the fake identity provider in a thread."""

    def __init__(self, idp: FakeIdP, **page: Any) -> None:
        self.idp = idp
        self.page = page
        self.threads: List[threading.Thread] = []
        self.errors: List[BaseException] = []
        self.landed: List[int] = []

    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:  # webbrowser.open's signature
        thread = threading.Thread(target=self._run, args=(url,), daemon=True)
        self.threads.append(thread)
        thread.start()
        return True

    def _run(self, url: str) -> None:
        try:
            location = self.idp.finish(url, **self.page)
            self.landed.append(http_call(location).status)  # the browser lands on libjump's loopback listener
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(exc)


def run_snippet(ident: str, code: str, bindings: Dict[str, Any], browser: Browser) -> None:
    """exec the block on a thread. When the stand-in browser fails, a loopback sign-in would wait its 5 minutes
    for a browser that never comes: the failure is reported at once instead (the block's clients are closed
    and its thread, a daemon, is left to end with its wait)."""
    before = set(jump.client._live_clients)
    failure: List[BaseException] = []

    def target() -> None:
        try:
            exec(compile(code, ident, "exec"), bindings)  # noqa: S102 - the repository's own documentation
        except BaseException as exc:  # noqa: BLE001 - re-raised on the test's thread
            failure.append(exc)

    runner = threading.Thread(target=target, name=f"snippet {ident}", daemon=True)
    runner.start()
    deadline = time.monotonic() + 120
    while runner.is_alive() and time.monotonic() < deadline:
        runner.join(0.05)
        if browser.errors:
            for client in set(jump.client._live_clients) - before:
                client.close()
            runner.join(2)
            break
    for thread in browser.threads:
        thread.join(30)
    assert not browser.errors, f"{ident}: the stand-in browser failed: {browser.errors!r}"
    assert not runner.is_alive(), f"{ident}: still running after 120 s"  # the block itself hangs
    if failure:
        raise failure[0]


def register(make_config, email: str, password: str) -> str:
    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        uuid = c.register_traditional({"email": email, "displayName": email.split("@")[0]}, password)["uuid"]
    return uuid


VARIANTS = [(ident, code, "as-written") for ident, code in snippets()]
VARIANTS += [(ident, code, "merge") for ident, code in snippets() if "MergeRequired" in code]


def test_the_documents_have_python_snippets() -> None:
    assert any(ident.startswith("README.md") for ident, _ in snippets())


@pytest.mark.parametrize("ident,code,variant", VARIANTS, ids=[f"{i}-{v}" for i, _, v in VARIANTS])
def test_snippet_runs(ident: str, code: str, variant: str, emu, idp, social_config, make_config, tmp_path: Path,
                      monkeypatch, capsys) -> None:
    # A config without storageDirectory saves in $XDG_DATA_HOME/jump: keep that inside the test.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    names = free_names(code)
    email, password = unique_email("readme"), "readme password 1"
    bindings: Dict[str, Any] = {"__name__": "__readme__"}
    browser = Browser(idp, name="Ada Lovelace", email=unique_email("google"))
    expect: Dict[str, Any] = {}
    if "email" in names or variant == "merge":
        expect["password_account"] = register(make_config, email, password)
    if variant == "merge":  # a new google identity with the password account's email: MergeRequired
        browser = Browser(idp, name="Ada Lovelace", email=email)
    for literal_email, _, literal_password in ((m.group(2), m.group(3), m.group(4))
                                               for m in LITERAL_SIGN_IN.finditer(code)):
        expect.setdefault("accounts", {})[literal_email] = register(make_config, literal_email, literal_password)
    known = {"url": emu.url, "config": social_config(), "webbrowser": browser, "email": email,
             "password": password, "jump": jump}
    unknown = names - set(known)
    assert not unknown, f"{ident}: the snippet uses {sorted(unknown)}, which test_readme_snippets.py does not bind"
    bindings.update({n: known[n] for n in names})

    run_snippet(ident, code, bindings, browser)
    out = capsys.readouterr().out
    for uuid in expect.get("accounts", {}).values():
        if 'record["/aboutMe"] = "Hello"' in code:  # README's quick start: the edit reached the server
            assert emu.user(uuid)["user"]["aboutMe"] == "Hello"
    if "social_sign_in_loopback" in code:
        assert browser.landed == [200], browser.landed
        if variant == "merge":  # the google identity was merged into the password account
            profiles = emu.user(expect["password_account"])["user"].get("profiles") or []
            assert len(profiles) == 1 and "google" in out, (profiles, out)
        else:  # two-step registration with the snippet's givenName
            [user] = [u for u in emu.users() if u.get("email") == browser.page["email"]]
            assert emu.user(user["uuid"])["user"]["givenName"] == "Ada"
