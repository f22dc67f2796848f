"""``Request.future()``: an asynchronous call as a concurrent.futures.Future, resolved by the completion on
libjump's thread (no thread of its own), cancellable through the Future, and usable with asyncio.wrap_future."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import List

import pytest

import jump

from conftest import PASSWORD

SIGN_IN_PATH = "/oauth/auth_native_traditional"


def test_future_resolves_with_the_result(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        threads_before = threading.active_count()
        request = client.sign_in_async(registered["email"], PASSWORD)
        future = request.future()
        assert isinstance(future, concurrent.futures.Future)
        assert request.future() is future  # one Future per Request
        done, _ = concurrent.futures.wait([future], timeout=30)
        assert done == {future}
        result = future.result()
        assert result["uuid"] == registered["uuid"] and result == request.wait(0)
        assert threading.active_count() == threads_before  # resolved by libjump's thread, no Python thread
        assert client.is_signed_in


def test_future_of_a_finished_request_is_resolved_at_once(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        request = client.sign_in_async(registered["email"], PASSWORD)
        request.wait(30)
        future = request.future()
        assert future.done() and future.result(0)["uuid"] == registered["uuid"]


def test_future_carries_the_jump_error(make_config, registered) -> None:
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        futures = [client.sign_in_async(registered["email"], "not the password").future() for _ in range(3)]
        for future in concurrent.futures.as_completed(futures, timeout=30):
            error = future.exception()
            assert isinstance(error, jump.BadCredentials) and error.status == -7
            with pytest.raises(jump.BadCredentials):
                future.result()


def test_cancelling_the_future_cancels_the_operation(make_config, registered, emu) -> None:
    emu.fault("delay", SIGN_IN_PATH, delay_ms=3000)
    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        request = client.sign_in_async(registered["email"], PASSWORD)
        future = request.future()
        assert not future.running() and not future.done()  # PENDING until the completion: cancellable
        assert future.cancel() and future.cancelled()
        with pytest.raises(jump.Cancelled):
            request.wait(10)  # libjump stopped the operation (within about 100 ms, not the 3 s delay)
        assert not client.is_signed_in
        with pytest.raises(concurrent.futures.CancelledError):
            future.result(0)


def test_callback_exception_is_the_future_exception(make_config, registered) -> None:
    def callback(result, error) -> None:
        raise RuntimeError("raised by the completion callback")

    with jump.Client(make_config(storageDirectory=":memory:")) as client:
        future = client.sign_in_async(registered["email"], PASSWORD, callback=callback).future()
        error = future.exception(30)
        assert isinstance(error, RuntimeError) and "completion callback" in str(error)


def test_asyncio_wrap_future(make_config, registered, emu) -> None:
    async def main() -> None:
        with jump.Client(make_config(storageDirectory=":memory:")) as client:
            result = await asyncio.wrap_future(client.sign_in_async(registered["email"], PASSWORD).future())
            assert result["uuid"] == registered["uuid"]
            client.sign_out()

            # Cancelling the awaiting task cancels the asyncio future, which cancels ours, hence the operation.
            emu.fault("delay", SIGN_IN_PATH, delay_ms=3000)
            request = client.sign_in_async(registered["email"], PASSWORD)
            task = asyncio.ensure_future(asyncio.wrap_future(request.future()))
            await asyncio.sleep(0.1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            with pytest.raises(jump.Cancelled):
                await asyncio.get_running_loop().run_in_executor(None, request.wait, 10)
            assert not client.is_signed_in

    asyncio.run(main())


def test_no_extra_thread_per_awaited_call(make_config, registered) -> None:
    async def main() -> List[int]:
        counts = []
        with jump.Client(make_config(storageDirectory=":memory:")) as client:
            for _ in range(5):
                await client.sign_in_async(registered["email"], PASSWORD)
                await asyncio.wrap_future(client.sync_async().future())
                counts.append(threading.active_count())
        return counts

    counts = asyncio.run(main())
    assert len(set(counts)) == 1, counts
