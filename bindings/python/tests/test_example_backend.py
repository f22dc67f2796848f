"""examples/backend end to end: the app backend mints sign-in tokens with the team key; the Python and C
clients sign in through it, restart (restoring the session without asking the backend), and keep working."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import jump

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "backend"


@pytest.fixture
def backend(emu):
    env = dict(os.environ, JUMP_API_BASE=emu.url)
    process = subprocess.Popen([sys.executable, str(EXAMPLE / "app_backend.py")], env=env, stdout=subprocess.PIPE)
    url = process.stdout.readline().decode().strip()
    assert url.startswith("http://127.0.0.1:")
    yield url
    process.terminate()
    process.wait()


def run(args, env) -> str:
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def test_python_client_signs_in_through_the_backend_and_restarts(emu, backend, tmp_path) -> None:
    env = dict(os.environ, JUMP_API_BASE=emu.url, BACKEND=backend, STORAGE=str(tmp_path),
               JUMP_LIBRARY_PATH=jump.library_path())
    first = run([sys.executable, str(EXAMPLE / "client.py"), "alice", "wonderland-1"], env)
    assert "asking the backend" in first and "identify: signed_in" in first and "visits: 1" in first
    second = run([sys.executable, str(EXAMPLE / "client.py"), "alice", "wonderland-1"], env)
    assert "asking the backend" not in second and "identify: none" in second and "visits: 2" in second
    third = run([sys.executable, str(EXAMPLE / "client.py"), "bob", "builder-22"], env)
    assert "identify: switched" in third and "visits: 1" in third


def test_c_client_signs_in_through_the_backend_and_restarts(emu, backend, tmp_path) -> None:
    binary = tmp_path / "backend_client"
    compiled = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", f"-I{ROOT / 'include'}", "-o",
                               str(binary), str(EXAMPLE / "client.c"), "-ldl", "-lcurl"], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    args = [str(binary), jump.library_path(), emu.url, backend, str(tmp_path / "state"), "alice", "wonderland-1"]
    first = run(args, dict(os.environ))
    assert "asking the backend" in first and "\"action\":\"signed_in\"" in first and "profile: 200" in first
    second = run(args, dict(os.environ))
    assert "asking the backend" not in second and "\"action\":\"none\"" in second and "profile: 200" in second
    wrong = subprocess.run(args[:-1] + ["wrong"], capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 0  # the session restored from disk needs no password
