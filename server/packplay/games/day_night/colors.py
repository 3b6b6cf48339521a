"""Who wins a pair: the color table of RULES.md (``day_night``) and duds (DN-3)."""

from __future__ import annotations

from packplay.cards.model import Card, Color
from packplay_protocol.games.day_night import Outcome, Role

BEATS: dict[Color, Color] = {"R": "G", "G": "U", "U": "R"}
"""Red beats green, green beats blue, blue beats red."""

ALWAYS_WINS: dict[Role, Color] = {"day": "W", "night": "B"}
"""White always wins for Day, black always wins for Night."""

ALWAYS_LOSES: dict[Role, Color] = {"day": "B", "night": "W"}
"""Black always loses for Day, white always loses for Night."""


def is_colorless(card: Card) -> bool:
    """C-2: no color, or a land (lands are colorless, the printed text says so)."""
    return not card.colors or card.is_land


def is_multicolored(card: Card) -> bool:
    """C-2: two or more colors (a land never is)."""
    return len(card.colors) >= 2 and not card.is_land


def _absolute(color: Color, role: Role) -> bool | None:
    """True for an always-winning card, False for an always-losing one, else None."""
    if color == ALWAYS_WINS[role]:
        return True
    if color == ALWAYS_LOSES[role]:
        return False
    return None


def pair_outcome(day: Color | None, night: Color | None) -> Outcome:
    """The outcome of Day's card against Night's; None is a dud (DN-3).

    A dud loses to any colored card and ties with a dud. Two always-winning cards
    (Day's W, Night's B) tie, two always-losing ones (Day's B, Night's W) tie; an
    always-winning card beats anything else, an always-losing one loses to it;
    red, green and blue follow the cycle, equal colors tie.
    """
    if day is None or night is None:
        if day is night:
            return "tie"
        return "night" if day is None else "day"
    day_abs, night_abs = _absolute(day, "day"), _absolute(night, "night")
    if day_abs is not None and night_abs is not None:
        if day_abs == night_abs:
            return "tie"
        return "day" if day_abs else "night"
    if day_abs is not None:
        return "day" if day_abs else "night"
    if night_abs is not None:
        return "night" if night_abs else "day"
    if day == night:
        return "tie"
    return "day" if BEATS[day] == night else "night"
