"""TLS and proxies on real networks: caFile adds a private CA to the system's roots, pinnedPublicKeys pins the
server's key, and the proxy key sends every request through a proxy. Real libjump, the real emulator behind a
TLS front on loopback (certificates of a CA made now by trustme) and a counting forward proxy
(network_fronts.py). A refused certificate or key is JUMP_E_NETWORK with a reason, and the session is kept."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

import jump

from conftest import PASSWORD, unique_email, wait_for

trustme = pytest.importorskip("trustme", reason="trustme is not installed (scripts/ensure-deps.sh --test python)")
from network_fronts import CountingProxy, TLSFront  # noqa: E402

HERE = Path(__file__).resolve().parent
WRONG_PIN = "sha256//" + "A" * 43 + "="


@pytest.fixture
def ca(tmp_path: Path):
    authority = trustme.CA()
    path = tmp_path / "test-ca.pem"
    authority.cert_pem.write_to_path(str(path))
    authority.path = str(path)
    return authority


@pytest.fixture
def front(emu, ca) -> Iterator[TLSFront]:
    server = TLSFront(emu.url, ca)
    yield server
    server.close()


@pytest.fixture
def proxy() -> Iterator[CountingProxy]:
    server = CountingProxy()
    yield server
    server.close()


@pytest.fixture
def user(emu) -> str:
    email = unique_email("tls")
    emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    return email


def https_config(make_config, front: TLSFront, **keys):
    # emulatorHost "": the URL keys count even where $JUMP_EMULATOR_HOST is set.
    return make_config(captureDomain=front.url, captureFlowDomain=front.url, emulatorHost="", **keys)


def test_the_right_pin_and_the_test_ca_sign_in(make_config, front, ca, user) -> None:
    with jump.Client(https_config(make_config, front, caFile=ca.path, pinnedPublicKeys=[front.pin()])) as client:
        client.sign_in(user, PASSWORD)
        client.fetch_record()
        assert client.record["/email"] == user


def test_a_wrong_pin_is_a_network_error_and_the_session_is_kept(make_config, emu, front, ca, user) -> None:
    with jump.Client(https_config(make_config, front, caFile=ca.path)) as client:
        client.sign_in(user, PASSWORD)
    emu.clear_counters()
    # Two pins, neither the server's: the list form and libcurl's "a;b" text both work.
    with jump.Client(https_config(make_config, front, caFile=ca.path, pinnedPublicKeys=[WRONG_PIN, WRONG_PIN])) as client:
        with pytest.raises(jump.NetworkError) as info:
            client.fetch_record()
        assert info.value.reason == "pin_mismatch", info.value.detail
        assert "pinnedPublicKeys" in info.value.message
        with pytest.raises(jump.NetworkError) as info:
            client.refresh_access_token()
        assert info.value.reason == "pin_mismatch"
        state = client.state
        assert state["signed_in"] and not state["reauthentication_required"], state
    assert emu.counters() == {}, "a request passed a pin that does not match"
    config = jump.Config(https_config(make_config, front, caFile=ca.path))
    config.set("pinnedPublicKeys", WRONG_PIN + ";" + front.pin())
    with jump.Client(config) as client:
        client.fetch_record()  # one of the pins is the server's
    config.close()


def test_without_the_test_ca_the_certificate_is_untrusted(make_config, front, user) -> None:
    with jump.Client(https_config(make_config, front)) as client:
        with pytest.raises(jump.NetworkError) as info:
            client.sign_in(user, PASSWORD)
        assert info.value.reason == "tls_untrusted", info.value.detail
        assert "caFile" in info.value.message


def test_ca_file_adds_to_the_system_roots(make_config, front, ca, tmp_path: Path) -> None:
    """caFile holds only the test CA; the system's roots stay trusted (the bundle is read and kept), and a
    caFile that is no PEM bundle is refused when the client is made."""
    with jump.Client(https_config(make_config, front, caFile=ca.path)) as client:
        client.load_flow()
    bad = tmp_path / "not-a-bundle.pem"
    bad.write_text("hello")
    with pytest.raises(jump.InvalidArgument) as info:
        jump.Client(https_config(make_config, front, caFile=str(bad)))
    assert info.value.argument == "caFile"
    with pytest.raises(jump.InvalidArgument):
        jump.Client(https_config(make_config, front, caFile=str(tmp_path / "missing.pem")))


def test_the_proxy_key_sends_every_request_through_the_proxy(make_config, emu, proxy, user) -> None:
    with jump.Client(make_config(proxy=proxy.url, emulatorHost="")) as client:
        client.sign_in(user, PASSWORD)
        client.fetch_record()
        client.refresh_access_token()
    counted = emu.counters()
    sent = sum(counted.values())
    assert sent >= 4, counted
    assert len(proxy.requests) == sent, (proxy.requests, counted)
    assert ("POST", "/oauth/auth_native_traditional") in proxy.requests


def test_tls_through_the_proxy_is_a_tunnel(make_config, front, ca, proxy, user) -> None:
    with jump.Client(https_config(make_config, front, caFile=ca.path, pinnedPublicKeys=[front.pin()],
                                  proxy=proxy.url)) as client:
        client.sign_in(user, PASSWORD)
    assert proxy.tunnels and all(t == front.url.removeprefix("https://") for t in proxy.tunnels)


def test_an_https_proxy_with_a_private_ca_through_ca_file(make_config, emu, ca, user) -> None:
    """proxy https://: the client speaks TLS to the proxy itself, whose certificate comes from the test CA;
    caFile verifies the proxy as well as the servers (a private CA usually signs both), so the sign-in goes
    through it. Before, caFile reached only the server and the proxy was refused as untrusted."""
    tls_proxy = CountingProxy(tls=ca)
    try:
        assert tls_proxy.url.startswith("https://")
        with jump.Client(make_config(proxy=tls_proxy.url, caFile=ca.path, emulatorHost="")) as client:
            client.sign_in(user, PASSWORD)
            client.fetch_record()
            assert client.record["/email"] == user
        counted = emu.counters()
        assert ("POST", "/oauth/auth_native_traditional") in tls_proxy.requests, tls_proxy.requests
        assert len(tls_proxy.requests) == sum(counted.values()), (tls_proxy.requests, counted)
        assert tls_proxy.refused_handshakes == 0
        # Without caFile the proxy's certificate is not trusted: refused before anything reaches the server.
        emu.clear_counters()
        with jump.Client(make_config(proxy=tls_proxy.url, emulatorHost="", storageDirectory=":memory:")) as client:
            with pytest.raises(jump.NetworkError) as info:
                client.sign_in(user, PASSWORD)
            assert info.value.reason == "tls_untrusted", info.value.detail
            assert "caFile" in info.value.message
        assert emu.counters() == {}
        assert wait_for(lambda: tls_proxy.refused_handshakes >= 1), "the proxy saw no refused handshake"
    finally:
        tls_proxy.close()


def test_an_empty_proxy_ignores_the_environment(make_config, emu, proxy, user, monkeypatch) -> None:
    monkeypatch.setenv("http_proxy", proxy.url)
    monkeypatch.setenv("HTTPS_PROXY", proxy.url)
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    with jump.Client(make_config(proxy="", emulatorHost="")) as client:
        client.sign_in(user, PASSWORD)
    assert proxy.requests == [] and proxy.tunnels == []
    assert emu.counters().get("POST /oauth/auth_native_traditional") == 1


def test_bad_proxy_and_pins_are_refused(make_config) -> None:
    good = jump.Config(make_config(proxy="socks5h://user:pw@127.0.0.1:1080", pinnedPublicKeys=[WRONG_PIN]))
    assert good["pinnedPublicKeys"] == [WRONG_PIN]
    good.close()
    for key, value in [("proxy", "ftp://proxy.example:21"), ("proxy", "http://a b"),
                       ("pinnedPublicKeys", ["sha1//abc"]), ("pinnedPublicKeys", "sha256//tooshort="),
                       ("pinnedPublicKeys", [1])]:
        with pytest.raises(jump.InvalidArgument) as info:
            jump.Client(make_config(**{key: value}))
        assert info.value.argument == key, (key, value)


PINLESS_CHILD = r"""
import json, sys
import jump
config, user, password = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
try:
    with jump.Client(config) as client:
        client.sign_in(user, password)
    print(json.dumps({"outcome": "signed in"}))
except jump.JumpError as error:
    print(json.dumps({"outcome": type(error).__name__, "message": error.message, "detail": error.detail}))
"""


def test_pins_that_this_libcurl_cannot_enforce_are_refused_not_dropped(make_config, emu, front, ca, user,
                                                                       tmp_path: Path) -> None:
    """On a libcurl whose TLS backend cannot pin (a shim answers CURLOPT_PINNEDPUBLICKEY with
    CURLE_NOT_BUILT_IN), a pin is a configuration error (JUMP_E_UNSUPPORTED) and nothing is sent: were it
    dropped, a sign-in with a pin the server does not match would go through."""
    compiler = shutil.which(os.environ.get("CC", "cc"))
    assert compiler, "a C compiler is needed for the pinless-libcurl shim"
    shim = tmp_path / "pinless_curl.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(shim), str(HERE / "pinless_curl.c"), "-ldl"],
                   check=True)
    config = https_config(make_config, front, caFile=ca.path, pinnedPublicKeys=[WRONG_PIN])
    env = dict(os.environ, LD_PRELOAD=str(shim), JUMP_LIBRARY_PATH=jump.library_path(),
               PYTHONPATH=str(Path(jump.__file__).resolve().parents[1]))
    emu.clear_counters()
    child = subprocess.run([sys.executable, "-c", PINLESS_CHILD, json.dumps(config), user, PASSWORD], env=env,
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-3000:]
    report = json.loads(child.stdout.strip().splitlines()[-1])
    assert report["outcome"] == "Unsupported", report
    assert report["detail"].get("argument") == "pinnedPublicKeys" and "cannot be enforced" in report["message"], report
    assert emu.counters() == {}, "a request went out without the pin it was configured with"
