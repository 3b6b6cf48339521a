"""When Python's cyclic garbage collector runs in a server process.

The collector exists for reference cycles, and the move path makes none: a move's objects
go by refcount, its game's state and views at the game's next move (seconds later when a
process plays thousands of games). A young collection walks what was allocated since the
last one and is still alive, which with thousands of games is nearly all of it, for
nothing: at 5,000 games, collected every 20,000 allocations, 15 ms each and 13% of the CPU.
The young generation's count rises by allocations and falls by deallocations only while
above zero, so in a steady state it creeps up fast after each collection and slowly once
high: at :data:`YOUNG_THRESHOLD` a process playing 5,000 games collects less than once in
15 s.

What does make cycles is a connection's protocol let go: a closed connection's protocol,
transport, parser and timers (about 80 objects, 12 KB), and, on a WebSocket upgrade, the
HTTP protocol the WebSocket one replaces (about 24 objects). Left to the thresholds, a
burst of them (the start or end of a tournament round, a reconnect storm) would wait by the
thousand, so every :data:`PROTOCOLS_PER_COLLECTION` protocols let go collect the young and
middle generations.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 500_000
"""Allocations (less deallocations) between two young collections (the interpreter's default is 700)."""
MIDDLE_THRESHOLD = 10
"""Young collections between two of the middle generation (the interpreter's default, 10)."""
PROTOCOLS_PER_COLLECTION = 1_000
"""Protocols let go (connections closed or upgraded) between two collections of the young and
middle generations."""


class Collector:
    """The process's collection policy: its thresholds, and a collection after many protocols let go."""

    def __init__(self) -> None:
        self._let_go = 0

    def tune(self) -> None:
        """Keep what exists now (the catalog, the code) out of every later collection, and set
        the thresholds."""
        gc.freeze()
        gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, gc.get_threshold()[2])

    def protocol_let_go(self) -> None:
        """A connection closed, or its HTTP protocol gave way to a WebSocket one; every
        :data:`PROTOCOLS_PER_COLLECTION` of them, the young and middle generations are collected."""
        self._let_go += 1
        if self._let_go >= PROTOCOLS_PER_COLLECTION:
            self._let_go = 0
            gc.collect(1)


collector = Collector()
"""The one policy of this process (collections are per process)."""
