"""A connection's frames on their way out: held to the end of the loop's turn, written in one
write, queued while the client does not read, and the close frame after them.

What is queued is frames as they go on the wire (framed, compressed if negotiated): an
update that many connections share is framed once for all of them
(:meth:`packplay.table.rendering.Frames.framed`).

Held to the end of the turn (:class:`WriteBatch`). A commit batch's replies resume many
moves in one turn, and each move renders and sends updates to its seats. Written as each
is made, every frame reaches a peer that has gone back to waiting since the last one, and
waking it makes the write several times dearer on a virtual machine than the write itself
(``load/bench_hot_path.py``). Held until the turn's work is done, the frames go out back to
back (a delivery's frames in one write): the peers wake once per turn and read them all.

Queued while the client does not read. When the socket's buffer is full (the protocol
says so: flow control), frames wait in the queue until the client reads again; a queue
that reaches its limit means a client too slow to keep up, whose connection is closed
(4000: resume) rather than let anyone else wait for it: an update sent to many must never
wait for its slowest reader.

The close frame goes after what is queued, so that a slow reader still reads why it was
closed; a client told to resume gets it at once, what was queued dropped (it catches up on
resuming anyway).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)


class Flushable(Protocol):
    def flush(self) -> None:
        """Write what it holds (as far as its socket takes it now)."""


class WriteBatch:
    """The send queues holding frames of this turn; one per process."""

    __slots__ = ("_held", "_scheduled", "sent")

    def __init__(self) -> None:
        self._held: list[Flushable] = []
        self._scheduled = False
        self.sent = 0
        """Frames queued so far, by every connection (read by the metrics)."""

    def hold(self, queue: Flushable) -> None:
        """Flush ``queue`` at the end of this turn; a queue holds itself once a turn (a flush
        that holds it again waits for the next turn)."""
        self._held.append(queue)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        held, self._held = self._held, []
        self._scheduled = False
        for queue in held:
            try:
                queue.flush()
            except Exception:  # one connection's failure keeps no other's frames back
                log.exception("writing a connection's frames failed")


class Wire(Protocol):
    """Where frames are written: the WebSocket protocol of the connection."""

    def write(self, frames: bytes) -> bool:
        """Write frames now; false when the connection is closing."""

    @property
    def writable(self) -> Any:
        """Set while the client reads (``is_set()``)."""


class SendQueue:
    """One connection's frames on their way out."""

    __slots__ = (
        "_batch",
        "_close",
        "_closer",
        "_closing",
        "_frames",
        "_gone",
        "_held",
        "_waiting",
        "limit",
        "wire",
    )

    def __init__(
        self,
        wire: Wire,
        limit: int,
        batch: WriteBatch,
        close: Callable[[int, str], Awaitable[None]],
        gone: Callable[[], None],
    ) -> None:
        self.wire = wire
        self.limit = limit
        """Writes a connection holds behind a client that does not read, before it is closed."""
        self._batch = batch
        self._close = close
        """Sends the close frame (the ASGI close, through the protocol)."""
        self._gone = gone
        """Told when a write fails: the client has gone."""
        self._frames: deque[bytes] | None = None
        """Made when first needed: most connections rarely hold a frame past their turn."""
        self._waiting = False
        """The client reads too slowly: writes wait for the wire to take them again."""
        self._held = False
        self._closing: tuple[int, str] | None = None
        self._closer: asyncio.Task[None] | None = None

    def put(self, frame: bytes) -> bool:
        """Queue frames (one message's or a turn's, as they go on the wire) for the end of the
        turn; false (nothing queued) when the queue is full behind a write that waits: the
        client is too slow."""
        frames = self._frames
        if self._waiting and frames is not None and len(frames) >= self.limit:
            return False
        if frames is None:
            frames = self._frames = deque()
        frames.append(frame)
        self._batch.sent += 1
        if not self._waiting and not self._held:
            self._held = True
            self._batch.hold(self)
        return True

    def flush(self) -> None:
        """Write the frames of this turn (the write batch calls it at the turn's end)."""
        self._held = False
        if not self._waiting:
            self._pump()

    def writable(self) -> None:
        """The client reads again: write what waited."""
        if self._waiting:
            self._waiting = False
            self._pump()

    def close_after(self, code: int, reason: str, drop: bool = False) -> None:
        """Send the close frame once what is queued is written (``drop``: at once, dropping it)."""
        if drop:
            self._frames = None
        self._closing = (code, reason)
        if not self._waiting:
            self._pump()

    def drop(self) -> None:
        """Forget what waits (the client has gone)."""
        self._frames = None
        self._closing = None

    def _pump(self) -> None:
        """Write what is queued, then the close frame; stop while the client does not read
        (the wire says when it does again)."""
        frames, wire = self._frames, self.wire
        # One delivery at a time, the wire asked before each: writes stop at its high-water
        # mark, so what a client does not read waits here (where a resume drops it), not in
        # the socket's buffer, and a close frame is not held behind megabytes.
        while frames:
            if not wire.writable.is_set():
                self._waiting = True
                return
            if not wire.write(frames.popleft()):
                self._failed()
                return
        self._frames = None
        if self._closing is not None and self._closer is None:
            self._closer = asyncio.ensure_future(self._send_close(*self._closing))

    async def _send_close(self, code: int, reason: str) -> None:
        try:
            await self._close(code, reason)
        except Exception:
            self._failed()

    def _failed(self) -> None:
        self._frames = None
        self._closing = None
        self._gone()
