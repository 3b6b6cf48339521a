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
from packplay.cards.model import CardInstance
from packplay.games.base import Game
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
    if (end := at + len(snapshot.entries)) != snapshot.version:
        raise BrokenLog(f"the log ends at version {end}, the game is at {snapshot.version}")
    cards = decode_cards(snapshot.cards, catalog)
    state, state_bytes = replay(engine, snapshot.state, cards, at, snapshot.entries)
    return GameCopy.stored(snapshot, engine, state, state_bytes)


def replay(
    engine: Game[Any], state_bytes: bytes, cards: dict[str, CardInstance], at: int, entries: tuple[bytes, ...]
) -> tuple[Any, bytes]:
    """The state at version ``at`` (encoded) with ``entries``, those of the versions after it,
    applied: the state at the last one's version, and its encoding.

    Each action is applied to the state decoded from the previous one's encoding, as the
    process that played it did (:meth:`GameCopy.working_copy`): the same bytes to the byte,
    even where a state holds a set, whose order an encoding round trip may change.

    Raises:
        BrokenLog: an entry is not the one of the next version.
    """
    state = None
    for raw in entries:
        entry = decode_entry(raw)
        at += 1
        if entry.version != at or entry.seat is None:
            raise BrokenLog(f"entry {entry.version} where the one of version {at} was due")
        action = msgspec.convert(entry.action, engine.action_type)
        state = engine.apply(decode_state(engine, state_bytes, cards), entry.seat, action, copy=False).state
        state_bytes = encode_state(state)
    return (decode_state(engine, state_bytes, cards) if state is None else state), state_bytes
