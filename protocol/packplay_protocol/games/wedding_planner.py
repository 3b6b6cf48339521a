"""Vampire Wedding Planner (Innistrad: Crimson Vow): actions, view and events on the wire.

A turn is two decisions of the seat to play: pick up (``draw`` the top card of
the draw pile, or ``take`` a discard-pile card with every card above it), then
``discard`` one card from hand (RULES.md, Vampire Wedding Planner).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from packplay_protocol.cards import CardInstance

Phase = Literal["pickup", "discard", "over"]


# Actions


class Draw(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.draw"):
    """Pick up the top card of the draw pile (refused when it is empty, WP-4)."""


class Take(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.take"):
    """Pick up ``card`` from the discard pile together with every card above it (WP-3)."""

    card: str


class Discard(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.discard"):
    """Put ``card`` from hand on top of the discard pile; ends the turn."""

    card: str


Action = Draw | Take | Discard


# Scores and view


class Score(msgspec.Struct, frozen=True, kw_only=True):
    """One hand's score by line (WP-1, WP-2).

    ``theme``: cards sharing a color or the mana value of the theme; ``shiny``:
    artifacts and foils; ``venue``: the land that scores the land line (or None);
    ``penalty``: cards that score on no line (each -1). ``total`` sums the lines.
    """

    seat: int
    theme: int
    shiny: int
    venue: str | None
    penalty: int
    total: int


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as the audience sees it.

    ``cards`` are the hand cards the audience may see, sorted by id: the whole hand
    for its owner (and for everyone after the end), else only the cards that seat
    took face up from the discard pile. ``theme`` is shown to its owner only until
    the end (WP-5); ``has_theme`` is public.
    """

    seat: int
    hand_count: int
    cards: tuple[CardInstance, ...]
    has_theme: bool
    theme: CardInstance | None
    turns_taken: int
    score: Score | None


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.view"):
    """The table as ``viewer`` (a seat, or None for a spectator) may see it.

    ``discard`` is bottom to top (WP-3). ``draw_pile`` stays empty until the end,
    then lists the undrawn cards top first. ``scores`` and ``winners`` are filled
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
    discard: tuple[CardInstance, ...]
    set_aside: tuple[CardInstance, ...]
    seats: tuple[SeatView, ...]
    draw_pile: tuple[CardInstance, ...] = ()
    winners: tuple[int, ...] = ()


# Events


class Drew(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.drew"):
    """``seat`` drew the top card; ``card`` is set only in the drawer's private copy."""

    seat: int
    draw_count: int
    card: CardInstance | None = None


class Took(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.took"):
    """``seat`` took ``cards`` (bottom to top) from the discard pile (public)."""

    seat: int
    cards: tuple[CardInstance, ...]


class Discarded(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.discarded"):
    """``seat`` discarded ``card``; ``next_seat`` plays next (None when the game ends)."""

    seat: int
    card: CardInstance
    next_seat: int | None


class Revealed(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="wedding_planner.revealed"):
    """The end: every hand and theme is shown and scored (WP-5); per seat, in seat order."""

    themes: tuple[CardInstance | None, ...]
    hands: tuple[tuple[CardInstance, ...], ...]
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
