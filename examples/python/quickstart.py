#!/usr/bin/env python3
"""libjump quickstart (Python): register, sign in, edit and sync the record, survive token expiry, restore
the session from disk, sign out.

Run against a local emulator:

    scripts/with-emulator.sh python3 examples/python/quickstart.py

Environment: JUMP_EMULATOR_URL (the emulator's base URL, required) and JUMP_LIBRARY_PATH (libjump.so; the
binding also looks inside its package, where the wheel of `make wheel` puts it, and on the library path).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Dict, List, Optional

_ROOT = Path(__file__).resolve().parents[2]
try:
    import jump  # installed: the wheel of `make wheel` carries its libjump.so
except ModuleNotFoundError:  # not installed: use the source tree
    sys.path.insert(0, str(_ROOT / "bindings" / "python"))
    import jump
# libjump is loaded on first use, so it is not too late to say where it is: a package without a libjump.so of
# its own (the source tree) takes the one `make lib` built, unless JUMP_LIBRARY_PATH names one.
_BUILT = _ROOT / "build" / "lib" / "libjump.so"
if "JUMP_LIBRARY_PATH" not in os.environ and not (Path(jump.__file__).parent / "libjump.so").exists() and _BUILT.exists():
    os.environ["JUMP_LIBRARY_PATH"] = str(_BUILT)


def step(text: str) -> None:
    print(f"-> {text}", flush=True)


def admin(base: str, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Call the emulator's admin API (JSON over HTTP)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode("utf-8")
    return json.loads(text) if text.strip() else {}


def main() -> int:
    storage = tempfile.mkdtemp(prefix="jump-quickstart-")
    try:
        return run(storage)
    finally:
        shutil.rmtree(storage, ignore_errors=True)


def run(storage: str) -> int:
    base = os.environ.get("JUMP_EMULATOR_URL", "").rstrip("/")
    if not base:
        print("JUMP_EMULATOR_URL is not set (run through scripts/with-emulator.sh)", file=sys.stderr)
        return 2
    print(f"libjump {jump.version()} (ABI {jump.abi_version()}) from {jump.library_path()}; emulator at {base}")

    config = jump.Config(_base_config(base), captureLocale="en-US", storageDirectory=storage)
    email = f"quickstart-{uuid.uuid4().hex[:10]}@example.com"
    password = "quickstart-secret"
    events: List[str] = []
    got_event = threading.Condition()

    def on_event(event: Dict[str, Any]) -> None:
        with got_event:
            events.append(event["event"])
            got_event.notify_all()

    def wait_event(name: str, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        with got_event:
            while name not in events:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                got_event.wait(left)
        return True

    with jump.Client(config) as client:
        client.on_event(on_event)

        result = client.register_traditional(
            {"email": email, "displayName": "Ada Quickstart", "givenName": "Ada", "familyName": "Lovelace"}, password
        )
        step(f"registered {email} (uuid {result['uuid']})")

        client.sign_out()
        result = client.sign_in(email, password)
        step(f"signed in with email + password (uuid {result['uuid']}, new: {result['is_new']})")

        with client.record as record:
            fields = {k: record[k] for k in ("/email", "/displayName", "/givenName", "/familyName", "/created")}
            step("record: " + ", ".join(f"{k[1:]}={v!r}" for k, v in fields.items()))

            record["/aboutMe"] = "Writes programs for the Analytical Engine"
            record["/givenName"] = "Augusta Ada"
            pending = record.changes()["changed"]
        sync = client.sync()
        step(f"edited {', '.join(pending)} and synced: sent {', '.join(sync['changed'])} in {sync['requests']} request(s)")

        admin(base, "POST", "/emulator/clock", {"advance_seconds": 7200})
        events.clear()
        client.fetch_record()
        refreshed = wait_event("token_refreshed")
        with client.record as record:
            about = record["/aboutMe"]
        step(
            "advanced the server clock by 2 h; fetch_record "
            + ("refreshed the expired token transparently (token_refreshed event)" if refreshed else "did NOT refresh")
            + f"; aboutMe={about!r}"
        )
        if not refreshed:
            raise RuntimeError("no token_refreshed event after the token expired")
    step("closed the client (the session stays saved on disk)")

    with jump.Client(config) as again:
        state = again.state
        if not state["signed_in"]:
            raise RuntimeError(f"session not restored: {state}")
        with again.record as record:
            given = record["/givenName"]
        step(f"a new client restored the session from disk: {state['email']} (givenName={given!r})")
        again.sign_out()
        step(f"signed out (signed in now: {again.is_signed_in})")
    config.close()

    with jump.Client(_base_config(base), storageDirectory=storage) as check:
        if check.is_signed_in:
            raise RuntimeError("the session was not erased by sign-out")
    print("quickstart OK")
    return 0


def _base_config(base: str) -> Dict[str, Any]:
    return {
        "captureDomain": base,
        "captureClientId": "jump-default-client",
        "captureAppId": "default-app",
        "captureFlowName": "standard",
        "captureFlowDomain": base,
    }


if __name__ == "__main__":
    try:
        sys.exit(main())
    except jump.JumpError as exc:
        print(f"quickstart failed: {exc}", file=sys.stderr)
        if exc.invalid_fields:
            print(f"  invalid fields: {exc.invalid_fields}", file=sys.stderr)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001
        print(f"quickstart failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)
