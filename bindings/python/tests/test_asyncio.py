"""``await request``: asynchronous calls from asyncio without blocking the event loop; the completion (on
libjump's thread) resolves the future through loop.call_soon_threadsafe, on the loop's thread."""

from __future__ import annotations

import asyncio
import socket
import threading
from typing import Any, Dict, List

import pytest

import jump

from conftest import PASSWORD, closed_port_url

SIGN_IN_PATH = "/oauth/auth_native_traditional"


async def ticker(ticks: List[float], stop: asyncio.Event) -> None:
    """Proves the loop keeps running: ticks every 5 ms until stopped."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        ticks.append(loop.time())
        await asyncio.sleep(0.005)


def test_await_sign_in_keeps_the_loop_running(make_config, registered, emu) -> None:
    # The server holds the sign-in answer back, so the await lasts long enough to see the loop tick.
    emu.fault("delay", SIGN_IN_PATH, delay_ms=400)

    async def main() -> Dict[str, Any]:
        ticks: List[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(ticker(ticks, stop))
        loop_thread = threading.get_ident()
        settled_on: List[int] = []
        with jump.Client(make_config(storageDirectory=":memory:")) as client:
            request = client.sign_in_async(registered["email"], PASSWORD)
            request.add_done_callback(lambda r: settled_on.append(threading.get_ident()))
            before = len(ticks)
            result = await request
            during = len(ticks) - before
            assert client.is_signed_in
        stop.set()
        await task
        assert during >= 10, f"the loop ticked {during} times during a 400 ms await: it was blocked"
        assert settled_on and settled_on[0] != loop_thread  # the completion came on libjump's thread...
        return result  # ...yet the await resumed here, on the loop

    result = asyncio.run(main())
    assert result["uuid"] == registered["uuid"] and result["is_new"] is False
    assert isinstance(result, dict)


def test_await_raises_the_jump_error(make_config, registered) -> None:
    async def main() -> None:
        with jump.Client(make_config(storageDirectory=":memory:")) as client:
            with pytest.raises(jump.BadCredentials) as info:
                await client.sign_in_async(registered["email"], "not the password")
            assert info.value.status == -7
        with jump.Client(make_config(captureDomain=closed_port_url(), storageDirectory=":memory:")) as client:
            with pytest.raises(ConnectionError):
                await client.sign_in_async(registered["email"], PASSWORD)

    asyncio.run(main())


def test_async_with_closes_the_client(make_config, registered) -> None:
    async def main() -> "jump.Client":
        async with jump.Client(make_config(storageDirectory=":memory:")) as client:
            result = await client.sign_in_async(registered["email"], PASSWORD)
            assert result["uuid"] == registered["uuid"]
        return client

    client = asyncio.run(main())
    assert not client.is_signed_in  # signed in, then closed by the async with


def test_concurrent_awaits(make_config, registered) -> None:
    async def main() -> List[Any]:
        with jump.Client(make_config(storageDirectory=":memory:")) as client:
            await client.sign_in_async(registered["email"], PASSWORD)
            client.record["/aboutMe"] = "from asyncio"
            return await asyncio.gather(client.fetch_record_async(), client.sync_async(),
                                        return_exceptions=True)

    fetched, synced = asyncio.run(main())  # the client serializes them, in either order
    assert fetched == {}, fetched
    assert not isinstance(synced, BaseException) and synced["changed"] == ["/aboutMe"], synced


def test_await_a_finished_request_and_twice(make_config, registered) -> None:
    async def main() -> None:
        with jump.Client(make_config(storageDirectory=":memory:")) as client:
            request = client.sign_in_async(registered["email"], PASSWORD)
            request.wait(30)  # done before anyone awaits
            first = await request
            second = await request
            assert first == second and first["uuid"] == registered["uuid"]

    asyncio.run(main())


def test_cancelling_the_task_cancels_the_request() -> None:
    with socket.socket() as silent:  # accepts, never answers: the request would wait requestTimeoutMs
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        config = {"captureDomain": url, "captureFlowDomain": url, "captureClientId": "c", "captureAppId": "a",
                  "captureFlowName": "standard", "storageDirectory": ":memory:", "requestTimeoutMs": 60000}

        async def main() -> None:
            with jump.Client(config) as client:
                request = client.sign_in_async("someone@example.com", PASSWORD)
                with pytest.raises(asyncio.TimeoutError):
                    await asyncio.wait_for(request, 0.2)
                # The client is still open: only the task's cancellation can have stopped the request, well
                # before requestTimeoutMs. (Waited for on an executor thread: the loop must not block.)
                error = await asyncio.get_running_loop().run_in_executor(None, request.exception, 10)
                assert isinstance(error, jump.Cancelled), error

        asyncio.run(main())


def test_completion_after_the_loop_closed_is_harmless(make_config, registered, emu) -> None:
    emu.fault("delay", SIGN_IN_PATH, delay_ms=300)
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        request = client.sign_in_async(registered["email"], PASSWORD)

        async def main() -> None:
            # Wrap, then leave without awaiting: the loop closes before the completion arrives.
            from jump.aio import wrap_request

            wrap_request(request)

        asyncio.run(main())
        assert request.wait(30)["uuid"] == registered["uuid"]
