"""Loading the library: locate, declare, ABI check, versions, status strings."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys

import pytest

import jump
from jump import _native

from conftest import BINDING


def _import_in_subprocess(env_path: str, code: str = "import jump; jump.version()") -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with JUMP_LIBRARY_PATH=env_path and, so that nothing else is
    found, ctypes.util.find_library answering None (as on a machine without libjump installed)."""
    env = dict(os.environ, JUMP_LIBRARY_PATH=env_path, PYTHONPATH=str(BINDING))
    prelude = "import ctypes.util; ctypes.util.find_library = lambda name: None\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code], env=env, capture_output=True, text=True, timeout=60
    )


def test_versions() -> None:
    assert jump.abi_version() == 1 == jump.ABI_VERSION
    assert jump.version() == "0.1.0"
    major, minor, patch = (int(p) for p in jump.version().split("."))
    assert jump.version_number() == (major << 16) | (minor << 8) | patch
    assert os.path.exists(jump.library_path())


def test_every_header_function_is_declared() -> None:
    import re

    # Declarations only: the generated entries' comments name handles and functions in prose.
    header = re.sub(r"/\*.*?\*/", "", (BINDING.parents[1] / "include" / "jump.h").read_text(), flags=re.S)

    # A name followed by "(" is a function, unless "(*" follows: "jump_status (*jump_storage_load_fn)(...)" is
    # a typedef returning jump_status.
    declared_in_header = set(re.findall(r"\b(jump_[a-z0-9_]+)\s*\((?!\s*\*)", header)) - {"jump_callback", "jump_free_fn"}
    # Names of typedefs used as "(*name)" are not functions.
    declared_in_header -= set(re.findall(r"\(\s*\*\s*(jump_\w+)\s*\)", header))
    assert declared_in_header == set(_native.SIGNATURES)
    for name in _native.SIGNATURES:
        fn = getattr(_native.lib, name)
        assert fn.argtypes is not None, name


def test_status_strings() -> None:
    for code in range(0, -18, -1):
        assert jump.status_str(code)
    assert jump.status_str(-999)  # unknown codes too
    assert jump.error_class(-10) is jump.ValidationFailed
    assert jump.error_class(-999) is jump.JumpError


def test_missing_library_names_what_was_tried(tmp_path) -> None:
    missing = str(tmp_path / "nope" / "libjump.so")
    proc = _import_in_subprocess(missing)
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr
    assert "JUMP_LIBRARY_PATH" in proc.stderr and missing in proc.stderr


def test_import_and_help_work_without_the_library(tmp_path) -> None:
    # The library is loaded on first use: importing the package, help() and an IDE's introspection need no
    # libjump.so; the first call that does raises the ImportError naming every place that was tried.
    assert not (BINDING / "jump" / _native.LIBRARY_NAME).exists(), "a packaged libjump.so in the source tree"
    missing = str(tmp_path / "nope" / "libjump.so")
    code = """
import io, contextlib, jump, jump.aio, jump.cli, jump.log, jump.results
from jump import _native
text = io.StringIO()
with contextlib.redirect_stdout(text):
    help(jump)
assert "class Client" in text.getvalue() and "sign_in" in text.getvalue(), text.getvalue()[:500]
assert not _native.loaded() and not jump.logging_enabled()
jump.disable_logging()  # before the library: nothing to load, nothing raised
print("imported")
try:
    jump.Client({"captureDomain": "http://127.0.0.1:9"})
except ImportError as exc:
    print("Client:", exc)
try:
    jump.version()
except ImportError as exc:
    print("version: raised again")
"""
    proc = _import_in_subprocess(missing, code)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("imported\nClient: cannot load libjump; tried:\n"), out
    assert "$JUMP_LIBRARY_PATH: " + missing + " (no such file)" in out
    assert "version: raised again" in out
    assert proc.stderr == ""  # no "Exception ignored in __del__" from the Client that was never made

    # The CLI: usage works; a command that needs the library fails with the same message and status 1.
    env = dict(os.environ, JUMP_LIBRARY_PATH=missing, PYTHONPATH=str(BINDING))
    usage = subprocess.run([sys.executable, "-m", "jump", "--help"], env=env, capture_output=True, text=True,
                           timeout=60)
    assert usage.returncode == 0 and "sign-in" in usage.stdout, usage.stderr
    version = subprocess.run([sys.executable, "-m", "jump", "version"], env=env, capture_output=True, text=True,
                             timeout=60)
    assert version.returncode == 125 and "cannot load libjump" in version.stderr, version.stderr


def test_library_loads_once_on_first_use() -> None:
    code = """
import threading, jump
from jump import _native
assert not _native.loaded()
versions = []
threads = [threading.Thread(target=lambda: versions.append(jump.version())) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert _native.loaded() and len(set(versions)) == 1, versions
assert jump.logging_enabled()  # the logging bridge was installed when it loaded
print(jump.library_path())
"""
    proc = _import_in_subprocess(jump.library_path(), code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == jump.library_path()


def test_not_a_library(tmp_path) -> None:
    bogus = tmp_path / "libjump.so"
    bogus.write_bytes(b"not an ELF file")
    proc = _import_in_subprocess(str(bogus))
    assert proc.returncode != 0
    assert "cannot load libjump" in proc.stderr and str(bogus) in proc.stderr


def test_abi_mismatch_is_refused() -> None:
    _native.check_abi(1)
    with pytest.raises(ImportError) as info:
        _native.check_abi(2, "/x/libjump.so")
    message = str(info.value)
    assert "2" in message and "1" in message and "/x/libjump.so" in message


def test_library_path_override_is_used() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import jump; print(jump.library_path())"],
        env=dict(os.environ, JUMP_LIBRARY_PATH=jump.library_path(), PYTHONPATH=str(BINDING)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == jump.library_path()


def test_owned_strings_use_void_pointers() -> None:
    # Owned out-strings must not be declared c_char_p (that would leak): they are POINTER(c_void_p).
    for name, (restype, argtypes) in _native.SIGNATURES.items():
        if restype is ctypes.c_char_p:
            assert name in {"jump_version", "jump_status_str", "jump_error_last"}, name
        assert ctypes.POINTER(ctypes.c_char_p) not in argtypes, name


def test_log_callback_receives_redacted_lines(tmp_path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    lines = []
    jump.set_log_callback(lines.append)
    token = jump.client._log_token
    assert token in _native._registry
    try:
        config = {
            "captureDomain": url,
            "captureFlowDomain": url,
            "captureClientId": "c",
            "captureAppId": "a",
            "captureFlowName": "standard",
            "storageDirectory": str(tmp_path),
        }
        with jump.Client(config) as c:
            with pytest.raises(jump.NetworkError):
                c.sign_in("someone@example.com", "super-secret-password")
    finally:
        jump.set_log_callback(None)
    assert lines, "no log line"
    assert all(line["kind"] == "log" and line["level"] in {"debug", "info", "warning", "error"} for line in lines)
    assert not any("super-secret-password" in line["message"] for line in lines)
    assert token not in _native._registry  # libjump called userdata_free when the callback was removed
    jump.enable_logging()  # back to the default for the tests that follow
