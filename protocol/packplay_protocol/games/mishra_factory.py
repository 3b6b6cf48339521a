"""Wire types of Mishra's Factory (Modern Horizons 2): actions, the view, events.

The belt is a list in position order: positions 0-1 are the front (free), 2-3 the
back (nearest the deck; taking one costs a collected card). Collections are public and
split into six groups: the five colors and "C" for colorless.

Views and events name cards by id only. Every card they name is face up, so its facts
are in the view message's cards table; the deck is the only hidden zone, shown as a count.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from packplay_protocol.cards import CardId
from packplay_protocol.games.common import GameFacts, seat_out_of_range

FACTS = GameFacts(
    title="Mishra's Factory", min_players=2, max_players=4, default_sets=("MH2",), simultaneous=False
)

Group = Literal["W", "U", "B", "R", "G", "C"]
"""A collection group: one of the five colors, or "C" for colorless."""

GROUPS: tuple[Group, ...] = ("W", "U", "B", "R", "G", "C")

FRONT_SIZE = 2
"""Belt positions below this are the front (free cards)."""


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The options of a Mishra's Factory game; each one left out takes its default."""

    shuffle: Annotated[
        bool,
        msgspec.Meta(
            description="Shuffle the deck (true); false keeps the cards in booster order, "
            "seat 0's booster first."
        ),
    ] = True
    first_seat: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=FACTS.max_players - 1)] | None,
        msgspec.Meta(description="The seat that plays first, below `players`; null draws it at random."),
    ] = None

    def check(self, players: int) -> None:
        """Refuse what the types alone cannot: a seat the game does not have."""
        seat_out_of_range(self.first_seat, players, "first_seat")


class Take(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.take"):
    """Take the belt card at belt_position into group of your collection.

    The group must be allowed for the card (MF-1). discard is the id of one of your
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
    """One seat's face-up collection: card ids by group, each group in the order taken.

    Every group is present, empty or not. The ids are looked up in the view message's
    cards table.
    """

    seat: int
    groups: dict[Group, tuple[CardId, ...]]


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.view"):
    """The table as one audience sees it (the deck is hidden from everyone).

    seat is the viewer's seat (null for a spectator); turn the seat to play (null once
    over). belt, discarded and set_aside are card ids, looked up in the view message's
    cards table like the ids of the collections; the deck is only a count. scores are
    the points as they stand now; they are final when over. seed is revealed only
    after the game ends.
    """

    seat: int | None
    players: int
    first_seat: int
    turn: int | None
    turn_number: int
    belt: tuple[CardId, ...]
    deck_count: int
    collections: tuple[Collection, ...]
    discarded: tuple[CardId, ...]
    set_aside: tuple[CardId, ...]
    scores: tuple[ScoreLine, ...]
    over: bool
    seed: int | None = None


class Taken(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.taken"):
    """A seat took a belt card into a group of its collection.

    card is the id of the card taken; discarded the id of the collected card paid for a
    back card (it leaves the game), null for a front card. Both are looked up in the
    view message's cards table.
    """

    seat: int
    belt_position: int
    card: CardId
    group: Group
    discarded: CardId | None
    next_seat: int | None


class Refilled(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.refilled"):
    """The deck's top card was dealt face up to the back of the belt.

    card is its id: from now on its facts are in the view message's cards table.
    """

    belt_position: int
    card: CardId
    deck_count: int


class Ended(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.ended"):
    """Every card is collected (MF-4): the final scores and the winners (MF-7)."""

    scores: tuple[ScoreLine, ...]
    winners: tuple[int, ...]


Event = Taken | Refilled | Ended
"""Every event of the game."""
