"""The emulator's dashboard (GET /emulator, /emulator/ui/...) and its fake identity provider's page, in a real
browser: headless Chromium (selenium + chromedriver) against the session's real jump-emulator process. Each
page is saved as build/test-artifacts/screenshots/<page>.png for people to look at.

Needs what test_social_browser.py needs (/usr/bin/chromium, /usr/bin/chromedriver, selenium); skipped,
saying why, only when they are missing outside CI (under CI=true a missing browser is a failure)."""

from __future__ import annotations

import base64
import contextlib
import html
import http.server
import json
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

import headless_chromium
from emulator_helpers import ENGAGE_APP_ID, http_call, unique_email
from emulator_process import ROOT

SCREENSHOTS = ROOT / "build" / "test-artifacts" / "screenshots"


headless_chromium.require("the dashboard browser test")

from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException, StaleElementReferenceException, WebDriverException)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

WAIT = headless_chromium.WAIT


@pytest.fixture
def chromium(tmp_path):
    yield from headless_chromium.driver(tmp_path / "profile", "--window-size=1280,1000")


def open_page(driver: Any, url: str) -> str:
    driver.get(url)
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return document.readyState") == "complete")
    return driver.find_element(By.TAG_NAME, "body").text


def wait_text(driver: Any, element_id: str, accept: Callable[[str], bool]) -> str:
    """Waits until #element_id's text is accepted, across the page loads a form post causes."""
    box = {"text": ""}

    def check(d: Any) -> bool:
        box["text"] = d.find_element(By.ID, element_id).text
        return accept(box["text"])

    try:
        # Mid page load Chromium may also answer "Node ... does not belong to the document" (a plain
        # WebDriverException): the same race as a stale element, so it is waited out too.
        WebDriverWait(driver, WAIT, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException,
                                                        WebDriverException)).until(check)
    except Exception as exc:
        raise AssertionError(f"#{element_id} shows {box['text']!r}; the page: {driver.page_source[:1500]}") from exc
    return box["text"]


def screenshot(driver: Any, name: str) -> Path:
    """The whole page, not only the window (Chromium's DevTools capture beyond the viewport), as
    build/test-artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 8000), "scale": 1}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot",
                                  {"format": "png", "captureBeyondViewport": True, "clip": clip})
    path = SCREENSHOTS / f"{name}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def set_text(driver: Any, element_id: str, text: str) -> None:
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def wait_url(driver: Any, url: str, fragment: str = "") -> None:
    """Waits for the 303 after a form post to bring the browser to ``url``, its fragment starting with
    ``fragment`` (needed when the form was on ``url`` itself: the browser is there before the post too)."""

    def arrived(d: Any) -> bool:
        here, _, anchor = d.current_url.partition("#")
        return here == url and anchor.startswith(fragment) and (not fragment or "#" in d.current_url) \
            and d.execute_script("return document.readyState") == "complete"

    try:
        WebDriverWait(driver, WAIT).until(arrived)
    except Exception as exc:
        raise AssertionError(f"at {driver.current_url}, not {url}; the page: {driver.page_source[:1500]}") from exc


def sign_in(emu: Any, email: str, password: str) -> Dict[str, Any]:
    return http_call(emu.url + "/oauth/auth_native_traditional", {
        "client_id": "jump-default-client", "locale": "en-US", "form": "signInForm", "signInEmailAddress": email,
        "currentPassword": password, "redirect_uri": "http://localhost/done"}).json()


def request_password_reset(emu: Any, email: str) -> None:
    answer = http_call(emu.url + "/oauth/forgot_password_native", {
        "client_id": "jump-default-client", "locale": "en-US", "form": "forgotPasswordForm",
        "signInEmailAddress": email, "redirect_uri": "http://localhost/done", "flow": "standard",
        "flow_version": "20261121000000000001"})
    assert answer.status == 200 and answer.json()["stat"] == "ok", answer.text


def test_dashboard_pages_in_chromium(emu, idp, chromium) -> None:
    email = unique_email("dash")
    hostile = "<script>alert(1)</script>"
    user = emu.admin("POST", "/emulator/users", {
        "email": email, "password": "pw-dashboard", "record": {"displayName": hostile, "givenName": "Dash"}})["user"]
    idp.create_identity("google", display_name="Gia Google", email=unique_email("gia"))
    request_password_reset(emu, email)
    signed_in = http_call(emu.url + "/oauth/auth_native_traditional", {
        "client_id": "jump-default-client", "locale": "en-US", "form": "signInForm", "signInEmailAddress": email,
        "currentPassword": "pw-dashboard", "redirect_uri": "http://localhost/done", "refresh_secret": "s"}).json()
    token = signed_in["access_token"]
    emu.fault("http_500", "/entity", count=2)

    overview = open_page(chromium, emu.url + "/emulator")
    assert "jump-emulator" in overview and "Overview" in overview
    assert chromium.find_element(By.ID, "stat-users").text.startswith("1")
    screenshot(chromium, "overview")

    apps = open_page(chromium, emu.url + "/emulator/ui/apps")
    assert "jump-default-client" in apps and "jump-default-engage" in apps
    assert "jump-default-secret" not in apps and "jump-engage-api-key" not in apps
    screenshot(chromium, "apps")

    users = open_page(chromium, emu.url + "/emulator/ui/users")
    card = chromium.find_element(By.ID, f"user-{user['uuid']}")
    assert email in card.text
    record = card.find_element(By.CSS_SELECTOR, "pre.record").text
    assert f'"displayName": "{hostile}"' in record and '"givenName": "Dash"' in record
    assert chromium.find_elements(By.TAG_NAME, "script") == [], "a record's text became markup"
    assert email in users
    screenshot(chromium, "users")

    identities = open_page(chromium, emu.url + "/emulator/ui/identities")
    assert "Gia Google" in identities and "https://google.example/" in identities
    screenshot(chromium, "identities")

    tokens = open_page(chromium, emu.url + "/emulator/ui/tokens")
    assert token[:6] + "…" in tokens and token not in tokens
    assert "live" in tokens and email in tokens
    screenshot(chromium, "tokens")

    faults = open_page(chromium, emu.url + "/emulator/ui/faults")
    assert "http_500" in faults and "/entity" in faults
    screenshot(chromium, "faults")

    counters = open_page(chromium, emu.url + "/emulator/ui/counters")
    assert "/oauth/auth_native_traditional" in counters and "/oauth/forgot_password_native" in counters
    assert set(emu.counters()) == {"POST /oauth/auth_native_traditional", "POST /oauth/forgot_password_native"}, \
        "viewing the dashboard made counted requests (a favicon?)"
    screenshot(chromium, "counters")

    outbox = open_page(chromium, emu.url + "/emulator/ui/outbox")
    assert email in outbox and "password reset" in outbox
    screenshot(chromium, "outbox")
    link = chromium.find_element(By.CSS_SELECTOR, "a.email-link")
    href = link.get_attribute("href")
    assert href.startswith(emu.url + "/password_recover?code=")
    link.click()
    WebDriverWait(chromium, WAIT).until(lambda d: "/password_recover" in d.current_url)
    reset_page = chromium.find_element(By.TAG_NAME, "body").text
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)["code"][0]
    assert "Reset your password" in reset_page and code in reset_page
    screenshot(chromium, "password-reset")


def test_advancing_the_clock_through_the_form(emu, chromium) -> None:
    open_page(chromium, emu.url + "/emulator/ui/clock")
    before = chromium.find_element(By.ID, "emulator-time").text
    assert chromium.find_element(By.ID, "clock-offset").text == "none"
    amount = chromium.find_element(By.ID, "advance-amount")
    amount.clear()
    amount.send_keys("3")
    chromium.find_element(By.CSS_SELECTOR, "#advance-unit option[value='days']").click()
    chromium.find_element(By.ID, "advance").click()
    wait_text(chromium, "clock-offset", lambda text: text != "none")
    assert chromium.current_url == emu.url + "/emulator/ui/clock"  # the 303 brought the browser back
    after = chromium.find_element(By.ID, "emulator-time").text
    assert chromium.find_element(By.ID, "clock-offset").text == "+3 d"
    assert after != before
    assert 3 * 86400 - 5 <= emu.admin("GET", "/emulator/clock")["offset_seconds"] <= 3 * 86400 + 5
    screenshot(chromium, "clock")

    chromium.find_element(By.ID, "advance-hour").click()
    wait_text(chromium, "clock-offset", lambda text: text == "+3 d 1 h")
    chromium.find_element(By.ID, "clock-reset").click()
    wait_text(chromium, "clock-offset", lambda text: text == "none")


def test_arming_a_fault_through_the_form(emu, chromium) -> None:
    open_page(chromium, emu.url + "/emulator/ui/faults")
    assert chromium.find_elements(By.ID, "no-faults")
    chromium.find_element(By.CSS_SELECTOR, "#fault-kind option[value='capture_error']").click()
    chromium.find_element(By.ID, "fault-path").send_keys("/entity")
    chromium.find_element(By.ID, "fault-code").send_keys("330")
    chromium.find_element(By.ID, "arm").click()
    assert "Capture error code 330" in wait_text(chromium, "faults", lambda text: "capture_error" in text)
    assert emu.admin("GET", "/emulator/faults")["faults"] == [
        {"kind": "capture_error", "count": 1, "path": "/entity", "code": 330}]


def test_identity_provider_page_shows_the_banner_and_tells_namesakes_apart(emu, idp, chromium) -> None:
    email = unique_email("twin")
    first = idp.create_identity("facebook", display_name="Twin Same", email=email)
    second = idp.create_identity("facebook", display_name="Twin Same", email=email)
    query = urllib.parse.urlencode({"applicationId": ENGAGE_APP_ID, "device": "android", "state": "st-1"})
    page = open_page(chromium, f"{emu.url}/facebook/start?{query}")
    assert chromium.find_element(By.ID, "emulator-banner").text == "Emulator — not a real Facebook sign-in"
    assert "Continue as Twin Same" in page
    buttons = [b for b in chromium.find_elements(By.CSS_SELECTOR, "button[id^='identity-']") if email in b.text]
    assert len(buttons) == 2 and buttons[0].text == buttons[1].text
    metas = [chromium.find_element(By.ID, b.get_attribute("id") + "-meta").text for b in buttons]
    assert metas[0] != metas[1]
    assert first["identifier"] in metas[0] and second["identifier"] in metas[1]
    assert all("created" in meta for meta in metas)
    screenshot(chromium, "identity-provider")


def test_creating_editing_and_deleting_a_user_through_the_forms(emu, chromium) -> None:
    users_url = emu.url + "/emulator/ui/users"
    email = unique_email("form")
    open_page(chromium, users_url)
    chromium.find_element(By.ID, "new-user-email").send_keys(email)
    chromium.find_element(By.ID, "new-user-password").send_keys("pw-form")
    chromium.find_element(By.ID, "new-user-display-name").send_keys("Form <b>User</b>")
    set_text(chromium, "new-user-record", '{"givenName": "Forma", "photos": [{"value": "a.png"}]}')
    screenshot(chromium, "user-create")
    chromium.find_element(By.ID, "create-user").click()
    wait_url(chromium, users_url, fragment="user-")
    [user] = emu.users()
    assert chromium.current_url == f"{users_url}#user-{user['uuid']}"
    assert (user["email"], user["displayName"], user["givenName"]) == (email, "Form <b>User</b>", "Forma")
    assert [photo["value"] for photo in user["photos"]] == ["a.png"]
    assert sign_in(emu, email, "pw-form")["stat"] == "ok", "the password was not set"
    card = wait_text(chromium, f"user-{user['uuid']}", lambda text: email in text)
    assert "Form <b>User</b>" in card and chromium.find_elements(By.CSS_SELECTOR, ".user b") == []

    # A record the schema refuses: the page says why, keeps what was typed, and creates nothing. With users
    # to show the form is folded away.
    create_card = chromium.find_element(By.ID, "create-user-card")
    assert create_card.get_attribute("open") is None
    create_card.find_element(By.TAG_NAME, "summary").click()
    chromium.find_element(By.ID, "new-user-email").send_keys(unique_email("refused"))
    set_text(chromium, "new-user-record", '{"noSuchAttribute": 1}')
    chromium.find_element(By.ID, "create-user").click()
    assert "noSuchAttribute" in wait_text(chromium, "users-error", lambda text: "noSuchAttribute" in text)
    assert chromium.find_element(By.ID, "new-user-record").get_attribute("value") == '{"noSuchAttribute": 1}'
    assert len(emu.users()) == 1

    # Edit: the form holds the record without its reserved attributes; saving merges it (entity.update).
    open_page(chromium, users_url)
    chromium.find_element(By.ID, f"edit-{user['uuid']}").click()
    wait_url(chromium, f"{users_url}/{user['uuid']}")
    shown = json.loads(chromium.find_element(By.ID, "edit-record").get_attribute("value"))
    assert not {"id", "uuid", "created", "lastUpdated"} & set(shown)
    assert shown["givenName"] == "Forma" and shown["email"] == email
    screenshot(chromium, "user-edit")
    shown.update(givenName="Edited", familyName="Formsworth")
    set_text(chromium, "edit-record", json.dumps(shown, indent=2))
    chromium.find_element(By.ID, "save-user").click()
    wait_url(chromium, users_url, fragment=f"user-{user['uuid']}")
    edited = emu.user(user["uuid"])["user"]
    assert (edited["givenName"], edited["familyName"], edited["email"]) == ("Edited", "Formsworth", email)
    assert edited["photos"] == user["photos"], "the plural's elements kept their ids"
    assert sign_in(emu, email, "pw-form")["stat"] == "ok", "saving the password marker changed the password"

    # A refused edit shows the page again with the error and the text, and changes nothing.
    open_page(chromium, f"{users_url}/{user['uuid']}")
    set_text(chromium, "edit-record", '{"givenName": "Half", "birthday": "someday"}')
    chromium.find_element(By.ID, "save-user").click()
    assert "birthday" in wait_text(chromium, "user-error", lambda text: "birthday" in text)
    assert "someday" in chromium.find_element(By.ID, "edit-record").get_attribute("value")
    assert emu.user(user["uuid"])["user"] == edited

    # Delete, behind a confirmation page (opening it deletes nothing).
    open_page(chromium, users_url)
    chromium.find_element(By.ID, f"delete-{user['uuid']}").click()
    wait_url(chromium, f"{users_url}/{user['uuid']}/delete")
    assert email in chromium.find_element(By.TAG_NAME, "main").text
    assert len(emu.users()) == 1
    screenshot(chromium, "user-delete")
    chromium.find_element(By.ID, "confirm-delete").click()
    wait_url(chromium, users_url)
    assert emu.users() == []
    assert sign_in(emu, email, "pw-form")["stat"] == "error"


def test_resetting_the_emulator_through_the_form(emu, chromium) -> None:
    emu.admin("POST", "/emulator/users", {"email": unique_email("gone"), "password": "pw"})
    emu.admin("POST", "/emulator/apps", {"client_id": "reset-client", "capture_app_id": "reset-app"})
    emu.advance_clock(7200)
    emu.fault("http_500", "/entity")

    open_page(chromium, emu.url + "/emulator")
    chromium.find_element(By.ID, "reset-emulator").click()
    wait_url(chromium, emu.url + "/emulator/ui/reset")
    assert len(emu.users()) == 1, "opening the confirmation reset something"
    screenshot(chromium, "reset")
    chromium.find_element(By.ID, "confirm-reset").click()
    wait_url(chromium, emu.url + "/emulator")
    assert chromium.find_element(By.ID, "stat-users").text.startswith("0")
    assert emu.users() == []
    assert emu.admin("GET", "/emulator/clock")["offset_seconds"] == 0
    assert emu.admin("GET", "/emulator/faults")["faults"] == []
    assert [app["client_id"] for app in emu.admin("GET", "/emulator/apps")["apps"]] == ["jump-default-client"]


def test_the_export_button_downloads_the_export_document(emu, chromium, tmp_path) -> None:
    emu.admin("POST", "/emulator/users", {"email": unique_email("exported"), "password": "pw",
                                          "record": {"givenName": "Ex"}})
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    chromium.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    open_page(chromium, emu.url + "/emulator")
    chromium.find_element(By.ID, "export").click()
    file = downloads / "jump-emulator-export.json"
    deadline = time.monotonic() + WAIT
    while not (file.exists() and not list(downloads.glob("*.crdownload"))):
        assert time.monotonic() < deadline, f"no download; {sorted(p.name for p in downloads.iterdir())}"
        time.sleep(0.1)
    assert chromium.current_url == emu.url + "/emulator", "the download replaced the page"
    answer = http_call(emu.url + "/emulator/export", method="POST")
    assert answer.status == 200
    assert file.read_bytes() == answer.body
    assert [json.loads(user["record"])["givenName"] for user in json.loads(file.read_text())["users"]] == ["Ex"]


@contextlib.contextmanager
def foreign_site(forms: List[Tuple[str, Dict[str, str]]]) -> Iterator[int]:
    """A web server on another port serving /<n>: a page whose button posts forms[n] to its URL."""

    class Pages(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            action, fields = forms[int(self.path.strip("/"))]
            hidden = "".join(f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}">'
                             for name, value in fields.items())
            page = (f'<!DOCTYPE html><html><body><form method="post" action="{html.escape(action)}">{hidden}'
                    '<button type="submit" id="go">Win a prize</button></form></body></html>').encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_another_sites_page_cannot_post_to_the_new_actions(emu, chromium) -> None:
    user = emu.admin("POST", "/emulator/users", {"email": unique_email("victim"), "password": "pw",
                                                 "record": {"givenName": "Kept"}})["user"]
    emu.advance_clock(60)
    forms = [
        (emu.url + "/emulator/ui/users", {"client_id": "jump-default-client", "email": unique_email("evil"),
                                          "password": "pw"}),
        (f"{emu.url}/emulator/ui/users/{user['uuid']}", {"record": '{"givenName": "Evil"}', "mode": "merge"}),
        (f"{emu.url}/emulator/ui/users/{user['uuid']}/delete", {"confirm": "yes"}),
        (emu.url + "/emulator/ui/reset", {"confirm": "yes"}),
        (emu.url + "/emulator/ui/export", {}),
        (emu.url + "/emulator/export", {}),
    ]
    before = emu.users()
    with foreign_site(forms) as port:
        # localhost is another site than 127.0.0.1; another port of 127.0.0.1 is the same site, another origin.
        for host in ("localhost", "127.0.0.1"):
            for index, (action, _) in enumerate(forms):
                open_page(chromium, f"http://{host}:{port}/{index}")
                chromium.find_element(By.ID, "go").click()
                try:
                    WebDriverWait(chromium, WAIT, ignored_exceptions=(NoSuchElementException, WebDriverException)).until(
                        lambda d: d.current_url == action and "cross_site_request" in d.find_element(By.TAG_NAME, "body").text)
                except Exception as exc:
                    raise AssertionError(f"from {host}: {action} answered {chromium.page_source[:500]}") from exc
    assert emu.users() == before
    assert 55 <= emu.admin("GET", "/emulator/clock")["offset_seconds"] <= 65
