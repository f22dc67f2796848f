"""A burst of requests to a host name nobody has looked up yet (docs/design-io.md, "Connections and DNS").

libcurl's threaded resolver starts a thread for every lookup and caches a name only once its lookup ends, so
a burst of clients to a name not in the cache used to start a lookup, and a resolver thread, for every
transfer that got a connection slot: up to 64 at once, for as long as the network took to answer. The I/O loop
now sends the first transfer to a name alone and the rest once it is over (LookupGate): one lookup, then the
cache.

The name is this machine's own (``socket.gethostname()``), which resolves through /etc/hosts without a
network; a private emulator listens on the address it resolves to, and the clients reach it through
``emulatorHost`` (plain http to a named host). The burst runs in a child process that preloads
``slow_lookup.c``: getaddrinfo for that name takes 300 ms longer, as over a slow network, and is counted.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import jump

from emulator_process import running_emulator

HERE = Path(__file__).resolve().parent
CLIENTS = 300

CHILD = r"""
import ctypes, json, sys
import jump
config = json.loads(sys.argv[1])
clients = [jump.Client(config) for _ in range(int(sys.argv[2]))]
requests = [c.sign_in_async(f"nobody-{i}@example.com", "wrong-password-1") for i, c in enumerate(clients)]
outcomes = {}
for request in requests:
    try:
        request.wait(60)
        kind = "signed in"
    except jump.JumpError as e:
        kind = type(e).__name__
    outcomes[kind] = outcomes.get(kind, 0) + 1
    request.close()
for client in clients:
    client.close()
shim = ctypes.CDLL(None)
print(json.dumps({"outcomes": outcomes,
                  "lookups": ctypes.c_int.in_dll(shim, "slow_lookup_count").value,
                  "most_at_once": ctypes.c_int.in_dll(shim, "slow_lookup_most").value}))
"""


def _named_address() -> tuple:
    """(name, IPv4 address) of this machine, or a skip when its name does not resolve to one."""
    name = socket.gethostname()
    try:
        address = socket.getaddrinfo(name, None, socket.AF_INET, socket.SOCK_STREAM)[0][4][0]
    except (socket.gaierror, IndexError):
        pytest.skip(f"this machine's name {name!r} does not resolve to an IPv4 address")
    if name in ("localhost", address) or name.endswith(".localhost"):
        pytest.skip(f"this machine's name {name!r} needs no lookup")
    return name, address


def test_a_burst_to_a_name_not_yet_looked_up_makes_one_lookup(make_config, tmp_path: Path) -> None:
    name, address = _named_address()
    compiler = shutil.which(os.environ.get("CC", "cc"))
    assert compiler, "a C compiler is needed for the slow-lookup shim"
    shim = tmp_path / "slow_lookup.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(shim), str(HERE / "slow_lookup.c"), "-ldl"],
                   check=True)
    with running_emulator("jump-pytest-lookup-", ["--host", address]) as (url, _, _):
        port = url.rsplit(":", 1)[1]
        config = make_config(storageDirectory=":memory:", emulatorHost=f"{name}:{port}", requestTimeoutMs=30000)
        env = dict(os.environ, LD_PRELOAD=str(shim), JUMP_TEST_SLOW_NAME=name, JUMP_TEST_SLOW_MS="300",
                   JUMP_LIBRARY_PATH=jump.library_path(), PYTHONPATH=str(Path(jump.__file__).resolve().parents[1]))
        child = subprocess.run([sys.executable, "-c", CHILD, json.dumps(config), str(CLIENTS)], env=env,
                               capture_output=True, text=True, timeout=180)
    assert child.returncode == 0, f"the child failed: {child.stderr[-3000:]}"
    report = json.loads(child.stdout.strip().splitlines()[-1])
    unreached = {k: v for k, v in report["outcomes"].items() if k in ("NetworkError", "TimeoutError")}
    assert not unreached, f"sign-ins that did not reach {name}: {report}"
    assert report["most_at_once"] == 1 and report["lookups"] <= 2, (
        f"{CLIENTS} clients to {name}, not looked up before, with 300 ms lookups: {report['lookups']} lookups, "
        f"{report['most_at_once']} at once (one resolver thread each); one is enough")
