"""Wire types of Mishra's Factory (Modern Horizons 2): actions, the view, events.

The belt is a tuple in position order: positions 0-1 are the front (free), 2-3 the
back (nearest the deck; taking one costs a collected card). Collections are public and
split into six groups: the five colors and ``"C"`` for colorless.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from packplay_protocol.cards import CardInstance

Group = Literal["W", "U", "B", "R", "G", "C"]
"""A collection group: one of the five colors, or ``"C"`` for colorless."""

GROUPS: tuple[Group, ...] = ("W", "U", "B", "R", "G", "C")

FRONT_SIZE = 2
"""Belt positions below this are the front (free cards)."""


class Take(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.take"):
    """Take the belt card at ``belt_position`` into ``group`` of your collection.

    ``group`` must be allowed for the card (MF-1). ``discard`` names one of your
    collected cards: required for a back card (MF-2), refused for a front one (MF-8).
    """

    belt_position: int
    group: Group
    discard: str | None = None


Action = Take
"""Every action of the game (a union of one tagged struct)."""


class ScoreLine(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's points: per group (MF-5), for the number of groups (MF-6), and total."""

    seat: int
    group_points: dict[Group, int]
    groups_bonus: int
    total: int


class Collection(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's face-up collection, by group, each group in the order taken."""

    seat: int
    groups: dict[Group, tuple[CardInstance, ...]]


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.view"):
    """The table as one audience sees it (the deck is hidden from everyone).

    ``seat`` is the viewer's seat (None for a spectator); ``turn`` the seat to play
    (None once over). ``scores`` are the points as they stand now; they are final
    when ``over``. ``seed`` is revealed only after the game ends.
    """

    seat: int | None
    players: int
    first_seat: int
    turn: int | None
    turn_number: int
    belt: tuple[CardInstance, ...]
    deck_count: int
    collections: tuple[Collection, ...]
    discarded: tuple[CardInstance, ...]
    set_aside: tuple[CardInstance, ...]
    scores: tuple[ScoreLine, ...]
    over: bool
    seed: int | None = None


class Taken(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.taken"):
    """A seat took a belt card into a group, discarding ``discarded`` for a back card."""

    seat: int
    belt_position: int
    card: CardInstance
    group: Group
    discarded: CardInstance | None
    next_seat: int | None


class Refilled(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.refilled"):
    """The deck's top card was dealt face up to the back of the belt."""

    belt_position: int
    card: CardInstance
    deck_count: int


class Ended(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.ended"):
    """Every card is collected (MF-4): the final scores and the winners (MF-7)."""

    scores: tuple[ScoreLine, ...]
    winners: tuple[int, ...]


Event = Taken | Refilled | Ended
"""Every event of the game."""
