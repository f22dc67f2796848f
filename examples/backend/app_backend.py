"""A minimal app backend: it signs in its own users (a fixed table here) and, holding the team API key as a
server-side secret, mints a libjump sign-in token for the signed-in user.

    JUMP_API_BASE=http://127.0.0.1:PORT python3 app_backend.py [--port 0]

POST /login {"username","password"} -> {"sign_in_token"} (401 for a wrong password). The first line printed
is the backend's base URL. The team key comes from JUMP_TEAM_KEY (the emulator's default team: jump-team-key)
and never leaves this process.
"""

from __future__ import annotations

import argparse
import json
import os
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USERS = {"alice": "wonderland-1", "bob": "builder-22"}  # the app's own accounts
API_BASE = os.environ.get("JUMP_API_BASE", "http://127.0.0.1:8000").rstrip("/")
TEAM_KEY = os.environ.get("JUMP_TEAM_KEY", "jump-team-key")


def team_api(method: str, path: str, body=None) -> dict:
    request = urllib.request.Request(API_BASE + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("x-jump-api-key", TEAM_KEY)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        detail = json.loads(error.read() or b"{}").get("detail", {})
        if detail.get("error_type") == "user_exists":
            return {"user_id": detail["user_id"]}  # already created on an earlier login
        raise


def sign_in_token_for(username: str) -> str:
    user_id = team_api("POST", "/v2/user", {"client_user_id": username})["user_id"]
    return team_api("POST", f"/v2/user/{user_id}/sign_in_token")["sign_in_token"]


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        if self.path != "/login":
            return self.answer(404, {"error": "not found"})
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        except ValueError:
            return self.answer(400, {"error": "JSON body expected"})
        username, password = body.get("username"), body.get("password")
        if USERS.get(username) != password:
            return self.answer(401, {"error": "wrong user name or password"})
        self.answer(200, {"sign_in_token": sign_in_token_for(username)})

    def answer(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:  # quiet
        pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    server = ThreadingHTTPServer(("127.0.0.1", parser.parse_args().port), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
