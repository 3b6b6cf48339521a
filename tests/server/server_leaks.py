"""Checks every message a client received against the replay: no hidden card identity leaks.

The replay gives the state at every version; the engine says which card ids each
audience may not know there (``hidden_from``). A message about versions ``a..b``
must not show the facts of a card hidden from its audience at every version in
``a..b`` (its events were built somewhere in that range).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import msgspec

from packplay.cards.catalog import Catalog, load_catalog
from packplay.games.base import Audience, GameConfig
from packplay.games.registry import get_game
from packplay.server.play.lobby import initial_state
from packplay.table.records import GameMeta
from packplay_protocol.rest import Replay
from packplay_protocol.to_client import Events, GameOver, ServerMessage, Update, ViewMessage

FACTS = ("name", "number", "colors", "type_line")


@cache
def catalog() -> Catalog:
    return load_catalog()


def replay_states(replay: Replay) -> list[Any]:
    """The state at each version 0..n, rebuilt from seed, setup and log alone."""
    setup = replay.setup
    config = GameConfig(game=setup.game, players=setup.players, sets=setup.sets, options=setup.options)
    meta = GameMeta(id=replay.game_id, config=config, seed=replay.seed, created=0.0, boosters=setup.boosters)
    engine = get_game(setup.game)
    states = [initial_state(meta, catalog())]
    for logged in replay.log:
        states.append(engine.apply(states[-1], logged.seat, logged.action).state)
    return states


def versions_of(message: ServerMessage, last: int) -> range | None:
    if isinstance(message, Events):
        return range(message.from_version + 1, message.to_version + 1)
    if isinstance(message, ViewMessage | Update):
        return range(message.version, message.version + 1)
    if isinstance(message, GameOver):
        return range(last, last + 1)
    return None


def shown_cards(obj: Any) -> Iterator[str]:
    """Ids of every card shown with its facts anywhere in a message."""
    if isinstance(obj, dict):
        if isinstance(obj.get("id"), str) and any(obj.get(fact) not in (None, "", []) for fact in FACTS):
            yield obj["id"]
        for value in obj.values():
            yield from shown_cards(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            yield from shown_cards(value)


def leaks(game: str, states: list[Any], audience: Audience, received: list[ServerMessage]) -> list[str]:
    """Every (message type, card id) where a hidden card's identity reached ``audience``."""
    engine = get_game(game)
    last = len(states) - 1
    found = []
    for message in received:
        span = versions_of(message, last)
        if span is None or len(span) == 0:
            continue
        hidden = frozenset.intersection(*(engine.hidden_from(states[v], audience) for v in span))
        shown = set(shown_cards(msgspec.to_builtins(message)))
        found.extend(f"{type(message).__name__}@{span.start}: {card}" for card in shown & hidden)
    return found
