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

Mended (``fixed``, the ``medium`` level and the search's guide): the reference paid
for a back card with one of its two cheapest cards judged alone, so it could give up
the only card of a group while a card it could spare was not even tried. Mended, every
payment is judged with the take it pays for (the best few go on to the two-ply
judgement), and a seat's number of groups counts with what it is worth at the end
(:func:`potential`), not only with the bonus it earns now.

The ``hard`` level searches (:class:`MishraFactoryModel`): the mended heuristics'
best takes, played out in worlds whose deck is dealt from fresh boosters.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Any

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.bots.priors import CardPrior, facts_of, main_set
from packplay.games.base import Game, GameConfig
from packplay.games.mishra_factory.rules import allowed_groups
from packplay.games.mishra_factory.scoring import GROUPS_BONUS, Key, group_keys, rank_points
from packplay.games.mishra_factory.setup import card_table
from packplay.games.mishra_factory.state import Collected, MishraFactoryState
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay_protocol.cards import CardInstance
from packplay_protocol.games.common import LegalActions
from packplay_protocol.games.mishra_factory import FRONT_SIZE, GROUPS, Group, Take, View
from packplay_protocol.to_client import ViewMessage

Groups = dict[Group, list[float]]
"""One seat's collection: the mana values of its cards, by group."""
SPARE_DISCARDS = 2
"""Back takes are searched with this many of the cheapest discards."""
LEAD_WEIGHT = 0.05
"""Worth of one card of lead in a group, against one point."""
PAYMENTS = 3
"""Payments kept for each back card (``fixed``), the cheapest with the take they pay for."""
GROUPS_WORTH = (0.0, 0.25, 0.6, 1.2, 2.8, 4.7, 6.0)
"""Expected end-of-game worth of 0-6 groups with most of the game to come (``fixed``): the
MF-6 bonus (0, 0, 0, 0, 2, 4, 6) plus the chance of adding groups before the end."""
HORIZON = 2
"""Rounds of takes (one per seat) over which a group's worth to come fades to its bonus."""


class MishraFactoryStrategy:
    def __init__(self, rng: Rng, budget: Budget, *, fixed: bool = False) -> None:
        self.rng, self.fixed = rng, fixed

    def choose(self, message: ViewMessage, memory: Memory) -> Any:
        view = message.view
        assert isinstance(view, View) and view.seat is not None
        return Lookahead(view, message.cards, fixed=self.fixed).best()


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


class Lookahead:
    """The two-ply judgement of every take of one decision (``fixed``: every payment of a
    back card judged with the take it pays for, and a group's worth counted, see
    :func:`potential`)."""

    def __init__(self, view: View, cards: Mapping[str, CardInstance], *, fixed: bool = False) -> None:
        assert view.seat is not None
        self.seat, self.players = view.seat, view.players
        self.cards, self.fixed = cards, fixed
        self.to_come = view.deck_count + len(view.belt) - 1
        """Cards left for the takes after this one."""
        self.belt = [cards[card_id] for card_id in view.belt]
        self.collections: list[Groups] = [
            {group: [cards[card_id].mana_value for card_id in ids] for group, ids in c.groups.items()}
            for c in view.collections
        ]
        self.ids: list[list[tuple[str, Group]]] = [
            [(card_id, group) for group, ids in c.groups.items() for card_id in ids] for c in view.collections
        ]

    def best(self) -> Take:
        return max(self.ranked(), key=lambda judged: judged[1])[0]

    def ranked(self) -> list[tuple[Take, float]]:
        """The bot's takes with their judgement, in the order of :meth:`moves`."""
        return [(take, self.judge(take)) for take in self.moves(self.seat, self.belt, own=self.fixed)]

    def moves(self, seat: int, belt: Sequence[CardInstance], *, own: bool = False) -> list[Take]:
        """Every take for ``seat``; back cards paid with its cheapest discards only, or
        (``own``) with the payments that cost least with that very take."""
        takes = []
        discards = [] if own else self.cheapest_discards(seat)
        for position, card in enumerate(belt):
            for group in allowed_groups(card):
                if position < FRONT_SIZE:
                    takes.append(Take(belt_position=position, group=group))
                elif own:
                    takes += self.payments(seat, belt, position, group)
                else:
                    takes += [Take(belt_position=position, group=group, discard=d) for d in discards]
        return takes

    def payments(self, seat: int, belt: Sequence[CardInstance], position: int, group: Group) -> list[Take]:
        """A back card's takes with each collected card as payment, the best few (by the
        lead right after the take: the group a payment empties is counted, MF-6)."""
        takes = [Take(belt_position=position, group=group, discard=card_id) for card_id, _ in self.ids[seat]]
        takes.sort(key=lambda take: -self.lead(self.apply(self.collections, seat, belt, take), seat))
        return takes[:PAYMENTS]

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

    def lead(self, collections: Sequence[Groups], seat: int) -> float:
        """:func:`lead`; when ``fixed``, with the worth of the seat's groups to come."""
        found = lead(collections, seat)
        if self.fixed:
            found += potential(collections[seat], self.to_come, self.players)
        return found

    def judge(self, take: Take) -> float:
        """The bot's lead after ``take`` and the next seat's best answer to it."""
        mine = self.apply(self.collections, self.seat, self.belt, take)
        belt = [card for position, card in enumerate(self.belt) if position != take.belt_position]
        nxt = (self.seat + 1) % self.players
        if not belt or nxt == self.seat:
            return self.lead(mine, self.seat)
        answers = self.moves(nxt, belt)
        if not answers:
            return self.lead(mine, self.seat)
        replies = [self.apply(mine, nxt, belt, answer) for answer in answers]
        reply = max(replies, key=lambda collections: self.lead(collections, nxt))
        return self.lead(reply, self.seat)


def potential(groups: Groups, to_come: int, players: int) -> float:
    """What a seat's number of groups is worth beyond its bonus now (MF-6) while cards
    are still to come: a fourth group is worth 2 points at the end, so the third is
    worth part of it already; the worth fades as the deck runs out."""
    count = sum(1 for values in groups.values() if values)
    ahead = GROUPS_WORTH[count] - GROUPS_BONUS.get(count, 0)
    return ahead * min(1.0, max(0, to_come) / (HORIZON * players))


# search (the ``hard`` level): worlds, candidates, rollouts


class MishraFactoryModel:
    """Mishra's Factory for :class:`~packplay.bots.search.Search`.

    Only the deck is hidden, from every seat alike: a world deals it from fresh
    boosters of the set (one per seat) less every card seen, in a random order.
    Candidates are the mended heuristics' best takes (two plies, every payment
    judged with its take). Rollouts take greedily, one ply: the take that most raises
    the seat's points over the best other seat's, counting its groups' worth to come
    (:func:`potential`), a back card paid with the card it misses least; now and then
    the second or third best take instead.
    """

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.engine: Game[MishraFactoryState] = get_game("mishra_factory")
        self._prior: CardPrior | None = None

    def prior(self, cards: Mapping[str, CardInstance]) -> CardPrior:
        if self._prior is None:
            self._prior = CardPrior(main_set(cards.values(), DEFAULT_SET), self.rng)
        return self._prior

    def world(self, message: ViewMessage, memory: Memory, rng: Rng) -> MishraFactoryState:
        view = message.view
        assert isinstance(view, View) and view.seat is not None and view.turn is not None
        prior = self.prior(message.cards)
        collections = [
            [Collected(card=card_id, group=group) for group, ids in c.groups.items() for card_id in ids]
            for c in view.collections
        ]
        shown = [*view.belt, *view.discarded, *(entry.card for entry in chain(*collections))]
        deck = prior.hidden(facts_of(shown, message.cards), view.players, view.deck_count)
        return MishraFactoryState(
            cards=card_table([*message.cards.values(), *deck]),
            config=GameConfig(game="mishra_factory", players=view.players, sets=(prior.set_code,)),
            seed=0,
            players=view.players,
            first_seat=view.first_seat,
            turn=view.turn,
            turn_number=view.turn_number,
            deck=[card.id for card in deck],
            belt=list(view.belt),
            collections=collections,
            discarded=list(view.discarded),
            set_aside=list(view.set_aside),
        )

    def candidates(self, message: ViewMessage, memory: Memory) -> Sequence[Any]:
        view = message.view
        assert isinstance(view, View)
        ranked = Lookahead(view, message.cards, fixed=True).ranked()
        ranked.sort(key=lambda judged: -judged[1])
        distinct: dict[tuple[Any, ...], Take] = {}
        for take, _ in ranked:
            distinct.setdefault(self.effect(take, view, message.cards), take)
        return list(distinct.values())[:CANDIDATES]

    @staticmethod
    def effect(take: Take, view: View, cards: Mapping[str, CardInstance]) -> tuple[Any, ...]:
        """What a take changes: two payments of one group and mana value play alike."""
        assert view.seat is not None
        paid = None
        if take.discard is not None:
            groups = view.collections[view.seat].groups
            group = next(g for g, ids in groups.items() if take.discard in ids)
            paid = (group, cards[take.discard].mana_value)
        return take.belt_position, take.group, paid

    def policy(self, state: MishraFactoryState, seat: int, legal: LegalActions[Any], rng: Rng) -> Any:
        options = Greedy(state, seat).options()
        options.sort(key=lambda option: -option[1])
        if len(options) > 1 and rng.below(NOISE) == 0:
            return options[1 + rng.below(min(2, len(options) - 1))][0]
        return options[0][0]

    def value(self, state: MishraFactoryState, seat: int) -> float:
        greedy = Greedy(state, seat)
        return 1 / (1 + math.exp(-greedy.lead(greedy.totals) / VALUE_SCALE))


DEFAULT_SET = "MH2"
CANDIDATES = 4
"""The heuristics' best takes (of distinct effects) compared by the search: more would
split the worlds among candidates the rollouts cannot tell apart."""
NOISE = 10
"""A rollout takes its second or third best take one time in this many (rarely: the
worlds' decks make the rollouts vary enough)."""
VALUE_SCALE = 3.0
"""Points of lead that make a cut-off position worth about 3 wins in 4."""


class Greedy:
    """One rollout decision: every take of ``seat`` with its lead right after it, from the
    group ranks of every seat, recounted only in the groups a take changes."""

    def __init__(self, state: MishraFactoryState, seat: int) -> None:
        self.state, self.seat = state, seat
        self.keys = [group_keys(collection, state.cards) for collection in state.collections]
        self.ranks = {group: self.group_points(group, self.keys) for group in GROUPS}
        self.totals = [
            sum(self.ranks[group].get(other, 0) for group in GROUPS) + GROUPS_BONUS.get(len(keys), 0)
            for other, keys in enumerate(self.keys)
        ]
        self.to_come = len(state.deck) + len(state.belt) - 1

    @staticmethod
    def group_points(group: Group, keys: Sequence[dict[Group, Key]]) -> dict[int, int]:
        return rank_points({seat: mine[group] for seat, mine in enumerate(keys) if group in mine})

    def lead(self, totals: Sequence[float], groups: int | None = None) -> float:
        """The seat's points over the best other seat's, with the worth of its groups to come."""
        seat = self.seat
        best = max(total for other, total in enumerate(totals) if other != seat)
        count = len(self.keys[seat]) if groups is None else groups
        ahead = GROUPS_WORTH[count] - GROUPS_BONUS.get(count, 0)
        players = len(totals)
        return totals[seat] - best + ahead * min(1.0, max(0, self.to_come) / (HORIZON * players))

    def options(self) -> list[tuple[Take, float]]:
        state, seat = self.state, self.seat
        payment = self.payment() if state.collections[seat] else None
        found = []
        for position, card_id in enumerate(state.belt):
            card = state.cards[card_id]
            back = position >= FRONT_SIZE
            if back and payment is None:
                continue
            for group in allowed_groups(card):
                discard = payment if back else None
                take = Take(belt_position=position, group=group, discard=discard)
                found.append((take, self.after(card.mana_value, group, discard)))
        return found

    def payment(self) -> str:
        """The collected card the seat misses least: the lowest of some group (a group
        loses less by its lowest card than by any other)."""
        lowest: dict[Group, tuple[float, str]] = {}
        for entry in self.state.collections[self.seat]:
            value = self.state.cards[entry.card].mana_value
            if entry.group not in lowest or value < lowest[entry.group][0]:
                lowest[entry.group] = (value, entry.card)
        return max((card_id for _, card_id in lowest.values()), key=lambda c: self.after(None, None, c))

    def after(self, value: float | None, group: Group | None, discard: str | None) -> float:
        """The seat's lead once it gains a card of mana ``value`` in ``group`` and loses ``discard``."""
        mine = dict(self.keys[self.seat])
        changed: set[Group] = set()
        if discard is not None:
            lost = next(entry.group for entry in self.state.collections[self.seat] if entry.card == discard)
            self.remove(mine, lost, discard)
            changed.add(lost)
        if group is not None and value is not None:
            size, top = mine.get(group, (0, value))
            mine[group] = (size + 1, max(top, value))
            changed.add(group)
        keys = [mine if other == self.seat else theirs for other, theirs in enumerate(self.keys)]
        totals = list(self.totals)
        totals[self.seat] += GROUPS_BONUS.get(len(mine), 0) - GROUPS_BONUS.get(len(self.keys[self.seat]), 0)
        for changed_group in changed:
            old, new = self.ranks[changed_group], self.group_points(changed_group, keys)
            for other in set(old) | set(new):
                totals[other] += new.get(other, 0) - old.get(other, 0)
        return self.lead(totals, len(mine))

    def remove(self, mine: dict[Group, Key], group: Group, card_id: str) -> None:
        """Take ``card_id`` out of ``group``: its size drops, its top is found again."""
        size, _ = mine[group]
        if size == 1:
            del mine[group]
            return
        rest = [
            self.state.cards[entry.card].mana_value
            for entry in self.state.collections[self.seat]
            if entry.group == group and entry.card != card_id
        ]
        mine[group] = (size - 1, max(rest))
