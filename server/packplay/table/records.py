"""The records of a game as a process holds it and as storage keeps it: plain values, no I/O.

A started game is its meta (what never changes after creation), its log: one entry per
version, the action that made it, and snapshots: its state at some versions. The game at
any version is the last snapshot before it with the entries after the snapshot applied.
Storage reads and writes these records; the authority and the rendering work on them;
nothing here knows where they are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from packplay.games.base import GameConfig
from packplay_protocol.rest import CardRef, HouseBot, HouseSeat

Status = Literal["lobby", "starting", "active", "finished"]
"""Where a game is in its life: waiting for players, being dealt, being played, over."""


class GameMeta(msgspec.Struct, frozen=True, kw_only=True):
    """What never changes after creation. The seed stays here, never in a view."""

    id: str
    config: GameConfig
    seed: int
    created: float
    clock: float | None = None
    """Seconds per pending decision, or None for no turn clock."""
    boosters: tuple[tuple[CardRef, ...], ...] | None = None
    """Explicit card lists of a sandbox game, opened instead of boosters."""
    sandbox: bool = False
    """Created with a chosen seed or chosen cards (only a sandbox server allows it)."""
    house: tuple[HouseSeat, ...] = ()
    """The seats the server plays itself, and with which bot."""
    house_seed: int = 0
    """Seeds the house bots' own sampling (drawn apart from the deal's seed)."""
    private: bool = False
    """Unlisted; its seats are taken only with its invite code."""
    owner: str = ""
    """The client address that created it, as the per-client limits count it ('': a game the
    server created, a tournament's): its house decisions count against that address."""

    def house_bots(self) -> dict[int, HouseBot]:
        """Seat -> bot of the seats the server plays itself."""
        return {seat.seat: seat.bot for seat in self.house}


class Answer(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, array_like=True):
    """The answer to one action id, stored so that a repeated id gets it again (as a short
    array: one is kept per action of the game)."""

    accepted: bool
    version: int
    reason: str | None = None
    rule: str | None = None
    message: str | None = None
    digest: str = ""
    """Fingerprint of the action, to tell a resent action from another one reusing its id."""


class LogEntry(msgspec.Struct, frozen=True, array_like=True):
    """What made one version: a seat's action (none for the start), when, and its id.

    Events are not stored: applying the action to the previous version's state gives
    them back, in any process.
    """

    version: int
    at: float
    seat: int | None = None
    action_id: str | None = None
    action: Any = None
    timed_out: bool = False


@dataclass(frozen=True)
class Snapshot:
    """A game as read from Redis at one version (state and cards still encoded): its status,
    decisions and deadline at ``version``, its state at ``state_version`` and the log entries
    between (see :mod:`packplay.table.rebuild`)."""

    meta: GameMeta
    status: Status
    version: int
    cards: bytes | None
    state: bytes | None
    decisions: bytes | None
    deadline: float | None
    taken: int
    state_version: int | None = None
    """The version ``state`` is at (None: ``version``)."""
    entries: tuple[bytes, ...] = ()
    """The log entries of the versions after ``state_version`` up to ``version``, encoded."""


@dataclass(frozen=True)
class Commit:
    """One new version to write if the game is still at ``expected``."""

    game_id: str
    expected: int
    status: Status
    state: bytes | None
    """The state at the new version, when a snapshot is due (None: the log entry only)."""
    decisions: bytes
    entry: LogEntry
    entry_bytes: bytes
    ttl: int
    answer: Answer
    deadline: float | None = None
    limit: Rate | None = None
    """The acting seat's limit of actions (None: not limited, e.g. a timed-out turn)."""


@dataclass(frozen=True)
class Rate:
    """A limit kept in Redis: ``per_second`` sustained, bursts of ``burst``."""

    per_second: float
    burst: int


CommitOutcome = Literal["ok", "duplicate", "conflict", "missing", "limited"]


@dataclass(frozen=True)
class CommitResult:
    outcome: CommitOutcome
    version: int = -1
    """The version made (``ok``) or found (``conflict``)."""
    previous: Answer | None = None
    """The answer already given to this action id (``duplicate``)."""
    missed: tuple[bytes, ...] = ()
    """The entries after ``expected`` (``conflict``; storage bounds how many)."""
    wait: int = 0
    """Milliseconds until the seat may act again (``limited``)."""


@dataclass(frozen=True)
class GameRow:
    """A game as listings show it: no state, the names of the taken seats."""

    meta: GameMeta
    status: Status
    version: int
    names: dict[int, str]


encode = msgspec.msgpack.Encoder().encode
"""The MessagePack encoding of every stored record."""
decode_entry = msgspec.msgpack.Decoder(LogEntry).decode
decode_meta = msgspec.msgpack.Decoder(GameMeta).decode
decode_answer = msgspec.msgpack.Decoder(Answer).decode
