"""Booster generation: exact slot counts, seeded reproducibility, ids, generic fallback."""

from collections import Counter

import pytest

from packplay.cards.boosters import INSERT_NAME, BoosterOpener, open_boosters
from packplay.cards.catalog import CardSet, Catalog, load_catalog
from packplay.rng import Rng

SETS = ("MID", "VOW", "MH2", "ZNR")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.mark.parametrize("code", SETS)
def test_booster_has_15_magic_cards_and_one_without_magic_back(catalog, code):
    for seed in range(50):
        [booster] = open_boosters(catalog, code, 1, seed)
        assert len(booster) == 16
        backless = [c for c in booster if not c.magic_back]
        assert len(backless) == 1 and backless[0].name == INSERT_NAME  # C-1
        assert sum(c.foil for c in booster) <= 1


@pytest.mark.parametrize("code", SETS)
def test_same_seed_same_boosters_other_seed_other_boosters(catalog, code):
    first = open_boosters(catalog, code, 3, 42)
    assert first == open_boosters(catalog, code, 3, 42)  # C-4
    assert first != open_boosters(catalog, code, 3, 43)


def test_ids_unique_within_a_game_and_opaque(catalog):
    opener = BoosterOpener(catalog, Rng(7))
    cards = [card for _ in range(40) for card in opener.open("MID")]
    ids = [card.id for card in cards]
    assert len(set(ids)) == len(ids)
    # C-6: an id is random, not derived from the card: the same card gets unrelated ids
    by_name: dict[str, list[str]] = {}
    for card in cards:
        by_name.setdefault(card.name, []).append(card.id)
    repeated = [v for v in by_name.values() if len(v) > 1]
    assert repeated and all(len(set(v)) == len(v) for v in repeated)
    assert all(len(i) == 11 and i.startswith("c") for i in ids)


def test_instance_gives_a_fresh_copy(catalog):
    opener = BoosterOpener(catalog, Rng(1))
    plains = catalog.basics("ZNR")[0]
    a, b = opener.instance(plains), opener.instance(plains)
    assert a.id != b.id and a.facts() == b.facts() == plains


def test_generic_layout_for_a_set_without_collation(catalog):
    mid = catalog.set("MID")
    plain = CardSet(code="GEN", name="No collation", cards=mid.cards)
    generic = Catalog([plain])
    for seed in range(300):
        [booster] = open_boosters(generic, "GEN", 1, seed)
        magic = [c for c in booster if c.magic_back]
        normal = [c for c in magic if not c.foil]
        foils = [c for c in magic if c.foil]
        rarity = Counter(c.rarity for c in normal if not c.basic_land)
        assert len(magic) == 15
        assert rarity["common"] == (9 if foils else 10)
        assert rarity["uncommon"] == 3
        assert rarity["rare"] + rarity["mythic"] == 1
        assert sum(c.basic_land for c in normal) == 1
