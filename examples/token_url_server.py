#!/usr/bin/env python3
"""An app backend for Engage-only social sign-in: the token URL.

After a social sign-in, libjump POSTs the Engage token to the app's token URL (``token=...``, form encoded;
jump_client_set_token_url or the engageTokenUrl config key). This backend asks Engage who the user is
(``/api/v2/auth_info`` with the app's API key, a server-side secret that never reaches the app), starts its
own session and answers:

    200 {"user": <Engage profile>}  with  Set-Cookie: app_session=<random>; Path=/; HttpOnly
    401 {"error": "..."}            when Engage does not know the token (or refuses the key)

    python3 examples/token_url_server.py [--port 0] [--engage http://127.0.0.1:9080] [--api-key KEY]

The first line printed is the backend's base URL (the token URL is <base>/token). The API key defaults to
$ENGAGE_API_KEY, else the emulator's jump-engage-api-key.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Tuple


class Backend:
    def __init__(self, engage: str, api_key: str) -> None:
        self.engage = engage.rstrip("/")
        self.api_key = api_key
        self.sessions: Dict[str, Dict[str, Any]] = {}  # app_session cookie -> profile
        self.lock = threading.Lock()

    def auth_info(self, token: str) -> Tuple[bool, Dict[str, Any]]:
        """Engage's answer for token: (True, {"profile", "provider"}) or (False, {"error"})."""
        body = urllib.parse.urlencode({"apiKey": self.api_key, "token": token, "format": "json"}).encode()
        request = urllib.request.Request(self.engage + "/api/v2/auth_info", data=body, method="POST",
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                answer = json.loads(response.read() or b"{}")
        except (urllib.error.URLError, ValueError) as exc:
            return False, {"error": f"Engage could not be asked: {exc}"}
        if answer.get("stat") != "ok":
            return False, {"error": (answer.get("err") or {}).get("msg") or "Engage refused the token"}
        return True, {"profile": answer.get("profile") or {}, "provider": answer.get("provider")}

    def start_session(self, profile: Dict[str, Any]) -> str:
        session = secrets.token_urlsafe(24)
        with self.lock:
            self.sessions[session] = profile
        return session


def make_handler(backend: Backend):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            if urllib.parse.urlsplit(self.path).path != "/token":
                return self.answer(404, {"error": "not found"})
            length = int(self.headers.get("Content-Length") or 0)
            form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8", "replace"))
            token = (form.get("token") or [""])[0]
            if not token:
                return self.answer(400, {"error": "token missing"})
            ok, info = backend.auth_info(token)
            if not ok:
                return self.answer(401, info)
            session = backend.start_session(info["profile"])
            self.answer(200, {"user": info["profile"], "provider": info["provider"]},
                        cookie=f"app_session={session}; Path=/; HttpOnly")

        def do_GET(self) -> None:  # noqa: N802 - who is signed in, by the session cookie
            if urllib.parse.urlsplit(self.path).path != "/me":
                return self.answer(404, {"error": "not found"})
            cookies = dict(part.strip().split("=", 1) for part in (self.headers.get("Cookie") or "").split(";")
                           if "=" in part)
            with backend.lock:
                profile = backend.sessions.get(cookies.get("app_session", ""))
            if profile is None:
                return self.answer(401, {"error": "no session"})
            self.answer(200, {"user": profile})

        def answer(self, status: int, body: Dict[str, Any], cookie: str = "") -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if cookie:
                self.send_header("Set-Cookie", cookie)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:  # quiet
            pass

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--engage", default=os.environ.get("JUMP_EMULATOR_URL", "http://127.0.0.1:9080"),
                        help="the Engage server (the emulator's base URL)")
    parser.add_argument("--api-key", default=os.environ.get("ENGAGE_API_KEY", "jump-engage-api-key"))
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(Backend(args.engage, args.api_key)))
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
