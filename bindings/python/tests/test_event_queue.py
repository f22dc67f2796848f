"""Queue mode from Python: an asyncio loop pumps the client (``attach_event_loop``), or a game-style loop calls
``pump_events`` itself. Every completion and event is delivered once, on the pumping thread: no Python code
runs on a libjump thread."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Dict, List

import jump

from conftest import PASSWORD


def test_an_asyncio_loop_pumps_completions_and_events(make_config, registered) -> None:
    async def main() -> Dict[str, Any]:
        loop_thread = threading.get_ident()
        ran_on: List[int] = []
        events: List[str] = []
        with jump.Client(make_config(storageDirectory=":memory:")) as client:
            client.attach_event_loop()
            client.on_event(lambda e: (ran_on.append(threading.get_ident()), events.append(e["event"])))
            signed_in = await client.sign_in_async(registered["email"], PASSWORD,
                                                   callback=lambda r, e: ran_on.append(threading.get_ident()))
            record = await client.fetch_record_async()
            results = await asyncio.gather(*(client.fetch_record_async() for _ in range(4)))
            client.sign_out()
            for _ in range(100):  # the signed_out event arrives through the queue
                if "signed_out" in events:
                    break
                await asyncio.sleep(0.01)
            client.detach_event_loop()
            return {"signed_in": signed_in, "record": record, "results": results, "ran_on": ran_on,
                    "events": events, "loop_thread": loop_thread}

    out = asyncio.run(main())
    assert out["signed_in"]["uuid"] and len(out["results"]) == 4
    assert "signed_in" in out["events"] and "signed_out" in out["events"]
    assert out["ran_on"] and set(out["ran_on"]) == {out["loop_thread"]}, "Python code ran off the loop thread"


def test_a_game_loop_pumps_once_per_frame(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        client.use_event_queue()  # once, at start
        seen: List[int] = []
        request = client.sign_in_async(registered["email"], PASSWORD,
                                       callback=lambda r, e: seen.append(threading.get_ident()))
        threading.Event().wait(0.3)  # the sign-in is over by now, but nothing was delivered
        assert not seen and not request.done
        frames = 0
        while not seen and frames < 500:
            client.pump_events()
            frames += 1
            threading.Event().wait(0.01)
        assert seen == [threading.get_ident()] and request.done
        assert client.is_signed_in
        assert client.pump_events() == 0  # nothing left
