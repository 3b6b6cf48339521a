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

A connection let go made cycles until they were broken where they formed: the HTTP
protocol an upgrade replaces let go of its parser (which holds its methods), the play
endpoint takes the WebSocket protocol out of the scope the protocol holds, a connection's
send queue calls the connection back through a weak reference, and a connection whose
client has gone lets go of its protocol. Such a connection and everything under it (some
80 objects, 12 KB) now go by reference counting. Collecting them cost about 70 us a
protocol (a collection frees what it finds, so the cost follows the garbage, not how often
it runs): 0.3 ms a game set up through REST and two new sockets.

A connection the server gave up on (a flooding client) keeps its protocol until its close
completes, and other cycles may come with a new version of uvicorn or websockets. Left to
the thresholds, a burst of them (the start or end of a tournament round, a reconnect
storm) would wait by the thousand, so every :data:`PROTOCOLS_PER_COLLECTION` protocols let
go still collect the young and middle generations: with no garbage to free, a collection
only walks what was made since the last one and lives.
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
