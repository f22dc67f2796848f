"""Secrets in the Secret Service (secretStore): a real gnome-keyring-daemon on a private D-Bus session bus.

The bus has no service activation, so a keyring daemon that is killed stays gone until the test starts one.
libsecret keeps one connection per process to the first bus it used, so every test here shares one bus.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Dict, Iterator, List, Optional

import pytest

import jump

from conftest import PASSWORD, refresh_on_the_wire, unique_email

LOGIN_COLLECTION = "/org/freedesktop/secrets/collection/login"
KEYRING_PASSWORD = b"keyring-password"

pytestmark = pytest.mark.skipif(
    not (shutil.which("gnome-keyring-daemon") and shutil.which("dbus-daemon") and shutil.which("secret-tool")),
    reason="gnome-keyring, dbus and libsecret-tools are not installed (scripts/ensure-deps.sh --test python)")

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class Keyring:
    """A session bus and a gnome-keyring-daemon on it, with a home of their own."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.runtime = root / "run"
        for d in (self.home, self.runtime):
            d.mkdir(parents=True, exist_ok=True)
            d.chmod(0o700)
        (root / "bus.conf").write_text(BUS_CONFIG.format(dir=self.runtime))
        self.bus = subprocess.Popen(["dbus-daemon", f"--config-file={root / 'bus.conf'}", "--nofork", "--print-address=1"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.bus.stdout is not None
        self.address = self.bus.stdout.readline().decode().strip()
        assert self.address, "dbus-daemon printed no address"
        self.daemon: Optional[subprocess.Popen] = None

    @property
    def env(self) -> Dict[str, str]:
        env = dict(os.environ)
        env.update(HOME=str(self.home), XDG_DATA_HOME=str(self.home / ".local/share"),
                   XDG_RUNTIME_DIR=str(self.runtime), DBUS_SESSION_BUS_ADDRESS=self.address)
        env.pop("DISPLAY", None)
        return env

    def start(self) -> None:
        """Starts the daemon with its login keyring unlocked (created with that password the first time)."""
        self.daemon = subprocess.Popen(["gnome-keyring-daemon", "--foreground", "--replace", "--unlock",
                                        "--components=secrets"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, env=self.env)
        assert self.daemon.stdin is not None
        self.daemon.stdin.write(KEYRING_PASSWORD)
        self.daemon.stdin.close()
        deadline = time.monotonic() + 10
        while not self.serving():
            assert time.monotonic() < deadline, "gnome-keyring-daemon did not take its bus name"
            time.sleep(0.05)

    def serving(self) -> bool:
        reply = subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                                "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"],
                               capture_output=True, text=True, env=self.env)
        return "boolean true" in reply.stdout

    def kill(self) -> None:
        if self.daemon is not None:
            self.daemon.send_signal(signal.SIGKILL)
            self.daemon.wait(10)
            self.daemon = None
        deadline = time.monotonic() + 10
        while self.serving():
            assert time.monotonic() < deadline, "the killed daemon still owns its bus name"
            time.sleep(0.05)

    def lock(self) -> None:
        # The Service's Lock method (secret-tool lock of libsecret 0.20 crashes after locking).
        subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.secrets",
                        "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
                        f"array:objpath:{LOGIN_COLLECTION}"], check=True, env=self.env, capture_output=True, timeout=20)

    def items(self) -> List[Dict[str, str]]:
        """libjump's items: their attributes and secrets, as secret-tool finds them."""
        out = subprocess.run(["secret-tool", "search", "--all", "application", "libjump"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, env=self.env).stdout
        items: List[Dict[str, str]] = []
        for line in out.splitlines():
            if line.startswith("["):
                items.append({})
            elif " = " in line and items:
                key, value = line.split(" = ", 1)
                items[-1][key.strip()] = value
        return items

    def close(self) -> None:
        if self.daemon is not None:
            self.daemon.kill()
            self.daemon.wait(10)
        self.bus.terminate()
        self.bus.wait(10)


@pytest.fixture(scope="module")
def keyring(tmp_path_factory) -> Iterator[Keyring]:
    ring = Keyring(tmp_path_factory.mktemp("keyring"))
    ring.start()
    yield ring
    ring.close()


@pytest.fixture
def on_bus(keyring: Keyring, monkeypatch) -> Keyring:
    """This process on the keyring's bus (libjump reads DBUS_SESSION_BUS_ADDRESS when a client is made)."""
    if keyring.daemon is None:
        keyring.start()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", keyring.address)
    return keyring


def file_bytes(directory: str) -> bytes:
    return b"".join(p.read_bytes() for p in Path(directory).rglob("*") if p.is_file())


def session_document(directory: str) -> Dict[str, object]:
    [path] = [p for p in Path(directory).iterdir() if p.name.startswith("session-")]
    return json.loads(path.read_text())


def test_default_storage_keeps_the_session_secrets_in_the_keyring(make_config, emu, storage, on_bus) -> None:
    with jump.Client(make_config()) as client:
        assert client.state["secret_store"] == "secret-service"
        uuid = client.register_traditional({"email": unique_email()}, PASSWORD)["uuid"]
        token = client.access_token()
        with client.record as record:
            record["/aboutMe"] = "kept"
    document = session_document(storage)
    assert "access_token" not in document and "refresh_secret" not in document
    assert document["secrets_in"] == "secret-service"
    assert token.encode() not in file_bytes(storage)
    [item] = [i for i in on_bus.items() if i.get("attribute.entry", "").startswith("session-")]
    assert item["attribute.scope"] == os.path.realpath(storage)
    secrets = json.loads(item["secret"])
    assert secrets["access_token"] == token and secrets["refresh_secret"]
    assert secrets["refresh_secret"].encode() not in file_bytes(storage)

    emu.clear_counters()
    with jump.Client(make_config()) as again:  # a restart restores it, without the network
        assert again.is_signed_in and again.state["uuid"] == uuid and again.state["restore_error"] is None
        assert again.access_token() == token
        assert again.record["/aboutMe"] == "kept"
        assert sum(emu.counters().values()) == 0
        again.sign_out()
    assert not [i for i in on_bus.items() if i.get("attribute.scope") == os.path.realpath(storage)]


def test_a_refresh_replaces_the_item_and_the_file_never_holds_a_token(make_config, emu, storage, on_bus) -> None:
    with jump.Client(make_config()) as client:
        client.register_traditional({"email": unique_email()}, PASSWORD)
        old = client.access_token()
        client.refresh_access_token()
        new = client.access_token()
        assert new != old
        for secret in (old, new):
            assert secret.encode() not in file_bytes(storage)
        mine = [i for i in on_bus.items() if i.get("attribute.scope") == os.path.realpath(storage)]
        assert len(mine) == 1 and json.loads(mine[0]["secret"])["access_token"] == new
        client.sign_out()


def test_sign_in_token_credentials_go_to_the_keyring(emu, storage, on_bus) -> None:
    from sign_in_tokens import mint, new_user
    config = {"signInTokenAuthBaseUrl": emu.url, "signInTokenApiBaseUrl": emu.url, "storageDirectory": storage}
    user = new_user(emu)
    with jump.Client(config) as client:
        client.sign_in_with_token(mint(emu, user))
        token = client.access_token()
    [credential] = [p for p in Path(storage).iterdir() if p.name.startswith("credential-")]
    assert json.loads(credential.read_text()) == {"secrets_in": "secret-service"}  # a marker, no secret
    assert token.encode() not in file_bytes(storage)
    assert any(i.get("attribute.entry", "").startswith("credential-") for i in on_bus.items())
    # A client that does not use the keyring is told where the credential is, not "signed out".
    with jump.Client({**config, "secretStore": "file"}) as blind:
        status = blind.status
        # The gist (no secret, in a file) still says who is signed in; the credential's absence is an error.
        assert status["user_id"] == user and status["restore_error"]["reason"] == "secret_service_unavailable"
        with pytest.raises(jump.StorageError):  # and writes no file copy of another credential over it
            blind.sign_in_with_token(mint(emu, new_user(emu)))
    assert json.loads(credential.read_text()) == {"secrets_in": "secret-service"}
    with jump.Client(config) as again:
        assert again.status["signed_in"] and again.status["user_id"] == user
        again.sign_out()
    assert not credential.exists()


def test_required_secret_service_without_a_bus_is_a_storage_error(make_config, monkeypatch) -> None:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    with pytest.raises(jump.StorageError) as refused:
        jump.Client(make_config(secretStore="secret-service"))
    assert "dbus-run-session" in refused.value.message and "gnome-keyring-daemon --unlock" in refused.value.message
    assert refused.value.detail["reason"] == "secret_service_unavailable"


def test_auto_without_a_bus_uses_files_and_says_so_once(make_config, storage) -> None:
    # A process of its own: the warning is logged once per process, and this one has made clients already.
    script = textwrap.dedent("""
        import json, sys, jump
        lines = []
        jump.set_log_callback(lambda line: lines.append(str(line.get("message", ""))))
        config = json.loads(sys.argv[1])
        with jump.Client(config) as a, jump.Client(config) as b:
            print(json.dumps({"stores": [a.state["secret_store"], b.state["secret_store"]],
                              "warnings": [l for l in lines if "secrets are kept in files" in l]}))
    """)
    env = {k: v for k, v in os.environ.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    out = subprocess.run([sys.executable, "-c", script, json.dumps(make_config())], capture_output=True, text=True,
                         env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["stores"] == ["file", "file"]
    assert len(result["warnings"]) == 1 and "no D-Bus session bus" in result["warnings"][0]


def test_file_mode_and_memory_and_host_are_reported(make_config, on_bus) -> None:
    with jump.Client(make_config(secretStore="file")) as client:
        assert client.state["secret_store"] == "file"
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        assert client.state["secret_store"] == "memory"


def test_a_locked_keyring_is_a_storage_error_and_nothing_moves_to_files(make_config, emu, storage, on_bus) -> None:
    with jump.Client(make_config()) as client:
        uuid = client.register_traditional({"email": unique_email()}, PASSWORD)["uuid"]
        token = client.access_token()
        on_bus.lock()
        try:
            # The session in memory goes on; its next save cannot reach the keyring and says so. A refresh
            # whose pending record cannot be saved is not sent (a restart could not finish it), and the token
            # held goes on.
            with pytest.raises(jump.StorageError):
                client.refresh_access_token()
            assert client.access_token() == token
            assert client.state["storage_error"] is not None
            assert "locked" in client.state["storage_error"]["message"]
            assert client.access_token().encode() not in file_bytes(storage)
            with jump.Client(make_config()) as second:  # a restart while locked: not "signed out"
                state = second.state
                assert not state["signed_in"] and state["restore_error"] is not None
                assert "locked" in state["restore_error"]["message"]
                with pytest.raises(jump.StorageError):
                    second.access_token()
        finally:
            on_bus.kill()
            on_bus.start()  # unlocked again
    assert token.encode() not in file_bytes(storage)
    with jump.Client(make_config()) as third:
        assert third.is_signed_in and third.state["uuid"] == uuid, json.dumps(third.state)
        third.sign_out()


def test_the_daemon_killed_mid_run_loses_nothing(make_config, emu, storage, on_bus) -> None:
    with jump.Client(make_config()) as client:
        uuid = client.register_traditional({"email": unique_email()}, PASSWORD)["uuid"]
        on_bus.kill()
        try:
            with client.record as record:
                record["/aboutMe"] = "edited while the keyring is gone"  # the journal is a file: kept
            with pytest.raises(jump.StorageError):
                client.refresh_access_token()  # not sent: its pending record cannot be saved; the session works on
            assert client.state["storage_error"] is not None
            assert client.sync()["changed"] == ["/aboutMe"]
            with jump.Client(make_config()) as blind:
                assert blind.state["restore_error"] is not None and not blind.is_signed_in
        finally:
            on_bus.start()
        client.refresh_access_token()  # the next save reaches the keyring again
        assert client.state["storage_error"] is None, json.dumps(client.state["storage_error"])
        token = client.access_token()
    with jump.Client(make_config()) as again:
        assert again.is_signed_in and again.state["uuid"] == uuid and again.access_token() == token
        assert again.record["/aboutMe"] == "edited while the keyring is gone"
        again.sign_out()


def test_a_file_only_session_migrates_into_the_keyring(make_config, emu, storage, on_bus) -> None:
    with jump.Client(make_config(secretStore="file")) as old:
        uuid = old.register_traditional({"email": unique_email()}, PASSWORD)["uuid"]
        token = old.access_token()
    assert token.encode() in file_bytes(storage) and "access_token" in session_document(storage)
    with jump.Client(make_config()) as migrated:
        assert migrated.is_signed_in and migrated.state["uuid"] == uuid
        assert migrated.state["secret_store"] == "secret-service"
        assert migrated.access_token() == token
    assert token.encode() not in file_bytes(storage)
    assert "access_token" not in session_document(storage)
    with jump.Client(make_config()) as again:
        assert again.access_token() == token
        again.sign_out()


def test_a_refresh_whose_answer_could_not_be_saved_is_replayed_from_the_keyring(make_config, emu, storage,
                                                                                on_bus) -> None:
    """The pending refresh (saved before it is sent) lives with the secrets: with the keyring gone when the
    answer comes, a restart replays the very request and gets the same new token, not a dead session."""
    with jump.Client(make_config()) as client:
        uuid = client.register_traditional({"email": unique_email()}, PASSWORD)["uuid"]
        refresher = refresh_on_the_wire(client, emu)
        on_bus.kill()  # the answer arrives with nothing able to save it
        refresher.join(30)
        assert client.state["storage_error"] is not None
        on_bus.start()
    assert "pending_refresh" not in session_document(storage)
    with jump.Client(make_config()) as restarted:
        assert restarted.state["uuid"] == uuid
        restarted.fetch_record()
        assert emu.counters().get("POST /oauth/refresh_access_token") == 2  # the refresh, then its replay
        restarted.sign_out()


def test_each_saved_account_has_its_own_item_and_a_removal_leaves_none_of_its(make_config, emu, storage, on_bus) -> None:
    """accounts "multiple": each account's secrets under a name of its own; removing one erases its item and
    files, and the other's stay."""
    emails = [unique_email("ring-a"), unique_email("ring-b")]
    for email in emails:
        emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})
    with jump.Client(make_config(accounts="multiple")) as client:
        uuids = []
        for email in emails:
            client.sign_in(email, PASSWORD)
            uuids.append(client.state["uuid"])
        entries = sorted(i["attribute.entry"] for i in on_bus.items() if i.get("attribute.scope") == os.path.realpath(storage))
        assert len(entries) == 2 and len({e.split("#")[0] for e in entries}) == 2, entries  # one name per account
        kept_token = client.access_token()  # B's, the active account
        client.remove_account(uuids[0])
        left = [i for i in on_bus.items() if i.get("attribute.scope") == os.path.realpath(storage)]
        assert len(left) == 1 and json.loads(left[0]["secret"])["access_token"] == kept_token
        assert uuids[0].encode() not in file_bytes(storage)
        client.fetch_record()  # the other account is still usable
