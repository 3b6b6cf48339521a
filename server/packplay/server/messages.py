"""The messages one audience receives about a game, built from stored state and log entries.

Every path from a game to a client passes here, and every path filters by audience:
views through the engine's ``view``, events through their visibility.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any, Union

import msgspec

from packplay.games.base import Audience, Emitted, Game
from packplay.server.store import GameMeta, LogEntry, StoredEvent
from packplay_protocol.catalog import GAMES
from packplay_protocol.games.common import GameResult, LegalActions
from packplay_protocol.rest import LoggedAction
from packplay_protocol.to_client import Events, GameOver, ViewMessage
from packplay_protocol.version import API_PREFIX


def encode_state(state: Any) -> bytes:
    return msgspec.msgpack.encode(state)


def decode_state(engine: Game[Any], raw: bytes) -> Any:
    return _state_decoder(engine.state_type).decode(raw)


@cache
def _state_decoder(state_type: type[msgspec.Struct]) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(state_type)


@cache
def _event_union(game_name: str) -> Any:
    return Union[GAMES[game_name].events]  # noqa: UP007


@cache
def _action_union(game_name: str) -> Any:
    return Union[GAMES[game_name].actions]  # noqa: UP007


def stored_events(emitted: Iterable[Emitted]) -> tuple[StoredEvent, ...]:
    """Events as plain data for the log, each with the seats that may see it."""
    return tuple(
        StoredEvent(
            msgspec.to_builtins(e.event),
            None if e.to is None else tuple(sorted(e.to)),
            tuple(sorted(e.exclude)),
        )
        for e in emitted
    )


def visible_events(game_name: str, entries: Iterable[LogEntry], audience: Audience) -> tuple[Any, ...]:
    """The typed events of ``entries`` that ``audience`` may see, in order."""
    union = _event_union(game_name)
    return tuple(
        msgspec.convert(stored.event, union)
        for entry in entries
        for stored in entry.events
        if _visible(stored, audience)
    )


def _visible(stored: StoredEvent, audience: Audience) -> bool:
    if stored.to is None:
        return audience not in stored.exclude
    return audience is not None and audience in stored.to


def events_message(meta: GameMeta, entries: list[LogEntry], audience: Audience, since: int) -> Events:
    """The filtered events from version ``since`` to the last entry's version."""
    last = entries[-1].version if entries else since
    events = visible_events(meta.config.game, entries, audience)
    return Events(game_id=meta.id, from_version=since, to_version=last, events=events)


def view_message(
    engine: Game[Any], meta: GameMeta, version: int, state: Any, audience: Audience
) -> ViewMessage:
    """The audience's view at ``version`` with its legal actions; the seed once over."""
    result = engine.result(state)
    legal = engine.legal_actions(state, audience) if audience is not None else LegalActions()
    return ViewMessage(
        game_id=meta.id,
        game=meta.config.game,
        version=version,
        seat=audience,
        pending=engine.pending(state),
        legal=legal,
        result=result,
        seed=meta.seed if result is not None else None,
        view=engine.view(state, audience),
    )


def replay_url(game_id: str) -> str:
    return f"{API_PREFIX}/games/{game_id}/replay"


def game_over(meta: GameMeta, result: GameResult) -> GameOver:
    return GameOver(game_id=meta.id, result=result, replay_url=replay_url(meta.id))


def logged_actions(game_name: str, entries: Iterable[LogEntry]) -> tuple[LoggedAction, ...]:
    """The replay's log: every applied action in version order (the start has none)."""
    union = _action_union(game_name)
    return tuple(
        LoggedAction(
            version=entry.version,
            seat=entry.seat,
            action=msgspec.convert(entry.action, union),
            action_id=entry.action_id,
            timed_out=entry.timed_out,
        )
        for entry in entries
        if entry.seat is not None
    )
