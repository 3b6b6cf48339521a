"""Events of past versions, for a client catching up: the log replayed with the engine.

The log keeps each version's action, not its events. Replaying the log from the
dealt state (kept in entry 0) gives them back exactly: engines are deterministic.
Only clients that resume from an older version need this; live play never does.
"""

from __future__ import annotations

from typing import Any

import msgspec

from packplay.games.base import Audience, events_for
from packplay.server.storage.games import GameStore
from packplay.table.game_copy import GameCopy, decode_state


async def events_between(store: GameStore, copy: GameCopy, since: int, audience: Audience) -> list[Any]:
    """The events ``audience`` may see of the versions after ``since``, up to the copy's."""
    engine = copy.engine
    dealt = await store.dealt(copy.game_id)
    if dealt is None:
        return []  # the log no longer reaches back: the whole view follows anyway
    state = decode_state(engine, dealt, copy.cards)
    found: list[Any] = []
    try:
        entries = await store.entries(copy.game_id, 0, copy.version)
    except msgspec.DecodeError:
        return []  # an entry does not decode (a newer release's, or damaged): the whole view follows anyway
    for entry, _ in entries:
        if entry.seat is None:
            continue
        action = msgspec.convert(entry.action, engine.action_type)
        transition = engine.apply(state, entry.seat, action, copy=False)
        state = transition.state
        if entry.version > since:
            found.extend(events_for(transition.events, audience))
    return found
