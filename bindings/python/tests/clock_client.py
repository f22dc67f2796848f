"""The client side of test_server_clock.py, run in a child process (under faketime there) so that only the
client's clock is wrong while the emulator keeps true time. Prints one JSON line of what happened.

    python3 clock_client.py CONFIG_JSON ADMIN_URL STEP [EMAIL]

STEP "sign_in_and_expire": sign in as EMAIL, move the emulator's clock past the token's lifetime, then fetch
the record (Capture answers "expired", so the client refreshes and fetches again). STEP "restored_refresh":
restore the saved session and refresh at once, before this process heard from the server.
"""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request

if not os.environ.get("JUMP_TEST_INSTALLED"):  # the source tree's binding, as conftest.py uses
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import jump  # noqa: E402

PASSWORD = "correct horse battery"


def admin(url: str, method: str, path: str, body: object = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=15) as answer:
        return json.loads(answer.read() or b"{}")


def main() -> int:
    config, admin_url, step = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
    out: dict = {"local_time": time.time()}
    with jump.Client(config) as client:
        out["offset_before"] = client.state.get("clock_offset_seconds")
        try:
            if step == "sign_in_and_expire":
                client.sign_in(sys.argv[4], PASSWORD)
                out["offset_after_sign_in"] = client.state.get("clock_offset_seconds")
                admin(admin_url, "POST", "/emulator/clock", {"advance_seconds": 3700})
                client.fetch_record()
            elif step == "restored_refresh":
                client.refresh_access_token()
                client.fetch_record()
            out["ok"] = True
        except jump.JumpError as error:
            out["ok"] = False
            out["error"] = {"status": error.status_name, "message": error.message}
        out["state"] = client.state
    out["counters"] = admin(admin_url, "GET", "/emulator/counters").get("counters", {})
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
