"""Frames written together at the end of the event loop's turn, for every connection at once.

A commit batch's replies resume many moves in one turn, and each move renders and sends
updates to its seats. Written as each is made, every frame reaches a peer that has gone
back to waiting since the last one, and waking it makes the write several times dearer on
a virtual machine than the write itself. Held until the turn's work is done, the frames go
out back to back: the peers wake once per turn and read them all.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

log = logging.getLogger(__name__)


class Flushable(Protocol):
    def flush(self) -> None:
        """Write what it holds (as far as its socket takes it now)."""


class WriteBatch:
    """The connections holding frames of this turn; one per process."""

    __slots__ = ("_held", "_scheduled")

    def __init__(self) -> None:
        self._held: list[Flushable] = []
        self._scheduled = False

    def hold(self, connection: Flushable) -> None:
        """Flush ``connection`` at the end of this turn; a connection holds itself once a turn
        (a flush that holds it again waits for the next turn)."""
        self._held.append(connection)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        held, self._held = self._held, []
        self._scheduled = False
        for connection in held:
            try:
                connection.flush()
            except Exception:  # one connection's failure keeps no other's frames back
                log.exception("writing a connection's frames failed")
