"""End to end in a real browser: headless Chromium (selenium + chromedriver) is the "system browser" of a
loopback social sign-in. open_url hands the URL to a thread that makes Chromium load it, fill in the fake
identity provider's page and submit it; Chromium then lands on libjump's 127.0.0.1 listener.

Needs /usr/bin/chromium, /usr/bin/chromedriver (Debian: chromium, chromium-driver) and selenium (pip);
scripts/ensure-deps.sh --test installs them, and CI does. Skipped, saying why, only when they are missing
outside CI (under CI=true a missing browser is a failure, not a skip)."""

from __future__ import annotations

import threading
import urllib.parse
from typing import Any, Callable, List

import pytest

import jump

import headless_chromium
from conftest import unique_email

headless_chromium.require("the browser end-to-end test")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

WAIT = headless_chromium.WAIT


@pytest.fixture
def chromium(tmp_path):
    yield from headless_chromium.driver(tmp_path / "profile")


class ChromiumOpener:
    """libjump's open_url: returns at once; a thread makes Chromium do what the user would."""

    def __init__(self, driver: Any, act: Callable[[Any], None]) -> None:
        self.driver = driver
        self.act = act
        self.urls: List[str] = []
        self.errors: List[BaseException] = []
        self.final_url = ""
        self.final_text = ""
        self.thread = threading.Thread()

    def __call__(self, url: str) -> None:
        self.urls.append(url)
        self.thread = threading.Thread(target=self._run, args=(url,), daemon=True)
        self.thread.start()

    def _run(self, url: str) -> None:
        try:
            self.driver.get(url)
            WebDriverWait(self.driver, WAIT).until(EC.presence_of_element_located((By.ID, "create-identity")))
            self.act(self.driver)
            # the provider redirects to libjump's listener on 127.0.0.1, which shows a closing page
            WebDriverWait(self.driver, WAIT).until(
                lambda d: urllib.parse.urlsplit(d.current_url).hostname == "127.0.0.1"
                and d.execute_script("return document.readyState") == "complete")
            self.final_url = self.driver.current_url
            self.final_text = self.driver.find_element(By.TAG_NAME, "body").text
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(exc)

    def join(self) -> None:
        self.thread.join(WAIT * 3)
        assert not self.thread.is_alive(), "the browser thread did not finish"
        assert not self.errors, self.errors


def test_browser_creates_an_identity(emu, idp, social_config, chromium) -> None:
    email = unique_email("chromium")

    def create(driver: Any) -> None:
        driver.find_element(By.ID, "new-name").send_keys("Chro Mium")
        driver.find_element(By.ID, "new-email").send_keys(email)
        driver.find_element(By.ID, "create-identity").click()

    opener = ChromiumOpener(chromium, create)
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        result = c.social_sign_in_loopback("facebook", opener, timeout=WAIT * 2)
        opener.join()
        assert len(opener.urls) == 1
        assert "close" in opener.final_text.lower()
        identity = idp.identity_by_email("facebook", email)
        assert result["outcome"] == "registered" and result["provider"] == "facebook"
        assert c.is_signed_in and c.state["uuid"] == result["uuid"]
        assert [p["identifier"] for p in c.record["/profiles"]] == [identity["identifier"]]
        user = emu.user(result["uuid"])["user"]
        assert user["email"] == email and user["displayName"] == "Chro Mium"


def test_browser_picks_an_existing_identity(emu, idp, social_config, chromium) -> None:
    email = unique_email("existing")
    identity = idp.create_identity("google", display_name="Ex Isting", email=email)

    def pick(driver: Any) -> None:
        buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "button[id^='identity-']") if email in b.text]
        (buttons[0] if buttons else driver.find_element(By.ID, "identity-1")).click()

    opener = ChromiumOpener(chromium, pick)
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        result = c.social_sign_in_loopback("google", opener, timeout=WAIT * 2)
        opener.join()
        assert result["outcome"] == "registered"
        assert [p["identifier"] for p in c.linked_profiles()] == [identity["identifier"]]
        assert emu.user(result["uuid"])["user"]["email"] == email
