"""Types: the package passes ``mypy --strict`` and ships py.typed; the typed results are plain dicts at run time.

The mypy tests are skipped when mypy is not installed, except under CI (``CI=true``), where that is a failure:
``scripts/ensure-deps.sh --test`` installs it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import jump

from conftest import BINDING, PASSWORD


def need_mypy() -> None:
    if importlib.util.find_spec("mypy") is None:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail("mypy is not installed (CI needs it: scripts/ensure-deps.sh --test installs it)")
        pytest.skip("mypy is not installed (python3 -m pip install mypy)")


def mypy(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if not os.environ.get("JUMP_TEST_INSTALLED"):  # the source tree; an installed copy is found through py.typed
        env["MYPYPATH"] = str(BINDING)
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", os.devnull, *args],
                          capture_output=True, text=True, cwd=str(cwd), env=env, timeout=600)


def test_package_passes_mypy_strict() -> None:
    need_mypy()
    done = mypy("--strict", str(BINDING / "jump"), cwd=BINDING.parents[1])
    assert done.returncode == 0, f"mypy --strict bindings/python/jump:\n{done.stdout}{done.stderr}"


def test_a_strict_caller_sees_the_result_types(tmp_path: Path) -> None:
    """What an application type-checks against: results keyed and typed, Request generic, awaitable."""
    need_mypy()
    app = tmp_path / "app.py"
    app.write_text(textwrap.dedent('''
        import asyncio
        from typing import List, Optional
        import jump

        def sync_use(client: jump.Client) -> str:
            result = client.sign_in("a@example.com", "pw")
            kept: List[str] = result["kept_changes"]
            state = client.state
            signed_in: bool = state["signed_in"]
            changed: List[str] = client.sync()["changed"]
            return result["uuid"]

        async def async_use(client: jump.Client) -> Optional[str]:
            result = await client.sign_in_async("a@example.com", "pw")
            synced = await client.sync_async()
            n: int = synced["requests"]
            return result["authorization_code"]

        def errors() -> None:
            try:
                pass
            except jump.NetworkError as err:
                reason: Optional[str] = err.reason
                raise ConnectionError("again") from err
        '''))
    done = mypy("--strict", str(app), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr

    wrong = tmp_path / "wrong.py"  # a uuid is a str: using it as an int is caught
    wrong.write_text('import jump\n\ndef f(client: jump.Client) -> int:\n    return client.sign_in("a", "b")["uuid"]\n')
    done = mypy("--strict", str(wrong), cwd=tmp_path)
    assert done.returncode == 1 and 'got "str", expected "int"' in done.stdout, done.stdout + done.stderr


def test_py_typed_is_shipped() -> None:
    assert (BINDING / "jump" / "py.typed").is_file()
    pyproject = (BINDING / "pyproject.toml").read_text()
    assert '"py.typed"' in pyproject and "Typing :: Typed" in pyproject


def test_typed_results_are_plain_dicts(client, registered) -> None:
    client.sign_out()
    result = client.sign_in(registered["email"], PASSWORD)
    assert type(result) is dict and result["uuid"] == registered["uuid"] and result.get("is_new") is False
    state = client.state
    assert type(state) is dict and state["signed_in"] is True
    client.record["/aboutMe"] = "typed"
    synced = client.sync()
    assert type(synced) is dict and synced["changed"] == ["/aboutMe"] and synced == dict(synced)
    assert set(jump.SignInResult.__annotations__) >= {"is_new", "uuid", "authorization_code", "kept_changes"}
    request = client.fetch_record_async()
    assert request.wait(30) == {} and type(request.wait()) is dict
