"""A game's card table as stored: each card by its catalog identity, not its facts.

A card instance is its id, the printed card it is (set and collector number), whether
it is foil, and whether it has a Magic back. The facts come back from the catalog, so a
game stores about 20 bytes per card instead of a few hundred.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from packplay.cards.boosters import INSERT_NAME
from packplay.cards.catalog import Catalog
from packplay.cards.model import Card, CardInstance

StoredCard = tuple[str, str, str, bool, bool]
"""``(id, set, collector number, foil, magic back)``."""


def compact(cards: Mapping[str, CardInstance]) -> list[StoredCard]:
    """The stored form of a card table, in id order."""
    return [(c.id, c.set, c.number, c.foil, c.magic_back) for _, c in sorted(cards.items())]


def expand(stored: Iterable[StoredCard], catalog: Catalog) -> dict[str, CardInstance]:
    """The card table back from its stored form.

    Raises:
        KeyError: a card is not in the catalog (its set was removed since).
    """
    return {stored_card[0]: _instance(catalog, *stored_card) for stored_card in stored}


def _instance(
    catalog: Catalog, card_id: str, code: str, number: str, foil: bool, magic_back: bool
) -> CardInstance:
    if magic_back:
        facts = catalog.card(code, number)
    else:
        facts = Card(set=code, number=number, name=INSERT_NAME, rarity="special", layout="insert")
    fields = {name: getattr(facts, name) for name in Card.__struct_fields__}
    return CardInstance(**fields, id=card_id, foil=foil, magic_back=magic_back)
