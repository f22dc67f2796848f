"""A fresh process for test_busy_client.py (JUMP_POOL_THREADS and an LD_PRELOAD shim apply to a whole
process). Client S is busy: its saves are slow (host storage whose save sleeps, or a file store on a file
system whose fsync sleeps). S starts a sync and four fetches; 0.3 s later an unrelated client starts a
fetch, and the host's own thread asks S the questions it answers from memory. Run as
``python busy_client_process.py <host|file> <config json> <storage dir> <slow seconds>``; prints one JSON
report of what took how long. The test asserts."""

from __future__ import annotations

import ctypes
import json
import os
import sys
import threading
import time
from typing import Callable, Dict, Optional

import jump
from emulator_helpers import unique_email

PASSWORD = "correct horse battery"


class SlowHostStorage:
    """Host storage whose saves take `seconds` once armed; `saving` says whether one is in progress."""

    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}
        self.lock = threading.Lock()
        self.seconds = 0.0
        self.saving = 0

    def load(self, key: str) -> Optional[bytes]:
        with self.lock:
            return self.data.get(key)

    def save(self, key: str, data: bytes) -> None:
        if self.seconds:
            with self.lock:
                self.saving += 1
            time.sleep(self.seconds)
            with self.lock:
                self.saving -= 1
        with self.lock:
            self.data[key] = data

    def erase(self, key: str) -> None:
        with self.lock:
            self.data.pop(key, None)


def timed(question: Callable[[], object]) -> float:
    started = time.monotonic()
    question()
    return time.monotonic() - started


def main() -> None:
    kind, config, storage, seconds = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    if kind == "host":
        store = SlowHostStorage()
        prepared = jump.Config(config).set_storage(store)
        busy = jump.Client(prepared)
        prepared.close()

        def arm() -> None:
            store.seconds = seconds

        def saving() -> bool:
            with store.lock:
                return store.saving > 0
    else:
        shim = ctypes.CDLL(os.environ["LD_PRELOAD"])
        running = ctypes.c_int.in_dll(shim, "slow_fsync_running")
        busy = jump.Client(dict(config, storageDirectory=storage))

        def arm() -> None:
            open(os.environ["JUMP_TEST_FSYNC_FLAG"], "w").close()

        def saving() -> bool:
            return running.value > 0

    unrelated = jump.Client(dict(config, storageDirectory=":memory:"))
    unrelated.register_traditional({"email": unique_email("unrelated"), "displayName": "Unrelated"}, PASSWORD)
    busy.register_traditional({"email": unique_email("busy"), "displayName": "Busy"}, PASSWORD)
    busy.record.append("/photos", {"value": "one.png"})
    busy.record["/aboutMe"] = "before the slow save"
    arm()

    started = time.monotonic()
    work = [busy.sync_async()] + [busy.fetch_record_async() for _ in range(4)]
    time.sleep(0.3)
    fetch_started = time.monotonic()
    unrelated.fetch_record_async().wait(60)
    unrelated_took = time.monotonic() - fetch_started

    # The host's own thread asks the busy client while one of its saves is in progress.
    deadline = time.monotonic() + 30
    while not saving() and time.monotonic() < deadline:
        time.sleep(0.002)
    during_save = saving()
    handle_started = time.monotonic()
    record = busy.record  # jump_client_record
    questions = {
        "record_handle": time.monotonic() - handle_started,
        "state": timed(lambda: busy.state),
        "is_signed_in": timed(lambda: busy.is_signed_in),
        "access_token": timed(busy.access_token),
        "record_get": timed(lambda: record["/aboutMe"]),
        "element_count": timed(lambda: record.count("/photos")),
        "elements": timed(lambda: record.elements("/photos")),
    }
    still_saving = saving()
    outcomes = []
    for request in work:
        try:
            request.wait(120)
            outcomes.append("ok")
        except jump.JumpError as error:
            outcomes.append(f"{type(error).__name__}: {error.message}")
    report = {"unrelated_fetch": unrelated_took, "questions": questions, "asked_during_save": during_save and still_saving,
              "busy_outcomes": outcomes, "busy_took": time.monotonic() - started,
              "about_me": record["/aboutMe"], "signed_in": busy.is_signed_in}
    for client in (busy, unrelated):
        client.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
