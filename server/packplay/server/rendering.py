"""What one audience is sent about a game: its view message, and the update after a step.

An audience's view message is kept as it was sent (a dict of its fields, each a typed
value), so that the update of a step is the JSON Patch between the message sent last
and the new one: unchanged parts compare equal at once, and only what changed is
turned into operations. Everything here is computed once per audience and step, and
each frame once per encoding, however many connections share the audience.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from packplay.games.base import Audience, events_for
from packplay.server.replica import Replica, Step
from packplay_protocol import codec
from packplay_protocol.diff import diff
from packplay_protocol.games.common import LegalActions
from packplay_protocol.to_client import Events, GameOver, ServerMessage, Update
from packplay_protocol.version import API_PREFIX, Encoding

ViewDoc = dict[str, Any]
"""A view message's fields but its version (a step changes that anyway)."""
_NO_LEGAL: LegalActions[Any] = LegalActions()


def view_doc(replica: Replica, audience: Audience, before: ViewDoc | None = None) -> ViewDoc:
    """The view message of ``audience`` at the replica's version.

    Given the one of the version ``before``, its card table is kept (the same object)
    when the audience knows the same cards, so that comparing the two costs nothing.
    """
    engine, state, meta = replica.engine, replica.state, replica.meta
    result = replica.result
    known = engine.known_cards(state, audience)
    table = before["cards"] if before is not None else None
    if table is None or len(table) != len(known) or any(card_id not in table for card_id in known):
        cards = replica.cards
        table = {card_id: cards[card_id] for card_id in known}
    return {
        "type": "view",
        "game_id": meta.id,
        "game": meta.config.game,
        "seat": audience,
        "pending": replica.pending,
        "legal": _NO_LEGAL if audience is None or audience >= len(replica.legal) else replica.legal[audience],
        "deadlines": None if meta.clock is None else deadlines(replica, meta.clock),
        "result": result,
        "seed": meta.seed if result is not None else None,
        "view": engine.view(state, audience),
        "cards": table,
    }


def deadlines(replica: Replica, clock: float) -> tuple[float | None, ...]:
    """When each pending seat's clock runs out (None for a seat not pending), as the turn
    clocks sweep reads it: from the moment the seat's decision began."""
    pending, decisions = replica.pending, replica.decisions
    return tuple(
        round(decisions[seat].at + clock, 3) if seat in pending and seat < len(decisions) else None
        for seat in range(replica.meta.config.players)
    )


def whole_view(doc: ViewDoc, version: int) -> dict[str, Any]:
    """A whole view message, ready to encode."""
    return {**doc, "version": version}


def update_message(step: Step, game_id: str, audience: Audience, before: ViewDoc, after: ViewDoc) -> Update:
    """What the step changed for ``audience``: its events and the patch of its view message."""
    entry = step.entry
    return Update(
        game_id=game_id,
        version=step.version,
        events=tuple(events_for(step.events, audience)),
        patch=tuple(diff(before, after)),
        action_id=entry.action_id if audience is not None and audience == entry.seat else None,
    )


def game_over(replica: Replica) -> GameOver | None:
    result = replica.result
    if result is None:
        return None
    return GameOver(game_id=replica.game_id, result=result, replay_url=replay_url(replica.game_id))


def replay_url(game_id: str) -> str:
    return f"{API_PREFIX}/games/{game_id}/replay"


def events_message(game_id: str, since: int, until: int, events: Sequence[Any]) -> Events:
    return Events(game_id=game_id, from_version=since, to_version=until, events=tuple(events))


Outgoing = ServerMessage | dict[str, Any]
"""A message as a typed struct, or already in plain form (a whole view message)."""


class Frames:
    """Messages for one audience, encoded on first use per encoding, then shared."""

    __slots__ = ("_encoded", "action_id", "messages", "version")

    def __init__(self, version: int, messages: Sequence[Outgoing], action_id: str | None = None) -> None:
        self.version = version
        """The version these messages bring their audience to."""
        self.messages = messages
        self.action_id = action_id
        """The action this update acknowledges (in the acting seat's frames only)."""
        self._encoded: dict[Encoding, list[bytes]] = {}

    def encoded(self, encoding: Encoding) -> list[bytes]:
        found = self._encoded.get(encoding)
        if found is None:
            found = self._encoded[encoding] = [_encode(m, encoding) for m in self.messages]
        return found


def _encode(message: Outgoing, encoding: Encoding) -> bytes:
    if isinstance(message, dict):
        return codec.encode_plain(message, encoding)
    return codec.encode(message, encoding)
