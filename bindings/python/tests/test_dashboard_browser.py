"""The emulator's dashboard (GET /emulator, /emulator/ui/...) and its fake identity provider's page, in a real
browser: headless Chromium (selenium + chromedriver) against the session's real jump-emulator process. Each
page is saved as build/test-artifacts/screenshots/<page>.png for people to look at.

Needs what test_social_browser.py needs (/usr/bin/chromium, /usr/bin/chromedriver, selenium); skipped,
saying why, only when they are missing outside CI (under CI=true a missing browser is a failure)."""

from __future__ import annotations

import base64
import urllib.parse
from pathlib import Path
from typing import Any, Callable

import pytest

import headless_chromium
from conftest import ENGAGE_APP_ID, ROOT, http_call, unique_email

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
