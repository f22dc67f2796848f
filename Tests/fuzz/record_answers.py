#!/usr/bin/env python3
"""Records what the emulator answers libjump, as the fuzzer's canned answers and seeds (Tests/fuzz/README.md).

The real libjump (the Python binding) runs the flows the fuzz targets cover against a real emulator, through a
recording proxy on loopback: every answer is written to Tests/fuzz/answers/ as `<name>.http` (status line,
Content-Type, blank line, body), where <name> is the endpoint ("oauth_auth_native_traditional"), suffixed
with a number when the same endpoint answered again. The completion URLs of social sign-ins are written too
(`social_complete_url-N.txt`, the state parameter replaced by STATE, which the harness fills in).
Run again when the protocol changes:  python3 Tests/fuzz/record_answers.py
"""

from __future__ import annotations

import http.server
import os
import re
import shutil
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "Tests" / "fuzz" / "answers"
sys.path.insert(0, str(ROOT / "bindings" / "python" / "tests"))
sys.path.insert(0, str(ROOT / "bindings" / "python"))
os.environ.setdefault("JUMP_LIBRARY_PATH", str(ROOT / "build" / "lib" / "libjump.so"))

import jump  # noqa: E402
from conftest import (ENGAGE_APP_ID, PASSWORD, Emulator, FakeIdP, unique_email,  # noqa: E402
                      unique_username)
from emulator_process import running_emulator  # noqa: E402

# Endpoints whose answers are secrets of nobody: the emulator's throwaway users. Kept as they came.
counts: dict[str, int] = {}
lock = threading.Lock()


def endpoint_name(path: str) -> str:
    name = re.sub(r"[^A-Za-z0-9]+", "_", urllib.parse.urlsplit(path).path).strip("_")
    return name or "root"


def save(path: str, status: int, content_type: str, body: bytes) -> None:
    name = endpoint_name(path)
    with lock:
        n = counts.get(name, 0)
        counts[name] = n + 1
    file = OUT / (f"{name}.http" if n == 0 else f"{name}-{n}.http")
    file.write_bytes(f"{status}\n{content_type}\n\n".encode() + body)


def proxy_for(upstream: str) -> http.server.ThreadingHTTPServer:
    class Recorder(http.server.BaseHTTPRequestHandler):
        def relay(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            request = urllib.request.Request(upstream + self.path, data=body, method=self.command)
            for key, value in self.headers.items():
                if key.lower() not in ("host", "content-length", "connection"):
                    request.add_header(key, value)
            opener = urllib.request.build_opener(NoRedirect)
            try:
                answer = opener.open(request, timeout=20)
                status, headers, data = answer.status, answer.headers, answer.read()
            except urllib.error.HTTPError as error:
                status, headers, data = error.code, error.headers, error.read()
            save(self.path, status, headers.get("Content-Type", ""), data)
            self.send_response(status)
            for key, value in headers.items():
                if key.lower() not in ("content-length", "transfer-encoding", "connection", "server", "date"):
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = relay

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def main() -> None:
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    with running_emulator("jump-fuzz-record-") as (url, process, workdir):
        emu = Emulator(url, process, workdir)
        proxy = proxy_for(url)
        via = f"http://127.0.0.1:{proxy.server_address[1]}"
        storage = Path(workdir) / "storage"
        config = {"captureDomain": via, "captureFlowDomain": via, "captureClientId": "jump-default-client",
                  "captureAppId": "default-app", "captureFlowName": "standard", "captureLocale": "en-US",
                  "engageAppId": ENGAGE_APP_ID, "engageDomain": via, "signInTokenAuthBaseUrl": via,
                  "signInTokenApiBaseUrl": via, "storageDirectory": str(storage)}
        email, username = unique_email(), unique_username()
        with jump.Client(config) as client:
            client.register_traditional({"email": email, "username": username, "displayName": "Ada L",
                                         "givenName": "Ada", "familyName": "Lovelace"}, PASSWORD)
            client.sign_out()
            try:
                client.sign_in(email, "wrong password")
            except jump.JumpError:
                pass
            client.sign_in(email, PASSWORD)
            client.fetch_record()
            with client.record as record:
                record["/aboutMe"] = "seed"
                record.append("/photos", {"type": "other", "value": "a.png"})
                record.append("/statuses", {"status": "hello"})
            client.sync()
            client.fetch_record()
            client.refresh_access_token()
            client.sign_out()
            idp = FakeIdP(emu)
            for provider in ("google", "facebook"):
                begun = client.social_begin(provider)
                done = idp.finish(begun["url"], name="Sam Seed", email=unique_email(provider))
                n = len(list(OUT.glob("social_complete_url-*.txt")))
                (OUT / f"social_complete_url-{n}.txt").write_text(done.replace(begun["state"], "STATE"))
                try:
                    client.social_complete(done)
                except jump.JumpError:
                    pass
                client.sign_out()
        user = emu.admin("POST", "/emulator/token_users", {})["user_id"]
        token = emu.admin("POST", f"/emulator/token_users/{user}/sign_in_token", {})["sign_in_token"]
        (OUT / "sign_in_token.txt").write_text(token)
        with jump.Client(config) as client:
            client.sign_in_with_token(token)
        proxy.shutdown()
    print(f"recorded {sum(counts.values())} answers of {len(counts)} endpoints in {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
