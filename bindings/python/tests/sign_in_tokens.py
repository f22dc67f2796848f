"""What the sign-in-token tests (test_sign_in_token*.py, test_credentials.py, test_secret_service.py) share:
the emulator's token API (users and their sign-in tokens, as an app's backend gets them) and its /v1/token count.
The token_config fixture is in conftest.py."""

from __future__ import annotations

import json
import urllib.request
import uuid
from typing import Any, Dict, Optional


TEAM_KEY = "jump-team-key"


def api(emu, method: str, path: str, body: Optional[Dict[str, Any]] = None, key: str = TEAM_KEY) -> Dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(emu.url + path, data=data, method=method)
    request.add_header("x-jump-api-key", key)
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"{}")


def new_user(emu) -> str:
    return api(emu, "POST", "/v2/user", {"client_user_id": uuid.uuid4().hex})["user_id"]


def mint(emu, user_id: str) -> str:
    return api(emu, "POST", f"/v2/user/{user_id}/sign_in_token")["sign_in_token"]


def token_calls(emu) -> int:
    return emu.counters().get("POST /v1/token", 0)
