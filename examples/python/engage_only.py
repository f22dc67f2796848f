#!/usr/bin/env python3
"""Engage-only social sign-in (no Capture): the app's own backend is the token URL.

The user signs in with a provider in the system browser (loopback receiver); libjump then POSTs the Engage
token to the app's token URL (examples/token_url_server.py), which looks the user up with Engage and starts
the app's session: its answer (status, headers, cookies, body) comes back with the sign-in's outcome.

    python3 examples/token_url_server.py --engage http://127.0.0.1:9080          # prints its URL
    python3 examples/python/engage_only.py --emulator http://127.0.0.1:9080 \\
        --token-url http://127.0.0.1:PORT/token [--provider google] [--native-token TOKEN]

``--native-token`` signs in with a provider SDK's access token instead of the browser (with the emulator:
JSON such as '{"email":"ada@example.com","display_name":"Ada"}').
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import webbrowser
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
if "JUMP_LIBRARY_PATH" not in os.environ and (_ROOT / "build" / "lib" / "libjump.so").exists():
    os.environ["JUMP_LIBRARY_PATH"] = str(_ROOT / "build" / "lib" / "libjump.so")

try:
    import jump
except ModuleNotFoundError:  # not installed: use the source tree
    sys.path.insert(0, str(_ROOT / "bindings" / "python"))
    import jump


def open_in_browser(url: str) -> None:
    print("Opening your browser to sign in. If nothing opens, visit:", flush=True)
    print(f"  {url}", flush=True)
    # On a thread of its own: webbrowser.open blocks until a console browser (or some $BROWSER) exits.
    def start() -> None:
        if not webbrowser.open(url):
            print("(no browser could be started: open the URL above yourself)", flush=True)

    threading.Thread(target=start, name="open-browser", daemon=True).start()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--emulator", default=os.environ.get("JUMP_EMULATOR_URL", "http://127.0.0.1:9080"),
                        help="the Engage server (the emulator's base URL)")
    parser.add_argument("--token-url", required=True, help="the app backend's token URL")
    parser.add_argument("--provider", default="google")
    parser.add_argument("--native-token", help="a provider SDK's access token (no browser)")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    config = {"engageAppId": "jump-default-engage", "engageDomain": args.emulator.rstrip("/"),
              "storageDirectory": ":memory:"}
    with jump.Client(config) as client:
        client.set_token_url(args.token_url)
        try:
            if args.native_token:
                outcome = client.social_sign_in_native(args.provider, args.native_token)
            else:
                outcome = client.social_sign_in_loopback(args.provider, open_in_browser, args.timeout)
        except jump.JumpError as err:
            print(f"sign-in failed: {err}")
            return 1
    print(f"outcome: {outcome['outcome']} with {outcome['provider']}")
    profile = outcome.get("profile") or {}
    if profile:  # a browser sign-in brings the profile; a native one only the token
        print(f"Engage profile: {profile.get('displayName')} <{profile.get('email')}> {profile.get('identifier')}")
    answer = outcome.get("token_url_response")
    if answer is None:
        print("no token URL answer")
        return 1
    print(f"token URL: {answer['status']}")
    for cookie in answer["cookies"]:
        print(f"cookie: {cookie['name']} (path {cookie['path']})")
    try:
        body = json.loads(answer["body"] or "null")
    except ValueError:
        body = answer["body"]
    user = body.get("user") if isinstance(body, dict) else None
    if user:
        print(f"backend user: {user.get('displayName')} <{user.get('email')}> {user.get('identifier')}")
    else:
        print(f"backend answer: {body}")
    return 0 if answer["status"] == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
