"""An app signing its user in through its own backend (app_backend.py) with libjump, then calling the API.

    JUMP_API_BASE=<emulator> BACKEND=<app_backend URL> STORAGE=<dir> python3 client.py alice wonderland-1

Run it twice: the second run restores the session and asks the backend for nothing (identify is a no-op).
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bindings", "python"))
import jump  # noqa: E402

api_base = os.environ["JUMP_API_BASE"]
backend = os.environ["BACKEND"]
username, password = sys.argv[1], sys.argv[2]


def login_at_backend(external_user_id: str) -> dict:
    print(f"asking the backend for a sign-in token for {external_user_id}")
    request = urllib.request.Request(backend + "/login", data=json.dumps(
        {"username": external_user_id, "password": password}).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return {"type": "sign_in_token", "sign_in_token": json.loads(response.read())["sign_in_token"]}


config = {"signInTokenAuthBaseUrl": api_base, "signInTokenApiBaseUrl": api_base,
          "storageDirectory": os.environ.get("STORAGE", ":memory:")}
with jump.Client(config) as client:
    outcome = client.identify_external_user(username, login_at_backend)
    status = client.status
    print(f"identify: {outcome['action']}; signed in as {status['user_id']} (app user {status['external_user_id']})")
    profile = client.request("GET", f"/v2/user/{status['user_id']}/profile")
    visits = (json.loads(profile["body"]).get("data") or {}).get("visits", 0) + 1
    client.request("PUT", f"/v2/user/{status['user_id']}/profile", {"Content-Type": "application/json"},
                   json.dumps({"visits": visits}))
    print(f"visits: {visits}")
