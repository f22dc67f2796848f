"""The loopback receiver (RFC 8252): libjump listens on 127.0.0.1 and calls open_url; here open_url hands
the URL to a thread that plays the browser over HTTP (the provider's page, its form, the redirect to the
listener)."""

from __future__ import annotations

import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List

import pytest

import jump

from conftest import http_call, unique_email


class Browser:
    """open_url for libjump: records the URL and drives the fake provider in a thread."""

    def __init__(self, idp, **page: Any) -> None:
        self.idp = idp
        self.page = page
        self.urls: List[str] = []
        self.landing: Dict[str, Any] = {}
        self.errors: List[BaseException] = []
        self.thread: threading.Thread = threading.Thread()
        self.opened = threading.Event()

    def __call__(self, url: str) -> None:
        self.urls.append(url)
        self.thread = threading.Thread(target=self._run, args=(url,), daemon=True)
        self.thread.start()
        self.opened.set()

    def _run(self, url: str) -> None:
        try:
            location = self.idp.finish(url, **self.page)
            self.landing["url"] = location
            answer = http_call(location)  # the browser lands on the loopback listener
            self.landing["status"] = answer.status
            self.landing["text"] = answer.text
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(exc)

    def join(self) -> None:
        self.thread.join(30)
        assert not self.errors, self.errors


def listener_of(url: str) -> str:
    """Where the sign-in URL sends the browser back to (its token_url)."""
    [token_url] = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["token_url"]
    return token_url


def test_loopback_sign_in(emu, idp, social_config) -> None:
    email = unique_email("loop")
    browser = Browser(idp, name="Lou Pback", email=email)
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        result = c.social_sign_in_loopback("facebook", browser, timeout=30)
        browser.join()
        assert len(browser.urls) == 1  # open_url is called once
        back = urllib.parse.urlsplit(browser.landing["url"])
        assert back.scheme == "http" and back.hostname == "127.0.0.1" and back.port
        assert browser.landing["status"] == 200 and "close" in browser.landing["text"].lower()
        identity = idp.identity_by_email("facebook", email)
        assert result["outcome"] == "registered" and result["provider"] == "facebook"
        assert c.is_signed_in and c.state["uuid"] == result["uuid"]
        assert [p["identifier"] for p in emu.user(result["uuid"])["user"]["profiles"]] == [identity["identifier"]]
        # the listener is gone once the sign-in completed
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(f"http://127.0.0.1:{back.port}/", timeout=5)


def test_loopback_existing_user_and_options(emu, idp, social_config) -> None:
    email = unique_email("loop2")
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        first = c.social_sign_in_loopback("google", Browser(idp, name="Goo Gle", email=email), timeout=30)
        c.sign_out()
        browser = Browser(idp, identity=email)
        again = c.social_sign_in_loopback("google", browser, timeout=30, force_reauth=True)
        browser.join()
        assert "force_reauth" in urllib.parse.parse_qs(urllib.parse.urlsplit(browser.urls[0]).query)
        assert again["outcome"] == "signed_in" and again["uuid"] == first["uuid"]


def test_loopback_cancelled_on_the_page(emu, idp, social_config) -> None:
    browser = Browser(idp, cancel=True)
    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        with pytest.raises(jump.Cancelled) as info:
            c.social_sign_in_loopback("twitter", browser, timeout=30)
        browser.join()
        assert info.value.reason == "user_canceled" and not c.is_signed_in


def test_loopback_timeout(emu, social_config) -> None:
    urls: List[str] = []
    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        started = time.monotonic()
        with pytest.raises(jump.Timeout):
            c.social_sign_in_loopback("facebook", urls.append, timeout=1.5)  # the browser never comes back
        elapsed = time.monotonic() - started
        assert 1.0 <= elapsed < 15, elapsed
        assert len(urls) == 1 and not c.is_signed_in
        # the listener was closed
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(listener_of(urls[0]), timeout=5)


def test_open_url_failure_is_raised(emu, social_config) -> None:
    class NoBrowser(Exception):
        pass

    def fail(url: str) -> None:
        raise NoBrowser(url)

    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        started = time.monotonic()
        with pytest.raises(NoBrowser):
            c.social_sign_in_loopback("facebook", fail, timeout=30)
        assert time.monotonic() - started < 10  # it did not wait for a browser that never opened
        assert not c.is_signed_in


def test_loopback_async(emu, idp, social_config) -> None:
    email = unique_email("loopa")
    browser = Browser(idp, name="As Ync", email=email)
    done: List[Any] = []
    caller = threading.get_ident()
    threads: List[int] = []

    def open_url(url: str) -> None:
        threads.append(threading.get_ident())
        browser(url)

    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        request = c.social_sign_in_loopback_async("linkedin", open_url, 30, lambda r, e: done.append((r, e)))
        result = request.wait(30)
        browser.join()
        assert threads and threads[0] != caller  # open_url ran on a libjump thread
        assert result["outcome"] == "registered" and c.is_signed_in
        assert request.payload["operation"] == "social_sign_in_loopback"
        assert done == [(result, None)]
        assert emu.user(result["uuid"])["user"]["email"] == email


def test_loopback_async_cancel(emu, social_config) -> None:
    urls: List[str] = []
    opened = threading.Event()

    def open_url(url: str) -> None:
        urls.append(url)
        opened.set()

    with jump.Client(social_config(storageDirectory=":memory:")) as c:
        request = c.social_sign_in_loopback_async("facebook", open_url, 60)
        assert opened.wait(30)
        listener = listener_of(urls[0])
        started = time.monotonic()
        assert request.cancel() is True
        with pytest.raises(jump.Cancelled):
            request.wait(10)
        assert request.cancelled() and time.monotonic() - started < 5
        assert not c.is_signed_in
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(listener, timeout=5)


def test_loopback_sign_in_can_share(emu, idp, social_config) -> None:
    email = unique_email("loopshare")
    browser = Browser(idp, name="Lou Share", email=email)
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        result = c.social_sign_in_loopback("facebook", browser, timeout=30)
        browser.join()
        assert result["identifier"] == idp.identity_by_email("facebook", email)["identifier"]
        shared = c.share({"action": "signed in from a terminal", "url": "https://example.com/"}, ["facebook"])
        assert shared["results"]["facebook"]["ok"] is True
