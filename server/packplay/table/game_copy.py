"""A process's copy of one started game at one version, and how it moves to the next.

Redis holds the truth; a copy is what a process keeps so that a move needs no
read: the decoded state, its stored bytes, the seats' decisions and last answers.
A copy moves forward one version at a time, by a step: an action applied to a
copy of its state (a local move about to be committed, or another process's move
read from its log entry). Applying the same entry to the same version gives the same
step in every process: engines are deterministic, and the entry carries the time.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import msgspec

from packplay.cards.catalog import Catalog
from packplay.cards.compact import compact, expand
from packplay.cards.model import CardInstance
from packplay.games.base import Emitted, Game, GameState, without_cards
from packplay.games.layout import Touched, ViewLayout
from packplay.table import decisions
from packplay.table.decisions import Decision, Legal
from packplay.table.records import Answer, GameMeta, LogEntry, Snapshot, Status, encode
from packplay_protocol.games.common import GameResult

_cards_decoder = msgspec.msgpack.Decoder(list[tuple[str, str, str, bool, bool]])


@cache
def _state_decoder(state_type: type[GameState]) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(state_type)


def encode_state(state: GameState) -> bytes:
    """A state as stored: everything but its card table (stored once per game)."""
    return encode(without_cards(state))


def decode_state(engine: Game[Any], raw: bytes, cards: dict[str, CardInstance]) -> Any:
    state = _state_decoder(engine.state_type).decode(raw)
    state.cards = cards
    return state


def encode_cards(cards: dict[str, CardInstance]) -> bytes:
    return encode(compact(cards))


def decode_cards(raw: bytes, catalog: Catalog) -> dict[str, CardInstance]:
    return expand(_cards_decoder.decode(raw), catalog)


def digest(action: Any) -> str:
    """Fingerprint of an action: tells a resent action from another one reusing its id."""
    return hashlib.blake2b(encode(action), digest_size=8).hexdigest()


@dataclass(frozen=True, slots=True)
class Step:
    """One version more: the new state and what it took to get there."""

    version: int
    state: Any
    state_bytes: bytes
    events: tuple[Emitted, ...]
    pending: tuple[int, ...]
    result: GameResult | None
    legal: Legal
    decisions: tuple[Decision, ...]
    deadline: float | None
    status: Status
    entry: LogEntry
    entry_bytes: bytes
    answer: Answer
    touched: Touched
    """The parts of the view (and whether the card table) its events say it may change."""

    @property
    def seat(self) -> int | None:
        return self.entry.seat


@dataclass(slots=True)
class GameCopy:
    """One started game as this process holds it."""

    meta: GameMeta
    engine: Game[Any]
    status: Status
    version: int
    state: Any
    state_bytes: bytes
    pending: tuple[int, ...]
    """The seats whose decision is awaited at this version."""
    result: GameResult | None
    legal: Legal
    """Every seat's legal actions at this version."""
    decisions: tuple[Decision, ...]
    deadline: float | None
    last: dict[int, tuple[str, Answer]] = field(default_factory=dict)
    """Per seat, its last accepted action id and the answer it got (seen by this process;
    Redis keeps every answer of the game)."""
    game_id: str = field(init=False)
    layout: ViewLayout[Any] = field(init=False)
    """The view's parts for the game's number of seats (see :mod:`packplay.games.layout`)."""

    def __post_init__(self) -> None:
        self.game_id = self.meta.id
        self.layout = self.engine.layout(self.meta.config.players)

    @property
    def cards(self) -> dict[str, CardInstance]:
        cards: dict[str, CardInstance] = self.state.cards
        return cards

    @classmethod
    def from_snapshot(cls, snapshot: Snapshot, engine: Game[Any], catalog: Catalog) -> GameCopy | None:
        """The copy of a stored game, or None while it waits for players."""
        if snapshot.state is None or snapshot.cards is None:
            return None
        cards = decode_cards(snapshot.cards, catalog)
        state = decode_state(engine, snapshot.state, cards)
        return cls.stored(snapshot, engine, state, snapshot.state)

    @classmethod
    def stored(cls, snapshot: Snapshot, engine: Game[Any], state: Any, state_bytes: bytes) -> GameCopy:
        """The copy of a stored game whose state at the snapshot's version is ``state``
        (the snapshot's own, or rebuilt from its log)."""
        awaited = engine.awaited(state, snapshot.meta.config.players)
        return cls(
            meta=snapshot.meta,
            engine=engine,
            status=snapshot.status,
            version=snapshot.version,
            state=state,
            state_bytes=state_bytes,
            pending=awaited.pending,
            result=awaited.result,
            legal=awaited.legal,
            decisions=decisions.decode(snapshot.decisions),
            deadline=snapshot.deadline,
        )

    @classmethod
    def dealt(cls, meta: GameMeta, engine: Game[Any], state: Any, now: float) -> GameCopy:
        """Version 0 of a game set up from ``state``."""
        result, pending, legal = engine.awaited(state, meta.config.players)
        tracked = decisions.track(legal, 0, now)
        return cls(
            meta=meta,
            engine=engine,
            status="active",
            version=0,
            state=state,
            state_bytes=encode_state(state),
            pending=pending,
            result=result,
            legal=legal,
            decisions=tracked,
            deadline=decisions.deadline(tracked, pending, meta.clock),
        )

    def working_copy(self) -> Any:
        """A private copy of the state to apply an action to (the card table is shared)."""
        return decode_state(self.engine, self.state_bytes, self.cards)

    def step(
        self,
        seat: int,
        action: Any,
        action_id: str | None,
        at: float,
        timed_out: bool = False,
        action_digest: str | None = None,
    ) -> Step:
        """Apply ``action`` of ``seat`` to a copy of this version; the copy is unchanged.

        Raises:
            RuleError: the rules refuse the action.
        """
        engine, version = self.engine, self.version + 1
        transition = engine.apply(self.working_copy(), seat, action, copy=False)
        state = transition.state
        result, pending, legal = engine.awaited(state, self.meta.config.players)
        tracked = decisions.track(legal, version, at, self.decisions, self.legal, actor=seat)
        # The action goes into the entry as it is: it encodes like its plain form.
        entry = LogEntry(
            version=version, at=at, seat=seat, action_id=action_id, action=action, timed_out=timed_out
        )
        return Step(
            version=version,
            state=state,
            state_bytes=encode_state(state),
            events=transition.events,
            pending=pending,
            result=result,
            legal=legal,
            decisions=tracked,
            deadline=None if result is not None else decisions.deadline(tracked, pending, self.meta.clock),
            status="active" if result is None else "finished",
            entry=entry,
            entry_bytes=encode(entry),
            answer=Answer(accepted=True, version=version, digest=action_digest or digest(action)),
            touched=self.layout.touched_by(engine.changed(transition.events)),
        )

    def step_entry(self, entry: LogEntry) -> Step:
        """The step another process committed, read from its log entry.

        Raises:
            RuleError: the entry does not apply here (this copy is not at its version - 1).
        """
        if entry.seat is None:
            raise ValueError("the start entry is no step")
        action = msgspec.convert(entry.action, self.engine.action_type)
        return self.step(entry.seat, action, entry.action_id, entry.at, entry.timed_out)

    def advance(self, step: Step) -> None:
        """Move to the step's version (after it was committed, by this process or another)."""
        self.version = step.version
        self.state = step.state
        self.state_bytes = step.state_bytes
        self.pending = step.pending
        self.result = step.result
        self.legal = step.legal
        self.decisions = step.decisions
        self.deadline = step.deadline
        self.status = step.status
        if step.seat is not None and step.entry.action_id is not None:
            self.last[step.seat] = (step.entry.action_id, step.answer)
