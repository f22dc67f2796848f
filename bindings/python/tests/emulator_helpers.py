"""What tests use to talk to a running jump-emulator over HTTP: the admin API with its conveniences, plain HTTP
calls (redirects not followed), the fake identity provider's pages driven like a browser would, and the
``emulator`` (one per session), ``emu`` (reset for each test) and ``idp`` fixtures. Shared by the binding's
tests (conftest.py imports it all) and the emulator's own tests (Tests/emulator): this module never imports
jump."""

from __future__ import annotations

import html.parser
import json
import subprocess
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, Iterator, List, Optional

import pytest

from emulator_process import AdminClient, running_emulator

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



def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"


def unique_username(prefix: str = "user") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


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
