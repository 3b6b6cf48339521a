"""What one seat of an in-process game is sent, in wire form, built as the server builds it.

A :class:`SeatFeed` renders the seat's view message and each update with the server's
own rendering (:class:`~packplay.table.rendering.HeldViews`) over a
:class:`~packplay.table.game_copy.GameCopy`, then encodes and decodes it with the
protocol's codec: a bot reads exactly the messages a WebSocket client would read,
and nothing it is handed shares an object with the game's state. The same feed can
drive a bot that plays a seat inside a server process.
"""

from __future__ import annotations

from typing import Any

from packplay.table.game_copy import GameCopy, Step
from packplay.table.rendering import HeldViews, view_doc, whole_view
from packplay_protocol import codec
from packplay_protocol.errors import DecodeError, ErrorCode
from packplay_protocol.from_client import Act
from packplay_protocol.to_client import Update, ViewMessage
from packplay_protocol.version import Encoding

WIRE = Encoding.MSGPACK


class WireError(RuntimeError):
    """A message that did not survive its own encoding (a bug, never a bot's fault)."""


class SeatFeed:
    """One seat's messages as the game moves. ``follow`` keeps the seat's view message
    from step to step (needed for updates); without it a view is rendered when asked."""

    def __init__(self, copy: GameCopy, seat: int, follow: bool) -> None:
        self.seat = seat
        self.follow = follow
        self._views: HeldViews | None = None
        if follow:
            self._views = HeldViews()
            self._views.message(copy, seat)

    def view(self, copy: GameCopy) -> ViewMessage:
        """The seat's whole view message at the copy's version, as decoded by a client."""
        frame = codec.encode_plain(whole_view(view_doc(copy, self.seat), copy.version), WIRE)
        message = codec.decode_server(frame, WIRE)
        if not isinstance(message, ViewMessage):
            raise WireError(f"a view message did not decode: {message}")
        return message

    def update(self, copy: GameCopy, step: Step) -> Update | None:
        """The update the seat is sent for ``step`` (the copy has advanced to it), or None
        when the feed does not follow the seat."""
        if self._views is None:
            return None
        change = self._views.change(copy, step)
        assert change is not None, "a followed seat holds its view"
        update = self._views.update(change, self.seat)
        message = codec.decode_server(codec.encode(update, WIRE), WIRE)
        if not isinstance(message, Update):
            raise WireError(f"an update did not decode: {message}")
        return message


def wire_action(action: Any, version: int, action_id: str) -> Any:
    """The action as the server reads it from an ``act`` message: a typed action, or a
    :class:`DecodeError` for something no client could send."""
    try:
        frame = codec.encode(Act(action_id=action_id, version=version, action=action), WIRE)
    except (TypeError, ValueError) as error:
        return DecodeError(code=ErrorCode.BAD_MESSAGE, message=f"not an action: {error}")
    message = codec.decode_client(frame, WIRE)
    return message.action if isinstance(message, Act) else message
