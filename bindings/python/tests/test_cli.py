"""``python -m jump``, run as a subprocess against the emulator: outputs, exit codes from jump_status, errors on
stderr (one line, plus the JSON detail with --json), the password read from stdin and never echoed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

import jump

from conftest import BINDING, PASSWORD, closed_port_url


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
        path.write_text(json.dumps(make_config(**{"storageDirectory": str(storage), **overrides})))
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
    for command in ("version", "state", "sign-in", "sign-out"):
        assert command in done.stdout
