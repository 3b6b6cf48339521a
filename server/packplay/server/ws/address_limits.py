"""What the client addresses of this process hold over all their connections: open
connections, games watched as a spectator, and an allowance of catch-ups.

Each count is kept per process: what it protects (sockets and memory, the frames of a move
to every spectator, the rules replaying a log) is the process's own, and a client spread
over several processes costs each of them no more than its share. The per-connection
limits (frames, resumes) are the session's; the limits shared by every process (new games,
open lobbies, house games and moves) are kept in Redis.
"""

from __future__ import annotations

from collections import Counter

from packplay.server.settings import Settings
from packplay.server.ws.session import Bucket

CATCH_UP_BURST = 20
KEPT_BUCKETS = 10_000
"""Allowances kept before the whole ones are let go (an address that comes back gets a whole one)."""


class AddressLimits:
    """One per process, for its WebSocket connections."""

    __slots__ = (
        "_buckets",
        "_catch_ups",
        "_connections",
        "_most_connections",
        "_most_spectated",
        "_spectating",
    )

    def __init__(self, settings: Settings) -> None:
        self._most_connections = settings.connections_per_address
        self._most_spectated = settings.spectators_per_address
        self._catch_ups = settings.catch_ups_per_minute / 60.0
        self._connections: Counter[str] = Counter()
        self._spectating: Counter[str] = Counter()
        self._buckets: dict[str, Bucket] = {}

    def connect(self, address: str) -> bool:
        """Count a new connection of ``address``; false (nothing counted) when it holds as many
        as it may."""
        return _take(self._connections, address, self._most_connections)

    def disconnect(self, address: str) -> None:
        _give_back(self._connections, address)

    def spectate(self, address: str) -> bool:
        """Count a game ``address`` watches as a spectator; false (nothing counted) when it
        watches as many as it may."""
        return _take(self._spectating, address, self._most_spectated)

    def stop_spectating(self, address: str) -> None:
        _give_back(self._spectating, address)

    def catch_up(self, address: str, now: float) -> bool:
        """Whether a join or resume of ``address`` may have its events replayed now."""
        if self._catch_ups <= 0:
            return True
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= KEPT_BUCKETS:
                self._let_go_of_whole(now)
            bucket = self._buckets[address] = Bucket(self._catch_ups, CATCH_UP_BURST, now)
        return bucket.take(now)

    def _let_go_of_whole(self, now: float) -> None:
        for address, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.last) * bucket.rate >= bucket.burst:
                del self._buckets[address]


def _take(counts: Counter[str], address: str, most: int) -> bool:
    if most > 0 and counts[address] >= most:
        return False
    counts[address] += 1
    return True


def _give_back(counts: Counter[str], address: str) -> None:
    left = counts[address] - 1
    if left > 0:
        counts[address] = left
    else:
        counts.pop(address, None)
