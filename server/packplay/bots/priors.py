"""What a hidden card may be: fresh boosters of the game's set, minus what is already seen.

A seat knows the facts of the cards in its view's card table and nothing of the
others, but it knows how they came to be: every card of the game was opened from a
draft booster of a known set, by that set's collation. So a hidden card is sampled by
opening fresh boosters with the bot's own generator (the same collation, never the
game's seed), taking out one card for each card already seen (the same card when
the fresh boosters hold it, else one of the same rarity), and drawing among the rest.
The result follows the booster's composition: one rare, three uncommons, a land slot,
colors balanced among the commons.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import ClassVar

from packplay.bots.budget import Budget
from packplay.cards.boosters import BoosterOpener
from packplay.cards.catalog import Catalog, load_catalog
from packplay.cards.model import Card, CardInstance
from packplay.rng import Rng

Keep = Callable[[CardInstance], bool]


@cache
def packaged_catalog() -> Catalog:
    """The catalog the bots sample from (loaded once per process)."""
    return load_catalog()


def main_set(cards: Iterable[Card], default: str) -> str:
    """The set most of the seat's known cards come from (the game's set), else ``default``."""
    counts = Counter(card.set for card in cards if card.set)
    return counts.most_common(1)[0][0] if counts else default


class SampledStrategy:
    """A strategy that samples hidden cards: its generator, its budget, and the prior of
    the game's set, made on the first decision (the set is read from the cards seen).
    ``fixed``: play with the reference's known mistakes mended (see :class:`StrongBot`)."""

    default_set: ClassVar[str]

    def __init__(self, rng: Rng, budget: Budget, *, fixed: bool = False) -> None:
        self.rng, self.budget, self.fixed = rng, budget, fixed
        self._prior: CardPrior | None = None

    def prior(self, cards: Mapping[str, Card]) -> CardPrior:
        if self._prior is None:
            self._prior = CardPrior(main_set(cards.values(), self.default_set), self.rng)
        return self._prior


class CardPrior:
    """Samples of hidden cards of one set, from the bot's own generator."""

    def __init__(self, set_code: str, rng: Rng, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or packaged_catalog()
        if set_code.upper() not in self.catalog:
            set_code = next(iter(self.catalog)).code
        self.set_code = set_code
        self._opener = BoosterOpener(self.catalog, rng)
        self.rng = rng

    def booster(self) -> list[CardInstance]:
        """The Magic cards of one fresh booster (the card without a Magic back left out, C-1)."""
        return [card for card in self._opener.open(self.set_code) if card.magic_back]

    def pool(self, boosters: int, keep: Keep | None = None) -> list[CardInstance]:
        cards = [card for _ in range(boosters) for card in self.booster()]
        return cards if keep is None else [card for card in cards if keep(card)]

    def hidden(
        self, seen: Sequence[Card], boosters: int, count: int, keep: Keep | None = None
    ) -> list[CardInstance]:
        """``count`` cards for the unseen part of ``boosters`` boosters whose ``seen`` cards
        are known, shuffled; ``keep`` limits both to the cards that can be hidden.

        Topped up from more fresh boosters when the seen cards leave too few.
        """
        rest = without_matches(self.pool(boosters, keep), seen)
        while len(rest) < count:
            rest += self.pool(1, keep)
        self.rng.shuffle(rest)
        return rest[:count]


def without_matches(pool: list[CardInstance], seen: Sequence[Card]) -> list[CardInstance]:
    """``pool`` less one card per seen card: the same card by name, else one of its rarity."""
    by_name: dict[str, list[int]] = defaultdict(list)
    by_rarity: dict[str, list[int]] = defaultdict(list)
    for index, card in enumerate(pool):
        by_name[card.name].append(index)
        by_rarity[card.rarity].append(index)
    removed: set[int] = set()
    for known in seen:
        found = _first_free(by_name.get(known.name, ()), removed)
        if found is None:
            found = _first_free(by_rarity.get(known.rarity, ()), removed)
        if found is not None:
            removed.add(found)
    return [card for index, card in enumerate(pool) if index not in removed]


def _first_free(indices: Iterable[int], removed: set[int]) -> int | None:
    for index in indices:
        if index not in removed:
            return index
    return None


def facts_of(ids: Iterable[str], table: Mapping[str, CardInstance]) -> list[CardInstance]:
    """The facts of the ids the card table holds (the others are hidden: left out)."""
    return [table[card_id] for card_id in ids if card_id in table]
