"""Config: from a dict, set, to_dict, errors naming the key, lifetime."""

from __future__ import annotations

import pytest

import jump


def test_defaults_and_from_mapping() -> None:
    with jump.Config() as defaults:
        d = defaults.to_dict()
    assert d["captureLocale"] == "en-US"
    assert d["captureTraditionalSignInFormName"] == "signInForm"
    assert d["connectTimeoutMs"] == 10000
    assert d["captureEnableThinRegistration"] is False

    with jump.Config({"captureDomain": "http://127.0.0.1:9", "captureLocale": "en-US"}, captureLocale="fr-FR") as c:
        d = c.to_dict()
    assert d["captureDomain"] == "http://127.0.0.1:9"
    assert d["captureLocale"] == "fr-FR"  # keywords win over the mapping


def test_set_dispatches_on_type() -> None:
    with jump.Config() as c:
        c.set("captureClientId", "abc").set("connectTimeoutMs", 1234).set("captureEnableThinRegistration", True)
        c["captureAppId"] = "app"
        d = c.to_dict()
        assert (d["captureClientId"], d["connectTimeoutMs"], d["captureEnableThinRegistration"]) == ("abc", 1234, True)
        assert c["captureAppId"] == "app"
        c.set("captureLocale", "fr-FR")
        c.set("captureLocale", None)  # None restores the default
        assert c.to_dict()["captureLocale"] == "en-US"
        with pytest.raises(TypeError):
            c.set("connectTimeoutMs", 1.5)  # type: ignore[arg-type]


def test_unknown_key_names_the_key() -> None:
    with pytest.raises(jump.InvalidArgument) as info:
        jump.Config({"captureDomian": "http://127.0.0.1:9"})
    assert "captureDomian" in str(info.value)
    with jump.Config() as c:
        with pytest.raises(jump.InvalidArgument) as info:
            c.set("noSuchKey", "x")
    err = info.value
    assert err.status == -1 and "noSuchKey" in err.message
    assert err.argument == "noSuchKey"
    assert err.status_name == "JUMP_E_INVALID_ARGUMENT"
    assert isinstance(err, ValueError)


@pytest.mark.parametrize(
    "key, value",
    [("connectTimeoutMs", "fast"), ("captureEnableThinRegistration", 1), ("captureLocale", 42)],
)
def test_wrong_type_in_json(key, value) -> None:
    with pytest.raises(jump.InvalidArgument) as info:
        jump.Config({key: value})
    assert key in info.value.message


def test_wrong_type_through_setters() -> None:
    with jump.Config() as c:
        with pytest.raises(jump.InvalidArgument) as info:
            c.set("connectTimeoutMs", "fast")
        assert "connectTimeoutMs" in info.value.message
        with pytest.raises(jump.InvalidArgument):
            c.set("captureLocale", True)


def test_invalid_json_and_utf8() -> None:
    with pytest.raises(jump.InvalidArgument):
        jump.Config.from_json("{not json")
    with pytest.raises(jump.InvalidArgument):
        jump.Config.from_json(b'{"captureLocale": "\xff\xfe"}')
    with jump.Config.from_json('{"captureLocale": "fr-FR"}') as c:
        assert c.to_dict()["captureLocale"] == "fr-FR"


def test_closed_config() -> None:
    c = jump.Config()
    c.close()
    c.close()  # idempotent
    with pytest.raises(jump.InvalidHandle):
        c.to_dict()


def test_client_needs_a_usable_config(tmp_path) -> None:
    # Capture settings are needed by Capture calls only (a sign-in-token app has none).
    with jump.Client({"captureClientId": "x", "storageDirectory": ":memory:"}) as capture_less:
        with pytest.raises(jump.InvalidArgument) as info:
            capture_less.sign_in("a@example.com", "pw")
        assert "captureDomain" in info.value.message
    with pytest.raises(jump.InvalidArgument) as info:
        jump.Client({"captureDomain": "http://example.com", "captureClientId": "x"})
    assert "https" in info.value.message
    # A Config is copied: the client outlives it, and keywords override it.
    config = jump.Config(captureDomain="http://127.0.0.1:9", captureClientId="x", storageDirectory=str(tmp_path))
    with jump.Client(config, captureLocale="fr-FR") as client:
        config.close()
        assert client.state["signed_in"] is False
        assert not client.is_signed_in
    with pytest.raises(jump.InvalidHandle):
        client.state
    client.close()  # idempotent


class _Recorder(__import__("http.server").server.BaseHTTPRequestHandler):
    """Answers every request with a Capture error and remembers what came in."""

    seen: list = []

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length", 0) or 0)
        self.rfile.read(length)
        type(self).seen.append((self.path, self.headers.get("User-Agent")))
        body = b'{"stat":"error","code":100,"error":"missing_argument","error_description":"recorded"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args) -> None:
        pass


def _recording_server():
    import http.server
    import threading

    _Recorder.seen = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_every_request_carries_a_user_agent_with_the_app_part_first() -> None:
    server, url = _recording_server()
    try:
        config = {"captureDomain": url, "captureClientId": "c", "storageDirectory": ":memory:"}
        for extra, expected_prefix in (({}, "libjump/"), ({"userAgentApp": "MyApp/2.3"}, "MyApp/2.3 libjump/")):
            _Recorder.seen = []
            with jump.Client({**config, **extra}) as c:
                with pytest.raises(jump.JumpError):
                    c.sign_in("ua@example.com", "secret pw")
            [(path, agent)] = _Recorder.seen
            assert agent.startswith(expected_prefix), agent
            assert agent.endswith(")") and "(linux;" in agent, agent
            assert jump.version() in agent
    finally:
        server.shutdown()
    with pytest.raises(jump.InvalidArgument) as info:
        jump.Client({**config, "userAgentApp": "MyApp\r\nX-Injected: 1"})
    assert info.value.argument == "userAgentApp"


@pytest.mark.parametrize("device", ["android", "iphone", "ipad"])
def test_engage_is_told_the_configured_device(device) -> None:
    server, url = _recording_server()
    try:
        with jump.Client({"engageAppId": "app", "engageDomain": url, "engageDevice": device,
                          "storageDirectory": ":memory:"}) as c:
            with pytest.raises(jump.JumpError):
                c.providers()
        [(path, _)] = _Recorder.seen
        assert f"device={device}" in path, path
    finally:
        server.shutdown()
    with pytest.raises(jump.InvalidArgument):
        jump.Client({"engageAppId": "app", "engageDevice": "desktop"})
