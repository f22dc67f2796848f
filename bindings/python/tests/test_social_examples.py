"""The social examples run as a user would run them, so they cannot rot: examples/python/social_signin.py
(loopback + webbrowser), examples/python/engage_only.py and examples/token_url_server.py. The "system
browser" is $BROWSER: a small script that, like a real browser, returns at once and then fills in the fake
identity provider's page over HTTP and lands on libjump's listener."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator

import pytest

import jump

from conftest import BROWSER_DRIVER, PASSWORD, http_call, unique_email

ROOT = Path(__file__).resolve().parents[3]
TESTS = Path(__file__).resolve().parent
SOCIAL_SIGNIN = ROOT / "examples" / "python" / "social_signin.py"
ENGAGE_ONLY = ROOT / "examples" / "python" / "engage_only.py"
TOKEN_URL_SERVER = ROOT / "examples" / "token_url_server.py"

@pytest.fixture
def browser_env(tmp_path) -> Dict[str, str]:
    """Environment for an example: $BROWSER is the driver script; DRIVER_* say what it does on the page."""
    script = tmp_path / "browser.py"
    script.write_text(BROWSER_DRIVER)
    return dict(os.environ, BROWSER=f"{sys.executable} {script} %s", DRIVER_TESTS=str(TESTS),
                DRIVER_LOG=str(tmp_path / "browser.log"), JUMP_LIBRARY_PATH=jump.library_path(),
                PYTHONUNBUFFERED="1")


def run(args, env, stdin: str = "", timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *map(str, args)], env=env, input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def browser_log(env: Dict[str, str]) -> str:
    path = Path(env["DRIVER_LOG"])
    return path.read_text() if path.exists() else "(the browser never ran)"


@pytest.fixture
def token_server(emu) -> Iterator[str]:
    process = subprocess.Popen([sys.executable, str(TOKEN_URL_SERVER), "--port", "0", "--engage", emu.url],
                               stdout=subprocess.PIPE)
    assert process.stdout is not None
    url = process.stdout.readline().decode().strip()
    assert url.startswith("http://127.0.0.1:"), url
    yield url
    process.terminate()
    process.wait(10)


def test_social_signin_thin_registration(emu, browser_env) -> None:
    email = unique_email("ex-thin")
    env = dict(browser_env, DRIVER_NAME="Ex Ample", DRIVER_EMAIL=email)
    done = run([SOCIAL_SIGNIN, "--emulator", emu.url, "--provider", "facebook", "--thin-registration",
                "--timeout", "60"], env)
    assert done.returncode == 0, done.stdout + done.stderr + browser_log(env)
    out = done.stdout
    assert "providers: facebook, google, twitter" in out
    assert "outcome: registered" in out and f"email: {email}" in out
    assert "landed 200 http://127.0.0.1:" in browser_log(env)
    [user] = [u for u in emu.users() if u["email"] == email]
    assert f"uuid: {user['uuid']}" in out
    assert f"linked: facebook {user['profiles'][0]['identifier']}" in out


def test_social_signin_two_step_registration(emu, browser_env) -> None:
    email = unique_email("ex-two")
    env = dict(browser_env, DRIVER_NAME="Two Step", DRIVER_EMAIL=email)
    # Enter keeps the provider's email and name; the first and last names are typed in
    done = run([SOCIAL_SIGNIN, "--emulator", emu.url, "--provider", "google", "--timeout", "60"], env,
               stdin="\n\nTwo\nStepper\n")
    assert done.returncode == 0, done.stdout + done.stderr + browser_log(env)
    assert "let's register it" in done.stdout and "outcome: registered" in done.stdout
    [user] = [u for u in emu.users() if u["email"] == email]
    assert (user["givenName"], user["familyName"], user["displayName"]) == ("Two", "Stepper", "Two Step")


def test_social_signin_merges_into_a_password_account(emu, browser_env) -> None:
    email = unique_email("ex-merge")
    owner = emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})["user"]
    env = dict(browser_env, DRIVER_NAME="Mer Ge", DRIVER_EMAIL=email)  # a new identity with the same email
    done = run([SOCIAL_SIGNIN, "--emulator", emu.url, "--provider", "facebook", "--thin-registration",
                "--timeout", "60"], env, stdin=f"{email}\n{PASSWORD}\n")
    assert done.returncode == 0, done.stdout + done.stderr + browser_log(env)
    assert "signs in with capture" in done.stdout and "outcome: merged" in done.stdout
    assert f"uuid: {owner['uuid']}" in done.stdout
    profiles = emu.user(owner["uuid"])["user"]["profiles"]
    assert len(profiles) == 1 and profiles[0]["domain"] == "facebook.com"


def test_social_signin_merges_into_a_social_account(emu, idp, social_config, browser_env) -> None:
    # The email's account signs in with google; a facebook identity with the same email signs in: the example
    # signs in with google (the browser again) passing the merge token, and says it merged.
    email = unique_email("ex-merge-social")
    google = idp.create_identity("google", display_name="Mer Ge", email=email)  # both on the provider pages
    facebook = idp.create_identity("facebook", display_name="Mer Ge", email=email)
    with jump.Client(social_config(captureEnableThinRegistration=True, storageDirectory=":memory:")) as c:
        begun = c.social_begin("google")
        owner = c.social_complete(idp.finish(begun["url"], identity=email))
        assert owner["outcome"] == "registered"
    env = dict(browser_env, DRIVER_MODE="identity", DRIVER_EMAIL=email)  # both pages: the identity of email
    done = run([SOCIAL_SIGNIN, "--emulator", emu.url, "--provider", "facebook", "--timeout", "60"], env)
    assert done.returncode == 0, done.stdout + done.stderr + browser_log(env)
    out = done.stdout
    assert "it signs in with google" in out and "Sign in with google to add your facebook identity" in out
    assert "outcome: merged" in out and "outcome: signed_in" not in out
    assert f"uuid: {owner['uuid']}" in out
    assert json.loads(out.strip().splitlines()[-1])["merged"] is True
    assert browser_log(env).count("landed 200 ") == 2  # the facebook page, then the google one
    identifiers = {p["identifier"] for p in emu.user(owner["uuid"])["user"]["profiles"]}
    assert identifiers == {google["identifier"], facebook["identifier"]}


def test_social_signin_cancelled(emu, browser_env) -> None:
    env = dict(browser_env, DRIVER_MODE="cancel")
    done = run([SOCIAL_SIGNIN, "--emulator", emu.url, "--timeout", "60"], env)
    assert done.returncode == 1 and "sign-in cancelled on the provider's page" in done.stdout, done.stdout + done.stderr


def test_engage_only_with_the_token_url_server(emu, browser_env, token_server) -> None:
    email = unique_email("ex-eng")
    env = dict(browser_env, DRIVER_NAME="Eng Age", DRIVER_EMAIL=email)
    done = run([ENGAGE_ONLY, "--emulator", emu.url, "--token-url", token_server + "/token", "--timeout", "60"], env)
    assert done.returncode == 0, done.stdout + done.stderr + browser_log(env)
    out = done.stdout
    assert "outcome: authenticated with google" in out
    assert "token URL: 200" in out and "cookie: app_session (path /)" in out
    assert f"backend user: Eng Age <{email}>" in out
    # the headless variant: a provider SDK's token
    native = run([ENGAGE_ONLY, "--emulator", emu.url, "--token-url", token_server + "/token",
                  "--native-token", json.dumps({"email": email, "display_name": "Eng Age"})], env)
    assert native.returncode == 0, native.stdout + native.stderr
    assert "token URL: 200" in native.stdout and f"backend user: Eng Age <{email}>" in native.stdout


def test_token_url_server_refuses_unknown_tokens(emu, token_server) -> None:
    answer = http_call(token_server + "/token", {"token": "x" * 40})
    assert answer.status == 401 and answer.json()["error"] == "Data not found"
    assert answer.headers.get("Set-Cookie") is None
    assert http_call(token_server + "/token", {}).status == 400
    assert http_call(token_server + "/me").status == 401
