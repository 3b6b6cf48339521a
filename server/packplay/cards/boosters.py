"""Draft-booster collation: open seeded boosters of any set in the catalog.

A set with collation data opens as its print sheets say (variants by weight, then
each slot drawn from its sheet by weight, without repeating a card within a sheet,
commons colour-balanced where the sheet asks). A set without collation data opens
the generic layout: 10 commons, 3 uncommons, 1 rare or mythic (rare twice as likely
as each mythic), 1 land; one booster in three trades a common for a foil of any
rarity. Every booster also holds one card without a Magic back (RULES.md C-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from packplay.cards.catalog import BoosterLayout, CardSet, Catalog, Collation, Sheet
from packplay.cards.model import COLOR_ORDER, Card, CardInstance
from packplay.rng import Rng

INSERT_NAME = "Token or ad card"
"""The booster's card without a Magic back; no card data describes these, so it has no facts."""

GENERIC_FOIL_RARITY_WEIGHTS = (("common", 60), ("uncommon", 25), ("rare", 13), ("mythic", 2))


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
        card_set = self._catalog.set(set_code)
        if card_set.collation is not None:
            picks = _collated(card_set, card_set.collation, self._rng)
        else:
            picks = _generic(card_set, self._rng)
        booster = [self.instance(card, foil) for card, foil in picks]
        booster.append(self._insert(card_set.code))
        return booster

    def instance(self, card: Card, foil: bool = False, magic_back: bool = True) -> CardInstance:
        """A new physical card with a fresh id."""
        fields = {name: getattr(card, name) for name in Card.__struct_fields__}
        return CardInstance(**fields, id=self._new_id(), foil=foil, magic_back=magic_back)

    def _insert(self, set_code: str) -> CardInstance:
        card = Card(set=set_code, number="", name=INSERT_NAME, rarity="special", layout="insert")
        return self.instance(card, magic_back=False)

    def _new_id(self) -> str:
        while True:
            token = "c" + self._rng.token(40)
            if token not in self._issued:
                self._issued.add(token)
                return token


def open_boosters(catalog: Catalog, set_code: str, count: int, seed: int) -> list[list[CardInstance]]:
    """``count`` boosters of one set from ``seed`` (same seed, same boosters)."""
    opener = BoosterOpener(catalog, Rng(seed))
    return [opener.open(set_code) for _ in range(count)]


def _collated(card_set: CardSet, collation: Collation, rng: Rng) -> list[tuple[Card, bool]]:
    layout = _pick_layout(collation.layouts, rng)
    by_number = card_set.by_number()
    picks: list[tuple[Card, bool]] = []
    for sheet_name, count in layout.contents.items():
        sheet = collation.sheets[sheet_name]
        cards = [(by_number[number], weight) for number, weight in sheet.cards]
        for card in _draw_sheet(cards, count, sheet, rng):
            picks.append((card, sheet.foil))
    return picks


def _pick_layout(layouts: Sequence[BoosterLayout], rng: Rng) -> BoosterLayout:
    return layouts[rng.weighted_index([layout.weight for layout in layouts])]


def _draw_sheet(cards: list[tuple[Card, int]], count: int, sheet: Sheet, rng: Rng) -> list[Card]:
    """``count`` distinct cards of one sheet by weight; balanced sheets first take one per color."""
    pool = list(cards)
    drawn: list[Card] = []
    if sheet.balance_colors and count >= len(COLOR_ORDER):
        for color in COLOR_ORDER:
            mono = [i for i, (card, _) in enumerate(pool) if card.colors == (color,)]
            if mono:
                drawn.append(pool.pop(mono[rng.below(len(mono))])[0])
    while len(drawn) < count and pool:
        drawn.append(pool.pop(rng.weighted_index([weight for _, weight in pool]))[0])
    return drawn


def _generic(card_set: CardSet, rng: Rng) -> list[tuple[Card, bool]]:
    def rarity(name: str) -> list[tuple[Card, int]]:
        return [(c, 1) for c in card_set.cards if c.rarity == name and not c.basic_land]

    lands = [(c, 1) for c in card_set.cards if c.basic_land] or [
        (c, 1) for c in card_set.cards if c.is_land and c.rarity == "common"
    ]
    rare_slot = [(c, 2) for c, _ in rarity("rare")] + rarity("mythic")
    foil = rng.chance(1, 3)
    slots: list[tuple[list[tuple[Card, int]], int]] = [
        (rarity("common"), 9 if foil else 10),
        (rarity("uncommon"), 3),
        (rare_slot, 1),
        (lands or rarity("common"), 1),
    ]
    plain = Sheet(cards=())
    picks = [(card, False) for pool, count in slots for card in _draw_sheet(pool, count, plain, rng)]
    if foil:
        picks.append((_generic_foil(card_set, rng), True))
    return picks


def _generic_foil(card_set: CardSet, rng: Rng) -> Card:
    shares = [
        (name, weight)
        for name, weight in GENERIC_FOIL_RARITY_WEIGHTS
        if any(c.rarity == name for c in card_set.cards)
    ]
    name = shares[rng.weighted_index([w for _, w in shares])][0]
    return rng.choice([c for c in card_set.cards if c.rarity == name])
