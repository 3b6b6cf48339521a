"""Draft-booster collation: open seeded boosters of any set in the catalog.

A set with collation data opens as its print sheets say (variants by weight, then
each slot drawn from its sheet by weight, without repeating a card within a sheet,
commons colour-balanced where the sheet asks). A set without collation data opens
the generic layout: 10 commons, 3 uncommons, 1 rare or mythic (rare twice as likely
as each mythic), 1 land; one booster in three trades a common for a foil of any
rarity. Every booster also holds one card without a Magic back (RULES.md C-1).

Speed: what a booster is drawn from (print sheets with their running weight sums)
is prepared once per set and kept with the catalog (``Catalog.derived``), and each
card's instance template is made the first time it is drawn, so opening a booster
costs its random draws and one copy per card. The draws are exactly those of
drawing from the sheet lists directly (pinned in the tests), so a seed opens the
same boosters as it always did.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Sequence

import msgspec

from packplay.cards.catalog import CardSet, Catalog, Collation
from packplay.cards.model import COLOR_ORDER, Card, CardInstance
from packplay.rng import Rng

INSERT_NAME = "Token or ad card"
"""The booster's card without a Magic back; no card data describes these, so it has no facts."""

GENERIC_FOIL_RARITY_WEIGHTS = (("common", 60), ("uncommon", 25), ("rare", 13), ("mythic", 2))

_replace = msgspec.structs.replace


class BoosterOpener:
    """Opens boosters for one game: all instance ids it hands out are distinct."""

    def __init__(self, catalog: Catalog, rng: Rng, taken: Iterable[str] = ()) -> None:
        self._catalog = catalog
        self._rng = rng
        self._issued: set[str] = set(taken)

    def open(self, set_code: str) -> list[CardInstance]:
        """One booster: 15 Magic cards, then the card without a Magic back.

        Raises:
            UnknownSetError: the set is not in the catalog.
        """
        plan = self._catalog.derived(set_code, _Plan)
        picks = plan.collated(self._rng) if plan.collation is not None else plan.generic(self._rng)
        picks.append(plan.insert)
        token, issued = self._rng.token, self._issued
        booster: list[CardInstance] = []
        for template in picks:
            card_id = "c" + token(40)
            if card_id in issued:
                card_id = self._new_id()
            else:
                issued.add(card_id)
            booster.append(_replace(template, id=card_id))
        return booster

    def instance(self, card: Card, foil: bool = False, magic_back: bool = True) -> CardInstance:
        """A new physical card with a fresh id."""
        return _template(card, foil, magic_back, self._new_id())

    def _new_id(self) -> str:
        """A token not issued yet (``open`` inlines the first try: keep both in step)."""
        while True:
            token = "c" + self._rng.token(40)
            if token not in self._issued:
                self._issued.add(token)
                return token


def open_boosters(catalog: Catalog, set_code: str, count: int, seed: int) -> list[list[CardInstance]]:
    """``count`` boosters of one set from ``seed`` (same seed, same boosters)."""
    opener = BoosterOpener(catalog, Rng(seed))
    return [opener.open(set_code) for _ in range(count)]


def _template(card: Card, foil: bool, magic_back: bool, card_id: str = "") -> CardInstance:
    if type(card) is Card:
        fields = msgspec.structs.asdict(card)
    else:
        fields = {name: getattr(card, name) for name in Card.__struct_fields__}
    return CardInstance(**fields, id=card_id, foil=foil, magic_back=magic_back)


class _Sheet:
    """A print sheet ready to draw from: its cards, weights and running weight sums.

    ``starts[i]``/``ends[i]`` bound card i's share of ``[0, total)``; ``mono`` lists, per
    color of ``COLOR_ORDER``, the indices of the cards of exactly that color (for a
    sheet that balances colors only). Each card's instance template (id left empty)
    is made the first time it is drawn.
    """

    __slots__ = ("balance_colors", "cards", "ends", "foil", "mono", "starts", "templates", "total", "weights")

    def __init__(
        self,
        cards: Sequence[Card],
        weights: Sequence[int],
        *,
        foil: bool = False,
        balance_colors: bool = False,
    ) -> None:
        self.cards = tuple(cards)
        self.weights = tuple(weights)
        self.foil = foil
        self.balance_colors = balance_colors
        self.templates: list[CardInstance | None] = [None] * len(self.cards)
        self.ends = tuple(itertools.accumulate(self.weights))
        self.starts = tuple(end - weight for end, weight in zip(self.ends, self.weights, strict=True))
        self.total = self.ends[-1] if self.ends else 0
        self.mono = tuple(
            tuple(i for i, card in enumerate(self.cards) if card.colors == (color,))
            for color in (COLOR_ORDER if balance_colors else ())
        )

    def draw(self, count: int, rng: Rng) -> list[CardInstance]:
        """``count`` distinct cards by weight; balanced sheets first take one per color.

        The same draws as picking from a list of the remaining cards, removing each
        card drawn: a balanced pick is uniform among the cards of one color (none of
        which was removed yet), a weighted pick is ``below(remaining weight)`` read
        against the remaining cards in sheet order. Here the pick is moved past the
        shares of the removed cards before it, then found by bisection.
        """
        if count == 1 and self.cards:
            return [self._template(bisect.bisect_right(self.ends, rng.below(self.total)))]
        drawn: list[int] = []
        if self.balance_colors and count >= len(COLOR_ORDER):
            for mono in self.mono:
                if mono:
                    drawn.append(mono[rng.below(len(mono))])
        size = len(self.cards)
        if len(drawn) < count and len(drawn) < size:
            starts, weights, ends = self.starts, self.weights, self.ends
            removed = sorted(drawn)
            remaining = self.total - sum(weights[i] for i in drawn)
            while len(drawn) < count and len(drawn) < size:
                pick = rng.below(remaining)
                for index in removed:
                    if starts[index] > pick:
                        break
                    pick += weights[index]
                index = bisect.bisect_right(ends, pick)
                drawn.append(index)
                bisect.insort(removed, index)
                remaining -= weights[index]
        return [self._template(i) for i in drawn]

    def _template(self, index: int) -> CardInstance:
        template = self.templates[index]
        if template is None:
            template = self.templates[index] = _template(self.cards[index], self.foil, True)
        return template


class _Plan:
    """What one set's boosters are drawn from, built once per set of a catalog (``Catalog.derived``).

    Sheets are prepared when first drawn from, so a sheet no layout picks is never
    read (a broken one fails only when picked, as when drawing from the lists).
    """

    def __init__(self, card_set: CardSet) -> None:
        self.card_set = card_set
        self.collation: Collation | None = card_set.collation
        insert = Card(set=card_set.code, number="", name=INSERT_NAME, rarity="special", layout="insert")
        self.insert = _template(insert, False, False)
        self._sheets: dict[str, _Sheet] = {}
        self._by_number: dict[str, Card] | None = None
        self._generic: _GenericPlan | None = None
        if self.collation is not None:
            self.layout_weights = tuple(layout.weight for layout in self.collation.layouts)
            self.layout_slots = tuple(tuple(layout.contents.items()) for layout in self.collation.layouts)

    def collated(self, rng: Rng) -> list[CardInstance]:
        slots = self.layout_slots[rng.weighted_index(self.layout_weights)]
        picks: list[CardInstance] = []
        for sheet_name, count in slots:
            sheet = self._sheets.get(sheet_name) or self._sheet(sheet_name)
            picks.extend(sheet.draw(count, rng))
        return picks

    def _sheet(self, name: str) -> _Sheet:
        assert self.collation is not None
        sheet = self.collation.sheets[name]
        if self._by_number is None:
            self._by_number = self.card_set.by_number()
        cards = [self._by_number[number] for number, _ in sheet.cards]
        weights = [weight for _, weight in sheet.cards]
        prepared = _Sheet(cards, weights, foil=sheet.foil, balance_colors=sheet.balance_colors)
        self._sheets[name] = prepared
        return prepared

    def generic(self, rng: Rng) -> list[CardInstance]:
        if self._generic is None:
            self._generic = _GenericPlan(self.card_set)
        return self._generic.draw(rng)


class _GenericPlan:
    """The generic layout's pools of one set (for a set without collation data).

    A foil is a uniform pick among the set's cards of its rarity: a one-card draw
    from a sheet of equal weights draws exactly as ``Rng.choice`` does.
    """

    def __init__(self, card_set: CardSet) -> None:
        cards = card_set.cards

        def rarity(name: str) -> list[Card]:
            return [c for c in cards if c.rarity == name and not c.basic_land]

        def even(pool: Sequence[Card], foil: bool = False) -> _Sheet:
            return _Sheet(pool, [1] * len(pool), foil=foil)

        lands = [c for c in cards if c.basic_land] or [c for c in cards if c.is_land and c.rarity == "common"]
        rares, mythics = rarity("rare"), rarity("mythic")
        self.commons = even(rarity("common"))
        self.uncommons = even(rarity("uncommon"))
        self.rare_slot = _Sheet([*rares, *mythics], [2] * len(rares) + [1] * len(mythics))
        self.land_slot = even(lands) if lands else self.commons
        shares = [
            (name, w) for name, w in GENERIC_FOIL_RARITY_WEIGHTS if any(c.rarity == name for c in cards)
        ]
        self.foil_weights = tuple(weight for _, weight in shares)
        self.foils = tuple(even([c for c in cards if c.rarity == name], foil=True) for name, _ in shares)

    def draw(self, rng: Rng) -> list[CardInstance]:
        foil = rng.chance(1, 3)
        picks = self.commons.draw(9 if foil else 10, rng)
        picks += self.uncommons.draw(3, rng)
        picks += self.rare_slot.draw(1, rng)
        picks += self.land_slot.draw(1, rng)
        if foil:
            picks += self.foils[rng.weighted_index(self.foil_weights)].draw(1, rng)
        return picks
