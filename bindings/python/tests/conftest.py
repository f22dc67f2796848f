"""Fixtures: the real libjump and one real jump-emulator process per test session (no mocks).

Binaries: ``$JUMP_LIBRARY_PATH`` (default build/lib/libjump.so) and ``$JUMP_EMULATOR`` (default
build/bin/jump-emulator, else .build-emu/debug/jump-emulator). The emulator is reset before every test.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[3]
BINDING = ROOT / "bindings" / "python"

_default_lib = ROOT / "build" / "lib" / "libjump.so"
if "JUMP_LIBRARY_PATH" not in os.environ and _default_lib.exists():
    os.environ["JUMP_LIBRARY_PATH"] = str(_default_lib)

if not os.environ.get("JUMP_TEST_INSTALLED"):  # test the source tree unless asked to test an installed copy
    sys.path.insert(0, str(BINDING))
import jump  # noqa: E402
from emulator_process import AdminClient, emulator_path, running_emulator  # noqa: E402,F401

PASSWORD = "correct horse battery"


class Emulator(AdminClient):
    """A running jump-emulator plus a tiny client for its admin API."""

    def __init__(self, url: str, process: "subprocess.Popen[bytes]", workdir: str) -> None:
        super().__init__(url)
        self.process = process
        self.workdir = workdir

    # Conveniences used by several tests
    def reset(self) -> None:
        self.admin("POST", "/emulator/reset")

    def counters(self) -> Dict[str, int]:
        return self.admin("GET", "/emulator/counters").get("counters", {})

    def clear_counters(self) -> None:
        self.admin("DELETE", "/emulator/counters")

    def advance_clock(self, seconds: int) -> None:
        self.admin("POST", "/emulator/clock", {"advance_seconds": seconds})

    def fault(self, kind: str, path: str, count: int = 1, **extra: Any) -> None:
        self.admin("POST", "/emulator/faults", {"kind": kind, "count": count, "path": path, **extra})

    def users(self) -> List[Dict[str, Any]]:
        return self.admin("GET", "/emulator/users").get("users", [])

    def user(self, user_uuid: str) -> Dict[str, Any]:
        return self.admin("GET", f"/emulator/users/{user_uuid}")


@pytest.fixture(scope="session")
def emulator() -> Iterator[Emulator]:
    with running_emulator("jump-pytest-emu-") as (url, process, workdir):
        yield Emulator(url, process, workdir)


@pytest.fixture
def emu(emulator: Emulator) -> Emulator:
    """The session's emulator, reset (users, clock, faults, counters, settings) for this test."""
    emulator.reset()
    emulator.admin("DELETE", "/emulator/faults")
    emulator.clear_counters()
    return emulator


@pytest.fixture
def storage(tmp_path: Path) -> str:
    """A fresh session storage directory."""
    path = tmp_path / "storage"
    path.mkdir()
    return str(path)


@pytest.fixture
def make_config(emu: Emulator, storage: str):
    """``make_config(**overrides) -> dict``: a config for a client talking to the emulator."""

    def make(**overrides: Any) -> Dict[str, Any]:
        config = {
            "captureDomain": emu.url,
            "captureClientId": "jump-default-client",
            "captureAppId": "default-app",
            "captureFlowName": "standard",
            "captureLocale": "en-US",
            "captureFlowDomain": emu.url,
            "storageDirectory": storage,
            "requestTimeoutMs": 10000,
        }
        config.update(overrides)
        return config

    return make


@pytest.fixture
def client(make_config) -> Iterator["jump.Client"]:
    """A client against the emulator (closed after the test)."""
    with jump.Client(make_config()) as c:
        yield c


def refresh_on_the_wire(client: "jump.Client", emu: "Emulator", delay_ms: int = 1500) -> threading.Thread:
    """Starts ``client.refresh_access_token()`` on a thread, its request held by the emulator for ``delay_ms``,
    and returns (the thread, to join) once the request has reached the emulator: what a test does meanwhile
    happens while the answer is on its way. The refresh's own error, if any (its save failing), is dropped."""
    emu.clear_counters()
    emu.fault("delay", "/oauth/refresh_access_token", delay_ms=delay_ms)

    def refresh() -> None:
        try:
            client.refresh_access_token()
        except jump.JumpError:
            pass  # its own save fails: it may report that

    refresher = threading.Thread(target=refresh)
    refresher.start()
    deadline = time.monotonic() + 10
    while emu.counters().get("POST /oauth/refresh_access_token", 0) < 1 and time.monotonic() < deadline:
        time.sleep(0.005)
    return refresher


def wait_for(predicate, timeout: float = 10.0, interval: float = 0.02) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` passes (events arrive on libjump's thread)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)


def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"


def unique_username(prefix: str = "user") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


@pytest.fixture
def registered(client: "jump.Client") -> Dict[str, Any]:
    """A new traditional account registered (and signed in) through ``client``."""
    email = unique_email()
    username = unique_username()
    result = client.register_traditional(
        {"email": email, "displayName": "Ada L", "givenName": "Ada", "familyName": "Lovelace", "username": username},
        PASSWORD,
    )
    return {"email": email, "username": username, "password": PASSWORD, **result}


# ---------------------------------------------------------------------------------------------------------
# Social sign-in (Engage): the emulator's fake identity provider driven over HTTP, extra emulators
# ---------------------------------------------------------------------------------------------------------

import html.parser  # noqa: E402
import socket  # noqa: E402
import urllib.parse  # noqa: E402

ENGAGE_APP_ID = "jump-default-engage"
ENGAGE_API_KEY = "jump-engage-api-key"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        return None  # a 3xx surfaces as an HTTPError whose headers carry Location


_no_redirect = urllib.request.build_opener(_NoRedirect)


class HttpAnswer:
    def __init__(self, status: int, headers: Any, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.text)

    @property
    def location(self) -> Optional[str]:
        return self.headers.get("Location")


def http_call(url: str, form: Optional[Dict[str, str]] = None, method: Optional[str] = None,
              timeout: float = 15, headers: Optional[Dict[str, str]] = None) -> HttpAnswer:
    """One HTTP request, redirects not followed (a 302 is an answer like any other). ``headers`` are sent as
    given (say the ``Origin`` a browser would send)."""
    data = None if form is None else urllib.parse.urlencode(form).encode("utf-8")
    request = urllib.request.Request(url, data=data, method=method or ("GET" if data is None else "POST"))
    if data is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with _no_redirect.open(request, timeout=timeout) as response:
            return HttpAnswer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as exc:
        return HttpAnswer(exc.code, exc.headers, exc.read())


class IdpPage(html.parser.HTMLParser):
    """The fake identity provider's page: its title and forms (action, hidden inputs, buttons)."""

    def __init__(self, url: str, answer: HttpAnswer) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.status = answer.status
        self.text = answer.text
        self.title = ""
        self.forms: List[Dict[str, Any]] = []
        self._in_title = False
        self._button: Optional[Dict[str, Any]] = None
        self.feed(self.text)

    def handle_starttag(self, tag: str, attrs: List[Any]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "title":
            self._in_title = True
        elif tag == "form":
            self.forms.append({"action": urllib.parse.urljoin(self.url, a.get("action", "")),
                               "method": a.get("method", "get").lower(), "inputs": [], "buttons": []})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"].append(a)
        elif tag == "button" and self.forms:
            self._button = dict(a, text="")
            self.forms[-1]["buttons"].append(self._button)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag == "button":
            self._button = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        if self._button is not None:
            self._button["text"] += data

    def form_with(self, element_id: str) -> Dict[str, Any]:
        for form in self.forms:
            if any(b.get("id") == element_id for b in form["buttons"]) or any(
                    i.get("id") == element_id for i in form["inputs"]):
                return form
        raise AssertionError(f"no form with #{element_id} on the page {self.title!r}: {self.text[:2000]}")

    def identity_buttons(self) -> List[Dict[str, Any]]:
        return [b for f in self.forms for b in f["buttons"] if str(b.get("id", "")).startswith("identity-")]

    def submit(self, element_id: str, fields: Optional[Dict[str, str]] = None) -> HttpAnswer:
        """Submit the form holding #element_id as a browser would: its inputs (hidden ones as they are,
        others from ``fields``) plus the clicked button's name=value."""
        form = self.form_with(element_id)
        data: Dict[str, str] = {}
        for i in form["inputs"]:
            name = i.get("name")
            if name:
                data[name] = i.get("value", "")
        data.update(fields or {})
        for b in form["buttons"]:
            if b.get("id") == element_id and b.get("name"):
                data[b["name"]] = b.get("value", "")
        return http_call(form["action"], data, method="POST")


class FakeIdP:
    """Drives the emulator's fake identity provider pages like a browser (without one)."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu

    def open(self, url: str) -> IdpPage:
        answer = http_call(url)
        assert answer.status == 200, f"GET {url} -> {answer.status}: {answer.text[:500]}"
        return IdpPage(url, answer)

    def finish(self, url: str, *, name: Optional[str] = None, email: Optional[str] = None,
               identity: Optional[str] = None, cancel: bool = False) -> str:
        """Open the start URL, then create an identity (name + email), continue as an existing identity
        (the button whose label holds ``identity``, an email or a name), or cancel. Returns the Location the
        provider redirects the browser to (the completion URL)."""
        page = self.open(url)
        if cancel:
            answer = page.submit("cancel")
        elif identity is not None:
            matches = [b for b in page.identity_buttons() if identity in b["text"]]
            assert matches, f"no identity button for {identity!r} among {[b['text'] for b in page.identity_buttons()]}"
            answer = page.submit(matches[0]["id"])
        else:
            assert name is not None and email is not None
            answer = page.submit("create-identity", {"display_name": name, "email": email})
        assert answer.status in (301, 302, 303, 307), f"the provider answered {answer.status}: {answer.text[:500]}"
        assert answer.location, "the provider's redirect has no Location"
        return urllib.parse.urljoin(url, answer.location)

    def identities(self, provider: Optional[str] = None) -> List[Dict[str, Any]]:
        path = "/emulator/identities" + (f"?provider={urllib.parse.quote(provider)}" if provider else "")
        return self.emu.admin("GET", path).get("identities", [])

    def identity_by_email(self, provider: str, email: str) -> Dict[str, Any]:
        found = [i for i in self.identities(provider) if (i.get("profile") or {}).get("email") == email
                 or i.get("email") == email]
        assert len(found) == 1, f"{provider} identities with {email}: {found}"
        return found[0]

    def create_identity(self, provider: str, **fields: Any) -> Dict[str, Any]:
        return self.emu.admin("POST", "/emulator/identities", {"provider": provider, **fields})


@pytest.fixture
def idp(emu: Emulator) -> FakeIdP:
    """The fake identity provider of the (reset) emulator."""
    return FakeIdP(emu)


@pytest.fixture
def social_config(make_config, emu: Emulator):
    """``social_config(**overrides) -> dict``: make_config plus the emulator's Engage app (same host)."""

    def make(**overrides: Any) -> Dict[str, Any]:
        config = {"engageAppId": ENGAGE_APP_ID, "engageDomain": emu.url}
        config.update(overrides)
        return make_config(**config)

    return make


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def closed_port_url() -> str:
    """A loopback URL nothing listens on."""
    return f"http://127.0.0.1:{free_port()}"


@pytest.fixture
def spawn_emulator(tmp_path: Path):
    """``spawn_emulator() -> Emulator``: a private jump-emulator (own database) for tests that stop or
    restart it; every one still running is stopped after the test. ``emulator.process`` is the Popen."""
    started: List[Emulator] = []

    def spawn(port: int = 0, db: Optional[str] = None) -> Emulator:
        binary = emulator_path()
        if not binary.exists():
            pytest.fail(f"jump-emulator not found at {binary}", pytrace=False)
        workdir = tempfile.mkdtemp(prefix="jump-pytest-emu-", dir=str(tmp_path))
        process = subprocess.Popen(
            [str(binary), "--port", str(port), "--db", db or os.path.join(workdir, "emu.sqlite"),
             "--password-hash-cost", "4"],
            stdout=subprocess.PIPE, stderr=open(os.path.join(workdir, "emulator.log"), "wb"))
        assert process.stdout is not None
        url = process.stdout.readline().decode("utf-8").strip()
        threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()  # type: ignore[union-attr]
        if not url.startswith("http"):
            process.kill()
            pytest.fail(f"private jump-emulator did not start: {Path(workdir, 'emulator.log').read_text()[-2000:]}")
        emulator = Emulator(url, process, workdir)
        started.append(emulator)
        return emulator

    yield spawn
    for emulator in started:
        if emulator.process.poll() is None:
            emulator.process.send_signal(signal.SIGTERM)
            try:
                emulator.process.wait(10)
            except subprocess.TimeoutExpired:
                emulator.process.kill()


# $BROWSER for the tests that run programs doing a social sign-in (examples, README snippets): it detaches
# (a browser returns at once), then drives the fake provider page. DRIVER_* say what it does there:
# DRIVER_MODE "create" (default: a new identity DRIVER_NAME, DRIVER_EMAIL), "identity" (continue as the
# provider's identity with DRIVER_EMAIL) or "cancel"; DRIVER_EMAIL "merge" means the email of the only user on
# the emulator. It appends "landed <status> <url>" or "error <exception>" to DRIVER_LOG.
BROWSER_DRIVER = textwrap.dedent('''
    import os, subprocess, sys
    url = sys.argv[1]
    if os.environ.get("DRIVER_CHILD") != "1":
        subprocess.Popen([sys.executable, __file__, url], env=dict(os.environ, DRIVER_CHILD="1"),
                         start_new_session=True)
        sys.exit(0)
    sys.path.insert(0, os.environ["DRIVER_TESTS"])
    log = open(os.environ["DRIVER_LOG"], "a")
    try:
        from conftest import Emulator, FakeIdP, http_call
        email = os.environ.get("DRIVER_EMAIL", "")
        if email == "merge":
            [user] = Emulator(os.environ["JUMP_EMULATOR_URL"], None, None).users()
            email = user["email"]
        mode = os.environ.get("DRIVER_MODE", "create")
        if mode == "cancel":
            page = {"cancel": True}
        elif mode == "identity":
            page = {"identity": email}
        else:
            page = {"name": os.environ.get("DRIVER_NAME", "Ada Lovelace"), "email": email}
        location = FakeIdP(None).finish(url, **page)
        log.write(f"landed {http_call(location).status} {location}\\n")
    except BaseException as exc:
        log.write(f"error {exc!r}\\n")
''')
