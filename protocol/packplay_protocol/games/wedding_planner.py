"""Vampire Wedding Planner (Innistrad: Crimson Vow): actions, view and events on the wire.

A turn is two decisions of the seat to play: pick up (draw the top card of the
draw pile, or take a discard-pile card with every card above it), then discard
one card from hand (RULES.md, Vampire Wedding Planner).

Views and events name cards by id only; a client looks each id up in the card
table of the view message, which holds the facts of every card its audience may
know.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from packplay_protocol.cards import CardId
from packplay_protocol.games.common import GameFacts, seat_out_of_range

FACTS = GameFacts(
    title="Vampire Wedding Planner",
    min_players=2,
    max_players=6,
    default_sets=("VOW",),
    simultaneous=False,
)

Phase = Literal["pickup", "discard", "over"]


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The options of a Vampire Wedding Planner game; each one left out takes its default."""

    shuffle: Annotated[
        bool,
        msgspec.Meta(
            description="Shuffle the draw pile (true); false keeps it in booster order, seat 0's "
            "cards first, without set-aside cards and themes."
        ),
    ] = True
    first_seat: Annotated[
        Annotated[int, msgspec.Meta(ge=0, le=FACTS.max_players - 1)] | None,
        msgspec.Meta(description="The seat that plays first, below `players`; null draws it at random."),
    ] = None
    themes: Annotated[
        Annotated[
            tuple[CardId | None, ...],
            msgspec.Meta(min_length=FACTS.min_players, max_length=FACTS.max_players),
        ]
        | None,
        msgspec.Meta(
            description="One entry per seat: the id of a theme candidate (a non-land card with a "
            "color) from that seat's own booster, or null to draw that seat's theme at random. "
            "Card ids follow from the seed, so this is for sandbox games, which name their seed."
        ),
    ] = None

    def check(self, players: int) -> None:
        """Refuse what the types alone cannot: a seat the game does not have, or a theme
        list whose length is not the number of seats."""
        seat_out_of_range(self.first_seat, players, "first_seat")
        if self.themes is not None and len(self.themes) != players:
            raise ValueError(f"Expected one theme entry per seat ({players}) - at `$.options.themes`")


# Actions


class Draw(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.draw"):
    """Pick up the top card of the draw pile (refused when it is empty, WP-4)."""


class Take(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.take"):
    """Pick up the discard-pile card with id card, together with every card above it (WP-3)."""

    card: str


class Discard(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.discard"):
    """Put the hand card with id card on top of the discard pile; ends the turn."""

    card: str


Action = Draw | Take | Discard


# Scores and view


class Score(msgspec.Struct, frozen=True, kw_only=True):
    """One hand's score by line (WP-1, WP-2).

    theme: cards sharing a color or the mana value of the theme; shiny: artifacts
    and foils; venue: the id of the land that scores the land line (null when none
    does); penalty: cards that score on no line (each -1). total sums the lines.
    """

    seat: int
    theme: int
    shiny: int
    venue: CardId | None
    penalty: int
    total: int


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as the audience sees it.

    Cards are named by id; their facts are in the view message's card table.
    cards lists the ids of the hand cards the audience may see, sorted: the whole
    hand for its owner (and for everyone after the end), else only the cards that
    seat took face up from the discard pile. theme is the id of the seat's theme,
    shown to its owner only until the end and null for everyone else (WP-5);
    has_theme is public.
    """

    seat: int
    hand_count: int
    cards: tuple[CardId, ...]
    has_theme: bool
    theme: CardId | None
    turns_taken: int
    score: Score | None


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.view"):
    """The table as viewer (a seat, or null for a spectator) may see it.

    Cards are named by id; their facts are in the view message's card table.
    discard lists the discard pile bottom to top (WP-3); set_aside the cards
    without a Magic back (C-1), sorted. draw_pile stays empty until the end, then
    lists the undrawn cards top first. Each seat's score, and winners, are filled
    once the game is over.
    """

    viewer: int | None
    players: int
    phase: Phase
    current_seat: int | None
    first_seat: int
    turns_per_player: int
    turns_done: int
    draw_count: int
    discard: tuple[CardId, ...]
    set_aside: tuple[CardId, ...]
    seats: tuple[SeatView, ...]
    draw_pile: tuple[CardId, ...] = ()
    winners: tuple[int, ...] = ()


# Events


class Drew(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.drew"):
    """The seat drew the top card of the draw pile.

    card, the id of the card drawn, is set only in the drawer's private copy; it
    is null in the copy everyone else receives.
    """

    seat: int
    draw_count: int
    card: CardId | None = None


class Took(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.took"):
    """The seat took cards (ids, bottom to top) from the discard pile (public)."""

    seat: int
    cards: tuple[CardId, ...]


class Discarded(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.discarded"):
    """The seat discarded card (an id); next_seat plays next (null when the game ends)."""

    seat: int
    card: CardId
    next_seat: int | None


class Revealed(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.revealed"):
    """The end: every hand and theme is shown and scored (WP-5).

    Per seat, in seat order: themes holds the id of each seat's theme (null for a
    seat without one), hands the ids of each hand, sorted.
    """

    themes: tuple[CardId | None, ...]
    hands: tuple[tuple[CardId, ...], ...]
    scores: tuple[Score, ...]
    winners: tuple[int, ...]


Event = Drew | Took | Discarded | Revealed

__all__ = [
    "Action",
    "Discard",
    "Discarded",
    "Draw",
    "Drew",
    "Event",
    "Phase",
    "Revealed",
    "Score",
    "SeatView",
    "Take",
    "Took",
    "View",
]
