"""Hand scores (WP-1, WP-2) and the winners (WP-5)."""

from __future__ import annotations

from collections.abc import Sequence

from packplay.cards.model import Card, CardInstance
from packplay_protocol.games.wedding_planner import Score


def colors_of(card: Card) -> frozenset[str]:
    """C-2: a card's front-face colors; lands are colorless whatever their data says."""
    return frozenset() if card.is_land else frozenset(card.colors)


def on_theme(card: Card, theme: Card | None) -> bool:
    """The first line: shares a color with the theme or has its mana value (once, WP-1)."""
    if theme is None:
        return False
    return bool(colors_of(card) & colors_of(theme)) or card.mana_value == theme.mana_value


def is_shiny(card: CardInstance) -> bool:
    """The second line: an artifact or a foil card (once, even for a foil artifact, WP-1)."""
    return card.foil or "Artifact" in card.types


def score_hand(seat: int, hand: Sequence[CardInstance], theme: Card | None) -> Score:
    """The score of one hand against its theme (None: the seat has no theme).

    WP-2: one land at most scores the land line, chosen for the best score: a land
    that scores on no other line when there is one (it then escapes its -1), else
    any land. Every other card that scores on no line is -1, extra lands included.
    """
    ordered = sorted(hand, key=lambda card: card.id)
    themed = [card for card in ordered if on_theme(card, theme)]
    shiny = [card for card in ordered if is_shiny(card)]
    plain = [card for card in ordered if not on_theme(card, theme) and not is_shiny(card)]
    venue = _venue(ordered, plain)
    penalty = len(plain) - (1 if venue is not None and venue in plain else 0)
    land = 0 if venue is None else 1
    return Score(
        seat=seat,
        theme=len(themed),
        shiny=len(shiny),
        venue=None if venue is None else venue.id,
        penalty=penalty,
        total=len(themed) + len(shiny) + land - penalty,
    )


def _venue(hand: Sequence[CardInstance], plain: Sequence[CardInstance]) -> CardInstance | None:
    """WP-2: the land scoring the land line, preferring one that scores nothing else."""
    for card in plain:
        if card.is_land:
            return card
    for card in hand:
        if card.is_land:
            return card
    return None


def winners(scores: Sequence[Score]) -> tuple[int, ...]:
    """WP-5: the seats with the highest total; equal scores share the win."""
    best = max(score.total for score in scores)
    return tuple(score.seat for score in scores if score.total == best)
