"""scripts/gdb-fibers.py: gdb lists a parked fiber (an _async fetch waiting for its answer) with its backtrace."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import jump

from conftest import PASSWORD, ROOT, unique_email

CHILD = textwrap.dedent(
    """
    import json, os, sys
    sys.path.insert(0, os.environ["JUMP_BINDING"])
    import jump
    client = jump.Client(json.loads(os.environ["JUMP_TEST_CONFIG"]))
    client.register_traditional({"email": os.environ["EMAIL"], "displayName": "G"}, os.environ["PASSWORD"])
    print("SIGNED_IN", flush=True)
    sys.stdin.readline()             # the test arms the emulator's delay meanwhile
    request = client.fetch_record_async()
    print("PARKED", os.getpid(), flush=True)
    sys.stdin.readline()             # the test's gdb looks meanwhile
    request.cancel()
    """
)


def test_gdb_lists_a_parked_fiber_with_its_backtrace(make_config, emu) -> None:
    if shutil.which("gdb") is None:
        pytest.fail("gdb is missing: scripts/ensure-deps.sh --test python installs it")
    env = dict(os.environ, JUMP_BINDING=str(Path(jump.__file__).resolve().parents[1]),
               JUMP_TEST_CONFIG=json.dumps(make_config(storageDirectory=":memory:", requestTimeoutMs=20000)),
               EMAIL=unique_email("gdb"), PASSWORD=PASSWORD)
    child = subprocess.Popen([sys.executable, "-c", CHILD], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().startswith("SIGNED_IN")
        emu.fault("delay", "/entity", delay_ms=15000)
        child.stdin.write("\n")
        child.stdin.flush()
        line = child.stdout.readline()
        assert line.startswith("PARKED"), line
        shown = subprocess.run(["gdb", "-p", line.split()[1], "-batch", "-nx", "-ex",
                                "source %s" % (ROOT / "scripts" / "gdb-fibers.py"), "-ex", "jump-fibers bt"],
                               capture_output=True, text=True, timeout=120)
        out = shown.stdout
        assert "parked" in out, out[-3000:] + shown.stderr[-2000:]
        assert "fetchRecord" in out and "jumpi_switch_trampoline" in out, out[-3000:]
        child.stdin.write("\n")
        child.stdin.flush()
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
