"""The packaged catalog: counts per set as documented, and facts every game relies on."""

from collections import Counter
from pathlib import Path

import msgspec
import pytest

from packplay.cards.catalog import PACKAGED_DIR, UnknownSetError, load_catalog

# Counts from the card data's provenance notes: rows, rarities, basic lands, layouts.
EXPECTED = {
    "MID": (
        277,
        {"common": 100, "uncommon": 83, "rare": 64, "mythic": 20},
        10,
        {"normal": 228, "transform": 49},
    ),
    "VOW": (
        277,
        {"common": 100, "uncommon": 83, "rare": 64, "mythic": 20},
        10,
        {"normal": 228, "transform": 49},
    ),
    "MH2": (
        313,
        {"common": 101, "uncommon": 100, "rare": 78, "mythic": 24},
        10,
        {"normal": 308, "split": 3, "aftermath": 1, "saga": 1},
    ),
    "ZNR": (
        280,
        {"common": 101, "uncommon": 80, "rare": 64, "mythic": 20},
        15,
        {"normal": 244, "modal_dfc": 36},
    ),
}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_set_counts_match_provenance(catalog, code):
    rows, rarities, basics, layouts = EXPECTED[code]
    cards = catalog.set(code).cards
    non_basic = Counter(c.rarity for c in cards if not c.basic_land)
    basic = [c for c in cards if c.basic_land]
    assert len(cards) == rows
    assert len(basic) == basics
    assert all(c.rarity == "common" for c in basic)
    assert dict(non_basic) == rarities
    assert dict(Counter(c.layout for c in cards)) == layouts


def test_totals_creatures_and_planeswalkers(catalog):
    cards = [c for s in catalog for c in s.cards]
    creatures = [c for c in cards if "Creature" in c.types]
    walkers = [c for c in cards if "Planeswalker" in c.types]
    assert len(cards) == 1147
    assert len(creatures) == 624
    assert len(walkers) == 12
    assert all(c.toughness and c.power for c in creatures)
    assert all(c.loyalty for c in walkers)


def test_collector_numbers_are_complete_and_unique(catalog):
    for card_set in catalog:
        numbers = [c.number for c in card_set.cards]
        assert len(numbers) == len(set(numbers))
    assert {c.number for c in catalog.set("MID").cards} == {str(n) for n in range(1, 278)}
    mh2 = {int(c.number) for c in catalog.set("MH2").cards}
    assert mh2 == set(range(1, 304)) | set(range(481, 491))


def test_facts_of_known_cards(catalog):
    [fire_ice] = catalog.find("Fire // Ice")
    assert (fire_ice.colors, fire_ice.mana_value, fire_ice.type_line) == (("U", "R"), 4, "Instant // Instant")
    [blob] = catalog.find("Consuming Blob")
    assert (blob.power, blob.toughness) == ("*", "*+1")
    [awakening] = catalog.find("Agadeem's Awakening")
    assert awakening.mana_value == 3 and not awakening.is_land  # C-3: a spell front is not a land
    [grist] = catalog.find("Grist, the Hunger Tide")
    assert grist.loyalty == "3" and grist.is_legendary
    assert catalog.card("MID", "268").basic_land and catalog.card("MID", "268").name == "Plains"


def test_colors_are_front_face_and_lands_colorless(catalog):
    for card_set in catalog:
        for card in card_set.cards:
            assert list(card.colors) == sorted(card.colors, key="WUBRG".index)
            if card.is_land:
                assert card.colors == ()


def test_unknown_set_names_the_known_ones(catalog):
    with pytest.raises(UnknownSetError, match="MH2, MID, VOW, ZNR"):
        catalog.set("XYZ")
    assert catalog.set("mid").code == "MID"


def test_derived_lookups_are_built_once_per_set_and_builder():
    catalog = load_catalog()
    built = []

    def names(card_set):
        built.append(card_set.code)
        return [card.name for card in card_set.cards]

    def count(card_set):
        return len(card_set.cards)

    first = catalog.derived("MID", names)
    assert catalog.derived("mid", names) is first
    assert catalog.derived("VOW", names) is not first
    assert built == ["MID", "VOW"]
    assert catalog.derived("MID", count) == 277
    with pytest.raises(UnknownSetError):
        catalog.derived("XYZ", names)


def test_packaged_files_are_compact_facts_only():
    for path in PACKAGED_DIR.glob("*.json"):
        text = path.read_text()
        for forbidden in ('"text"', '"flavorText"', '"artist"', "http"):
            assert forbidden not in text
        assert path.stat().st_size < 100_000


def test_extra_card_dir_adds_and_overrides_sets(tmp_path: Path, monkeypatch):
    from packplay.cards.catalog import write_set_file

    mid = load_catalog().set("MID")
    renamed = type(mid)(code="TST", name="Test copy", cards=mid.cards[:20])
    write_set_file(renamed, tmp_path)
    monkeypatch.setenv("PACKPLAY_CARD_DIR", str(tmp_path))
    catalog = load_catalog()
    assert "TST" in catalog and len(catalog.set("TST").cards) == 20
    assert "MID" in catalog


def test_a_card_at_the_default_layout_leaves_it_out_on_the_wire(catalog):
    normal = [card for card in catalog.set("MID").cards if card.layout == "normal"]
    other = next(card for card in catalog.set("MID").cards if card.layout != "normal")
    assert normal
    assert all(b'"layout"' not in msgspec.json.encode(card) for card in normal)
    assert f'"layout":"{other.layout}"'.encode() in msgspec.json.encode(other)
