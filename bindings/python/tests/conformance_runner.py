"""The Python binding's conformance runner (Tests/conformance/README.md is its contract): plays one scenario of
Tests/conformance/scenarios.json with the public jump API against $JUMP_EMULATOR_URL and prints one outcome
line. It judges nothing: Tests/conformance/run.py compares the line with the scenario's "expect".

    python3 bindings/python/tests/conformance_runner.py <scenario name>
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

BINDING = Path(__file__).resolve().parents[1]
if not os.environ.get("JUMP_TEST_INSTALLED"):  # the source tree, as the binding's own tests use it
    sys.path.insert(0, str(BINDING))
import jump  # noqa: E402
from jump.errors import STATUS_NAMES  # noqa: E402

OK = "JUMP_OK"


def status_of(error: BaseException) -> str:
    if isinstance(error, jump.JumpError):
        return error.status_name or STATUS_NAMES.get(error.status, str(error.status))
    raise error


def attempt(call: Callable[[], Any]) -> "tuple[str, Any]":
    """(status name, result): JUMP_OK and the call's result, or the binding error's status and None."""
    try:
        return OK, call()
    except jump.JumpError as error:
        return status_of(error), None


class Scenario:
    def __init__(self, name: str) -> None:
        with open(os.environ["JUMP_CONFORMANCE_SCENARIOS"], encoding="utf-8") as f:
            document = json.load(f)
        self.url = os.environ["JUMP_EMULATOR_URL"].rstrip("/")
        self.values = {"${EMULATOR_URL}": self.url,
                       "${STORAGE_DIR}": os.path.join(os.environ["JUMP_CONFORMANCE_TMP"], "storage")}
        [scenario] = [s for s in document["scenarios"] if s["name"] == name]
        self.name = name
        self.input = scenario["input"]
        self.configs = document["configs"]

    def fill(self, value: Any) -> Any:
        """The value with its placeholders replaced (recursively)."""
        if isinstance(value, str):
            for placeholder, actual in self.values.items():
                value = value.replace(placeholder, actual)
            return value
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        return value

    def get(self, key: str) -> Any:
        return self.fill(self.input[key])

    def client(self, config: Optional[str] = None) -> jump.Client:
        return jump.Client(self.fill(self.configs[config or self.input["config"]]))

    def admin(self, key: str) -> Dict[str, Any]:
        """Sends input[key], an admin request, with the platform's HTTP client; its JSON answer."""
        return self.send(self.get(key))

    def send(self, spec: Dict[str, Any]) -> Dict[str, Any]:
        body = spec.get("body")
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.url + spec["path"], data=data, method=spec["method"])
        for name, value in (spec.get("headers") or {}).items():
            request.add_header(name, value)
        if data is not None and "Content-Type" not in (spec.get("headers") or {}):
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode("utf-8")
        return json.loads(text) if text.strip() else {}

    def admin_result(self, key: str) -> Any:
        return self.admin(key)[self.input[key]["result"]]

    def counter(self, key: str, name: str) -> int:
        return int(self.admin(key).get("counters", {}).get(name, 0))


def record_string(client: jump.Client, path: str) -> Optional[str]:
    with client.record as record:
        return record.get_string(path)


def register(s: Scenario, client: jump.Client) -> "tuple[str, Any]":
    return attempt(lambda: client.register_traditional(s.get("user"), s.get("password")))


def register_sign_in_bad_password(s: Scenario) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    user = s.get("user")
    login = user[s.input["sign_in_with"]]
    with s.client() as client:
        status, registered = register(s, client)
        out["register"] = {"status": status, "is_new": registered and registered["is_new"],
                           "signed_in": client.is_signed_in}
        out["sign_out"] = {"status": attempt(client.sign_out)[0], "signed_in": client.is_signed_in}
        status, signed = attempt(lambda: client.sign_in(login, s.get("password")))
        out["sign_in"] = {"status": status, "is_new": signed and signed["is_new"],
                          "same_uuid": bool(signed and registered and signed["uuid"] == registered["uuid"]),
                          "signed_in": client.is_signed_in}
        out["record_email"] = record_string(client, "/email")
        status, _ = attempt(lambda: client.sign_in(login, s.get("wrong_password")))
        out["wrong_password"] = {"status": status, "signed_in": client.is_signed_in}
    return out


def edit_sync_plural_append(s: Scenario) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    edit, append = s.get("edit"), s.get("append")
    plural = append["plural"]
    with s.client() as client:
        register(s, client)
        with client.record as record:
            record.set_string(edit["path"], edit["value"])
        status, synced = attempt(client.sync)
        out["sync_edit"] = {"status": status, "changed": synced and synced["changed"]}
        with client.record as record:
            out["append_path"] = record.append(plural, append["element"])
        status, synced = attempt(client.sync)
        renamed: Dict[str, str] = (synced or {}).get("renamed", {})
        element = re.compile(re.escape(plural) + r"#[1-9][0-9]*")
        out["sync_append"] = {"status": status, "changed": synced and synced["changed"],
                              "renamed_from": sorted(renamed),
                              "renamed_to_server_id": bool(renamed) and all(element.fullmatch(p) for p in renamed.values())}
        out["fetch"] = {"status": attempt(client.fetch_record)[0]}
        with client.record as record:
            out["edited_value"] = record.get_string(edit["path"])
            out["plural_count"] = record.count(plural)
            paths = record.elements(plural)
            out["plural_members"] = [record.get_string(f"{p}/{append['member']}") for p in paths]
        out["element_paths_are_renamed"] = paths == list(renamed.values())
        out["unsynced_changes"] = client.state["unsynced_changes"]
    return out


def refresh_after_clock_moves(s: Scenario) -> Dict[str, Any]:
    with s.client() as client:
        register(s, client)
        s.admin("clear_counters")
        s.admin("advance_clock")
        fetched = attempt(client.fetch_record)[0]
        return {"fetch": {"status": fetched},
                "refresh_requests": s.counter("counters", s.input["refresh_counter"]),
                "signed_in": client.is_signed_in, "record_email": record_string(client, "/email")}


def passing_server_error(s: Scenario) -> Dict[str, Any]:
    with s.client() as client:
        register(s, client)
        s.admin("clear_counters")
        s.admin("fault_once")
        passing = attempt(client.fetch_record)[0]
        passing_requests = s.counter("counters", s.input["entity_counter"])
        s.admin("fault_lasting")
        lasting = attempt(client.fetch_record)[0]
        return {"passing": {"status": passing}, "entity_requests_passing": passing_requests,
                "lasting": {"status": lasting}, "entity_requests": s.counter("counters", s.input["entity_counter"]),
                "signed_in": client.is_signed_in}


def sign_out_restart(s: Scenario) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    with s.client() as first:
        status, registered = register(s, first)
        out["first"] = {"status": status, "signed_in": first.is_signed_in}
    with s.client() as restored:
        out["restored"] = {"signed_in": restored.is_signed_in,
                           "same_uuid": bool(registered) and restored.state["uuid"] == registered["uuid"],
                           "record_email": record_string(restored, "/email")}
        out["sign_out"] = {"status": attempt(restored.sign_out)[0], "signed_in": restored.is_signed_in}
    with s.client() as after:
        out["after_sign_out"] = {"signed_in": after.is_signed_in}
    return out


def sign_in_token_session(s: Scenario) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    user_id = s.admin_result("create_user")
    s.values["${USER_ID}"] = user_id
    token = s.admin_result("mint")
    status, decoded = attempt(lambda: jump.decode_sign_in_token(token))
    out["decode"] = {"status": status, "user_id_matches": bool(decoded) and decoded["user_id"] == user_id,
                     "environment": decoded and decoded["environment"], "region": decoded and decoded["region"]}
    with s.client() as client:
        out["before"] = {"signed_in": client.status["signed_in"]}
        status, signed = attempt(lambda: client.sign_in_with_token(token))
        out["sign_in"] = {"status": status, "user_id_matches": bool(signed) and signed["user_id"] == user_id,
                          "changed": signed and signed["changed"], "migrated": signed and signed["migrated"]}
        now = client.status
        out["status"] = {"signed_in": now["signed_in"], "use_sign_in_token": now["use_sign_in_token"],
                         "use_api_key": now["use_api_key"], "user_id_matches": now["user_id"] == user_id}
        path = s.get("profile_path")
        status, put = attempt(lambda: client.request("PUT", path, {"Content-Type": "application/json"},
                                                     json.dumps(s.get("profile"))))
        out["put"] = {"status": status, "http_status": put and put["status"]}
        status, got = attempt(lambda: client.request("GET", path))
        out["get"] = {"status": status, "http_status": got and got["status"],
                      "data": got and json.loads(got["body"]).get("data")}
        again_token = s.admin_result("mint")
        status, again = attempt(lambda: client.sign_in_with_token(again_token))
        out["sign_in_again"] = {"status": status, "changed": again and again["changed"]}
        out["sign_out"] = {"status": attempt(client.sign_out)[0]}
        out["after_sign_out"] = {"signed_in": client.status["signed_in"]}
    return out


def cancel_async(s: Scenario) -> Dict[str, Any]:
    completions: List[Optional[BaseException]] = []
    done = threading.Event()

    def on_completion(_result: Any, error: Optional[BaseException]) -> None:
        completions.append(error)
        done.set()

    with s.client() as client:
        register(s, client)
        s.admin("clear_counters")
        s.admin("delay")
        request = client.fetch_record_async(on_completion)
        deadline = time.monotonic() + s.input["reach_timeout_ms"] / 1000
        while s.counter("counters", s.input["reached_counter"]) < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        pending = not request.done
        request.cancel()
        cancelled_at = time.monotonic()
        done.wait(10)
        within = done.is_set() and (time.monotonic() - cancelled_at) * 1000 < s.input["cancel_deadline_ms"]
        try:
            request.wait(10)
            status = OK
        except jump.JumpError as error:
            status = status_of(error)
        time.sleep(s.input["settle_ms"] / 1000)
        return {"pending_before_cancel": pending, "status": status, "completions": len(completions),
                "within_deadline": within, "signed_in": client.is_signed_in}


def status_errors(s: Scenario) -> Dict[str, Any]:
    names = []
    for status in s.input["statuses"]:
        error = jump.error_class(status["code"])(status["code"])  # the class libjump's failures are raised as
        names.append(STATUS_NAMES.get(type(error).code, type(error).__name__) if type(error).code is not None
                     else type(error).__name__)
    return {"names": names}


# The generic steps (README, "Step scenarios"): a scenario whose input has "steps" is played step by step.
def several_accounts(s: Scenario) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    ann, bob = s.get("users")
    password = s.get("password")
    with s.client() as client:
        for user in (ann, bob):  # each registration signs its user in (a second account with "multiple")
            status, _ = register_user(client, user, password)
            if status != OK:
                raise RuntimeError(f"registering a user: {status}")
        for user in (ann, bob):
            client.sign_in(user["email"], password)

        def listed() -> "tuple[List[Dict[str, Any]], Optional[str]]":
            saved = client.accounts()
            active = [a["email"] for a in saved["accounts"] if a["uuid"] == saved["active"]]
            return saved["accounts"], (active[0] if active else None)

        accounts, active_email = listed()
        out["after_two_sign_ins"] = {"count": len(accounts), "active_email": active_email,
                                     "emails": sorted(a["email"] for a in accounts)}
        uuid_of = {a["email"]: a["uuid"] for a in accounts}
        status, _ = attempt(lambda: client.switch_account(uuid_of[ann["email"]]))
        out["switch"] = {"status": status, "record_email": record_string(client, "/email")}
        status, _ = attempt(lambda: client.remove_account(uuid_of[bob["email"]]))
        accounts, active_email = listed()
        out["remove"] = {"status": status, "count": len(accounts), "signed_in": client.is_signed_in,
                         "active_email": active_email}
        status, _ = attempt(lambda: client.switch_account(uuid_of[bob["email"]]))
        out["switch_removed"] = {"status": status}
    return out


def register_user(client: jump.Client, user: Dict[str, Any], password: str) -> "tuple[str, Any]":
    return attempt(lambda: client.register_traditional(user, password))


def step_status(step: Dict[str, Any], call: Callable[[], Any]) -> "tuple[Dict[str, Any], Any]":
    """Runs call: ({"status", detail facts the step asks for}, its result or None)."""
    try:
        return {"status": OK, **detail_facts(step, None)}, call()
    except jump.JumpError as error:
        return {"status": status_of(error), **detail_facts(step, error.detail or {})}, None


def detail_facts(step: Dict[str, Any], detail: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    facts: Dict[str, Any] = {}
    if "detail" in step:
        facts["detail"] = {k: (detail or {}).get(k) for k in step["detail"]}
    if "detail_keys" in step:
        member = (detail or {}).get(step["detail_keys"])
        facts["detail_keys"] = sorted(member) if isinstance(member, dict) else None
    if "detail_paths" in step:
        member = (detail or {}).get(step["detail_paths"])
        facts["detail_paths"] = [e.get("path") for e in member] if isinstance(member, list) else None
    return facts


def play_steps(s: Scenario) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    clients: Dict[str, jump.Client] = {}
    try:
        for raw in s.input["steps"]:
            step = s.fill(raw)
            do, client = step["do"], clients.get(step.get("client", ""))
            fact: Any = None
            if do == "open":
                clients[step["client"]] = s.client(step.get("config"))
            elif do == "close":
                clients.pop(step["client"]).close()
            elif do == "register":
                fact, _ = step_status(step, lambda: client.register_traditional(step["user"], step["password"]))
                fact["signed_in"] = client.is_signed_in
            elif do == "sign_in":
                fact, _ = step_status(step, lambda: client.sign_in(step["login"], step["password"]))
                fact["signed_in"] = client.is_signed_in
            elif do == "sign_out":
                fact, _ = step_status(step, client.sign_out)
                fact["signed_in"] = client.is_signed_in
            elif do == "sync":
                fact, synced = step_status(step, client.sync)
                fact["changed"] = synced and synced["changed"]
            elif do == "fetch":
                fact, _ = step_status(step, client.fetch_record)
            elif do == "request":
                fact, answer = step_status(step, lambda: client.request(step["method"], step["path"],
                                                                        step.get("headers"), step.get("body")))
                fact["http_status"] = answer and answer["status"]
            elif do == "set":
                with client.record as record:
                    record.set_string(step["path"], step["value"])
            elif do == "get":
                fact = record_string(client, step["path"])
            elif do == "signed_in":
                fact = client.is_signed_in
            elif do == "admin":
                answer = s.send(step["request"])
                if "counter" in step:
                    fact = int(answer.get("counters", {}).get(step["counter"], 0))
            else:
                raise ValueError(f"unknown step {do!r}")
            if "out" in step:
                out[step["out"]] = fact
    finally:
        for client in clients.values():
            client.close()
    return out


# The five scenarios of issue 41 (README: loopback_social_sign_in ... api_key_mode).
def browse(url: str, identity: Dict[str, str]) -> int:
    """The browser of the loopback sign-in (README, loopback_social_sign_in): GET the provider's start page,
    post its form (the start URL's query, at .../callback, plus the identity), follow the provider's redirect
    to the listener; that landing page's HTTP status."""
    def call(target: str, data: Optional[bytes] = None) -> "tuple[int, Dict[str, str]]":
        request = urllib.request.Request(target, data=data, method="GET" if data is None else "POST")
        if data is not None:
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            with _NO_REDIRECT.open(request, timeout=30) as response:
                response.read()
                return response.status, dict(response.headers)
        except urllib.error.HTTPError as answer:
            answer.read()
            return answer.code, dict(answer.headers)

    status, _ = call(url)
    if status != 200:
        raise RuntimeError(f"the provider's start page answered {status}")
    parts = urllib.parse.urlsplit(url)
    callback = urllib.parse.urlunsplit(parts._replace(path=re.sub(r"/start$", "/callback", parts.path)))
    status, headers = call(callback, urllib.parse.urlencode(identity).encode("utf-8"))
    location = headers.get("Location")
    if status not in (301, 302, 303, 307) or not location:
        raise RuntimeError(f"the provider answered {status} without a redirect")
    landed, _ = call(urllib.parse.urljoin(callback, location))
    return landed


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        return None  # a 3xx is an answer (HTTPError) whose Location the browser follows itself


_NO_REDIRECT = urllib.request.build_opener(_NoRedirect)


def loopback_social_sign_in(s: Scenario) -> Dict[str, Any]:
    landing: List[Any] = []

    def open_url(url: str) -> None:  # hands the URL to a thread playing the browser, and returns
        def run() -> None:
            try:
                landing.append(browse(url, s.get("identity")))
            except Exception as exc:  # noqa: BLE001 - the landing status stays null
                print(f"browser: {exc}", file=sys.stderr)
                landing.append(None)
        threading.Thread(target=run, daemon=True).start()

    with s.client() as client:
        status, result = attempt(lambda: client.social_sign_in_loopback(
            s.input["provider"], open_url, timeout=s.input["timeout_ms"] / 1000))
        deadline = time.monotonic() + 10
        while not landing and time.monotonic() < deadline:
            time.sleep(0.02)
        return {"status": status, "signed_in": client.is_signed_in, "is_new": result and result["is_new"],
                "provider": result and result["provider"], "landing_status": landing[0] if landing else None}


class MapStorage:
    """Host storage in a dict, counting saves."""

    def __init__(self) -> None:
        self.entries: Dict[str, bytes] = {}
        self.saves = 0

    def load(self, key: str) -> Optional[bytes]:
        return self.entries.get(key)

    def save(self, key: str, data: bytes) -> None:
        self.saves += 1
        self.entries[key] = data

    def erase(self, key: str) -> None:
        self.entries.pop(key, None)


def host_storage(s: Scenario) -> Dict[str, Any]:
    store = MapStorage()

    def client() -> jump.Client:
        return jump.Client(jump.Config(s.fill(s.configs[s.input["config"]])).set_storage(store))

    with client() as first:
        status, _ = register(s, first)
    out: Dict[str, Any] = {"register": {"status": status}, "saved_entries": store.saves >= 1 and bool(store.entries)}
    with client() as second:
        restored, _ = attempt(second.restore)
        out["restored"] = {"status": restored, "signed_in": second.is_signed_in,
                           "record_email": record_string(second, "/email")}
    return out


def event_order(s: Scenario) -> Dict[str, Any]:
    events: List[str] = []
    edit = s.get("edit")
    with s.client() as client:
        client.on_event(lambda event: events.append(event["event"]))
        status, _ = register(s, client)
        out: Dict[str, Any] = {"register": {"status": status}}
        with client.record as record:
            record.set_string(edit["path"], edit["value"])
        out["sync"] = {"status": attempt(client.sync)[0]}
        out["sign_out"] = {"status": attempt(client.sign_out)[0]}
        deadline = time.monotonic() + s.input["wait_ms"] / 1000  # events arrive on libjump's thread
        while s.input["last_event"] not in events and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(s.input["settle_ms"] / 1000)
        out["events"] = list(events)
    return out


def merge_flow(s: Scenario) -> Dict[str, Any]:
    stage = s.admin("stage")
    account, token = stage["user"]["uuid"], stage["conflicting_identity"]["token"]
    with s.client() as client:
        merge_token: Optional[str] = None
        try:
            client.social_sign_in_native(s.input["provider"], token)
            status = OK
        except jump.JumpError as error:
            status = status_of(error)
            merge_token = getattr(error, "merge_token", None)
        out: Dict[str, Any] = {"social": {"status": status, "has_merge_token": bool(merge_token),
                                          "signed_in": client.is_signed_in}}
        status, merged = attempt(lambda: client.sign_in_merge(s.get("login"), s.get("password"), merge_token or ""))
        out["merge"] = {"status": status, "signed_in": client.is_signed_in,
                        "same_uuid_as_password_account": bool(merged) and merged["uuid"] == account,
                        "merged": merged and merged.get("merged")}
    return out


def api_key_mode(s: Scenario) -> Dict[str, Any]:
    api_key = s.admin_result("create_team")
    s.values["${API_KEY}"] = api_key
    user_id = s.admin_result("create_user")
    s.values["${USER_ID}"] = user_id
    with s.client() as client:
        status, _ = attempt(lambda: client.use_api_key(api_key, user_id, s.input["environment"], s.input["region"]))
        out: Dict[str, Any] = {"use_api_key": {"status": status}}
        now = client.status
        out["status"] = {"use_api_key": now["use_api_key"], "use_sign_in_token": now["use_sign_in_token"],
                         "signed_in": now["signed_in"], "user_id_matches": now["user_id"] == user_id}
        status, answer = attempt(lambda: client.request("GET", s.get("user_path")))
        out["request"] = {"status": status, "http_status": answer and answer["status"]}
        status, _ = attempt(client.sign_out)
        now = client.status
        out["sign_out"] = {"status": status, "use_api_key": now["use_api_key"], "signed_in": now["signed_in"]}
    return out


SCENARIOS = {f.__name__: f for f in (register_sign_in_bad_password, edit_sync_plural_append,
                                      refresh_after_clock_moves, passing_server_error, sign_out_restart, sign_in_token_session,
                                      cancel_async, status_errors, several_accounts,
                                      loopback_social_sign_in, host_storage, event_order, merge_flow, api_key_mode)}


def main(name: str) -> int:
    try:
        scenario = Scenario(name)
        play = play_steps if "steps" in scenario.input else SCENARIOS[name]
        line: Dict[str, Any] = {"scenario": name, "outcome": play(scenario)}
    except Exception as exc:  # noqa: BLE001 - reported as the scenario's failure, never as an outcome
        line = {"scenario": name, "error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(line, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
