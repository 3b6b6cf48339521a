"""Points: color points per group (MF-5), points for the number of groups (MF-6),
and the winners (MF-7)."""

from __future__ import annotations

from collections.abc import Sequence

from packplay.games.mishra_factory.state import Collected
from packplay_protocol.games.mishra_factory import GROUPS, Group, ScoreLine

RANK_POINTS: dict[int, int] = {1: 3, 2: 2}
"""MF-5: largest group 3 points, second 2 points, any lower rank nothing."""

GROUPS_BONUS: dict[int, int] = {4: 2, 5: 4, 6: 6}
"""MF-6: points for 4, 5 or 6 non-empty groups."""

Key = tuple[int, float]
"""How a seat's group ranks: its size, then its highest mana value (MF-5)."""


def group_keys(collections: Sequence[Sequence[Collected]], group: Group) -> dict[int, Key]:
    """The ranking key of each seat with at least one card in ``group``."""
    keys: dict[int, Key] = {}
    for seat, collection in enumerate(collections):
        values = [entry.card.mana_value for entry in collection if entry.group == group]
        if values:
            keys[seat] = (len(values), max(values))
    return keys


def rank_points(keys: dict[int, Key]) -> dict[int, int]:
    """MF-5: standard competition ranking; a shared rank gives each tied seat half
    its points rounded up (3 -> 2, 2 -> 1)."""
    points: dict[int, int] = {}
    for seat, key in keys.items():
        rank = 1 + sum(1 for other in keys.values() if other > key)
        tied = sum(1 for other in keys.values() if other == key)
        full = RANK_POINTS.get(rank, 0)
        points[seat] = full if tied == 1 else (full + 1) // 2
    return points


def score_lines(collections: Sequence[Sequence[Collected]]) -> tuple[ScoreLine, ...]:
    """Every seat's points as the collections stand (final once the game is over)."""
    per_group = {group: rank_points(group_keys(collections, group)) for group in GROUPS}
    lines = []
    for seat, collection in enumerate(collections):
        group_points = {group: per_group[group].get(seat, 0) for group in GROUPS}
        bonus = GROUPS_BONUS.get(len({entry.group for entry in collection}), 0)
        total = sum(group_points.values()) + bonus
        lines.append(ScoreLine(seat=seat, group_points=group_points, groups_bonus=bonus, total=total))
    return tuple(lines)


def winners(lines: Sequence[ScoreLine]) -> tuple[int, ...]:
    """MF-7: every seat on the top score shares the win."""
    top = max(line.total for line in lines)
    return tuple(line.seat for line in lines if line.total == top)
