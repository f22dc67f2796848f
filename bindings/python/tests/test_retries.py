"""Retries on real networks: a transient failure of a read or of the token refresh is sent again (within
maxRetries, the request's time and the process's retry budget for that server) and the caller never sees it; a write that may
have reached the server is never sent twice. Real libjump against the real emulator, whose fault layer
answers 429, 503 (with Retry-After), 500, a proxy's HTML page, an empty body, or resets the connection."""

from __future__ import annotations

import email.utils
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import jump

from conftest import PASSWORD

ENTITY = "POST /entity"
REFRESH = "POST /oauth/refresh_access_token"
FLOW_PATH = "/widget_data/flows/default-app/standard/HEAD/en-US.json"
HERE = Path(__file__).resolve().parent
KINDS = ["http_429", "http_503", "reset", "http_500", "html", "empty"]


def restarted(make_config, **overrides) -> jump.Client:
    """A client restored from storage: a fresh connection pool, so a reset hits a new connection (libcurl
    itself resends a request whose reused keep-alive connection died, which would hide the fault)."""
    return jump.Client(make_config(**overrides))


@pytest.mark.parametrize("kind", KINDS)
def test_a_transient_fault_before_a_read_is_invisible(make_config, emu, registered, kind: str) -> None:
    with restarted(make_config) as client:
        emu.clear_counters()
        emu.fault(kind, "/entity")
        client.fetch_record()
        assert client.record["/email"] == registered["email"]
        assert emu.counters().get(ENTITY) == 2, emu.counters()


@pytest.mark.parametrize("kind", KINDS)
def test_a_transient_fault_before_a_refresh_is_invisible(make_config, emu, registered, kind: str) -> None:
    with restarted(make_config) as client:
        emu.clear_counters()
        emu.fault(kind, "/oauth/refresh_access_token")
        client.refresh_access_token()
        state = client.state
        assert state["signed_in"] and not state["reauthentication_required"]
        assert emu.counters().get(REFRESH) == 2, emu.counters()
        client.fetch_record()  # the new token works


def test_the_flow_and_a_get_of_request_are_retried(make_config, emu, registered) -> None:
    with restarted(make_config) as client:
        emu.clear_counters()
        emu.fault("http_503", FLOW_PATH)
        client.load_flow()
        assert emu.counters().get("GET " + FLOW_PATH) == 2, emu.counters()
        emu.fault("http_503", "/weblogin/me")
        assert client.request("GET", "/weblogin/me")["status"] == 200
        assert emu.counters().get("GET /weblogin/me") == 2, emu.counters()


def test_retry_after_in_seconds_is_waited_for(client, emu, registered) -> None:
    emu.clear_counters()
    emu.fault("http_503", "/entity", retry_after=2)
    started = time.monotonic()
    client.fetch_record()
    waited = time.monotonic() - started
    assert waited >= 1.9, f"Retry-After: 2 was not honoured ({waited:.2f} s)"
    assert waited < 8
    assert emu.counters().get(ENTITY) == 2


def test_async_calls_retry_on_a_parked_fiber(make_config, emu, registered) -> None:
    """_async calls run on fibers: the pause parks the fiber on the I/O loop's clock (no pool thread held),
    so 8 reads each waiting a 1 s Retry-After finish together in about a second, not one after another."""
    with restarted(make_config) as client:
        emu.clear_counters()
        emu.fault("http_503", "/entity", count=8, retry_after=1)
        started = time.monotonic()
        requests = [client.fetch_record_async() for _ in range(8)]
        for request in requests:
            request.wait(30)
        elapsed = time.monotonic() - started
        assert 0.9 <= elapsed < 4, f"{elapsed:.2f} s"
        assert emu.counters().get(ENTITY) == 16, emu.counters()


def test_retry_after_as_an_http_date_is_waited_for(client, emu, registered) -> None:
    emu.clear_counters()
    emu.fault("http_429", "/entity", retry_after=email.utils.formatdate(time.time() + 3, usegmt=True))
    started = time.monotonic()
    client.fetch_record()
    waited = time.monotonic() - started
    assert waited >= 1.5, f"a Retry-After date 3 s ahead was not honoured ({waited:.2f} s)"
    assert emu.counters().get(ENTITY) == 2


def test_retries_stay_within_the_request_time(make_config, emu, registered) -> None:
    """requestTimeoutMs 3 s: a Retry-After of 30 s is not waited for (the 503 shows at once), one of 1 s is."""
    with jump.Client(make_config(requestTimeoutMs=3000)) as client:
        emu.clear_counters()
        emu.fault("http_503", "/entity", retry_after=30)
        started = time.monotonic()
        with pytest.raises(jump.ServerError) as info:
            client.fetch_record()
        assert time.monotonic() - started < 2.5
        assert "503" in info.value.message
        assert emu.counters().get(ENTITY) == 1
        emu.fault("http_503", "/entity", retry_after=1)
        client.fetch_record()
        assert emu.counters().get(ENTITY) == 3


def test_max_retries_zero_shows_the_error(make_config, emu, registered) -> None:
    with jump.Client(make_config(maxRetries=0)) as client:
        emu.clear_counters()
        emu.fault("http_503", "/entity")
        with pytest.raises(jump.ServerError) as info:
            client.fetch_record()
        assert "503" in info.value.message
        assert emu.counters().get(ENTITY) == 1
        client.fetch_record()  # one-shot fault: the next call works


def in_a_fresh_process(scenario: str, config: dict, emu) -> dict:
    """Plays ``scenario`` of retry_budget_process.py in a new process: the retry budget is one per server for
    the whole process, and an outage spending it here would leave later tests against this emulator with
    none."""
    env = dict(os.environ, JUMP_LIBRARY_PATH=jump.library_path(),
               PYTHONPATH=os.pathsep.join([str(Path(jump.__file__).resolve().parents[1]), str(HERE)]))
    child = subprocess.run([sys.executable, str(HERE / "retry_budget_process.py"), scenario, json.dumps(config), emu.url],
                           env=env, capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, f"the {scenario} process failed: {child.stderr[-3000:]}"
    return json.loads(child.stdout.strip().splitlines()[-1])


def test_an_outage_costs_at_most_the_retry_budget(make_config, emu, registered) -> None:
    """100 reads against a server that always answers 503: each wants 2 retries (300 requests without a
    budget), the server's budget (500 tokens, 5 a retry) allows 100 retries in all."""
    report = in_a_fresh_process("outage", make_config(maxRetries=2), emu)
    assert report["outcomes"] == ["ServerError"], report
    assert report["sent"] == 200, f"{report['sent']} requests for 100 calls"
    assert report["signed_in"] and not report["reauthentication_required"], report  # the server is back: so is the client


def test_an_outage_mixing_4xx_and_5xx_answers_stays_within_the_budgets_bound(make_config, emu, registered) -> None:
    """Reads answered 503 (retried) alternate with writes answered 429, then 500 (never retried): only an
    answer that worked refills the budget, so the 100 reads still cost at most 100 retries (200 requests).
    Were every answer not retried a refund, as before, the 100 failed writes would give back 100 tokens
    (20 retries): 219 requests."""
    report = in_a_fresh_process("mixed", make_config(maxRetries=2), emu)
    assert report["reads"] == ["ServerError"], report
    assert report["writes"] == ["429"] * 50 + ["500"] * 50, report
    assert report["updates_sent"] == 100, report  # writes are sent once
    assert report["sent"] == 200, f"{report['sent']} requests for 100 reads: failed writes refilled the retry budget"
    assert report["changed_after"] == ["/aboutMe"] and report["about_me"] == "edit 99", report
    assert report["signed_in"] and not report["reauthentication_required"], report


def test_the_clients_of_a_process_share_one_budget_per_server(make_config, emu, registered) -> None:
    """Ten clients of one server, ten reads each, during an outage: one budget for the process (100 retries,
    200 requests), not ten (300 requests). Spent, a single 503 is the answer; five answers that worked buy
    one retry back, and the next single 503 is retried unseen."""
    report = in_a_fresh_process("crowd", make_config(maxRetries=2), emu)
    assert report["outcomes"] == ["ServerError"], report
    assert report["sent"] == 200, f"{report['sent']} requests for 10 clients' 100 reads: a budget per client"
    assert report["after_outage"] == "ServerError", report
    assert report["after_five_answers"] == "ok", report


def test_a_write_that_reached_the_server_is_not_retried(client, emu, registered) -> None:
    """A 500 or 503 answer to entity.update may come after the update was applied, so the caller sees it and
    the edit stays pending; the same answer to a read is retried."""
    for kind in ("http_500", "http_503"):
        emu.clear_counters()
        emu.fault(kind, "/entity")
        client.fetch_record()
        assert emu.counters().get(ENTITY) == 2
        client.record["/aboutMe"] = "once " + kind
        emu.clear_counters()
        emu.fault(kind, "/entity.update")
        with pytest.raises(jump.ServerError):
            client.sync()
        assert emu.counters().get("POST /entity.update") == 1, emu.counters()
        assert client.record.changes()["changed"] == ["/aboutMe"]
        assert client.sync()["changed"] == ["/aboutMe"]


def test_a_sign_in_is_not_retried_after_a_transient_answer(make_config, emu, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        emu.clear_counters()
        emu.fault("http_503", "/oauth/auth_native_traditional")
        with pytest.raises(jump.ServerError):
            client.sign_in(registered["email"], PASSWORD)
        assert emu.counters().get("POST /oauth/auth_native_traditional") == 1
        client.sign_in(registered["email"], PASSWORD)
        emu.fault("http_503", "/entity")  # a read after it is retried
        client.fetch_record()
        assert emu.counters().get(ENTITY) == 2


def test_each_retry_is_one_debug_line_without_secrets(make_config, emu, registered, caplog) -> None:
    caplog.set_level(logging.DEBUG, logger="jump")
    with restarted(make_config) as client:
        emu.fault("http_503", "/oauth/refresh_access_token", count=2, retry_after=0)
        client.refresh_access_token()
        secret_words = [registered["password"]] + [v for v in client.credentials().values() if isinstance(v, str) and len(v) > 12]
    lines = [r.getMessage() for r in caplog.records if r.name == "jump" and "refresh_access_token" in r.getMessage()]
    retries = [line for line in lines if "retry" in line and "HTTP 503" in line]
    assert len(retries) == 2, lines
    assert "retry 1 of 2" in retries[0] and "retry 2 of 2" in retries[1]
    for line in lines:
        assert "?" not in line and not any(word in line for word in secret_words), line


def test_max_retries_is_checked(make_config) -> None:
    for good in (0, 10):
        assert jump.Config(make_config(maxRetries=good))["maxRetries"] == good
    for bad in (-1, 11):
        with pytest.raises(jump.InvalidArgument) as info:
            jump.Config(make_config(maxRetries=bad))
        assert info.value.argument == "maxRetries"
