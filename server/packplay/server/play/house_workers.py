"""The house's worker processes: where its bots think, never in a process that serves sockets.

``house_processes`` workers are started with the server and stopped with it. Each is a
child process (``python -m packplay.server.play.house_workers``) that reads calls on its
standard input and writes their results on its standard output, one at a time, each a
length-prefixed pickle of plain values: the event loop writes and reads those pipes
itself, so a decision costs the serving process one write and one read, and no thread.

A decision is a pure function of its inputs (see :class:`~packplay.server.play.house.Inputs`),
so it can be made again anywhere: when a worker dies (killed, out of memory), a new one
takes its place and the call it had under way goes back to the front of the queue, up
to ``RETRIES`` times. A worker whose server dies sees its input close and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import struct
import sys
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass
from typing import Any, BinaryIO, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")
RETRIES = 2
"""Times one call is made again after the worker making it died."""
RESPAWN_PAUSE = 1.0
"""Seconds before a worker that died within this long of its start is replaced."""
LENGTH = struct.Struct(">I")
READY = b"ready"


class WorkerDied(Exception):
    """The worker's pipes closed before it answered."""


class WorkerError(RuntimeError):
    """The call raised in the worker (its traceback is the message)."""


@dataclass
class Call:
    payload: bytes
    future: asyncio.Future[Any]
    attempts: int = 0


@dataclass
class Worker:
    process: asyncio.subprocess.Process
    call: Call | None = None

    async def make(self, call: Call) -> Any:
        """Send ``call``, wait for its answer.

        Raises:
            WorkerDied: the worker is gone.
            WorkerError: the call raised there.
        """
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(LENGTH.pack(len(call.payload)) + call.payload)
            await stdin.drain()
            (size,) = LENGTH.unpack(await stdout.readexactly(LENGTH.size))
            ok, value = pickle.loads(await stdout.readexactly(size))
        except (asyncio.IncompleteReadError, ConnectionError, BrokenPipeError) as error:
            raise WorkerDied(str(error)) from error
        if not ok:
            raise WorkerError(value)
        return value


class Slot:
    """One worker's place: the worker now in it and the calls waiting for it."""

    def __init__(self) -> None:
        self.worker: Worker | None = None
        self.queue: deque[Call] = deque()
        self.ready = asyncio.Event()

    @property
    def load(self) -> int:
        return len(self.queue) + (self.worker is not None and self.worker.call is not None)


class HouseWorkers:
    """A fixed number of worker processes, each making one call at a time, in order of arrival.

    A call may name a ``slot``: calls with the same slot go to the same worker (the house
    sends a seat's decisions to the worker that keeps its earlier frames); the others go
    to the least busy worker.
    """

    def __init__(self, processes: int) -> None:
        self.slots = [Slot() for _ in range(max(processes, 1))]
        self.replaced = 0
        """Workers replaced after one died (a metric)."""
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Start the workers (they load the card catalog in the background)."""
        if not self._tasks:
            self._tasks = [
                asyncio.create_task(self._serve(slot), name="packplay-house-worker") for slot in self.slots
            ]

    async def run(self, work: Callable[..., T], *args: Any, slot: int | None = None) -> T:
        """``work(*args)`` in a worker process (``work`` a module-level function).

        Raises:
            BrokenExecutor: the workers making it died ``RETRIES + 1`` times.
            WorkerError: it raised in the worker.
        """
        await self.start()
        payload = pickle.dumps((work, args), pickle.HIGHEST_PROTOCOL)
        call = Call(payload, asyncio.get_running_loop().create_future())
        place = (
            self.slots[slot % len(self.slots)] if slot is not None else min(self.slots, key=lambda s: s.load)
        )
        place.queue.append(call)
        place.ready.set()
        return await call.future  # type: ignore[no-any-return]

    async def _serve(self, slot: Slot) -> None:
        """One slot's life: its worker makes the calls; when the worker dies, another starts
        (after a pause when it died young, so that a worker that cannot start does not spin)."""
        while True:
            started = time.monotonic()
            try:
                worker = slot.worker = await self._spawn()
            except OSError as error:
                log.error("a house worker process could not start: %s", error)
                await asyncio.sleep(RESPAWN_PAUSE)
                continue
            try:
                await self._take_calls(slot, worker)
            except WorkerDied:
                self.replaced += 1
                log.error(
                    "a house worker process died: a new one takes its place, its decision is made again"
                )
            finally:
                slot.worker = None
                with contextlib.suppress(ProcessLookupError):
                    worker.process.kill()
                await worker.process.wait()
            if time.monotonic() - started < RESPAWN_PAUSE:
                await asyncio.sleep(RESPAWN_PAUSE)

    async def _take_calls(self, slot: Slot, worker: Worker) -> None:
        """Make the slot's calls until the worker dies (noticed at once, even while idle)."""
        exited = asyncio.ensure_future(worker.process.wait())
        exited.add_done_callback(lambda _: slot.ready.set())
        try:
            while True:
                while not slot.queue and not exited.done():
                    slot.ready.clear()
                    await slot.ready.wait()
                if exited.done():
                    raise WorkerDied(f"the worker exited ({worker.process.returncode})")
                await self._make(slot, worker, slot.queue.popleft())
        finally:
            exited.cancel()

    async def _make(self, slot: Slot, worker: Worker, call: Call) -> None:
        worker.call = call
        try:
            value = await worker.make(call)
        except WorkerDied:
            self._retry(slot, call)
            raise
        except WorkerError as error:
            if not call.future.done():
                call.future.set_exception(error)
        else:
            if not call.future.done():
                call.future.set_result(value)
        worker.call = None

    @staticmethod
    def _retry(slot: Slot, call: Call) -> None:
        call.attempts += 1
        if call.future.done():
            return
        if call.attempts > RETRIES:
            call.future.set_exception(BrokenExecutor("the house's workers died making this decision"))
        else:
            slot.queue.appendleft(call)

    @staticmethod
    async def _spawn() -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            __name__,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return Worker(process)

    async def close(self) -> None:
        """Stop the workers; calls under way or waiting fail (the turn clock, or another
        process's sweep, makes those decisions again)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        for slot in self.slots:
            while slot.queue:
                call = slot.queue.popleft()
                if not call.future.done():
                    call.future.set_exception(BrokenExecutor("the server is stopping"))


def serve_calls(source: BinaryIO, sink: BinaryIO) -> None:
    """A worker's loop: answer each call read from ``source`` on ``sink`` until it closes."""
    from packplay.bots.priors import packaged_catalog

    packaged_catalog()
    while header := source.read(LENGTH.size):
        if len(header) < LENGTH.size:
            return
        (size,) = LENGTH.unpack(header)
        work, args = pickle.loads(source.read(size))
        try:
            answer = (True, work(*args))
        except Exception:
            import traceback

            answer = (False, traceback.format_exc())
        reply = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        sink.write(LENGTH.pack(len(reply)) + reply)
        sink.flush()


def main() -> None:
    # The pipe to the server is kept apart: anything else printed goes to the error stream.
    sink = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        serve_calls(sys.stdin.buffer, sink)


if __name__ == "__main__":
    main()
