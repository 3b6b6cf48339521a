"""Mishra's Factory opponents: the points as they would stand after the take.

Both score every seat's collection as the printed rules do (MF-5 largest and second
largest group per color, ties by the highest mana value, then shared at half rounded up;
MF-6 points for the number of groups) and try every legal take, every group it may go
to and, for a back card, every collected card it may cost.

``greedy`` takes what raises its own points most. ``thoughtful`` looks one turn further:
it keeps its lead over the best other seat after the next player's best take from the
belt that take leaves (the card the deck adds is unknown, so it is left out), and pays
for a back card with the card its points miss least. At a table of three or four that
look counts less than its own points: denying the next player helps the others too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from packplay_clients.legal import fill
from packplay_clients.opponents.common import best, first_legal
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.mishra_factory import FRONT_SIZE, GROUPS, Group, Take, View
from packplay_protocol.to_client import ViewMessage

Collection = dict[str, list[CardInstance]]
RANK_POINTS = (3, 2)
"""Points of the largest and the second largest group of a color (MF-5)."""
SHARED_POINTS = (2, 1)
"""The same points when tied seats share the rank: half, rounded up."""
GROUP_BONUS = {4: 2, 5: 4, 6: 6}
"""Points for the number of non-empty groups (MF-6)."""
SHORTLIST = 8
"""How many of its best takes ``thoughtful`` looks past, to the reply."""


def points(collections: Sequence[Collection]) -> list[int]:
    """Every seat's points (MF-5, MF-6)."""
    totals = [GROUP_BONUS.get(sum(1 for g in GROUPS if c[g]), 0) for c in collections]
    for group in GROUPS:
        keys = {
            s: (len(c[group]), max(x.mana_value for x in c[group]))
            for s, c in enumerate(collections)
            if c[group]
        }
        for seat, key in keys.items():
            rank = sum(1 for other in keys.values() if other > key)
            tied = sum(1 for other in keys.values() if other == key) > 1
            if rank < len(RANK_POINTS):
                totals[seat] += (SHARED_POINTS if tied else RANK_POINTS)[rank]
    return totals


def collections_of(message: ViewMessage) -> list[Collection]:
    view: View = message.view
    return [{g: [message.cards[i] for i in c.groups.get(g, ())] for g in GROUPS} for c in view.collections]


def candidates(message: ViewMessage) -> list[Take]:
    """Every legal take: the front ones as given, a back one with each card it may cost."""
    takes = [a for a in message.legal.actions if isinstance(a, Take)]
    for choice in message.legal.choices:
        takes += [fill(choice, [option]) for option in dict.fromkeys(choice.options)]
    return takes


def taken(collections: Sequence[Collection], seat: int, card: CardInstance, take: Take) -> list[Collection]:
    """The collections after ``seat`` took ``card`` as ``take`` says."""
    after = [dict(c) for c in collections]
    mine = {g: [x for x in cards if x.id != take.discard] for g, cards in after[seat].items()}
    mine[take.group] = [*mine[take.group], card]
    after[seat] = mine
    return after


def lead(totals: Sequence[int], seat: int) -> int:
    """Points ahead of the best other seat (negative when behind)."""
    return totals[seat] - max((t for s, t in enumerate(totals) if s != seat), default=0)


def groups_for(card: CardInstance) -> tuple[Group, ...]:
    """MF-1: a land goes to any group, a multicolored card to one of its colors."""
    if card.is_land:
        return GROUPS
    return tuple(card.colors) or ("C",)


def reply(collections: Sequence[Collection], seat: int, belt: Sequence[CardInstance]) -> list[int]:
    """The points after ``seat`` makes the take that raises its points most on ``belt``."""
    outcomes = [points(collections)]
    for position, card in enumerate(belt):
        discard = None
        if position >= FRONT_SIZE:
            if not any(collections[seat].values()):
                continue  # MF-2: nothing to pay with
            discard = cheapest(collections, seat)
        for group in groups_for(card):
            take = Take(belt_position=position, group=group, discard=discard)
            outcomes.append(points(taken(collections, seat, card, take)))
    return max(outcomes, key=lambda totals: totals[seat])


def cheapest(collections: Sequence[Collection], seat: int) -> str:
    """The collected card whose loss costs ``seat`` the fewest points."""
    owned = [x for cards in collections[seat].values() for x in cards]

    def kept(card: CardInstance) -> int:
        after = [dict(c) for c in collections]
        after[seat] = {g: [x for x in cards if x.id != card.id] for g, cards in collections[seat].items()}
        return points(after)[seat]

    return max(owned, key=kept).id


def greedy(message: ViewMessage, rng: random.Random) -> Any:
    view: View = message.view
    takes = candidates(message)
    if view.seat is None or not takes:
        return first_legal(message)
    seat, now = view.seat, collections_of(message)

    def gain(take: Take) -> float:
        card = message.cards[view.belt[take.belt_position]]
        return points(taken(now, seat, card, take))[seat] - (0.1 if take.discard else 0.0)

    return best(takes, gain, rng)


def thoughtful(message: ViewMessage, rng: random.Random) -> Any:
    view: View = message.view
    takes = candidates(message)
    if view.seat is None or not takes:
        return first_legal(message)
    seat, now = view.seat, collections_of(message)
    belt = [message.cards[i] for i in view.belt]
    after = {id(take): taken(now, seat, belt[take.belt_position], take) for take in takes}

    def own(take: Take) -> float:
        return lead(points(after[id(take)]), seat) + rng.random() * 1e-6

    shortlist = sorted(takes, key=own, reverse=True)[:SHORTLIST]
    following = (seat + 1) % view.players

    def looked_ahead(take: Take) -> float:
        rest = [card for position, card in enumerate(belt) if position != take.belt_position]
        totals = reply(after[id(take)], following, rest)
        ahead, now = lead(totals, seat), points(after[id(take)])
        # Denying the next player helps every other seat too: at a full table, it counts less.
        looked = ahead + 0.3 * lead(now, seat) if view.players == 2 else now[seat] + 0.3 * ahead
        return looked - (0.1 if take.discard else 0.0)

    return best(shortlist, looked_ahead, rng)
