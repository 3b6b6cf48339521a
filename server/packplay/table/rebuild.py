"""A game rebuilt from what storage keeps: its last snapshot and the log entries after it.

Storage writes a game's state only every so many versions (a snapshot) and at its end;
every version appends its log entry. A process that never saw the game, or lost its copy,
applies the entries after the snapshot to the snapshot's state with the engine: engines
are deterministic, so it reaches the very state the process that played them held. The
seats' decisions and the deadline are read as they stand (the game hash keeps them at the
game's version), so only the state is replayed.
"""

from __future__ import annotations

from typing import Any

import msgspec

from packplay.cards.catalog import Catalog
from packplay.games.base import Game
from packplay.table import decisions
from packplay.table.game_copy import GameCopy, decode_cards, decode_state, encode_state
from packplay.table.records import Snapshot, decode_entry


class BrokenLog(ValueError):
    """The log entries after the snapshot do not lead from its version to the game's."""


def rebuild(snapshot: Snapshot, engine: Game[Any], catalog: Catalog) -> GameCopy | None:
    """The copy of a stored game at ``snapshot.version``, or None while it waits for players.

    Raises:
        BrokenLog: an entry is missing or out of order.
        msgspec.DecodeError: an entry does not decode (a newer release's, or damaged).
        RuleError: an entry does not apply to the state before it.
    """
    at = snapshot.version if snapshot.state_version is None else snapshot.state_version
    if snapshot.state is None or snapshot.cards is None or at == snapshot.version:
        return GameCopy.from_snapshot(snapshot, engine, catalog)
    cards = decode_cards(snapshot.cards, catalog)
    state = replay(engine, decode_state(engine, snapshot.state, cards), at, snapshot.entries)
    if (end := at + len(snapshot.entries)) != snapshot.version:
        raise BrokenLog(f"the log ends at version {end}, the game is at {snapshot.version}")
    awaited = engine.awaited(state, snapshot.meta.config.players)
    return GameCopy(
        meta=snapshot.meta,
        engine=engine,
        status=snapshot.status,
        version=snapshot.version,
        state=state,
        state_bytes=encode_state(state),
        pending=awaited.pending,
        result=awaited.result,
        legal=awaited.legal,
        decisions=decisions.decode(snapshot.decisions),
        deadline=snapshot.deadline,
    )


def replay(engine: Game[Any], state: Any, at: int, entries: tuple[bytes, ...]) -> Any:
    """``state``, at version ``at``, with ``entries`` (those of the versions after it) applied in
    place: the state at the last one's version.

    Raises:
        BrokenLog: an entry is not the one of the next version.
    """
    for raw in entries:
        entry = decode_entry(raw)
        at += 1
        if entry.version != at or entry.seat is None:
            raise BrokenLog(f"entry {entry.version} where the one of version {at} was due")
        action = msgspec.convert(entry.action, engine.action_type)
        state = engine.apply(state, entry.seat, action, copy=False).state
    return state
