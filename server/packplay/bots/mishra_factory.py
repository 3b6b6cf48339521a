"""The strong Mishra's Factory bot.

Strategy. Everything but the deck is face up, and the deck is hidden from every seat
alike, so the bot searches the known belt. Each take (a front card, or a back card
paid with each of the collected cards that cost least to give up) is judged two
plies deep: the bot's points lead after the take (its points minus the best other
seat's, from the rules' own ranking and group bonus, MF-5, MF-6), then after the
next seat's best answer from the belt that is left (that seat taking whatever best
raises its own lead). A small tie-break prefers leads in group sizes, which turn
into points later. The card the deck deals next is the same whatever the bot takes,
so it is left out of the search; no sampling is needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.games.mishra_factory.rules import allowed_groups
from packplay.games.mishra_factory.scoring import GROUPS_BONUS, rank_points
from packplay.rng import Rng
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.mishra_factory import FRONT_SIZE, GROUPS, Group, Take, View
from packplay_protocol.to_client import ViewMessage

Groups = dict[Group, list[float]]
"""One seat's collection: the mana values of its cards, by group."""
SPARE_DISCARDS = 2
"""Back takes are searched with this many of the cheapest discards."""
LEAD_WEIGHT = 0.05
"""Worth of one card of lead in a group, against one point."""


class MishraFactoryStrategy:
    def __init__(self, rng: Rng, budget: Budget, *, fixed: bool = False) -> None:
        self.rng, self.fixed = rng, fixed

    def choose(self, message: ViewMessage, memory: Memory) -> Any:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        return Search(view, message.cards).best()


def points(collections: Sequence[Groups]) -> list[int]:
    """Every seat's points as the collections stand (MF-5, MF-6)."""
    totals = [GROUPS_BONUS.get(sum(1 for values in groups.values() if values), 0) for groups in collections]
    for group in GROUPS:
        keys = {
            seat: (len(values), max(values))
            for seat, groups in enumerate(collections)
            if (values := groups.get(group))
        }
        for seat, earned in rank_points(keys).items():
            totals[seat] += earned
    return totals


def lead(collections: Sequence[Groups], seat: int) -> float:
    """``seat``'s points minus the best other seat's, plus the tie-break on group sizes."""
    totals = points(collections)
    others = max(total for other, total in enumerate(totals) if other != seat)
    sizes = 0.0
    for group in GROUPS:
        mine = len(collections[seat].get(group, ()))
        best = max(len(groups.get(group, ())) for other, groups in enumerate(collections) if other != seat)
        sizes += max(-2, min(2, mine - best))
    return totals[seat] - others + LEAD_WEIGHT * sizes


class Search:
    def __init__(self, view: View, cards: Mapping[str, CardInstance]) -> None:
        assert view.seat is not None
        self.seat, self.players = view.seat, view.players
        self.cards = cards
        self.belt = [cards[card_id] for card_id in view.belt]
        self.collections: list[Groups] = [
            {group: [cards[card_id].mana_value for card_id in ids] for group, ids in c.groups.items()}
            for c in view.collections
        ]
        self.ids: list[list[tuple[str, Group]]] = [
            [(card_id, group) for group, ids in c.groups.items() for card_id in ids] for c in view.collections
        ]

    def best(self) -> Take:
        moves = self.moves(self.seat, self.belt)
        return max(moves, key=lambda take: self.judge(take))

    def moves(self, seat: int, belt: Sequence[CardInstance]) -> list[Take]:
        """Every take for ``seat``; back cards paid with its cheapest discards only."""
        takes = []
        discards = self.cheapest_discards(seat)
        for position, card in enumerate(belt):
            for group in allowed_groups(card):
                if position < FRONT_SIZE:
                    takes.append(Take(belt_position=position, group=group))
                else:
                    takes += [Take(belt_position=position, group=group, discard=d) for d in discards]
        return takes

    def cheapest_discards(self, seat: int) -> list[str]:
        def cost(entry: tuple[str, Group]) -> float:
            return -lead(self.after(self.collections, seat, None, entry), seat)

        ranked = sorted(self.ids[seat], key=cost)
        return [card_id for card_id, _ in ranked[:SPARE_DISCARDS]]

    def after(
        self,
        collections: Sequence[Groups],
        seat: int,
        taken: tuple[CardInstance, Group] | None,
        discarded: tuple[str, Group] | None = None,
    ) -> list[Groups]:
        changed = {group: list(values) for group, values in collections[seat].items()}
        if discarded is not None:
            card_id, group = discarded
            changed[group].remove(self.cards[card_id].mana_value)
        if taken is not None:
            card, group = taken
            changed.setdefault(group, []).append(card.mana_value)
        return [changed if other == seat else groups for other, groups in enumerate(collections)]

    def apply(
        self, collections: Sequence[Groups], seat: int, belt: Sequence[CardInstance], take: Take
    ) -> list[Groups]:
        discarded = None
        if take.discard is not None:
            discarded = next(entry for entry in self.ids[seat] if entry[0] == take.discard)
        return self.after(collections, seat, (belt[take.belt_position], take.group), discarded)

    def judge(self, take: Take) -> float:
        """The bot's lead after ``take`` and the next seat's best answer to it."""
        mine = self.apply(self.collections, self.seat, self.belt, take)
        belt = [card for position, card in enumerate(self.belt) if position != take.belt_position]
        nxt = (self.seat + 1) % self.players
        if not belt or nxt == self.seat:
            return lead(mine, self.seat)
        answers = self.moves(nxt, belt)
        if not answers:
            return lead(mine, self.seat)
        replies = [self.apply(mine, nxt, belt, answer) for answer in answers]
        reply = max(replies, key=lambda collections: lead(collections, nxt))
        return lead(reply, self.seat)
