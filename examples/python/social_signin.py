#!/usr/bin/env python3
"""Social sign-in from a command-line app: the system browser and a loopback receiver (RFC 8252).

libjump listens on 127.0.0.1, this script opens the provider's sign-in page in the browser
(``webbrowser.open``), and the sign-in completes when the browser comes back to the listener. A new user is
registered (thin registration, or the two-step registration asking for what the provider did not tell); an
email that already has an account is merged into it (its password, or the provider it signs in with).

    python3 examples/python/social_signin.py --emulator http://127.0.0.1:9080 [--provider facebook]
        [--thin-registration] [--storage DIR] [--timeout SECONDS]

Start the emulator yourself (e.g. ``build/bin/jump-emulator --port 9080``); this script starts nothing.
Against the emulator the "provider" is its fake identity provider page: pick or create an identity there.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Any, Dict, Optional

_ROOT = Path(__file__).resolve().parents[2]
if "JUMP_LIBRARY_PATH" not in os.environ and (_ROOT / "build" / "lib" / "libjump.so").exists():
    os.environ["JUMP_LIBRARY_PATH"] = str(_ROOT / "build" / "lib" / "libjump.so")

try:
    import jump
except ModuleNotFoundError:  # not installed: use the source tree
    sys.path.insert(0, str(_ROOT / "bindings" / "python"))
    import jump


def open_in_browser(url: str) -> None:
    """libjump's open_url: hand the URL to the system browser (and show it, in case none opens)."""
    print("Opening your browser to sign in. If nothing opens, visit:", flush=True)
    print(f"  {url}", flush=True)
    # On a thread of its own: webbrowser.open blocks until a console browser (or some $BROWSER) exits.
    def start() -> None:
        if not webbrowser.open(url):
            print("(no browser could be started: open the URL above yourself)", flush=True)

    threading.Thread(target=start, name="open-browser", daemon=True).start()


def ask(prompt: str, default: Optional[str] = None, secret: bool = False) -> str:
    """A prompt that keeps ``default`` on Enter (and at the end of input)."""
    shown = f"{prompt} [{default}]: " if default else f"{prompt}: "
    try:
        if secret and sys.stdin.isatty():
            answer = getpass.getpass(shown)
        else:
            print(shown, end="", flush=True)
            answer = sys.stdin.readline()
            if not answer:  # end of input
                print()
                return default or ""
            answer = answer.rstrip("\n")
    except EOFError:
        return default or ""
    return answer or (default or "")


def register(client: jump.Client, err: jump.RegistrationRequired) -> Dict[str, Any]:
    """Two-step social registration: confirm or complete what the provider told, until the server agrees."""
    print(f"No account has this {err.provider} identity yet: let's register it.")
    attributes = dict(err.prereg_record or {})
    wanted = [("email", "Email"), ("displayName", "Display name"), ("givenName", "First name"),
              ("familyName", "Last name")]
    for attempt in range(3):
        for key, label in wanted:
            current = attributes.get(key)
            value = ask(label, current if isinstance(current, str) else None)
            if value:
                attributes[key] = value
        try:
            return client.register_social(err.social_registration_token, attributes)
        except jump.ValidationFailed as invalid:
            print("Please correct:")
            for field, messages in (invalid.invalid_fields or {}).items():
                print(f"  {field}: {'; '.join(messages)}")
    raise SystemExit("registration abandoned")


def merge(client: jump.Client, err: jump.MergeRequired, timeout: float) -> Dict[str, Any]:
    """The email belongs to an existing account: prove it is yours, then the new identity joins it."""
    print(f"An account with this email already exists; it signs in with {err.existing_provider}.")
    if err.existing_provider == "capture":
        email = ask("Email of that account")
        password = ask("Its password", secret=True)
        return client.sign_in_merge(email, password, err.merge_token)
    print(f"Sign in with {err.existing_provider} to add your {err.conflicting_provider} identity to it.")
    return client.social_sign_in_loopback(err.existing_provider, open_in_browser, timeout, merge_token=err.merge_token)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--emulator", default=os.environ.get("JUMP_EMULATOR_URL", "http://127.0.0.1:9080"),
                        help="the emulator's base URL (Capture and Engage)")
    parser.add_argument("--provider", default="facebook")
    parser.add_argument("--input", help="the user's input for providers that need one (openid)")
    parser.add_argument("--thin-registration", action="store_true",
                        help="register new users from the provider's profile alone")
    parser.add_argument("--storage", default=":memory:", help="session storage directory (default: in memory)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for the browser")
    args = parser.parse_args()
    base = args.emulator.rstrip("/")
    config = {
        "captureDomain": base, "captureClientId": "jump-default-client", "captureAppId": "default-app",
        "captureFlowName": "standard", "captureFlowDomain": base, "captureLocale": "en-US",
        "engageAppId": "jump-default-engage", "engageDomain": base,
        "captureEnableThinRegistration": args.thin_registration, "storageDirectory": args.storage,
    }
    with jump.Client(config) as client:
        names = [p["name"] for p in client.providers()["sign_in"]]
        print(f"providers: {', '.join(names)}")
        try:
            try:
                outcome = client.social_sign_in_loopback(args.provider, open_in_browser, args.timeout, input=args.input)
            except jump.RegistrationRequired as err:
                outcome = {"outcome": "registered", **register(client, err)}
            except jump.MergeRequired as err:
                outcome = merge(client, err, args.timeout)
        except jump.Cancelled as err:
            print("sign-in cancelled" + (" on the provider's page" if err.reason == "user_canceled" else ""))
            return 1
        except jump.Timeout:
            print("the browser did not come back in time")
            return 1
        except jump.JumpError as err:
            print(f"sign-in failed: {err}")
            return 1
        # A merge is a sign-in to the existing account ("outcome": "signed_in" from the social sign-in, none from
        # sign_in_merge) whose result says "merged": true; that is what the user should hear about.
        print(f"outcome: {'merged' if outcome.get('merged') else outcome.get('outcome', 'signed_in')}")
        print(f"uuid: {outcome.get('uuid')}")
        record = client.record
        print(f"email: {record.get('/email')}  display name: {record.get('/displayName')}")
        record.close()
        for profile in client.linked_profiles():
            print(f"linked: {profile['provider']} {profile['identifier']} ({profile.get('email')})")
        print(json.dumps({k: v for k, v in outcome.items() if k != "authorization_code"}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
