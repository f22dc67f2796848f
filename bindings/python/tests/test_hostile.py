"""Hostile input and shutdown (session integrity, rows 6-12) through the binding; mirrors Tests/c/test_hostile.c.

- row 6: request headers cannot smuggle header lines or non-token names; web login reads CRLF Set-Cookie lines;
- row 8: ``maxResponseBytes`` (default 16 MiB) bounds every answer;
- row 10: an interpreter exiting while async calls are in flight, with a slow host storage, exits cleanly -
  host callbacks must never run on a libdispatch worker, which CPython (< 3.14) ends while it finalizes and
  whose loss libdispatch treats as fatal;
- row 12: ``jump_error_last_jansson(NULL)`` reports its own failure;
- row 7: a server echoing the request never hands a secret back; row 9: deep JSON on a 128 KiB thread is a
  status; row 11: opening a store removes stale temp files and makes the directory 0700.
"""

from __future__ import annotations

import ctypes
import http.server
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Dict

import pytest

import jump
from jump import _native

from conftest import BINDING, PASSWORD, http_call, unique_email

ME = "/weblogin/me"
ME_COUNTER = "GET /weblogin/me"


def new_user(emu) -> str:
    email = unique_email("hostile")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    return email


# -- row 6: headers ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"X-A": "1\r\nCookie: x=1"},  # a Cookie line of the caller's choosing next to the credential
        {"X-A": "1\nX-Injected: 2"},
        {"X-A": "a\x00b"},
        {"X-A": "a\x01b"},
        {"Authorization ": "Bearer mine"},  # slips past a check for "authorization"
        {"X A": "1"},
        {"X:A": "1"},
        {"X(A)": "1"},
    ],
    ids=["crlf-cookie", "lf", "nul", "soh", "authorization-space", "space", "colon", "parens"],
)
def test_request_refuses_bad_headers_before_sending(client: jump.Client, emu, registered, headers: Dict[str, str]) -> None:
    emu.clear_counters()
    with pytest.raises(jump.InvalidArgument) as info:
        client.request("GET", ME, headers)
    assert info.value.argument == "headers", info.value.detail
    assert emu.counters().get(ME_COUNTER, 0) == 0, "the request reached the server"
    assert client.request("GET", ME, {"X-A": "1\tand 2"})["status"] == 200  # HTAB is fine in a value


def test_web_login_reads_crlf_separated_set_cookie_lines(make_config, emu) -> None:
    email = new_user(emu)
    answer = http_call(emu.url + "/weblogin", {"email": email, "password": PASSWORD})
    assert answer.status == 200, answer.text[:300]
    set_cookie = answer.headers.get_all("Set-Cookie")
    token = set_cookie[0].split("oauth_token=", 1)[1].split(";", 1)[0]
    # The token sits on the second line, as an HTTP stack's raw header dump gives them: CRLF-terminated.
    lines = "Set-Cookie: theme=dark; Path=/\r\n" + "".join(f"Set-Cookie: {c}\r\n" for c in set_cookie)
    with jump.Client(make_config(storageDirectory=":memory:")) as c:
        assert c.use_web_login(emu.url + "/weblogin", lines) == token
        me = c.request("GET", ME)
        assert me["status"] == 200 and email in me["body"]


# -- row 8: maxResponseBytes ----------------------------------------------------------------------------------


def test_max_response_bytes_defaults_to_16_mib_and_must_be_positive() -> None:
    with jump.Config() as config:
        assert config.to_dict().get("maxResponseBytes") == 16 * 1024 * 1024
    for bad in (0, -1):
        with pytest.raises(jump.InvalidArgument) as info:
            jump.Config(maxResponseBytes=bad)
        assert "maxResponseBytes" in (info.value.message + str(info.value.argument)), info.value.detail


def test_small_max_response_bytes_fails_an_ordinary_sign_in(make_config, emu, storage) -> None:
    email = unique_email("maxbytes")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD, "record": {"aboutMe": "x" * 900}})
    with jump.Client(make_config()) as c:
        c.load_flow()  # cached in storage: the sign-in answer itself meets the limit
    with jump.Client(make_config(maxResponseBytes=1000)) as c:
        with pytest.raises(jump.ServerError) as info:
            c.sign_in(email, PASSWORD)
        assert "maxResponseBytes" in info.value.message
        assert not c.is_signed_in


# -- row 12: jump_error_last_jansson(NULL) ------------------------------------------------------------------


def test_error_last_jansson_null_out_reports_its_own_failure() -> None:
    out = ctypes.c_void_p()
    # an earlier, different failure: a client handle that was never made (status -2, no argument "out")
    assert _native.lib.jump_client_state(ctypes.c_void_p(0x10), ctypes.byref(out)) == -2
    assert _native.lib.jump_error_last_jansson(None) == -1
    detail = _native.last_error_detail()
    assert detail.get("status") == -1 and detail.get("argument") == "out", detail


# -- row 10: exiting with async calls in flight -------------------------------------------------------------

EXIT_SCRIPT = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, {binding!r})
    import jump

    url, email, password, delay = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])

    class SlowStore:
        # Every call sleeps (the GIL is released there): interpreter exit lands while libjump is inside one.
        def __init__(self):
            self.data = {{}}
        def load(self, key):
            time.sleep(0.02)
            return self.data.get(key)
        def save(self, key, data):
            time.sleep(0.15)
            self.data[key] = bytes(data)
        def erase(self, key):
            time.sleep(0.02)
            self.data.pop(key, None)

    requests = []
    for _ in range(3):
        config = jump.Config({{"captureDomain": url, "captureFlowDomain": url, "captureClientId": "jump-default-client",
                              "captureAppId": "default-app", "captureFlowName": "standard", "requestTimeoutMs": 10000}})
        config.set_storage(SlowStore())
        client = jump.Client(config)  # not closed: the binding's exit handler must cope
        requests.append(client.sign_in_async(email, password))
        requests.append(client.forgot_password_async(email))
        requests.append(client.fetch_record_async())
    time.sleep(delay)
    print("exiting with", sum(not r.done for r in requests), "requests in flight", flush=True)
    """
)

CRASH_MARKERS = ("Fatal", "fatal error", "BUG IN", "Segmentation fault", "core dumped", "Aborted", "SIGSEGV", "SIGABRT")


def test_exit_with_async_calls_in_flight_and_slow_host_storage(emu, tmp_path: Path) -> None:
    """20 interpreters, each exiting while its async calls (and their slow storage saves) are still running;
    every one must exit 0 without a crash within 30 s. One test: the runs differ only in when exit lands."""
    email = new_user(emu)
    script = tmp_path / "exit_in_flight.py"
    script.write_text(EXIT_SCRIPT.format(binding=str(BINDING)))
    env = dict(os.environ)
    env["PYTHONFAULTHANDLER"] = "1"  # a crash prints "Fatal Python error" instead of dying silently
    failures = []
    started = time.monotonic()
    for run in range(20):
        delay = (run % 5) * 0.05  # 0 .. 0.2 s: exit during the requests, or during the slow saves after them
        try:
            done = subprocess.run([sys.executable, str(script), emu.url, email, PASSWORD, str(delay)],
                                  capture_output=True, text=True, timeout=30, env=env)
        except subprocess.TimeoutExpired as exc:
            failures.append(f"run {run} (exit after {delay:.2f} s): still running after 30 s; "
                            f"stderr: {(exc.stderr or '')[-800:]!r}")
            continue
        output = done.stdout + done.stderr
        crashed = [m for m in CRASH_MARKERS if m in output]
        if done.returncode != 0 or crashed:
            failures.append(f"run {run} (exit after {delay:.2f} s): status {done.returncode}, markers {crashed}; "
                            f"output: {output[-1500:]!r}")
    elapsed = time.monotonic() - started
    assert not failures, f"{len(failures)} of 20 runs did not exit cleanly ({elapsed:.1f} s):\n" + "\n".join(failures)
    assert elapsed < 60, f"20 runs took {elapsed:.1f} s"


# -- row 7: a server echoing the request ---------------------------------------------------------------------


class EchoHandler(http.server.BaseHTTPRequestHandler):
    """Refuses every Capture call with an error text that repeats the request (as some proxies do)."""

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode("utf-8", "replace")
        answer = json.dumps({"stat": "error", "code": 210, "error": "invalid_credentials",
                             "error_description": f"you sent {body} with {self.headers.get('Authorization')}"})
        data = answer.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


def test_an_echoing_server_never_hands_the_password_back() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), EchoHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    password = "Pw hostile/5ecret+Q7&x=100%"
    try:
        with jump.Client({"captureDomain": url, "captureClientId": "c", "storageDirectory": ":memory:"}) as c:
            with pytest.raises(jump.BadCredentials) as info:
                c.sign_in("echo@example.com", password)
    finally:
        server.shutdown()
    text = json.dumps(info.value.detail)
    assert "you sent" in text  # the server's words are kept...
    for form in (password, urllib.parse.quote(password, safe=""), urllib.parse.quote_plus(password)):
        assert form not in text, f"the password ({form!r}) is in the error detail"  # ...its secrets are not
    assert "refresh_secret=[redacted]" in text


# -- row 9: depth on a small stack ---------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [64, 65, 2000, 100000])
def test_deep_json_is_a_status_on_a_128_kib_thread(depth: int) -> None:
    """jump_config_from_json on a thread with a 128 KiB stack: up to JUMP_JSON_MAX_DEPTH (64) it is an
    ordinary answer (an unknown key here), deeper it is JUMP_E_INVALID_ARGUMENT, never a crash."""
    text = ('{"x":' + "[" * (depth - 1) + "]" * (depth - 1) + "}").encode()
    outcome: Dict[str, int] = {}

    def call() -> None:
        out = ctypes.c_void_p()
        outcome["status"] = _native.lib.jump_config_from_json(text, ctypes.byref(out))
        outcome["depth_refused"] = "max_depth" in json.dumps(_native.last_error_detail())

    previous = threading.stack_size(128 * 1024)
    try:
        worker = threading.Thread(target=call)
        worker.start()
        worker.join(30)
    finally:
        threading.stack_size(previous)
    assert outcome.get("status") == -1
    assert outcome["depth_refused"] == (depth > 64)


# -- row 11: storage hygiene ---------------------------------------------------------------------------------


def test_opening_a_store_removes_stale_temp_files_and_makes_the_directory_private(make_config, emu, tmp_path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    os.chmod(store, 0o777)
    config = make_config(storageDirectory=str(store))
    with jump.Client(config) as c:
        c.sign_in(new_user(emu), PASSWORD)
    session = next(p for p in store.iterdir() if p.name.startswith("session-"))
    stale = store / f"{session.name}.tmp-999999-42"  # a save a crash cut short (no such process)
    stale.write_bytes(b"half")
    os.chmod(store, 0o777)
    with jump.Client(config) as c:
        assert c.is_signed_in
    assert not stale.exists()
    assert (store.stat().st_mode & 0o777) == 0o700
