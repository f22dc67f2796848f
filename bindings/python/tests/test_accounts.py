"""Several accounts in one client (config key ``accounts``): with ``"multiple"`` a sign-in of another user adds
an account and makes it active, the others stay signed in; the app lists them, switches without a password and
removes one. Each account keeps its own session, journal, quarantine and secrets. With ``"single"`` (the
default) nothing changes, on disk either. Real libjump against the real emulator."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import jump

from conftest import PASSWORD
from emulator_helpers import unique_email
from social_helpers import server_identifiers

SIGN_IN = "POST /oauth/auth_native_traditional"
REFRESH = "POST /oauth/refresh_access_token"
HERE = Path(__file__).resolve().parent


def new_user(emu, tag: str) -> Tuple[str, str]:
    """A user made through the admin API: (email, uuid)."""
    email = unique_email(tag)
    user = emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD, "record": {"displayName": tag}})["user"]
    return email, user["uuid"]


def sign_in_two(emu, client: jump.Client, tag: str) -> Tuple[str, str, str, str]:
    """Users `tag`-a and `tag`-b made through the admin API and signed in on client, A first (B is active):
    (a_email, a_uuid, b_email, b_uuid)."""
    a_email, a_uuid = new_user(emu, tag + "-a")
    b_email, b_uuid = new_user(emu, tag + "-b")
    client.sign_in(a_email, PASSWORD)
    client.sign_in(b_email, PASSWORD)
    return a_email, a_uuid, b_email, b_uuid


@pytest.fixture
def multi(make_config):
    """``multi(**overrides)``: a client with ``accounts`` ``"multiple"`` on the test's storage directory."""
    made: List[jump.Client] = []

    def make(**overrides: Any) -> jump.Client:
        client = jump.Client(make_config(accounts="multiple", **overrides))
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()


def uuids(client: jump.Client) -> Dict[str, bool]:
    """The saved accounts: uuid -> active."""
    return {a["uuid"]: a["active"] for a in client.accounts()["accounts"]}


def photos_of(emu, uuid: str) -> List[str]:
    return sorted(p["value"] for p in emu.user(uuid)["user"].get("photos") or [])


def test_single_mode_lists_the_signed_in_user_and_writes_no_index(client, emu, storage) -> None:
    assert client.accounts() == {"accounts": [], "active": None}
    a_email, a_uuid = new_user(emu, "single-a")
    b_email, b_uuid = new_user(emu, "single-b")
    client.sign_in(a_email, PASSWORD)
    assert uuids(client) == {a_uuid: True}
    with pytest.raises(jump.NotFound):
        client.switch_account(b_uuid)
    client.switch_account(a_uuid)  # the signed-in user: nothing to do
    client.sign_in(b_email, PASSWORD)  # replaces A, as always
    assert uuids(client) == {b_uuid: True}
    assert not [n for n in os.listdir(storage) if n.startswith("accounts-") or "-account-" in n], os.listdir(storage)


def test_two_users_stay_signed_in_and_switch_without_a_password(multi, emu) -> None:
    a_email, a_uuid = new_user(emu, "multi-a")
    b_email, b_uuid = new_user(emu, "multi-b")
    client = multi()
    events: List[Dict[str, Any]] = []
    seen = threading.Event()

    def on_event(event: Dict[str, Any]) -> None:
        events.append(event)
        if event["event"] == "account_switched":
            seen.set()

    client.on_event(on_event)
    client.sign_in(a_email, PASSWORD)
    client.sign_in(b_email, PASSWORD)
    assert uuids(client) == {a_uuid: False, b_uuid: True}
    listed = client.accounts()
    assert listed["active"] == b_uuid and listed["accounts"][0]["uuid"] == b_uuid  # the most recent first
    assert {a["display_name"] for a in listed["accounts"]} == {"multi-a", "multi-b"}
    emu.clear_counters()
    client.switch_account(a_uuid)
    assert client.is_signed_in and client.state["uuid"] == a_uuid
    assert client.record["/email"] == a_email
    client.switch_account(b_uuid)
    assert client.record["/email"] == b_email
    assert not emu.counters().get(SIGN_IN), emu.counters()  # no password, no sign-in request
    assert seen.wait(5)
    switched = [e["uuid"] for e in events if e["event"] == "account_switched"]
    assert switched[-2:] == [a_uuid, b_uuid], events
    with pytest.raises(jump.NotFound):
        client.switch_account("no-such-uuid")


def test_a_saved_users_sign_in_goes_to_their_own_account(multi, emu) -> None:
    client = multi()
    a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, client, "again")
    client.sign_in(a_email, PASSWORD)
    assert uuids(client) == {a_uuid: True, b_uuid: False}


def test_edits_stay_with_their_account_across_100_switches_and_a_restart(multi, emu) -> None:
    client = multi()
    a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, client, "edits")
    expected: Dict[str, List[str]] = {a_uuid: [], b_uuid: []}
    for i in range(100):
        uuid = a_uuid if i % 2 == 0 else b_uuid
        client.switch_account(uuid)
        value = f"{'a' if uuid == a_uuid else 'b'}-{i}.png"
        client.record.append("/photos", {"value": value})
        expected[uuid].append(value)
        if i % 10 == 9:
            client.sync()  # some edits go out between switches, the rest wait in each account's journal
    client.close()
    restarted = multi()
    assert set(uuids(restarted)) == {a_uuid, b_uuid}
    for uuid in (a_uuid, b_uuid):
        restarted.switch_account(uuid)
        restarted.sync()
        assert photos_of(emu, uuid) == sorted(expected[uuid])
        assert sorted(restarted.record.get(path + "/value") for path in restarted.record.elements("/photos")) == sorted(expected[uuid])


def test_removing_one_account_leaves_the_other_and_nothing_of_it(multi, emu, storage) -> None:
    a_email, a_uuid = new_user(emu, "remove-a")
    b_email, b_uuid = new_user(emu, "remove-b")
    client = multi()
    client.sign_in(a_email, PASSWORD)
    client.record["/aboutMe"] = "unsynced, to be discarded"
    client.sign_in(b_email, PASSWORD)
    client.remove_account(a_uuid)
    assert uuids(client) == {b_uuid: True}
    client.record["/aboutMe"] = "still usable"
    client.sync()
    assert emu.user(b_uuid)["user"]["aboutMe"] == "still usable"
    with pytest.raises(jump.NotFound):
        client.switch_account(a_uuid)
    leftovers = [n for n in os.listdir(storage) if a_uuid in Path(storage, n).read_text(errors="replace")]
    assert leftovers == [], leftovers
    client.close()
    assert uuids(multi()) == {b_uuid: True}


def test_removing_the_active_account_signs_no_one_else_in(multi, emu) -> None:
    client = multi()
    a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, client, "active")
    client.remove_account(b_uuid)
    assert not client.is_signed_in
    assert client.accounts() == {"accounts": client.accounts()["accounts"], "active": None}
    assert uuids(client) == {a_uuid: False}
    client.switch_account(a_uuid)
    assert client.is_signed_in and client.state["uuid"] == a_uuid


def test_sign_out_signs_out_the_active_account_only(multi, emu) -> None:
    client = multi()
    a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, client, "out")
    client.sign_out()
    assert not client.is_signed_in
    assert uuids(client) == {a_uuid: False}
    client.switch_account(a_uuid)
    client.fetch_record()
    assert client.record["/email"] == a_email


SHARING_PROCESS = """
import json, sys
import jump
config = json.loads(sys.argv[1])
with jump.Client(config) as client:
    listed = sorted(a["uuid"] for a in client.accounts()["accounts"])
    for uuid in listed:
        client.switch_account(uuid)
        client.fetch_record()
    print(json.dumps(listed))
"""


def test_processes_sharing_a_directory_see_one_list_and_refresh_once_per_account(make_config, multi, emu) -> None:
    first = multi()
    a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, first, "shared")
    emu.advance_clock(7200)  # every access token has expired
    emu.clear_counters()
    other = subprocess.Popen([sys.executable, "-c", SHARING_PROCESS, json.dumps(make_config(accounts="multiple"))],
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    for uuid in (a_uuid, b_uuid):
        first.switch_account(uuid)
        first.fetch_record()
    listed, _ = other.communicate(timeout=60)
    assert other.returncode == 0
    assert json.loads(listed) == sorted([a_uuid, b_uuid])  # the other process sees both accounts
    assert emu.counters().get(REFRESH) == 2, emu.counters()  # one per account, whichever process asked first


def test_async_switch(multi, emu) -> None:
    client = multi()
    a_email, a_uuid, b_email, _ = sign_in_two(emu, client, "async")
    assert client.switch_account_async(a_uuid).result(10) == {}
    assert client.state["uuid"] == a_uuid


@pytest.fixture(scope="module")
def account_switcher(tmp_path_factory) -> str:
    compiler = shutil.which(os.environ.get("CC", "cc"))
    assert compiler, "a C compiler is needed for the account switcher"
    program = tmp_path_factory.mktemp("switcher") / "account_switcher"
    subprocess.run([compiler, "-O2", "-o", str(program), str(HERE / "account_switcher.c"), "-ldl"], check=True)
    return str(program)


def test_kill_9_during_switches_loses_no_account_and_mixes_no_edits(make_config, multi, emu, account_switcher) -> None:
    with multi() as setup:
        a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, setup, "kill")
    config = json.dumps(make_config(accounts="multiple"))
    rng = random.Random(43)
    edits = 0
    for kill in range(100):
        child = subprocess.Popen([account_switcher, jump.library_path(), config, a_uuid, b_uuid],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        time.sleep(rng.uniform(0, 0.05))
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert child.returncode == -signal.SIGKILL, f"kill {kill}: the switcher stopped by itself ({child.returncode})"
        edits += len(child.stdout.read().splitlines())  # the kills land among switches, not before the first
        if kill % 10 == 9:
            with multi() as check:
                assert set(uuids(check)) == {a_uuid, b_uuid}, f"kill {kill}: an account was lost"
                for uuid in (a_uuid, b_uuid):
                    check.switch_account(uuid)
                    values = [check.record.get(p + "/value") for p in check.record.elements("/photos")]
                    assert all(v.startswith(uuid) for v in values), f"kill {kill}: another account's edit in {uuid}"
    assert edits >= 200, edits
    with multi() as final:
        for uuid in (a_uuid, b_uuid):
            final.switch_account(uuid)
            final.sync()
            final.fetch_record()  # the session is alive
            assert photos_of(emu, uuid) and all(v.startswith(uuid) for v in photos_of(emu, uuid))


def test_a_link_begun_in_one_account_does_not_complete_in_another(emu, idp, social_config) -> None:
    """Each saved account's sessions count their generations from one counter: a browser link begun in A and
    completed after a switch to B is refused, never linked to B."""
    with jump.Client(social_config(storageDirectory=":memory:", accounts="multiple")) as client:
        a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, client, "link")
        client.switch_account(a_uuid)
        begun = client.social_begin("facebook", link=True)
        client.switch_account(b_uuid)
        with pytest.raises(jump.NotSignedIn) as refused:
            client.social_complete(idp.finish(begun["url"], name="Fa Ce", email=unique_email("f")))
        assert refused.value.detail.get("reason") == "session_changed"
        assert client.linked_profiles() == []
        assert server_identifiers(emu, b_uuid) == [] and server_identifiers(emu, a_uuid) == []


class FlakyStore:
    """Host storage in a dict; `fail_erase` / `fail_load` name substrings of keys whose next erase or every
    load fails (a keychain that is locked, say)."""

    def __init__(self) -> None:
        self.entries: Dict[str, bytes] = {}
        self.fail_erase: List[str] = []
        self.fail_load: List[str] = []

    def load(self, key: str):
        if any(part in key for part in self.fail_load):
            raise OSError("the keychain is locked")
        return self.entries.get(key)

    def save(self, key: str, data: bytes) -> None:
        self.entries[key] = bytes(data)

    def erase(self, key: str) -> None:
        for part in list(self.fail_erase):
            if part in key:
                self.fail_erase.remove(part)
                raise OSError("the keychain is locked")
        self.entries.pop(key, None)


def hosted(make_config, store: FlakyStore) -> jump.Client:
    config = jump.Config(make_config(accounts="multiple", storageDirectory=None))
    config.set_storage(store)
    return jump.Client(config)


def account_keys(store: FlakyStore) -> List[str]:
    return sorted(k for k in store.entries if k.startswith("session-") and "-account-" in k)


def test_a_removal_whose_erase_failed_finishes_when_called_again(make_config, emu) -> None:
    store = FlakyStore()
    with hosted(make_config, store) as client:
        # B's session is in its own slot: session-...-account-<slot>
        a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, client, "retry")
        [b_key] = account_keys(store)
        store.fail_erase.append(b_key)
        with pytest.raises(jump.StorageError):
            client.remove_account(b_uuid)
        assert b_key in store.entries
        client.remove_account(b_uuid)  # "call again"
        assert account_keys(store) == [] and not any(b_uuid in v.decode("utf-8", "replace") for v in store.entries.values())
        assert uuids(client) == {a_uuid: False}


def test_an_account_whose_session_cannot_be_read_is_listed_not_lost(make_config, emu) -> None:
    store = FlakyStore()
    with hosted(make_config, store) as client:
        a_email, a_uuid, b_email, b_uuid = sign_in_two(emu, client, "locked")
        [b_key] = account_keys(store)
    store.fail_load.append(b_key)
    with hosted(make_config, store) as client:
        listed = {a["uuid"]: a for a in client.accounts()["accounts"]}
        assert set(listed) == {a_uuid, b_uuid}
        assert listed[b_uuid]["signed_in"] is False and listed[b_uuid]["email"] == b_email
        store.fail_load.clear()
        client.restore()  # reads every unreadable account again
        assert {a["uuid"]: a["signed_in"] for a in client.accounts()["accounts"]} == {a_uuid: True, b_uuid: True}
        client.switch_account(b_uuid)
        assert client.record["/email"] == b_email
