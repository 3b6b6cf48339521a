"""Collation over 10,000 seeded boosters per set, against the documented draft-booster facts.

Every rate is checked within five binomial standard deviations of its documented value
(sigma = sqrt(p(1-p)/n)); with n = 10,000 that is about +-2.4 points at p = 1/3. The run is
seeded, so a pass is stable; the bound is what a wrong rate (e.g. mythics at rare weight,
a foil in every pack) could not meet.
"""

import math
from collections import Counter
from collections.abc import Callable

import pytest

from packplay.cards.boosters import open_boosters
from packplay.cards.catalog import load_catalog
from packplay_protocol.cards import CardInstance

N = 10_000
Booster = list[CardInstance]


@pytest.fixture(scope="module")
def opened() -> dict[str, list[Booster]]:
    catalog = load_catalog()
    return {code: open_boosters(catalog, code, N, seed=20211) for code in ("MID", "VOW", "MH2", "ZNR")}


def rate(boosters: list[Booster], predicate: Callable[[Booster], bool]) -> float:
    return sum(1 for b in boosters if predicate(b)) / len(boosters)


def assert_rate(observed: float, expected: float) -> None:
    sigma = math.sqrt(expected * (1 - expected) / N)
    assert abs(observed - expected) <= 5 * sigma, f"observed {observed:.4f}, documented {expected:.4f}"


def non_foil(booster: Booster) -> Booster:
    return [c for c in booster if c.magic_back and not c.foil]


def has_foil(booster: Booster) -> bool:
    return any(c.foil for c in booster)


def count(booster: Booster, predicate: Callable[[CardInstance], bool]) -> int:
    return sum(1 for c in non_foil(booster) if predicate(c))


@pytest.mark.parametrize("code", ["MID", "VOW", "MH2", "ZNR"])
def test_one_booster_in_three_has_a_foil(opened, code):
    assert_rate(rate(opened[code], has_foil), 1 / 3)


@pytest.mark.parametrize("code", ["MID", "VOW", "MH2", "ZNR"])
def test_no_card_twice_unless_one_copy_is_foil(opened, code):
    for booster in opened[code]:
        names = Counter(c.name for c in non_foil(booster) if not c.basic_land)
        assert max(names.values()) == 1


@pytest.mark.parametrize("code", ["MID", "VOW"])
def test_innistrad_slots(opened, code):
    for booster in opened[code]:
        cards = non_foil(booster)
        foil = has_foil(booster)
        dfc = [c for c in cards if c.layout == "transform"]
        assert len(cards) == 15 - foil
        assert len(dfc) == 2  # one DFC common + one DFC uncommon-or-better
        assert sum(c.basic_land for c in cards) == 1
        assert sum(c.rarity in ("rare", "mythic") for c in cards) == 1
        assert sum(c.rarity == "common" and not c.basic_land for c in cards) == 10 - foil
        assert sum(c.rarity == "uncommon" for c in cards) == 3
        assert sum(c.layout == "transform" and c.rarity == "common" for c in cards) == 1
    # documented: the DFC rare/mythic replaces the SFC one in 3/18 packs; mythic in ~13.4% of packs
    assert_rate(
        rate(
            opened[code],
            lambda b: count(b, lambda c: c.layout == "transform" and c.rarity in ("rare", "mythic")) == 1,
        ),
        3 / 18,
    )
    mythic = 15 / 18 * 15 / 121 + 3 / 18 * 5 / 27
    assert_rate(rate(opened[code], lambda b: count(b, lambda c: c.rarity == "mythic") == 1), mythic)


def test_zendikar_rising_slots(opened):
    for booster in opened["ZNR"]:
        cards = non_foil(booster)
        foil = has_foil(booster)
        mdfc = [c for c in cards if c.layout == "modal_dfc"]
        assert len(cards) == 15 - foil
        assert len(mdfc) == 1 and mdfc[0].rarity != "common"  # the modal double-faced slot
        assert sum(c.basic_land for c in cards) == 1
        assert sum(c.rarity in ("rare", "mythic") for c in cards) == 1
        assert sum(c.rarity == "uncommon" for c in cards) == 3
    assert_rate(
        rate(
            opened["ZNR"],
            lambda b: count(b, lambda c: c.layout == "modal_dfc" and c.rarity != "uncommon") == 1,
        ),
        27 / 148,
    )
    mythic = 363 / 444 * 15 / 121 + 81 / 444 * 5 / 27
    assert_rate(rate(opened["ZNR"], lambda b: count(b, lambda c: c.rarity == "mythic") == 1), mythic)


def test_modern_horizons_2_slots(opened):
    shares: Counter[str] = Counter()
    for booster in opened["MH2"]:
        cards = non_foil(booster)
        foil = has_foil(booster)
        reprints = [c for c in cards if 262 <= int(c.number) <= 303]
        assert len(cards) == 15 - foil
        assert not any(c.basic_land for c in cards)  # no basic land slot
        assert len(reprints) == 1  # the new-to-Modern slot
        shares[reprints[0].rarity] += 1
        new = [c for c in cards if int(c.number) < 262]
        assert sum(c.rarity in ("rare", "mythic") for c in new) == 1
        assert sum(c.rarity == "uncommon" for c in new) == 3
        assert sum(c.rarity == "common" for c in new) == 10 - foil
    # documented: new-to-Modern 71.4% uncommon, 25.7% rare, 2.9% mythic; new mythics 20/140 = 14.3%
    assert_rate(shares["uncommon"] / N, 100 / 140)
    assert_rate(shares["rare"] / N, 36 / 140)
    assert_rate(shares["mythic"] / N, 4 / 140)
    new_mythic = rate(
        opened["MH2"], lambda b: count(b, lambda c: c.rarity == "mythic" and int(c.number) < 262) == 1
    )
    assert_rate(new_mythic, 20 / 140)


@pytest.mark.parametrize("code", ["MID", "VOW", "MH2", "ZNR"])
def test_foil_rarity_shares(opened, code):
    foils = [c for b in opened[code] for c in b if c.foil]
    n = len(foils)
    by_rarity = Counter("common" if c.basic_land else c.rarity for c in foils)
    # documented shares of the foil sheet: common (basics included) 60%, uncommon 25%, rare ~13%, mythic ~2%
    for rarity, expected in (("common", 0.60), ("uncommon", 0.25), ("rare", 0.13), ("mythic", 0.02)):
        sigma = math.sqrt(expected * (1 - expected) / n)
        assert abs(by_rarity[rarity] / n - expected) <= 5 * sigma + 0.005, (rarity, by_rarity[rarity] / n)


@pytest.mark.parametrize("code", ["MID", "VOW", "MH2", "ZNR"])
def test_commons_are_colour_balanced(opened, code):
    for booster in opened[code][:2000]:
        colors = {c.colors[0] for c in non_foil(booster) if c.rarity == "common" and len(c.colors) == 1}
        assert colors == set("WUBRG")
