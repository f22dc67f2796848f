"""Host storage (Config.set_storage): the session kept in a Python key/value object instead of files."""

from __future__ import annotations

import gc
import os
import threading
import weakref
from typing import Dict, Optional

import pytest

import jump

from conftest import PASSWORD, unique_email, wait_for


class DictStorage:
    """A dict-backed host storage with failure switches and call counters."""

    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}
        self.lock = threading.Lock()
        self.calls = {"load": 0, "save": 0, "erase": 0}
        self.fail_load = False
        self.fail_save = False
        self.fail_erase = False

    def load(self, key: str) -> Optional[bytes]:
        with self.lock:
            self.calls["load"] += 1
            if self.fail_load:
                raise OSError("the keychain is locked")
            return self.data.get(key)

    def save(self, key: str, data: bytes) -> None:
        assert isinstance(key, str) and isinstance(data, bytes)
        with self.lock:
            self.calls["save"] += 1
            if self.fail_save:
                raise OSError("the keychain is full")
            self.data[key] = data

    def erase(self, key: str) -> None:
        with self.lock:
            self.calls["erase"] += 1
            if self.fail_erase:
                raise OSError("the keychain is read-only")
            self.data.pop(key, None)

    def sessions(self) -> Dict[str, bytes]:
        with self.lock:
            return {k: v for k, v in self.data.items() if k.startswith("session-")}


def session_files(directory: str):
    return [name for _, _, files in os.walk(directory) for name in files if name.startswith("session-")]


def register(client: jump.Client) -> str:
    return client.register_traditional({"email": unique_email(), "displayName": "Hosted"}, PASSWORD)["uuid"]


@pytest.fixture
def hosted(make_config):
    """``(config, store)``: a Config for the emulator whose clients keep their session in a DictStorage."""
    store = DictStorage()
    config = jump.Config(make_config())
    assert config.set_storage(store) is config
    assert config.storage is store
    yield config, store
    config.close()


def test_dict_storage_keeps_the_session_and_writes_no_file(hosted, storage) -> None:
    config, store = hosted
    with jump.Client(config) as client:
        assert store.calls["load"] >= 1  # jump_client_new looked for a saved session
        assert not client.is_signed_in and client.state["restore_error"] is None
        client.load_flow()
        uuid = register(client)
        assert client.is_signed_in
        sessions = store.sessions()
        assert len(sessions) == 1, store.data.keys()
        key, data = next(iter(sessions.items()))
        assert key.startswith("session-jump-default-client-") and key.endswith(".json") and key.isascii()
        assert uuid.encode() in data and PASSWORD.encode() not in data
        assert any(k.startswith("flow-") for k in store.data), store.data.keys()  # the flow cache too
        assert client.state["storage_error"] is None
    assert session_files(storage) == []
    assert os.listdir(storage) == [], "files were written to storageDirectory although host storage is set"


def test_new_client_restores_from_the_storage(hosted, emu, storage) -> None:
    config, store = hosted
    with jump.Client(config) as first:
        uuid = register(first)
        with first.record as record:
            record["/aboutMe"] = "kept in the keychain"

    emu.clear_counters()
    with jump.Client(config) as second:
        assert second.is_signed_in
        state = second.state
        assert state["uuid"] == uuid and state["restore_error"] is None and state["unsynced_changes"]
        assert sum(emu.counters().values()) == 0, emu.counters()  # restoring needs no network
        with second.record as record:
            assert record["/aboutMe"] == "kept in the keychain"
        assert second.sync()["changed"] == ["/aboutMe"]
    assert emu.user(uuid)["user"]["aboutMe"] == "kept in the keychain"

    # A Client made from the Config plus keywords (a copy) keeps the storage, and the Config can go.
    with jump.Client(config, requestTimeoutMs=5000) as third:
        config.close()
        assert third.is_signed_in and third.state["uuid"] == uuid
        assert not third.state["unsynced_changes"]
        third.sign_out()
        assert store.calls["erase"] >= 1
    assert store.sessions() == {}
    assert session_files(storage) == []


def test_failing_load_is_a_storage_error_until_restore_succeeds(hosted) -> None:
    config, store = hosted
    with jump.Client(config) as first:
        uuid = register(first)
    saved = store.sessions()
    assert len(saved) == 1

    store.fail_load = True
    with jump.Client(config) as client:
        assert not client.is_signed_in
        error = client.state["restore_error"]
        assert isinstance(error, dict) and error, error
        with pytest.raises(jump.StorageError):
            client.access_token()
        with pytest.raises(jump.StorageError):
            client.sync()
        with pytest.raises(jump.StorageError):
            client.restore()
        assert client.state["restore_error"] is not None
        assert store.calls["erase"] == 0 and store.sessions() == saved  # nothing deleted

        store.fail_load = False
        client.restore()
        assert client.is_signed_in
        state = client.state
        assert state["uuid"] == uuid and state["restore_error"] is None
        assert client.access_token()


def test_load_returning_a_wrong_type_is_a_storage_error(hosted) -> None:
    config, store = hosted
    with jump.Client(config) as first:
        register(first)
    original = store.load
    store.load = lambda key: "not bytes" if key.startswith("session-") else original(key)  # type: ignore[method-assign]
    with jump.Client(config) as client:
        assert not client.is_signed_in
        assert client.state["restore_error"] is not None
        with pytest.raises(jump.StorageError):
            client.restore()
        store.load = original  # type: ignore[method-assign]
        client.restore()
        assert client.is_signed_in


def test_save_failure_shows_in_state(hosted) -> None:
    config, store = hosted
    store.fail_save = True
    with jump.Client(config) as client:
        uuid = register(client)  # the sign-in itself succeeds
        assert client.is_signed_in
        state = client.state
        assert state["uuid"] == uuid
        assert isinstance(state["storage_error"], dict) and state["storage_error"], state
        assert store.calls["save"] >= 1 and store.sessions() == {}

        store.fail_save = False
        with client.record as record:
            record["/aboutMe"] = "saved at last"
        assert client.state["storage_error"] is None
        assert len(store.sessions()) == 1


def test_erase_failure_fails_sign_out(hosted) -> None:
    config, store = hosted
    with jump.Client(config) as client:
        register(client)
        store.fail_erase = True
        with pytest.raises(jump.StorageError):
            client.sign_out()
        assert len(store.sessions()) == 1
        store.fail_erase = False
        client.sign_out()
        assert store.sessions() == {}


def test_storage_released_once_unused(make_config) -> None:
    store = DictStorage()
    ref = weakref.ref(store)
    config = jump.Config(make_config()).set_storage(store)
    client = jump.Client(config)
    del store
    config.close()
    gc.collect()
    assert ref() is not None, "the storage was released while a client still uses it"
    assert client.state["restore_error"] is None
    client.restore()  # still calls the storage
    client.close()
    assert wait_for(lambda: gc.collect() is not None and ref() is None, timeout=5), "the storage was never released"


def test_none_goes_back_to_files_and_releases_the_storage(make_config, storage) -> None:
    store = DictStorage()
    ref = weakref.ref(store)
    with jump.Config(make_config()) as config:
        config.set_storage(store)
        config.set_storage(None)
        assert config.storage is None
        del store
        assert wait_for(lambda: gc.collect() is not None and ref() is None, timeout=5), "the storage was kept"
        with jump.Client(config) as client:
            register(client)
        assert len(session_files(storage)) == 1


def test_not_a_storage_is_refused(make_config) -> None:
    with jump.Config(make_config()) as config:
        with pytest.raises(TypeError):
            config.set_storage(object())  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            config.set_storage({"load": None})  # type: ignore[arg-type]
        assert config.storage is None
    with pytest.raises(jump.InvalidHandle):
        config.set_storage(DictStorage())
