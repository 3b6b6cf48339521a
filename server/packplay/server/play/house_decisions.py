"""A house decision as a worker process makes it: from what its seat was sent, nothing else.

The serving process sends a worker the frames a MessagePack client of the seat received
(its updates, and the events message of a catch-up) and, when the worker may not have
it, the seat's whole view message at the point where those updates start. A worker
keeps what it was sent per seat (its :class:`SeatRecord`: the view as the updates
patched it, and the events), so each decision carries only the frames since the last
one sent to that worker; a worker that lacks them (it was just started, or another
worker had the seat) answers :data:`RESEND` and gets them all. The bot is built afresh
for each decision with its own seed and fed the events and the view, so the same inputs
give the same action in any worker, and the action id names the decision: a decision
made twice is played once.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import msgspec

from packplay.bots.budget import Budget
from packplay.bots.registry import make_bot
from packplay_protocol import codec, patch
from packplay_protocol.to_client import Events, Update, ViewMessage
from packplay_protocol.version import Encoding

WIRE = Encoding.MSGPACK
"""The encoding the house reads its frames in (as a MessagePack client would)."""
MAX_FRAME = 1 << 24
RESEND = "resend"
"""A worker's answer when it lacks the seat's earlier frames: send them all."""
KEPT_SEATS = 1000
"""Seats a worker remembers; the least recently decided beyond are forgotten (sent again)."""


@dataclass(frozen=True)
class Inputs:
    """One house decision: the bot, its own seed and budget, and the seat's frames from
    ``start`` on (all of them, with ``view``, when ``start`` is 0)."""

    game_id: str
    seat: int
    since: int
    """The version where the decision began (it names the action)."""
    version: int
    """The version the frames bring the seat to."""
    bot: str
    seed: int
    budget: Budget | None
    follow: str
    """Names one following of the seat by the serving process (frames count from its start)."""
    start: int
    """The index of ``frames[0]`` among the frames of this following."""
    frames: tuple[bytes, ...]
    """Updates and events messages, as a MessagePack client got them."""
    view: bytes = b""
    """With ``start`` 0: the seat's whole view message where frame ``base`` starts patching."""
    base: int = 0
    """The index of the first frame whose update patches ``view`` (the earlier frames are a
    catch-up: their events only)."""


class SeatRecord:
    """What one worker was sent of one seat: the view as patched, and the events."""

    __slots__ = ("count", "document", "events", "follow", "version")

    def __init__(self, inputs: Inputs) -> None:
        self.follow = inputs.follow
        self.document: Any = None
        self.version = -1
        self.events: list[tuple[int, tuple[Any, ...]]] = []
        self.count = 0

    def take(self, frames: tuple[bytes, ...], view: bytes, base: int) -> None:
        """Add frames (the first ``base`` of a new record are its catch-up, ``view`` after it).

        Raises:
            patch.PatchError, ValueError: an update does not fit the view.
        """
        for frame in frames:
            if self.count == base and self.document is None:
                self.document = msgspec.msgpack.decode(view)
                self.version = self.document["version"]
            message = codec.decode_server(frame, WIRE, max_bytes=MAX_FRAME)
            if isinstance(message, Update):
                self.events.append((message.version, tuple(message.events)))
                if self.document is not None and message.version > self.version:
                    self.document = patch.apply(self.document, message.patch)
                    self.document["version"] = self.version = message.version
            elif isinstance(message, Events):
                self.events.append((message.to_version, tuple(message.events)))
            self.count += 1
        if self.document is None and self.count == base:
            self.document = msgspec.msgpack.decode(view)
            self.version = self.document["version"]

    def view(self) -> ViewMessage:
        return msgspec.convert(self.document, ViewMessage)


_records: OrderedDict[tuple[str, int], SeatRecord] = OrderedDict()
"""This worker's seats (a cache: any of them may be sent again in full)."""


def decide(inputs: Inputs) -> Any:
    """The house bot's action, or :data:`RESEND` when this worker lacks the earlier frames."""
    key = (inputs.game_id, inputs.seat)
    record = _records.get(key)
    if inputs.start == 0:
        record = _records[key] = SeatRecord(inputs)
    elif record is None or record.follow != inputs.follow or record.count != inputs.start:
        return RESEND
    _records.move_to_end(key)
    while len(_records) > KEPT_SEATS:
        _records.popitem(last=False)
    try:
        record.take(inputs.frames, inputs.view, inputs.base)
    except (patch.PatchError, ValueError, TypeError, KeyError):
        del _records[key]
        return RESEND
    if record.version != inputs.version:
        del _records[key]
        return RESEND
    return choose(inputs, record)


def choose(inputs: Inputs, record: SeatRecord) -> Any:
    bot = make_bot(inputs.bot, inputs.seed, inputs.budget)
    observe = getattr(bot, "observe", None)
    if callable(observe):
        for version, events in record.events:
            observe(version, events)
    return bot.choose(record.view())
