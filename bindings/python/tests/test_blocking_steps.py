"""A step that blocks holds up only what waits for it (design-io.md, "Threads"): slow host storage, a process
sharing the storage directory through a slow refresh, a storage callback that calls another client, and the
thread an operation's host code runs on.

The bounds are wide on purpose (a shared two-core machine): each is far below what the runtime gave before
these tests (4.0 s for an unrelated fetch behind slow storage, 8.1 s behind a slow shared refresh) and above a
loaded machine's noise.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional

import jump

from conftest import PASSWORD, unique_email


class SlowStorage:
    """Host storage whose saves take `save_seconds` once armed, recording the thread of every call."""

    def __init__(self) -> None:
        self.data: Dict[str, bytes] = {}
        self.lock = threading.Lock()
        self.save_seconds = 0.0
        self.threads: List[int] = []

    def _note(self) -> None:
        with self.lock:
            self.threads.append(threading.get_ident())

    def load(self, key: str) -> Optional[bytes]:
        self._note()
        with self.lock:
            return self.data.get(key)

    def save(self, key: str, data: bytes) -> None:
        self._note()
        if self.save_seconds:
            time.sleep(self.save_seconds)
        with self.lock:
            self.data[key] = data

    def erase(self, key: str) -> None:
        self._note()
        with self.lock:
            self.data.pop(key, None)


def hosted_client(make_config, store: SlowStorage) -> jump.Client:
    config = jump.Config(make_config()).set_storage(store)
    client = jump.Client(config)
    config.close()
    return client


def signed_in_memory_client(make_config) -> jump.Client:
    client = jump.Client(make_config(storageDirectory=":memory:"))
    client.register_traditional({"email": unique_email("unrelated"), "displayName": "Unrelated"}, PASSWORD)
    return client


def test_slow_host_storage_holds_up_only_its_own_clients(make_config, emu) -> None:
    stores = [SlowStorage() for _ in range(4)]
    slow = [hosted_client(make_config, store) for store in stores]
    unrelated = signed_in_memory_client(make_config)
    try:
        for index, client in enumerate(slow):
            client.register_traditional({"email": unique_email(f"slow{index}"), "displayName": "Slow"}, PASSWORD)
            client.record["/aboutMe"] = f"edit {index}"
        for store in stores:
            store.save_seconds = 2.0
        started = time.monotonic()
        finished: Dict[int, float] = {}
        requests = []
        for index, client in enumerate(slow):
            requests.append(client.sync_async(lambda result, error, index=index: finished.setdefault(index, time.monotonic())))
        time.sleep(0.2)  # the four are on the wire or saving
        fetch_started = time.monotonic()
        unrelated.fetch_record_async().wait(10)
        unrelated_took = time.monotonic() - fetch_started
        for request in requests:
            request.wait(15)
        took = sorted(round(finished[i] - started, 2) for i in range(4))
        assert unrelated_took < 0.5, f"an unrelated fetch waited {unrelated_took:.2f} s behind slow storage"
        assert took[-1] < 2.5, f"the slow clients finished after {took} s: they waited for one another"
    finally:
        for client in slow + [unrelated]:
            client.close()


def test_a_slow_shared_refresh_holds_up_only_its_directory(make_config, emu, storage) -> None:
    # One user, five clients on one storage directory (an app and its helpers), all due for a refresh.
    first = jump.Client(make_config(storageDirectory=storage))
    first.register_traditional({"email": unique_email("shared"), "displayName": "Shared"}, PASSWORD)
    siblings = [jump.Client(make_config(storageDirectory=storage)) for _ in range(4)]
    emu.advance_clock(7200)
    unrelated = signed_in_memory_client(make_config)  # signed in after the clock moved: its token is good
    try:
        emu.clear_counters()
        emu.fault("delay", "/oauth/refresh_access_token", delay_ms=1500)
        started = time.monotonic()
        refreshing = first.fetch_record_async()
        deadline = time.monotonic() + 5
        while emu.counters().get("POST /oauth/refresh_access_token", 0) < 1 and time.monotonic() < deadline:
            time.sleep(0.005)
        fetches = [client.fetch_record_async() for client in siblings]
        time.sleep(0.1)  # the siblings wait for the directory meanwhile
        fetch_started = time.monotonic()
        unrelated.fetch_record_async().wait(10)
        unrelated_took = time.monotonic() - fetch_started
        refreshing.wait(15)
        refreshed_after = time.monotonic() - started
        for fetch in fetches:
            fetch.wait(15)
        assert unrelated_took < 0.5, f"an unrelated fetch waited {unrelated_took:.2f} s behind a shared refresh"
        assert refreshed_after < 2.5, f"the refreshing client finished after {refreshed_after:.2f} s"
        assert emu.counters().get("POST /oauth/refresh_access_token") == 1, emu.counters()
    finally:
        for client in [first, *siblings, unrelated]:
            client.close()


def test_every_host_call_of_an_operation_is_on_one_thread(make_config, emu) -> None:
    stores = [SlowStorage() for _ in range(60)]
    clients = [hosted_client(make_config, store) for store in stores]
    try:
        for index, client in enumerate(clients):
            client.register_traditional({"email": unique_email(f"pin{index}"), "displayName": "Pinned"}, PASSWORD)
        emu.advance_clock(7200)  # every access token is due for a refresh
        emu.fault("delay", "/oauth/refresh_access_token", delay_ms=300, count=60)
        for store in stores:
            with store.lock:
                store.threads.clear()
        requests = [client.fetch_record_async() for client in clients]
        for request in requests:
            request.wait(30)
        moved = [index for index, store in enumerate(stores) if len(set(store.threads)) > 1]
        calls = sum(len(store.threads) for store in stores)
        assert calls >= 60, "the operations called no host storage: the test proves nothing"
        assert not moved, f"{len(moved)} of 60 operations called host storage from more than one thread"
    finally:
        for client in clients:
            client.close()


ONE_THREAD_CHILD = textwrap.dedent(
    """
    import json, os, sys, threading, time
    sys.path.insert(0, os.environ["JUMP_BINDING"])
    import jump

    config = json.loads(os.environ["JUMP_TEST_CONFIG"])
    outcome = {"nested": [], "first": []}

    class CallingStorage:
        # Once armed, a save calls jump_client_sync on `other`, whose sync_async is parked on the wire.
        def __init__(self):
            self.data = {}
            self.armed = False
        def load(self, key):
            return self.data.get(key)
        def save(self, key, data):
            self.data[key] = data
            if self.armed:
                self.armed = False
                started = time.monotonic()
                try:
                    other.sync()
                    result = "ok"
                except jump.JumpError as error:
                    result = type(error).__name__
                outcome["nested"].append((result, time.monotonic() - started))
        def erase(self, key):
            self.data.pop(key, None)

    password = os.environ["PASSWORD"]
    other = jump.Client(dict(config, storageDirectory=":memory:"))
    other.register_traditional({"email": "parked-" + os.environ["SUFFIX"] + "@example.com", "displayName": "B"}, password)
    callers = []
    for index in range(4):  # more callers than the pool has threads while nothing blocks
        store = CallingStorage()
        hosted = jump.Config(dict(config, storageDirectory=":memory:")).set_storage(store)
        caller = jump.Client(hosted)
        caller.register_traditional({"email": "calling%d-%s@example.com" % (index, os.environ["SUFFIX"]),
                                     "displayName": "A"}, password)
        caller.record["/aboutMe"] = "calls the other"
        callers.append((caller, store))
    other.record["/aboutMe"] = "parked"
    parked = other.sync_async()   # held on the wire by the emulator's delay
    time.sleep(0.3)
    for _, store in callers:
        store.armed = True
    started = time.monotonic()
    requests = [caller.sync_async() for caller, _ in callers]
    for request in requests:
        try:
            request.wait(30)
            outcome["first"].append("ok")
        except jump.JumpError as error:
            outcome["first"].append(type(error).__name__)
    try:
        parked.wait(30)
        outcome["parked"] = "ok"
    except jump.JumpError as error:
        outcome["parked"] = type(error).__name__
    outcome["seconds"] = time.monotonic() - started
    print(json.dumps(outcome), flush=True)
    os._exit(0)
    """
)


def test_callbacks_calling_a_parked_client_never_hang_the_pool(make_config, emu) -> None:
    import json
    import uuid

    emu.fault("delay", "/entity.update", delay_ms=1000)
    env = dict(os.environ)
    env.update(
        JUMP_POOL_THREADS="1",  # one pool thread while nothing blocks (read by libjump at its first _async call)
        JUMP_BINDING=str(Path(jump.__file__).resolve().parents[1]),
        JUMP_TEST_CONFIG=json.dumps(make_config(requestTimeoutMs=3000)),
        SUFFIX=uuid.uuid4().hex[:10],
        PASSWORD=PASSWORD,
    )
    try:
        child = subprocess.run([sys.executable, "-c", ONE_THREAD_CHILD], env=env, capture_output=True, text=True,
                               timeout=45)
    except subprocess.TimeoutExpired:
        raise AssertionError("the operations hung: callbacks blocked every pool thread and nothing made up for them")
    assert child.returncode == 0, child.stderr[-2000:]
    outcome = json.loads(child.stdout.strip().splitlines()[-1])
    # Every call completes, with a status where it could not go through; none waits past its timeout.
    assert outcome["seconds"] < 15, outcome
    assert len(outcome["nested"]) == 4 and all(seconds < 8 for _, seconds in outcome["nested"]), outcome
    assert all(result in ("ok", "Timeout") for result, _ in outcome["nested"]), outcome
    assert all(result in ("ok", "Timeout") for result in outcome["first"]), outcome
    assert outcome["parked"] in ("ok", "Timeout"), outcome
