"""Session integrity through the binding; mirrors Tests/c/test_integrity.c rows 1, 2 and 5.

- row 1: a session that cannot be read, or another user's session with unsynced edits, is set aside
  (``client.state["quarantine"]``, ``Client.erase_quarantine()``), never merged into the next user's record;
- row 2: the same user signing in again after a refused refresh keeps the pending edits, or raises Conflict
  (signed in, local value kept) when the server changed the same attribute meanwhile;
- row 5: an edit that cannot be saved (host storage failing, read-only storage directory) raises StorageError
  and changes nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
import time
from pathlib import Path
from typing import Dict, Iterator, Optional, Tuple

import pytest

import jump

from conftest import PASSWORD, refresh_on_the_wire, unique_email

ABOUT = "/aboutMe"
A_EDIT = "A's unsynced private note"
NOBODY = 65534


# -- helpers -----------------------------------------------------------------------------------------------


def create_user(emu, about: str) -> Tuple[str, str]:
    """A user whose /aboutMe is ``about``: (uuid, email)."""
    email = unique_email()
    user = emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD, "record": {"aboutMe": about}})
    return user["user"]["uuid"], email


def server_about(emu, uuid: str) -> Optional[str]:
    return emu.user(uuid)["user"]["aboutMe"]


def local_about(client: jump.Client) -> Optional[str]:
    with client.record as record:
        return record.get_string(ABOUT)


def pending(client: jump.Client) -> list:
    with client.record as record:
        return record.changes()["changed"]


def set_about(client: jump.Client, value: str) -> None:
    with client.record as record:
        record[ABOUT] = value


def expire_session(emu, client: jump.Client) -> None:
    """Capture refuses the next refresh (code 200 on access_token, as for a revoked session): every call
    is SessionExpired, the record and its unsynced edits are kept."""
    emu.fault("capture_error", "/oauth/refresh_access_token", code=200)
    with pytest.raises(jump.SessionExpired):
        client.refresh_access_token()
    with pytest.raises(jump.SessionExpired):
        client.fetch_record()
    assert client.state["unsynced_changes"] is True


def server_sets_about(make_config, email: str, value: str) -> None:
    """The same user changes /aboutMe from another device (the admin API has no record update)."""
    with jump.Client(make_config(storageDirectory=":memory:")) as other:
        other.sign_in(email, PASSWORD)
        set_about(other, value)
        other.sync()


def quarantine(client: jump.Client) -> list:
    state = client.state
    assert isinstance(state.get("quarantine"), list), f"jump_client_state has no \"quarantine\" array: {state}"
    return state["quarantine"]


def files_starting(directory: str, prefix: str) -> list:
    return sorted(name for name in os.listdir(directory) if name.startswith(prefix))


# -- row 1: isolation ---------------------------------------------------------------------------------------


@pytest.fixture
def b_after_unreadable_a(make_config, emu, storage):
    """A edits /aboutMe offline; A's session file is then garbage; the app restarts and B signs in.
    Yields (client signed in as B, A's uuid, B's uuid)."""
    a_uuid, a_email = create_user(emu, "A before")
    b_uuid, b_email = create_user(emu, "B before")
    with jump.Client(make_config()) as first:
        first.sign_in(a_email, PASSWORD)
        set_about(first, A_EDIT)
    # What a signed-in client with an edit leaves: the session file and the journal of its edits.
    sessions, journals = files_starting(storage, "session-"), files_starting(storage, "journal-")
    assert len(sessions) == 1 and len(journals) == 1, os.listdir(storage)
    Path(storage, sessions[0]).write_bytes(b"not a session {{{")

    client = jump.Client(make_config())
    try:
        assert isinstance(client.state["restore_error"], dict)
        client.sign_in(b_email, PASSWORD)
        yield client, a_uuid, b_uuid
    finally:
        client.close()


def test_unreadable_session_edits_never_reach_the_next_user(b_after_unreadable_a, make_config, emu) -> None:
    client, a_uuid, b_uuid = b_after_unreadable_a
    assert local_about(client) == "B before"
    client.close()

    # The restart is where A's journal used to be replayed onto B's new session.
    with jump.Client(make_config()) as restarted:
        assert restarted.state["uuid"] == b_uuid
        assert local_about(restarted) == "B before", "after a restart B's record shows A's edit"
        assert ABOUT not in pending(restarted), "after a restart B has a pending /aboutMe edit (A's)"
        restarted.sync()
    assert server_about(emu, b_uuid) == "B before", "jump_client_sync wrote A's edit into B's account"
    assert server_about(emu, a_uuid) == "A before"


def test_unreadable_session_is_quarantined_and_can_be_erased(b_after_unreadable_a, make_config, storage) -> None:
    client, _, b_uuid = b_after_unreadable_a
    entries = quarantine(client)
    assert len(entries) == 1, entries
    assert entries[0]["reason"] == "unreadable" and entries[0]["entry"], entries
    stored = b"".join(p.read_bytes() for p in Path(storage).rglob("*") if p.is_file())
    assert b"not a session {{{" in stored, "the unreadable session was deleted instead of set aside"

    client.erase_quarantine()
    assert quarantine(client) == []
    assert client.state["uuid"] == b_uuid  # erasing what was set aside leaves B signed in
    client.close()
    with jump.Client(make_config()) as restarted:
        assert quarantine(restarted) == [], "the erased quarantine came back after a restart"
        assert restarted.state["uuid"] == b_uuid


def test_replaced_session_edits_are_kept_for_their_own_user(make_config, emu) -> None:
    a_uuid, a_email = create_user(emu, "A before")
    b_uuid, b_email = create_user(emu, "B before")
    with jump.Client(make_config()) as client:
        client.sign_in(a_email, PASSWORD)
        set_about(client, A_EDIT)
        expire_session(emu, client)

        # B signs in without A signing out: B never sees A's edit, A's session is set aside.
        client.sign_in(b_email, PASSWORD)
        assert local_about(client) == "B before"
        assert ABOUT not in pending(client)
        entries = quarantine(client)
        assert len(entries) == 1, entries
        assert entries[0]["reason"] == "replaced", entries
        assert entries[0]["uuid"] == a_uuid and entries[0]["unsynced_changes"] is True, entries

        # B leaves, A comes back: the edit is there again and a sync sends it to A's account.
        client.sign_out()
        client.sign_in(a_email, PASSWORD)
        assert local_about(client) == A_EDIT, "A's kept edit did not come back"
        assert ABOUT in pending(client)
        client.sync()
    assert server_about(emu, a_uuid) == A_EDIT
    assert server_about(emu, b_uuid) == "B before"


# -- row 2: the same user signing in again -------------------------------------------------------------------


def test_same_user_signing_in_again_keeps_and_syncs_pending_edits(make_config, emu) -> None:
    uuid, email = create_user(emu, "before")
    with jump.Client(make_config()) as client:
        client.sign_in(email, PASSWORD)
        set_about(client, "edited while the session died")
        expire_session(emu, client)

        client.sign_in(email, PASSWORD)  # what the app does on SessionExpired
        assert local_about(client) == "edited while the session died", "the kept edit is gone after signing in again"
        assert ABOUT in pending(client)
        emu.clear_counters()
        client.sync()
        assert emu.counters().get("POST /entity.update") == 1
    assert server_about(emu, uuid) == "edited while the session died"


def test_same_user_signing_in_again_reports_a_conflict_and_keeps_the_local_value(make_config, emu) -> None:
    uuid, email = create_user(emu, "base")
    with jump.Client(make_config()) as client:
        client.sign_in(email, PASSWORD)
        set_about(client, "local")
        expire_session(emu, client)
        server_sets_about(make_config, email, "server")

        with pytest.raises(jump.Conflict) as caught:
            client.sign_in(email, PASSWORD)
        assert client.is_signed_in, "the client is not signed in after the conflicting sign-in"
        conflicts = [c for c in caught.value.conflicts if c["path"] == ABOUT]
        assert conflicts == [{"path": ABOUT, "local": "local", "server": "server", "base": "base"}], caught.value.conflicts
        assert local_about(client) == "local"
        assert ABOUT in pending(client)
        client.sync()  # as after a fetch conflict, a sync sends the local value
    assert server_about(emu, uuid) == "local"


# -- row 5: an edit that cannot be saved is refused ------------------------------------------------------------


class FailingStorage:
    """A dict-backed host storage whose saves fail while ``fail_saves`` is set."""

    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}
        self.lock = threading.Lock()
        self.fail_saves = False
        self.failed_saves = 0

    def load(self, key: str) -> Optional[bytes]:
        with self.lock:
            return self.data.get(key)

    def save(self, key: str, data: bytes) -> None:
        with self.lock:
            if self.fail_saves:
                self.failed_saves += 1
                raise OSError("the keychain is full")
            self.data[key] = data

    def erase(self, key: str) -> None:
        with self.lock:
            self.data.pop(key, None)


def assert_edit_refused(client: jump.Client) -> None:
    with client.record as record:
        with pytest.raises(jump.StorageError):
            record[ABOUT] = "cannot be saved"
        assert record.get_string(ABOUT) == "before", "the refused edit was applied"
        assert ABOUT not in record.changes()["changed"], "the refused edit is listed by changes()"


def test_edit_refused_when_host_storage_cannot_save(make_config, emu) -> None:
    _, email = create_user(emu, "before")
    store = FailingStorage()
    with jump.Config(make_config()) as config:
        config.set_storage(store)
        with jump.Client(config) as client:
            client.sign_in(email, PASSWORD)
            store.fail_saves = True
            try:
                assert_edit_refused(client)
            finally:
                store.fail_saves = False
            assert store.failed_saves > 0
        with jump.Client(config) as restarted:  # nothing half kept
            assert local_about(restarted) == "before" and ABOUT not in pending(restarted)


_libc = ctypes.CDLL(None, use_errno=True)


@contextlib.contextmanager
def read_only(directory: str) -> Iterator[None]:
    """The storage directory read-only for this thread: dir 0555, files 0444 and, as root (whom modes do not
    stop), this thread's filesystem uid nobody (setfsuid is per thread; libjump's synchronous calls do their
    file I/O on the caller's thread)."""
    def chmod_all(dir_mode: int, file_mode: int) -> None:
        for name in os.listdir(directory):
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                os.chmod(path, file_mode)
        os.chmod(directory, dir_mode)

    chmod_all(0o555, 0o444)
    root = os.geteuid() == 0
    try:
        if root:
            _libc.setfsuid(NOBODY)
            assert _libc.setfsuid(NOBODY) == NOBODY, "setfsuid(nobody) did not take"
        probe = os.path.join(directory, "probe-write")
        try:
            open(probe, "w").close()
        except OSError:
            pass
        else:
            os.remove(probe)
            pytest.fail("could not make the storage directory read-only")
        yield
    finally:
        if root:
            _libc.setfsuid(0)
        chmod_all(0o700, 0o600)


def test_edit_refused_when_storage_directory_is_read_only(make_config, emu, storage) -> None:
    _, email = create_user(emu, "before")
    with jump.Client(make_config()) as client:
        client.sign_in(email, PASSWORD)
        with read_only(storage):
            assert_edit_refused(client)
    with jump.Client(make_config()) as restarted:
        assert local_about(restarted) == "before" and ABOUT not in pending(restarted)


# -- row 3: a refresh whose answer was never saved ---------------------------------------------------------


def test_refresh_answer_lost_still_works_after_restart(make_config, emu) -> None:
    """The server rotated the token, the client could not save the answer (storage failing from the moment
    the server had the request): a restart within the emulator's grace window replays the recorded refresh
    and gets the same new token, instead of a session every call answers SessionExpired."""
    uuid, email = create_user(emu, "before")
    store = FailingStorage()
    with jump.Config(make_config()) as config:
        config.set_storage(store)
        with jump.Client(config) as client:
            client.sign_in(email, PASSWORD)
            refresher = refresh_on_the_wire(client, emu)
            store.fail_saves = True  # the answer arrives with nothing able to save it
            refresher.join(30)
            store.fail_saves = False
            assert store.failed_saves > 0
        with jump.Client(config) as restarted:
            assert restarted.state["uuid"] == uuid
            restarted.fetch_record()  # SessionExpired before session integrity
            restarted.fetch_record()


# -- row 4: a sync whose acknowledgement was never saved ---------------------------------------------------


def test_appended_element_whose_acknowledgement_was_lost_is_not_a_conflict(make_config, emu, tmp_path) -> None:
    """The storage as it was before a sync the server accepted (what kill -9 after the answer leaves): the
    restored element with its local id is the one the server holds, not a conflict, and not sent twice."""
    _, email = create_user(emu, "before")
    store = tmp_path / "store"
    config = make_config(storageDirectory=str(store))
    with jump.Client(config) as client:
        client.sign_in(email, PASSWORD)
        with client.record as record:
            record.append("/photos", {"type": "x", "value": "a.png"})
        saved = {p.name: p.read_bytes() for p in store.iterdir() if p.is_file()}
        client.sync()
    for p in store.iterdir():
        if p.is_file():
            p.unlink()
    for name, data in saved.items():
        (store / name).write_bytes(data)
    with jump.Client(config) as restored:
        assert "/photos" in pending(restored)
        restored.fetch_record()  # Conflict before session integrity
        assert "/photos" not in pending(restored)
        with restored.record as record:
            assert record.count("/photos") == 1


def test_a_refresh_that_failed_for_a_passing_reason_leaves_the_session_usable(make_config, emu) -> None:
    """A refresh answered with HTTP 500 stays pending (to be replayed), but the access token it was to
    replace is still good: calls go on with it instead of failing until the replay works."""
    uuid, email = create_user(emu, "before")
    # maxRetries 0: each 500 reaches the caller (the replay is libjump's, not the transport's retry).
    with jump.Client(make_config(storageDirectory=":memory:", maxRetries=0)) as client:
        client.sign_in(email, PASSWORD)
        emu.fault("http_500", "/oauth/refresh_access_token", count=2)  # the refresh, and its first replay
        with pytest.raises(jump.ServerError):
            client.refresh_access_token()
        client.fetch_record()  # the token it holds is valid for an hour more
        set_about(client, "after a failed refresh")
        client.sync()
    assert server_about(emu, uuid) == "after a failed refresh"


class UnreadableSessionStorage(FailingStorage):
    """Host storage whose session entry cannot be read (a keychain locked at start-up)."""

    def __init__(self) -> None:
        super().__init__()
        self.locked = False

    def load(self, key: str) -> Optional[bytes]:
        if self.locked and key.startswith("session-"):
            raise OSError("the keychain is locked")
        return super().load(key)


def test_an_unreadable_host_session_is_never_written_over(make_config, emu) -> None:
    """A host store that cannot read the saved session cannot set it aside either: the next sign-in is
    refused (StorageError, reason unreadable_session) rather than saving over it; a sign-out discards it on
    purpose, and then a sign-in works."""
    _, a_email = create_user(emu, "before")
    _, b_email = create_user(emu, "b before")
    store = UnreadableSessionStorage()
    with jump.Config(make_config()) as config:
        config.set_storage(store)
        with jump.Client(config) as client:
            client.sign_in(a_email, PASSWORD)
            set_about(client, A_EDIT)
        kept = {k: v for k, v in store.data.items() if k.startswith(("session-", "journal-"))}
        store.locked = True
        with jump.Client(config) as client:
            assert client.state["restore_error"] is not None
            with pytest.raises(jump.StorageError) as info:
                client.sign_in(b_email, PASSWORD)
            assert info.value.detail.get("reason") == "unreadable_session", info.value.detail
            assert {k: v for k, v in store.data.items() if k.startswith(("session-", "journal-"))} == kept
            client.sign_out()  # the app's decision: discard it
            client.sign_in(b_email, PASSWORD)
            assert client.is_signed_in
