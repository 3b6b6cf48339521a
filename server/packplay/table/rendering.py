"""What audiences are sent about a game: their whole view message, and the update after a step.

A view message is the game's view (the engine's :class:`~packplay.games.layout.ViewLayout`,
part by part) with the message's own fields (pending seats, legal actions, deadlines,
result, seed) and the card table. :class:`HeldViews` keeps, for one game, what the
audiences with watchers were last sent, and turns a step into each one's update: only
the parts that read a field the step changed are computed again; those every audience
shares once per step, whatever the number of audiences, those that depend on the
audience once for each. A part that changed becomes patch operations at its place (the
finer operations of :mod:`packplay_protocol.diff` inside it); the card table changes by
the cards the audience came to know or no longer may know. Each frame is encoded once per encoding,
however many connections share the audience.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from packplay.games.base import Audience, events_for
from packplay.games.layout import Part, Touched, Values
from packplay.table.game_copy import GameCopy, Step
from packplay_protocol import codec
from packplay_protocol.diff import diff
from packplay_protocol.games.common import LegalActions
from packplay_protocol.patch import PatchOp
from packplay_protocol.to_client import Events, GameOver, ServerMessage, Update
from packplay_protocol.version import API_PREFIX, Encoding

ViewDoc = dict[str, Any]
"""A view message's fields but its version (a step changes that anyway)."""
NO_LEGAL: LegalActions[Any] = LegalActions()
_SHARED_FIELDS = ("pending", "deadlines", "result", "seed")
"""The view message's own fields that every audience sees alike."""


def legal_of(copy: GameCopy, audience: Audience) -> LegalActions[Any]:
    """What ``audience`` may do now (nothing for a spectator)."""
    legal = copy.legal
    return legal[audience] if audience is not None and 0 <= audience < len(legal) else NO_LEGAL


def deadlines(copy: GameCopy, clock: float) -> tuple[float | None, ...]:
    """When each pending seat's clock runs out (None for a seat not pending), as the turn
    clocks sweep reads it: from the moment the seat's decision began."""
    pending, decisions = copy.pending, copy.decisions
    return tuple(
        round(decisions[seat].at + clock, 3) if seat in pending and seat < len(decisions) else None
        for seat in range(copy.meta.config.players)
    )


def shared_fields(copy: GameCopy) -> tuple[Any, ...]:
    """The values of :data:`_SHARED_FIELDS` at the copy's version."""
    meta, result = copy.meta, copy.result
    return (
        copy.pending,
        None if meta.clock is None else deadlines(copy, meta.clock),
        result,
        meta.seed if result is not None else None,
    )


def view_doc(copy: GameCopy, audience: Audience) -> ViewDoc:
    """The view message of ``audience`` at the copy's version (nothing is kept)."""
    layout = copy.layout
    return _message(copy, audience, layout.values(copy.state, audience))


def _message(copy: GameCopy, audience: Audience, values: Values) -> ViewDoc:
    engine, state, meta = copy.engine, copy.state, copy.meta
    pending, deadlines_, result, seed = shared_fields(copy)
    cards = copy.cards
    return {
        "type": "view",
        "game_id": meta.id,
        "game": meta.config.game,
        "seat": audience,
        "pending": pending,
        "legal": legal_of(copy, audience),
        "deadlines": deadlines_,
        "result": result,
        "seed": seed,
        "view": copy.layout.document(values),
        "cards": {card_id: cards[card_id] for card_id in engine.known_cards(state, audience)},
    }


def whole_view(doc: ViewDoc, version: int) -> dict[str, Any]:
    """A whole view message, ready to encode."""
    return {**doc, "version": version}


@dataclass(slots=True)
class _Held:
    """What one audience was last sent: its private parts, its legal actions, the cards
    hidden from it."""

    values: Values
    legal: LegalActions[Any]
    hidden: frozenset[str]


@dataclass(frozen=True, slots=True)
class Change:
    """What a step changed for every audience alike: the operations on the message's shared
    fields and on the view's shared parts (made once, shared by every audience's update)."""

    step: Step
    copy: GameCopy
    touched: Touched
    field_ops: tuple[PatchOp, ...]
    part_ops: tuple[PatchOp, ...]


class HeldViews:
    """The view messages the audiences with watchers of one game hold, at one version."""

    __slots__ = ("_fields", "_held", "_shared")

    def __init__(self) -> None:
        self._shared: Values | None = None
        """The shared parts' values at the version held (None: nobody holds a view)."""
        self._fields: tuple[Any, ...] = ()
        """The message's shared fields at the version held."""
        self._held: dict[Audience, _Held] = {}

    def __contains__(self, audience: Audience) -> bool:
        return audience in self._held

    def clear(self) -> None:
        self._shared = None
        self._held.clear()

    def forget(self, audience: Audience) -> None:
        self._held.pop(audience, None)
        if not self._held:
            self._shared = None

    def message(self, copy: GameCopy, audience: Audience, keep: bool = True) -> ViewDoc:
        """The view message of ``audience`` at the copy's version; with ``keep`` its
        updates are made from it from now on."""
        layout = copy.layout
        if self._shared is None:
            if not keep:
                return view_doc(copy, audience)
            self._shared = layout.shared_values(copy.state)
            self._fields = shared_fields(copy)
        values = layout.values(copy.state, audience, self._shared)
        if keep:
            private: Values = [None] * len(values)
            for index in layout.private:
                private[index] = values[index]
            hidden = copy.engine.hidden_from(copy.state, audience)
            self._held[audience] = _Held(private, legal_of(copy, audience), hidden)
        return _message(copy, audience, values)

    def change(self, copy: GameCopy, step: Step) -> Change | None:
        """What ``step`` changed for every audience (the copy has moved to it): the parts its
        events say it may change are shown again; None when no audience holds a view."""
        values = self._shared
        if values is None:
            return None
        layout, state, touched = copy.layout, copy.state, step.touched
        fields = shared_fields(copy)
        field_ops: list[PatchOp] = []
        for name, was, now in zip(_SHARED_FIELDS, self._fields, fields, strict=True):
            if _changed(was, now):
                field_ops.extend(diff(was, now, f"/{name}"))
        part_ops: list[PatchOp] = []
        _refresh(layout.parts, touched.shared, values, state, None, part_ops)
        self._fields = fields
        return Change(step, copy, touched, tuple(field_ops), tuple(part_ops))

    def update(self, change: Change, audience: Audience) -> Update:
        """The update of ``audience`` for the change: its events and its patch."""
        copy, step = change.copy, change.step
        held = self._held[audience]
        ops = list(change.field_ops)
        legal = legal_of(copy, audience)
        if _changed(held.legal, legal):
            # Whole: about the bytes of the finer operations (a choice added or removed
            # says most of it), found at no cost.
            ops.append(PatchOp(op="replace", path="/legal", value=legal))
            held.legal = legal
        ops.extend(change.part_ops)
        state, touched = copy.state, change.touched
        _refresh(copy.layout.parts, touched.private, held.values, state, audience, ops)
        if touched.cards:
            hidden = copy.engine.hidden_from(state, audience)
            if hidden != held.hidden:
                ops.extend(_card_ops(copy, held.hidden, hidden))
                held.hidden = hidden
        entry = step.entry
        return Update(
            game_id=copy.game_id,
            version=step.version,
            events=tuple(events_for(step.events, audience)),
            patch=tuple(ops),
            action_id=entry.action_id if audience is not None and audience == entry.seat else None,
        )


def _refresh(
    parts: Sequence[Part[Any]],
    indexes: Sequence[int],
    values: Values,
    state: Any,
    audience: Audience,
    ops: list[PatchOp],
) -> None:
    """Show ``audience`` the parts at ``indexes`` again: the operations of those that
    changed join ``ops``, their values replace those held."""
    for index in indexes:
        part = parts[index]
        was, now = values[index], part.show(state, audience)
        if was is not now and (was != now or type(was) is not type(now)):  # _changed, inline: per part
            ops.extend(diff(was, now, "/view" + part.path))
            values[index] = now


def _changed(was: Any, now: Any) -> bool:
    # JSON tells true from 1: a value of another type is a change even when Python calls it equal.
    return was is not now and (was != now or type(was) is not type(now))


def _card_ops(copy: GameCopy, was_hidden: frozenset[str], hidden: frozenset[str]) -> list[PatchOp]:
    """The card table's change: the cards no longer known leave it, those now known join it."""
    cards = copy.cards
    ops = [PatchOp(op="remove", path=f"/cards/{card_id}") for card_id in sorted(hidden - was_hidden)]
    ops += [
        PatchOp(op="add", path=f"/cards/{card_id}", value=cards[card_id])
        for card_id in sorted(was_hidden - hidden)
    ]
    return ops


def game_over(copy: GameCopy) -> GameOver | None:
    result = copy.result
    if result is None:
        return None
    return GameOver(game_id=copy.game_id, result=result, replay_url=replay_url(copy.game_id))


def replay_url(game_id: str) -> str:
    return f"{API_PREFIX}/games/{game_id}/replay"


def events_message(game_id: str, since: int, until: int, events: Sequence[Any]) -> Events:
    return Events(game_id=game_id, from_version=since, to_version=until, events=tuple(events))


RenderedMessage = ServerMessage | dict[str, Any]
"""A message as a typed struct, or already in plain form (a whole view message)."""


FrameFunction = Callable[[bytes, bool], bytes]
"""Makes the frame of one encoded message (text or not) as it goes on a connection's wire."""


class Frames:
    """Messages for one audience, encoded on first use per encoding, then shared; framed on
    first use per framing, then shared by every connection that frames alike."""

    __slots__ = ("_encoded", "_framed", "action_id", "messages", "version")

    def __init__(
        self, version: int, messages: Sequence[RenderedMessage], action_id: str | None = None
    ) -> None:
        self.version = version
        """The version these messages bring their audience to."""
        self.messages = messages
        self.action_id = action_id
        """The action this update acknowledges (in the acting seat's frames only)."""
        self._encoded: dict[Encoding, list[bytes]] = {}
        self._framed: dict[tuple[Encoding, Hashable], bytes] | None = None

    def framed(self, encoding: Encoding, framing: Hashable | None, frame: FrameFunction) -> bytes:
        """The messages as they go on the wire, back to back: ``framing`` names how ``frame``
        makes them (equal framings, equal bytes); None, they are made for this one call."""
        text = encoding is Encoding.JSON
        if framing is None:
            return b"".join([frame(message, text) for message in self.encoded(encoding)])
        framed = self._framed
        if framed is None:
            framed = self._framed = {}
        key = (encoding, framing)
        found = framed.get(key)
        if found is None:
            found = framed[key] = b"".join([frame(message, text) for message in self.encoded(encoding)])
        return found

    def encoded(self, encoding: Encoding) -> list[bytes]:
        found = self._encoded.get(encoding)
        if found is None:
            found = self._encoded[encoding] = [_encode(m, encoding) for m in self.messages]
        return found


def _encode(message: RenderedMessage, encoding: Encoding) -> bytes:
    if isinstance(message, dict):
        return codec.encode_plain(message, encoding)
    return codec.encode(message, encoding)
