"""Points: color points per group (MF-5), points for the number of groups (MF-6),
and the winners (MF-7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from packplay.cards.model import CardInstance
from packplay.games.mishra_factory.state import Collected
from packplay_protocol.games.mishra_factory import GROUPS, Group, ScoreLine

RANK_POINTS: dict[int, int] = {1: 3, 2: 2}
"""MF-5: largest group 3 points, second 2 points, any lower rank nothing."""

GROUPS_BONUS: dict[int, int] = {4: 2, 5: 4, 6: 6}
"""MF-6: points for 4, 5 or 6 non-empty groups."""

Key = tuple[int, float]
"""How a seat's group ranks: its size, then its highest mana value (MF-5)."""


def group_keys(collection: Sequence[Collected], cards: Mapping[str, CardInstance]) -> dict[Group, Key]:
    """The ranking key of each non-empty group of one collection, in one pass."""
    keys: dict[Group, Key] = {}
    for entry in collection:
        value = cards[entry.card].mana_value
        size, top = keys.get(entry.group, (0, value))
        keys[entry.group] = (size + 1, max(top, value))
    return keys


def rank_points(keys: dict[int, Key]) -> dict[int, int]:
    """MF-5: standard competition ranking; a shared rank gives each tied seat half
    its points rounded up (3 -> 2, 2 -> 1)."""
    points: dict[int, int] = {}
    for seat, key in keys.items():
        rank, tied = 1, 0
        for other in keys.values():
            if other > key:
                rank += 1
            elif other == key:
                tied += 1
        full = RANK_POINTS.get(rank, 0)
        points[seat] = full if tied == 1 else (full + 1) // 2
    return points


def score_lines(
    collections: Sequence[Sequence[Collected]], cards: Mapping[str, CardInstance]
) -> tuple[ScoreLine, ...]:
    """Every seat's points as the collections stand (final once the game is over).

    ``cards`` gives the facts of the collected cards (their mana values).
    """
    seat_keys = [group_keys(collection, cards) for collection in collections]
    points: list[dict[Group, int]] = [dict.fromkeys(GROUPS, 0) for _ in collections]
    for group in GROUPS:
        keys = {seat: mine[group] for seat, mine in enumerate(seat_keys) if group in mine}
        for seat, earned in rank_points(keys).items():
            points[seat][group] = earned
    lines = []
    for seat, group_points in enumerate(points):
        bonus = GROUPS_BONUS.get(len(seat_keys[seat]), 0)
        total = sum(group_points.values()) + bonus
        lines.append(ScoreLine(seat=seat, group_points=group_points, groups_bonus=bonus, total=total))
    return tuple(lines)


def winners(lines: Sequence[ScoreLine]) -> tuple[int, ...]:
    """MF-7: every seat on the top score shares the win."""
    top = max(line.total for line in lines)
    return tuple(line.seat for line in lines if line.total == top)
