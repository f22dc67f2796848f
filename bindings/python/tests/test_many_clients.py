"""Many clients in one process (docs/design-io.md, "One I/O loop"): what 1 000 clients cost when they all go
at once.

One process holds ``$JUMP_MANY_CLIENTS`` clients (default 1 000), each with its own user, all with
``storageDirectory: ":memory:"`` (no disk, no keyring). Three phases are each started for every client at once
through the ``_async`` API, and the test waits for every completion:

1. ``sign_in_async`` (each client downloads the flow, then posts ``auth_native_traditional``);
2. one record edit (``/aboutMe``), then ``sync_async`` (one ``entity.update``);
3. ``fetch_record_async`` (one ``/entity``).

Every completion must succeed, every client must read its own edit back, and a sample of the edits must be on
the emulator. A sampler thread reads the process's thread count (``/proc/self/task``) and ``VmRSS`` every 5 ms;
the peak RSS is also read from ``VmHWM``, reset (``/proc/self/clear_refs``) at the baseline so a spike between
two samples is not missed. The baseline is taken once the clients exist, before phase 1, with the sampler
running. The bounds are the issue's: at most ``os.cpu_count() + 4`` threads over the baseline (one I/O loop, a
pool of at most one thread per core, resolver threads) and at most 48 MiB of RSS growth.

With a thread per ``_async`` call (libjump before the one I/O loop) the thread bound fails: the figures are printed
(``pytest -s``) and are in the assertion message either way. Besides the bounds they give the RSS at the end of
each phase (what the signed-in clients themselves keep: each one's parsed flow and session), the descriptors
left open, each phase's wall time and the machine's listen-queue overflows (the emulator's accept backlog).

The users are made through the emulator's admin API (``POST /emulator/users``, bcrypt cost 4 as conftest
starts the emulator), not by 1 000 registrations.
"""

from __future__ import annotations

import concurrent.futures
import os
import random
import re
import resource
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

import jump

from conftest import PASSWORD, Emulator

CLIENTS = int(os.environ.get("JUMP_MANY_CLIENTS", "1000"))
THREAD_SLACK = 4  # the bound: os.cpu_count() + 4 threads over the baseline
RSS_GROWTH_LIMIT_MIB = 48.0
PHASE_TIMEOUT_S = 120.0  # one phase, all clients; a hang fails the test instead of stalling the suite
SAMPLE_CHECKS = 25  # users whose edit is read back from the emulator's admin API


def _status() -> str:
    with open("/proc/self/status") as f:
        return f.read()


def _status_kib(field: str, text: Optional[str] = None) -> int:
    match = re.search(rf"^{field}:\s+(\d+) kB", text if text is not None else _status(), re.MULTILINE)
    assert match, f"no {field} in /proc/self/status"
    return int(match.group(1))


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


def _reset_peak_rss() -> bool:
    """Resets VmHWM to the current RSS (Linux >= 4.0); False when the kernel refuses."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _listen_overflows() -> Optional[int]:
    """TcpExt ListenOverflows, machine-wide: connections the emulator's accept queue dropped (each costs the
    client a SYN retransmit, 1 s or more)."""
    try:
        with open("/proc/net/netstat") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for names, values in zip(lines, lines[1:]):
        if names.startswith("TcpExt:") and values.startswith("TcpExt:"):
            fields = dict(zip(names.split()[1:], values.split()[1:]))
            return int(fields["ListenOverflows"]) if "ListenOverflows" in fields else None
    return None


class Sampler(threading.Thread):
    """Samples the thread count and VmRSS every ``interval`` seconds; keeps the peaks since the last mark."""

    def __init__(self, interval: float = 0.005) -> None:
        super().__init__(name="many-clients-sampler", daemon=True)
        self.interval = interval
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.samples = 0
        self.last: Tuple[int, int] = (_threads(), _status_kib("VmRSS"))
        self.peak_threads, self.peak_rss_kib = self.last

    def run(self) -> None:
        while not self.stopping.is_set():
            sample = (_threads(), _status_kib("VmRSS"))
            with self.lock:
                self.samples += 1
                self.last = sample
                self.peak_threads = max(self.peak_threads, sample[0])
                self.peak_rss_kib = max(self.peak_rss_kib, sample[1])
            self.stopping.wait(self.interval)

    def mark(self) -> Tuple[int, int]:
        """Starts a new peak from the latest sample; returns that sample (threads, RSS KiB)."""
        with self.lock:
            self.peak_threads, self.peak_rss_kib = self.last
            return self.last

    def wait_for_samples(self, count: int) -> None:
        with self.lock:
            target = self.samples + count
        while True:
            with self.lock:
                if self.samples >= target:
                    return
            time.sleep(self.interval)

    def stop(self) -> None:
        self.stopping.set()
        self.join(5)


def _raise_fd_limit(pid: int, wanted: int) -> None:
    """Lifts the soft RLIMIT_NOFILE of process ``pid`` (0: this one) to ``wanted``, within its hard limit: a
    thread per request holds a socket per client here, and the emulator the other end (a 1 024 soft limit, the
    usual default, would not do)."""
    soft, hard = resource.prlimit(pid, resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (target, hard))


def _make_users(emu: Emulator, count: int) -> List[Dict[str, str]]:
    """``count`` users made directly through the admin API (a few at a time), each {"email", "uuid"}."""
    tag = f"{os.getpid()}-{random.randrange(1 << 30):x}"

    def make(i: int) -> Dict[str, str]:
        email = f"many-{tag}-{i}@example.com"
        user = emu.admin("POST", "/emulator/users", {"email": email, "password": PASSWORD})["user"]
        return {"email": email, "uuid": user["uuid"]}

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(make, range(count)))


def _run_phase(name: str, start: Callable[[int], "jump.Request[Any]"], count: int
               ) -> Tuple[float, List[Dict[str, Any]], List[str]]:
    """Starts ``start(i)`` for every client, then waits for every completion. Returns (wall seconds, results by
    client, failures)."""
    began = time.monotonic()
    requests = [start(i) for i in range(count)]
    deadline = began + PHASE_TIMEOUT_S
    results: List[Dict[str, Any]] = [{} for _ in range(count)]
    failures: List[str] = []
    for i, request in enumerate(requests):
        try:
            results[i] = dict(request.wait(max(0.0, deadline - time.monotonic())))
        except jump.JumpError as e:
            failures.append(f"{name} #{i}: {type(e).__name__}: {e}")
    wall = time.monotonic() - began
    for request in requests:
        request.close()
    return wall, results, failures


def test_one_thousand_clients_at_once(emu: Emulator, make_config) -> None:
    count = CLIENTS
    assert count >= 1
    cores = os.cpu_count() or 1
    started = time.monotonic()
    for pid in (0, emu.process.pid):
        _raise_fd_limit(pid, 4 * count + 1024)

    users = _make_users(emu, count)
    setup_users_s = time.monotonic() - started
    config = make_config(storageDirectory=":memory:", requestTimeoutMs=60000, connectTimeoutMs=30000)
    clients: List[jump.Client] = []
    sampler: Optional[Sampler] = None
    try:
        for _ in range(count):
            clients.append(jump.Client(config))
        assert clients[0].state["secret_store"] == "memory"

        sampler = Sampler()
        sampler.start()
        sampler.wait_for_samples(10)
        peak_reset = _reset_peak_rss()
        base_threads, base_rss_kib = sampler.mark()
        base_fds = len(os.listdir("/proc/self/fd"))
        overflows_before = _listen_overflows()

        # Phase 1: every client signs in at once.
        sign_in_s, signed, failures = _run_phase(
            "sign_in", lambda i: clients[i].sign_in_async(users[i]["email"], PASSWORD), count)
        assert not failures, f"{len(failures)} of {count} sign-ins failed; first: {failures[:5]}"
        rss_after_kib = [_status_kib("VmRSS")]
        wrong = [i for i in range(count) if signed[i].get("uuid") != users[i]["uuid"]]
        assert not wrong, f"{len(wrong)} clients signed in as someone else, e.g. #{wrong[0]}: {signed[wrong[0]]}"

        # Phase 2: one edit each, then every client syncs at once.
        values = [f"many {i} {users[i]['uuid'][:8]}" for i in range(count)]

        def edit_and_sync(i: int) -> "jump.Request[Any]":
            with clients[i].record as record:
                record["/aboutMe"] = values[i]
            return clients[i].sync_async()

        sync_s, synced, failures = _run_phase("sync", edit_and_sync, count)
        assert not failures, f"{len(failures)} of {count} syncs failed; first: {failures[:5]}"
        rss_after_kib.append(_status_kib("VmRSS"))
        wrong = [i for i in range(count) if synced[i].get("changed") != ["/aboutMe"]]
        assert not wrong, f"{len(wrong)} syncs did not send /aboutMe, e.g. #{wrong[0]}: {synced[wrong[0]]}"

        # Phase 3: every client fetches its record at once.
        fetch_s, _, failures = _run_phase("fetch_record", lambda i: clients[i].fetch_record_async(), count)
        assert not failures, f"{len(failures)} of {count} fetches failed; first: {failures[:5]}"
        rss_after_kib.append(_status_kib("VmRSS"))
        extra_fds = len(os.listdir("/proc/self/fd")) - base_fds

        sampler.wait_for_samples(2)
        peak_threads = sampler.peak_threads
        sampled_rss_kib = sampler.peak_rss_kib
        peak_rss_kib = max(sampled_rss_kib, _status_kib("VmHWM") if peak_reset else 0)
        overflows_after = _listen_overflows()
        sampler.stop()

        # Every client reads its own edit back, and a sample of them is on the server.
        unsynced = [i for i in range(count) if clients[i].state["unsynced_changes"]]
        assert not unsynced, f"{len(unsynced)} clients still have unsynced changes, e.g. #{unsynced[0]}"
        for i in range(count):
            with clients[i].record as record:
                assert record["/aboutMe"] == values[i], f"client #{i} reads {record['/aboutMe']!r} after fetching"
        for i in random.sample(range(count), min(SAMPLE_CHECKS, count)):
            on_server = emu.user(users[i]["uuid"])["user"].get("aboutMe")
            assert on_server == values[i], f"user #{i} has aboutMe {on_server!r} on the emulator, not {values[i]!r}"

        extra_threads = peak_threads - base_threads
        rss_growth_mib = (peak_rss_kib - base_rss_kib) / 1024
        overflows = (None if overflows_before is None or overflows_after is None
                     else overflows_after - overflows_before)
        figures = (
            f"{count} clients, {cores} CPUs: peak threads {peak_threads} over a baseline of {base_threads} = "
            f"+{extra_threads} (bound {cores} + {THREAD_SLACK} = {cores + THREAD_SLACK}); RSS {base_rss_kib / 1024:.1f} "
            f"-> peak {peak_rss_kib / 1024:.1f} MiB = +{rss_growth_mib:.1f} MiB (bound {RSS_GROWTH_LIMIT_MIB:.0f}), "
            f"sampled peak +{(sampled_rss_kib - base_rss_kib) / 1024:.1f} MiB, at the end of each phase "
            f"{' / '.join(f'+{(k - base_rss_kib) / 1024:.1f}' for k in rss_after_kib)} MiB; "
            f"open descriptors at the end +{extra_fds}; "
            f"wall: sign_in {sign_in_s:.2f} s, sync {sync_s:.2f} s, fetch_record {fetch_s:.2f} s "
            f"(3 phases {sign_in_s + sync_s + fetch_s:.2f} s; users made in {setup_users_s:.2f} s); "
            f"listen-queue overflows (machine-wide) {overflows if overflows is not None else 'unknown'}"
        )
        print(f"\nmany clients: {figures}")
        over = []
        if extra_threads > cores + THREAD_SLACK:
            over.append(f"threads +{extra_threads} > {cores + THREAD_SLACK}")
        if rss_growth_mib > RSS_GROWTH_LIMIT_MIB:
            over.append(f"RSS +{rss_growth_mib:.1f} MiB > {RSS_GROWTH_LIMIT_MIB:.0f} MiB")
        assert not over, f"over the bound: {'; '.join(over)}. {figures}"
    finally:
        if sampler is not None:
            sampler.stop()
        for client in clients:
            client.close()
