"""The explicit set-up of a game, as the replay export carries it (format packplay.replay.1).

A game's set-up is what chance produced before the first action: the cards each seat
was dealt, the order of the piles, the roles and the first seat, the themes. With it,
the card table and the log, anyone can replay a finished game with their own
implementation of the rules, without Packplay's random generator or card catalog:
nothing is drawn at random after the set-up.

Every zone lists card ids; the replay's cards table gives each card's facts. Each card
of the game is in exactly one zone of the set-up. One struct per game, told apart by
`type`.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from packplay_protocol.cards import CardId
from packplay_protocol.ids import Seat

ReplayFormat = Literal["packplay.replay.1"]

REPLAY_FORMAT: ReplayFormat = "packplay.replay.1"
"""The version of the replay export. A change that an independent checker would read
differently gets a new number."""

CardList = tuple[CardId, ...]


class DayNightDeal(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="day_night.deal"):
    """Day vs Night: each seat's booster split into its hand and its set-aside cards.

    `hands[seat]` are the seat's cards with a Magic back, sorted by id (the hand of round
    1); `set_aside[seat]` its other cards, face up and out of play (C-1); `day_seat` plays
    Day, the other seat Night.
    """

    day_seat: Seat
    hands: tuple[CardList, ...]
    set_aside: tuple[CardList, ...]


class MishraFactoryDeal(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="mishra_factory.deal"
):
    """Mishra's Factory: the belt, the deck order and the first seat.

    `belt` is in position order (positions 0-1 are the front, MF-8); `deck` is the rest
    of the shuffled cards, top first (the next card to refill the belt first);
    `set_aside` the cards without a Magic back (C-1); `first_seat` takes first, then
    play goes in seat order.
    """

    first_seat: Seat
    belt: CardList
    deck: CardList
    set_aside: CardList


class WeddingPlannerDeal(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.deal"
):
    """Vampire Wedding Planner: the hands, the themes, both piles and the first seat.

    `hands[seat]` the seat's four dealt cards in deal order; `themes[seat]` its secret
    theme card, null when its booster had no theme candidate; `draw` the face-down
    pile, top first; `discard` the face-up pile, bottom first (one card at the start);
    `set_aside` the cards without a Magic back (C-1); `first_seat` plays first, then play
    goes in reverse seat order.
    """

    first_seat: Seat
    hands: tuple[CardList, ...]
    themes: tuple[CardId | None, ...]
    draw: CardList
    discard: CardList
    set_aside: CardList


class BaseRaceDeal(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="base_race.deal"):
    """Base Race: each seat's base camp and the eleven cards dealt to it.

    `camps[seat]` is the seat's base camp (a basic land); `hands[seat]` the other cards
    it lays out, in deal order; `out` the cards out of the game, face down (the other
    lands and the cards not dealt); `set_aside` the cards without a Magic back (C-1).
    Which seat moves first is not chance: it is the first to lay out (in the log).
    """

    camps: tuple[CardId, ...]
    hands: tuple[CardList, ...]
    out: CardList
    set_aside: CardList


DEALS: tuple[type[msgspec.Struct], ...] = (DayNightDeal, MishraFactoryDeal, WeddingPlannerDeal, BaseRaceDeal)

AnyDeal = DayNightDeal | MishraFactoryDeal | WeddingPlannerDeal | BaseRaceDeal
"""The explicit set-up of any game, told apart by `type`."""
