"""The jump exceptions are also the builtin exceptions that mean the same thing, so code that knows nothing of
jump catches real failures the Python way (``except ConnectionError``, ``except TimeoutError``), while the jump
classes and their attributes stay as they were."""

from __future__ import annotations

import pickle
import socket
import time
from typing import Any, Dict, Iterator

import pytest

import jump

from conftest import PASSWORD, closed_port_url


def capture_config(url: str, **overrides: Any) -> Dict[str, Any]:
    config = {
        "captureDomain": url,
        "captureFlowDomain": url,
        "captureClientId": "c",
        "captureAppId": "a",
        "captureFlowName": "standard",
        "storageDirectory": ":memory:",
    }
    config.update(overrides)
    return config


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A loopback port that accepts connections (the kernel completes the handshake from the backlog) and
    never answers a byte."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        yield f"http://127.0.0.1:{s.getsockname()[1]}"


def test_class_hierarchy() -> None:
    assert issubclass(jump.NetworkError, ConnectionError) and issubclass(jump.NetworkError, jump.JumpError)
    assert issubclass(jump.Timeout, TimeoutError) and issubclass(jump.Timeout, jump.JumpError)
    assert issubclass(jump.InvalidArgument, ValueError)
    assert issubclass(jump.InvalidHandle, ValueError)
    assert issubclass(jump.NotFound, KeyError)
    # The others stay plain JumpErrors: no builtin means what they mean.
    for cls in (jump.BadCredentials, jump.ServerError, jump.NotSignedIn, jump.StorageError, jump.Cancelled):
        assert cls.__mro__[1:] == (jump.JumpError, Exception, BaseException, object), cls


def test_unreachable_port_is_a_connection_error() -> None:
    with jump.Client(capture_config(closed_port_url())) as client:
        with pytest.raises(ConnectionError) as info:
            client.sign_in("someone@example.com", PASSWORD)
    err = info.value
    assert isinstance(err, jump.NetworkError) and isinstance(err, OSError)
    # The jump attributes are all there, and the OSError ones say nothing false.
    assert err.status == -3 and err.status_name == "JUMP_E_NETWORK" and err.message
    assert err.detail["status"] == -3 and err.args == (err.status, err.message, err.detail)
    assert err.errno is None and err.filename is None and err.strerror == err.message
    assert str(err).endswith("(JUMP_E_NETWORK, -3)")
    copy = pickle.loads(pickle.dumps(err))
    assert type(copy) is jump.NetworkError and copy.detail == err.detail and copy.errno is None


def test_server_that_never_answers_is_a_timeout_error(silent_server: str) -> None:
    config = capture_config(silent_server, connectTimeoutMs=2000, requestTimeoutMs=300)
    with jump.Client(config) as client:
        started = time.monotonic()
        try:
            client.sign_in("someone@example.com", PASSWORD)
        except TimeoutError as exc:
            err: BaseException = exc
        else:  # pragma: no cover
            pytest.fail("a server that never answers did not time out")
        elapsed = time.monotonic() - started
    assert isinstance(err, jump.Timeout) and err.status == -4 and err.status_name == "JUMP_E_TIMEOUT"
    assert err.errno is None and err.strerror == err.message
    assert elapsed < 10, elapsed


def test_async_failures_are_builtin_errors_too(silent_server: str) -> None:
    with jump.Client(capture_config(closed_port_url())) as client:
        with pytest.raises(ConnectionError):
            client.sign_in_async("someone@example.com", PASSWORD).wait(30)
    with jump.Client(capture_config(silent_server, requestTimeoutMs=300)) as client:
        with pytest.raises(TimeoutError):
            client.sign_in_async("someone@example.com", PASSWORD).wait(30)


def test_request_wait_running_out_is_a_timeout_error(silent_server: str) -> None:
    with jump.Client(capture_config(silent_server, requestTimeoutMs=30000)) as client:
        request = client.sign_in_async("someone@example.com", PASSWORD)
        with pytest.raises(TimeoutError) as info:
            request.wait(0.05)
        assert isinstance(info.value, jump.Timeout) and info.value.status_name == "JUMP_E_TIMEOUT"
        request.cancel()
        with pytest.raises(jump.Cancelled):
            request.wait(30)


def test_closed_objects_and_bad_values_are_value_errors(make_config) -> None:
    client = jump.Client(make_config())
    client.close()
    with pytest.raises(ValueError) as info:
        client.sign_out()
    assert isinstance(info.value, jump.InvalidHandle)
    with pytest.raises(ValueError) as info2:
        jump.Config({"noSuchKey": 1})
    assert isinstance(info2.value, jump.InvalidArgument) and info2.value.status == -1
