"""``python -m jump``, run as a subprocess against the emulator: outputs, exit codes from jump_status, errors on
stderr (one line, plus the JSON detail with --json), the password read from stdin and never echoed; every
command over the session saved in a storage directory (--storage, or the config's storageDirectory)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

import jump

from conftest import BINDING, ENGAGE_APP_ID, PASSWORD, closed_port_url


def run(*args: str, stdin: str = "", env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    environment = dict(os.environ)
    if not os.environ.get("JUMP_TEST_INSTALLED"):  # the source tree, as conftest imports it
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(BINDING), os.environ.get("PYTHONPATH")]))
    environment.pop("JUMP_CONFIG", None)
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "jump", *args], input=stdin, capture_output=True, text=True,
                          env=environment, timeout=60)


@pytest.fixture
def config_file(make_config, tmp_path: Path):
    """``config_file(**overrides) -> path`` of a JSON config for the emulator, with a storage directory of its
    own (not the one the ``registered`` fixture's client saved its session in: what the CLI shows is its own)."""
    storage = tmp_path / "cli-storage"
    storage.mkdir()

    def write(**overrides: Any) -> str:
        path = tmp_path / f"config-{len(list(tmp_path.glob('config-*.json')))}.json"
        # secretStore "file": files on purpose, as a headless CLI user would set it, so "auto"'s one warning
        # line (no Secret Service here) does not stand beside the one error line these tests look for.
        path.write_text(json.dumps(make_config(**{"storageDirectory": str(storage), "secretStore": "file", **overrides})))
        return str(path)

    return write


def lines(text: str) -> List[str]:
    return [line for line in text.splitlines() if line]


def test_version() -> None:
    done = run("version")
    assert done.returncode == 0, done.stderr
    assert jump.version() in done.stdout and jump.__version__ in done.stdout
    done = run("version", "--json")
    assert done.returncode == 0 and json.loads(done.stdout) == {
        "binding": jump.__version__, "library": jump.version(), "abi": jump.ABI_VERSION,
        "library_path": jump.library_path()}


def test_sign_in_state_sign_out(config_file, registered) -> None:
    config = config_file()
    assert json.loads(run("state", "--json", "--config", config).stdout)["signed_in"] is False
    done = run("sign-in", "--config", config, "--email", registered["email"], stdin=PASSWORD + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"signed in: {registered['uuid']}"
    assert PASSWORD not in done.stdout + done.stderr

    done = run("--json", "state", "--config", config)  # --json before the command works too
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["signed_in"] is True and state["uuid"] == registered["uuid"]
    assert state["email"] == registered["email"]

    done = run("state", "--config", config)  # readable: indented JSON
    assert done.returncode == 0 and json.loads(done.stdout)["signed_in"] is True and "\n  " in done.stdout

    done = run("sign-out", "--config", config, "--json")
    assert done.returncode == 0 and json.loads(done.stdout) == {"signed_out": True}
    done = run("state", "--config", config, "--json")
    assert json.loads(done.stdout)["signed_in"] is False


def test_sign_in_json_result(config_file, registered) -> None:
    done = run("sign-in", "--json", "--config", config_file(), "--email", registered["email"], stdin=PASSWORD)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["uuid"] == registered["uuid"] and result["is_new"] is False


def test_config_from_the_environment(config_file, registered) -> None:
    config = config_file()
    done = run("sign-in", "--email", registered["email"], stdin=PASSWORD + "\n", env={"JUMP_CONFIG": config})
    assert done.returncode == 0, done.stderr
    done = run("state", "--json", env={"JUMP_CONFIG": config})
    assert json.loads(done.stdout)["uuid"] == registered["uuid"]


def test_bad_credentials_exit_code_and_one_line(config_file, registered) -> None:
    wrong = "wrong-" + PASSWORD.replace(" ", "-")
    done = run("sign-in", "--config", config_file(), "--email", registered["email"], stdin=wrong + "\n")
    assert done.returncode == 7  # -JUMP_E_BAD_CREDENTIALS
    assert done.stdout == ""
    [line] = lines(done.stderr)
    assert line.startswith("python -m jump sign-in: ") and line.endswith("(JUMP_E_BAD_CREDENTIALS, -7)")
    assert wrong not in done.stderr

    done = run("sign-in", "--json", "--config", config_file(), "--email", registered["email"], stdin=wrong)
    assert done.returncode == 7
    [line, detail_line] = lines(done.stderr)
    detail = json.loads(detail_line)
    assert detail["status"] == -7 and detail["status_name"] == "JUMP_E_BAD_CREDENTIALS" and detail["message"]
    assert wrong not in done.stderr


def test_network_failure_exit_code(config_file) -> None:
    url = closed_port_url()
    done = run("sign-in", "--json", "--config", config_file(captureDomain=url, captureFlowDomain=url),
               "--email", "someone@example.com", stdin=PASSWORD)
    assert done.returncode == 3, done.stderr  # -JUMP_E_NETWORK
    assert json.loads(lines(done.stderr)[-1])["status_name"] == "JUMP_E_NETWORK"


def test_not_signed_in_state_and_sign_out(config_file) -> None:
    config = config_file()
    done = run("state", "--json", "--config", config)
    assert done.returncode == 0 and json.loads(done.stdout)["signed_in"] is False
    done = run("sign-out", "--config", config)
    assert done.returncode == 0 and done.stdout.strip() == "signed out"


def test_usage_and_argument_errors(tmp_path: Path, config_file) -> None:
    done = run("no-such-command")
    assert done.returncode == 2 and "usage:" in done.stderr
    done = run("sign-in", "--config", config_file())  # --email is required
    assert done.returncode == 2
    done = run("state", "--config", str(tmp_path / "missing.json"), "--json")
    assert done.returncode == 1  # -JUMP_E_INVALID_ARGUMENT
    assert json.loads(lines(done.stderr)[-1])["argument"] == "config"
    (tmp_path / "list.json").write_text("[]")
    assert run("state", "--config", str(tmp_path / "list.json")).returncode == 1
    done = run("sign-in", "--config", config_file(), "--email", "a@example.com", stdin="")
    assert done.returncode == 1 and "no password" in done.stderr
    done = run("sign-in", "--config", config_file(noSuchKey=1), "--email", "a@example.com", stdin=PASSWORD)
    assert done.returncode == 1 and "(JUMP_E_INVALID_ARGUMENT, -1)" in done.stderr


def test_help() -> None:
    done = run("--help")
    assert done.returncode == 0
    for command in ("version", "status", "state", "sign-in", "sign-out", "record", "providers"):
        assert command in done.stdout
    done = run("record", "--help")
    assert done.returncode == 0 and all(action in done.stdout for action in ("get", "set", "sync"))


def test_status_is_state(config_file, registered) -> None:
    config = config_file()
    assert run("sign-in", "--config", config, "--email", registered["email"], stdin=PASSWORD).returncode == 0
    status = run("status", "--json", "--config", config)
    state = run("state", "--json", "--config", config)
    assert status.returncode == state.returncode == 0, status.stderr + state.stderr
    assert json.loads(status.stdout) == json.loads(state.stdout)
    assert json.loads(status.stdout)["uuid"] == registered["uuid"]


def test_storage_option_picks_the_session(make_config, registered, tmp_path: Path) -> None:
    # A config without storageDirectory; --storage says where the session is, before or after the command.
    config = tmp_path / "config.json"
    config.write_text(json.dumps({k: v for k, v in make_config().items() if k != "storageDirectory"}))
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    done = run("sign-in", "--config", str(config), "--storage", str(ann), "--email", registered["email"],
               stdin=PASSWORD)
    assert done.returncode == 0, done.stderr
    assert json.loads(run("--storage", str(ann), "status", "--json", "--config", str(config)).stdout)["signed_in"]
    assert not json.loads(run("status", "--json", "--config", str(config), "--storage", str(bob)).stdout)["signed_in"]
    assert any(ann.iterdir())  # the session was saved where --storage said


def test_record_get_set_sync(config_file, registered, emu) -> None:
    config = config_file()
    assert run("sign-in", "--config", config, "--email", registered["email"], stdin=PASSWORD).returncode == 0

    done = run("record", "get", "/givenName", "--config", config)
    assert done.returncode == 0 and done.stdout == "Ada\n", done.stderr
    done = run("record", "get", "/givenName", "--config", config, "--json")
    assert json.loads(done.stdout) == "Ada"
    done = run("--json", "record", "get", "/", "--config", config)
    assert json.loads(done.stdout)["email"] == registered["email"]

    # set: saved in the storage directory (a later process sees it), not sent
    done = run("record", "set", "/aboutMe", '"Hello from the CLI"', "--config", config, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"path": "/aboutMe", "unsynced": ["/aboutMe"]}
    assert json.loads(run("status", "--json", "--config", config).stdout)["unsynced_changes"] is True
    assert emu.user(registered["uuid"])["user"].get("aboutMe") != "Hello from the CLI"
    done = run("record", "set", "/primaryAddress", '{"city": "Lyon"}', "--config", config)
    assert done.returncode == 0 and done.stdout.startswith("set /primaryAddress (unsynced: "), done.stderr

    done = run("record", "sync", "--config", config, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result["changed"]) == {"/aboutMe", "/primaryAddress/city"} and result["requests"] == 1
    user = emu.user(registered["uuid"])["user"]
    assert user["aboutMe"] == "Hello from the CLI" and user["primaryAddress"]["city"] == "Lyon"
    assert json.loads(run("status", "--json", "--config", config).stdout)["unsynced_changes"] is False
    done = run("record", "sync", "--config", config)
    assert done.returncode == 0 and done.stdout.startswith("synced: nothing to send"), done.stdout
    done = run("record", "get", "/primaryAddress/city", "--config", config)
    assert done.stdout == "Lyon\n"


def test_record_errors_exit_with_the_status(config_file, registered) -> None:
    config = config_file()
    done = run("record", "get", "/aboutMe", "--config", config, "--json")  # nobody signed in
    assert done.returncode == 6, done.stderr  # -JUMP_E_NOT_SIGNED_IN
    assert json.loads(lines(done.stderr)[-1])["status_name"] == "JUMP_E_NOT_SIGNED_IN"
    assert run("record", "sync", "--config", config).returncode == 6
    assert run("sign-in", "--config", config, "--email", registered["email"], stdin=PASSWORD).returncode == 0
    done = run("record", "get", "/noSuchAttribute", "--config", config)
    assert done.returncode == 11, done.stderr  # -JUMP_E_NOT_FOUND
    assert lines(done.stderr)[0].startswith("python -m jump record get: ")
    done = run("record", "set", "/aboutMe", "Hello", "--config", config, "--json")  # not JSON
    assert done.returncode == 1 and json.loads(lines(done.stderr)[-1])["argument"] == "value"
    done = run("record", "set", "/uuid", '"x"', "--config", config)  # reserved: refused by libjump
    assert done.returncode == 1 and "(JUMP_E_INVALID_ARGUMENT, -1)" in done.stderr
    assert run("record", "get", "--config", config).returncode == 2  # PATH is required


def test_providers(config_file, emu) -> None:
    config = config_file(engageAppId=ENGAGE_APP_ID, engageDomain=emu.url)
    done = run("providers", "--config", config, "--json")
    assert done.returncode == 0, done.stderr
    names = [p["name"] for p in json.loads(done.stdout)["sign_in"]]
    assert {"facebook", "google", "twitter"} <= set(names)
    done = run("providers", "--config", config)
    assert done.returncode == 0 and json.loads(done.stdout)["sign_in"] and "\n  " in done.stdout
    done = run("providers", "--config", config_file())  # no Engage app configured
    assert done.returncode == 1 and "engageAppId" in done.stderr  # -JUMP_E_INVALID_ARGUMENT naming the key
    assert lines(done.stderr)[0].startswith("python -m jump providers: ")
