"""The code blocks of README.md (and docs/*.md) run as written, as programs, against a freshly reset emulator.

Every ```python block is a complete script and every ```c block a complete program: they read the emulator's
URL from JUMP_EMULATOR_URL (what scripts/with-emulator.sh exports), create the users they sign in with, and
keep their sessions in a temporary directory or in memory. Nothing is bound or added here: a block is written
to a file and run (a C block compiled with ``cc -std=c99 -Wall -Wextra -Werror -pedantic`` and linked against
the libjump under test), and then what it did is checked on the emulator.

The browser of a social sign-in (``webbrowser.open``) is $BROWSER: a small script that, like a browser,
returns at once, then fills in the emulator's fake identity provider page over HTTP and lands on libjump's
listener. Blocks that handle MergeRequired run a second time with the browser choosing an identity whose email
is the password account's (the only account on the reset emulator at that point), so that branch runs too.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import jump

from conftest import BINDING, BROWSER_DRIVER, ROOT, unique_email

FENCE = re.compile(r"^```(c|python)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
TESTS = Path(__file__).resolve().parent

def documents() -> List[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def snippets(language: str) -> List[Tuple[str, str]]:
    """(id "README.md:92", code) for every block of ``language``."""
    found = []
    for doc in documents():
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) == language:
                found.append((f"{doc.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}", m.group(2)))
    return found


PYTHON = [(ident, code, "as-written") for ident, code in snippets("python")]
PYTHON += [(ident, code, "merge") for ident, code in snippets("python") if "MergeRequired" in code]
C = snippets("c")


def test_the_readme_has_snippets() -> None:
    # The README's quickstarts (C and Python), and the guide's social sign-in (with MergeRequired, run twice).
    assert any(ident.startswith("README.md") for ident, _ in snippets("python"))
    assert any(ident.startswith("README.md") for ident, _ in C)
    assert any(ident.startswith("docs/guide.md") and "MergeRequired" in code for ident, code in snippets("python"))


def _environment(tmp_path: Path, emu, **extra: str) -> Dict[str, str]:
    """The environment of a snippet run: the emulator's URL and the library under test; HOME and
    XDG_DATA_HOME inside tmp_path, so that a session saved in the default place would be seen."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUMP_CONFIG")}
    env.update(JUMP_EMULATOR_URL=emu.url, JUMP_LIBRARY_PATH=jump.library_path(), HOME=str(tmp_path / "home"),
               XDG_DATA_HOME=str(tmp_path / "xdg"), PYTHONUNBUFFERED="1", **extra)
    return env


def _default_storage_untouched(tmp_path: Path) -> None:
    for default in (tmp_path / "xdg" / "jump", tmp_path / "home" / ".local" / "share" / "jump"):
        assert not default.exists(), f"the snippet saved a session in the default place {default}"


@pytest.mark.parametrize("ident,code,variant", PYTHON, ids=[f"{i}-{v}" for i, _, v in PYTHON])
def test_python_snippet_runs(ident: str, code: str, variant: str, emu, tmp_path: Path) -> None:
    script = tmp_path / "snippet.py"
    script.write_text(code)
    browser = tmp_path / "browser.py"
    browser.write_text(BROWSER_DRIVER)
    browser_log = tmp_path / "browser.log"
    google_email = unique_email("readme-google")
    env = _environment(tmp_path, emu, PYTHONPATH=str(BINDING), BROWSER=f"{sys.executable} {browser} %s",
                       DRIVER_TESTS=str(TESTS), DRIVER_LOG=str(browser_log),
                       DRIVER_EMAIL="merge" if variant == "merge" else google_email)
    (tmp_path / "home").mkdir()
    done = subprocess.run([sys.executable, str(script)], cwd=str(tmp_path), env=env, capture_output=True,
                          text=True, timeout=120)
    log = browser_log.read_text() if browser_log.exists() else "(no browser ran)"
    assert done.returncode == 0, f"{ident} ({variant}) failed:\n{done.stdout}{done.stderr}\nbrowser: {log}"
    _default_storage_untouched(tmp_path)

    users = emu.users()
    if 'record["/aboutMe"] = "Hello"' in code:  # the edit reached the server
        assert [emu.user(u["uuid"])["user"].get("aboutMe") for u in users] == ["Hello"]
    if "social_sign_in_loopback" in code:
        assert log.startswith("landed 200 "), log
        [password_account] = [u for u in users if u["email"] != google_email]
        profiles = emu.user(password_account["uuid"])["user"].get("profiles") or []
        if variant == "merge":  # the google identity was merged into the password account
            assert len(profiles) == 1 and profiles[0]["domain"] == "google.com", profiles
            assert "True [{" in done.stdout and "google" in done.stdout, done.stdout
        else:  # a new user: two-step registration with the snippet's givenName
            assert profiles == []
            [user] = [u for u in users if u["email"] == google_email]
            assert emu.user(user["uuid"])["user"]["givenName"] == "Ada"


@pytest.mark.parametrize("ident,code", C, ids=[i for i, _ in C])
def test_c_snippet_runs(ident: str, code: str, emu, tmp_path: Path) -> None:
    compiler = os.environ.get("CC", "cc")
    if not shutil.which(compiler):
        pytest.skip(f"no C compiler ({compiler})")
    # The library under test as -ljump, and its soname (libjump.so.1) for the loader, found through the rpath.
    libdir = tmp_path / "lib"
    libdir.mkdir()
    library = os.path.realpath(jump.library_path())
    for name in ("libjump.so", "libjump.so.1"):
        (libdir / name).symlink_to(library)
    source = tmp_path / "hello.c"
    source.write_text(code)
    program = tmp_path / "hello"
    built = subprocess.run([compiler, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", f"-I{ROOT / 'include'}",
                            "-o", str(program), str(source), f"-L{libdir}", "-ljump", f"-Wl,-rpath,{libdir}"],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, f"{ident} does not compile:\n{built.stderr}"
    done = subprocess.run([str(program)], cwd=str(tmp_path), env=_environment(tmp_path, emu), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, f"{ident} failed:\n{done.stdout}{done.stderr}"
    _default_storage_untouched(tmp_path)
    if "jump_record_set_string(record, \"/aboutMe\", \"Hello\")" in code:
        [user] = emu.users()
        assert user["email"] in done.stdout and emu.user(user["uuid"])["user"]["aboutMe"] == "Hello"
    # Without the emulator's URL it says so instead of guessing.
    env = _environment(tmp_path, emu)
    del env["JUMP_EMULATOR_URL"]
    unset = subprocess.run([str(program)], env=env, capture_output=True, text=True, timeout=60)
    assert unset.returncode != 0 and "JUMP_EMULATOR_URL" in unset.stderr
