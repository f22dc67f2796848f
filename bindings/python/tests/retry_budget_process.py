"""A fresh process for the retry budget's tests (test_retries.py): the budget is one per server for the
whole process, so an outage played inside the test runner would spend it for every later test against the
same emulator. Run as ``python retry_budget_process.py <scenario> <config json> <emulator url>``; prints one
JSON report. The test asserts; this file only plays the scenario and counts."""

from __future__ import annotations

import json
import sys

import jump
from emulator_helpers import Emulator

ENTITY = "POST /entity"


def read_failing(client: jump.Client) -> str:
    try:
        client.fetch_record()
    except jump.ServerError:
        return "ServerError"
    except jump.JumpError as error:
        return type(error).__name__
    return "ok"


def outage(config, emu: Emulator) -> dict:
    """One client, 100 reads against a server answering 503 to all of them; then the server is back."""
    with jump.Client(config) as client:
        emu.clear_counters()
        emu.fault("http_503", "/entity", count=10_000, retry_after=0)
        outcomes = [read_failing(client) for _ in range(100)]
        sent = emu.counters().get(ENTITY, 0)
        emu.admin("DELETE", "/emulator/faults")
        client.fetch_record()
        state = client.state
        return {"outcomes": sorted(set(outcomes)), "sent": sent,
                "signed_in": state["signed_in"], "reauthentication_required": state["reauthentication_required"]}


def mixed(config, emu: Emulator) -> dict:
    """Reads answered 503 alternate with writes answered 429, then 500 (writes are never retried)."""
    with jump.Client(config) as client:
        client.fetch_record()  # the record is here to edit
        emu.clear_counters()
        emu.fault("http_503", "/entity", count=10_000, retry_after=0)
        emu.fault("http_429", "/entity.update", count=50)
        emu.fault("http_500", "/entity.update", count=10_000)
        reads, writes = [], []
        for n in range(100):
            reads.append(read_failing(client))
            client.record["/aboutMe"] = f"edit {n}"
            try:
                client.sync()
                writes.append("ok")
            except jump.ServerError as error:
                writes.append("429" if "429" in error.message else "500" if "500" in error.message else error.message)
        counters = emu.counters()
        emu.admin("DELETE", "/emulator/faults")
        client.fetch_record()
        changed = client.sync()["changed"]
        state = client.state
        return {"reads": sorted(set(reads)), "writes": writes, "updates_sent": counters.get("POST /entity.update", 0),
                "sent": counters.get(ENTITY, 0), "changed_after": changed, "about_me": client.record["/aboutMe"],
                "signed_in": state["signed_in"], "reauthentication_required": state["reauthentication_required"]}


def crowd(config, emu: Emulator) -> dict:
    """Ten clients of one server, ten reads each, during an outage; then the server is back, and a single
    503 after five good answers (five tokens back: one retry's cost) is retried."""
    clients = [jump.Client(config) for _ in range(10)]
    try:
        emu.clear_counters()
        emu.fault("http_503", "/entity", count=10_000, retry_after=0)
        outcomes = [read_failing(c) for c in clients for _ in range(10)]
        sent = emu.counters().get(ENTITY, 0)
        emu.admin("DELETE", "/emulator/faults")
        emu.fault("http_503", "/entity", count=1, retry_after=0)
        spent = read_failing(clients[-1])  # no token left: the 503 is the answer
        for _ in range(5):
            clients[0].fetch_record()
        emu.fault("http_503", "/entity", count=1, retry_after=0)
        refilled = read_failing(clients[-1])
        return {"outcomes": sorted(set(outcomes)), "sent": sent, "after_outage": spent, "after_five_answers": refilled}
    finally:
        for c in clients:
            c.close()


if __name__ == "__main__":
    scenario, config, url = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    report = {"outage": outage, "mixed": mixed, "crowd": crowd}[scenario](config, Emulator(url, None, None))
    print(json.dumps(report))
