"""Base Race setup: the deal, base camps, set-aside and removed cards, BR-8, options."""

from __future__ import annotations

from typing import Any

import pytest
from br_helpers import (
    ENGINE,
    artifact,
    basic,
    config,
    creature,
    creatures,
    dealt,
    insert,
    land,
    make,
    new_game,
    spell,
)

from packplay.cards.catalog import load_catalog
from packplay.cards.model import Card
from packplay.games.base import GameConfig, RuleError
from packplay.games.base_race.state import BaseRaceState


@pytest.fixture(scope="module")
def catalog() -> Any:
    return load_catalog()


class FakeCatalog:
    """Only what BR-8 needs: ``basics(set)``."""

    def __init__(self, basics: dict[str, list[Card]]) -> None:
        self._basics = basics

    def basics(self, code: str) -> list[Card]:
        if code not in self._basics:
            raise LookupError(code)
        return self._basics[code]


def _hand_ids(state: BaseRaceState, seat: int) -> set[str]:
    return set(state.hands[seat])


def test_deal_gives_each_seat_a_base_camp_and_11_cards() -> None:
    camps = [basic("Forest"), basic("Island")]
    hands = [creatures(11), creatures(11)]
    state = dealt(camps, hands)
    for seat in (0, 1):
        assert state.camps[seat] == camps[seat].id
        assert _hand_ids(state, seat) == {c.id for c in hands[seat]} | {camps[seat].id}
        assert len(state.hands[seat]) == 12
    assert ENGINE.pending(state) == (0, 1)


def test_c1_cards_without_magic_back_are_set_aside() -> None:
    token = insert()
    state = new_game([[basic(), basic(), token, *creatures(22)], [], []])
    assert state.set_aside == [token.id]
    assert token.id not in state.owners


def test_other_lands_and_extra_basics_are_removed() -> None:
    """Setup: every land but the two base camps leaves the game (face down, zone "out")."""
    extra_basic, nonbasic = basic("Swamp"), land()
    state = new_game([[basic(), basic(), extra_basic, nonbasic, *creatures(22)], [], []])
    assert set(state.out) == {extra_basic.id, nonbasic.id}
    assert all(not state.cards[c].is_land for seat in (0, 1) for c in state.hands[seat][:-1])


def test_undealt_cards_stay_out() -> None:
    spare = creatures(5)
    state = new_game([[basic(), basic(), *creatures(22), *spare], [], []])
    assert set(state.out) == {c.id for c in spare}


def test_br8_mdfc_with_spell_front_stays_in() -> None:
    """BR-8 / C-3: a modal DFC whose front face is a spell is not a land, so it is dealt."""
    mdfc = make(("Instant",), layout="modal_dfc", name="Spell Front // Land Back")
    state = new_game([[basic(), basic(), mdfc, *creatures(21)], [], []])
    assert mdfc.id in state.hands[0]


def test_cards_come_from_all_three_boosters() -> None:
    boosters = [[basic(), *creatures(8)], [basic(), *creatures(8)], creatures(8)]
    state = new_game(boosters)
    assert len(state.hands[0]) == len(state.hands[1]) == 12
    dealt_ids = set(state.hands[0]) | set(state.hands[1])
    assert boosters[2][0].id in dealt_ids


def test_br8_one_basic_adds_one_from_the_catalog() -> None:
    """BR-8: fewer than two basics opened -> the set's basics are added."""
    plains = Card(set="ZNR", number="266", name="Plains", rarity="common", types=("Land",), basic_land=True)
    own = basic()
    boosters = [[own, *creatures(22)], [], []]
    state = ENGINE.setup(config(shuffle=False), 3, FakeCatalog({"ZNR": [plains]}), boosters)
    assert state.camps[0] == own.id
    added = state.cards[state.camps[1]]
    assert added.name == "Plains" and added.set == "ZNR" and added.id != own.id
    assert state.camps[1] in state.hands[1]


def test_br8_no_basic_adds_two(catalog: Any) -> None:
    boosters = [creatures(22), [], []]
    state = ENGINE.setup(config(), 3, catalog, boosters)
    camps = [state.cards[c] for c in state.camps]
    assert all(c.basic_land and c.set == "ZNR" for c in camps)
    assert camps[0].id != camps[1].id


def test_br8_uses_the_first_configured_set_with_basics() -> None:
    island = Card(set="AAA", number="1", name="Island", rarity="common", types=("Land",), basic_land=True)
    fake = FakeCatalog({"NOB": [], "AAA": [island]})
    cfg = GameConfig(game="base_race", players=2, sets=("XXX", "NOB", "AAA"))
    state = ENGINE.setup(cfg, 3, fake, [creatures(22), [], []])
    assert {state.cards[c].set for c in state.camps} == {"AAA"}


@pytest.mark.parametrize("catalog_basics", [None, FakeCatalog({"ZNR": []}), FakeCatalog({})])
def test_br8_refused_without_catalog_basics(catalog_basics: Any) -> None:
    with pytest.raises(RuleError) as error:
        ENGINE.setup(config(), 3, catalog_basics, [[basic(), *creatures(22)], [], []])
    assert error.value.reason == "bad_config" and error.value.rule == "BR-8"


def test_too_few_nonland_cards_is_bad_config() -> None:
    with pytest.raises(RuleError) as error:
        new_game([[basic(), basic(), *creatures(21), land()], [], []])
    assert error.value.reason == "bad_config"


def test_wrong_booster_count_is_bad_config() -> None:
    with pytest.raises(RuleError) as error:
        new_game([[basic(), basic(), *creatures(22)], []])
    assert error.value.reason == "bad_config"


def test_duplicate_ids_are_bad_config() -> None:
    twin = creature()
    with pytest.raises(RuleError) as error:
        new_game([[basic(), basic(), twin, twin, *creatures(21)], [], []])
    assert error.value.reason == "bad_config"


@pytest.mark.parametrize(
    "options",
    [
        {"colour": 1},
        {"shuffle": "no"},
        {"shuffle": 0},
        {"move_limit": 0},
        {"move_limit": "9"},
        {"move_limit": True},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as error:
        ENGINE.setup(config(**options), 1, None, [[basic(), basic(), *creatures(22)], [], []])
    assert error.value.reason == "bad_config"


def test_only_two_players() -> None:
    with pytest.raises(RuleError) as error:
        ENGINE.setup(GameConfig(game="base_race", players=3), 1, None, [[], [], []])
    assert error.value.reason == "bad_config"


def test_shuffle_deals_by_seed() -> None:
    pool = [basic(), basic(), basic(), *creatures(30), *[spell() for _ in range(5)], artifact()]
    deals = {tuple(ENGINE.setup(config(), seed, None, [pool, [], []]).hands[0]) for seed in range(6)}
    assert len(deals) > 1
    again = ENGINE.setup(config(), 4, None, [pool, [], []])
    assert again == ENGINE.setup(config(), 4, None, [pool, [], []])


def test_c4_opened_boosters_are_reproducible(catalog: Any) -> None:
    """C-4: the seed fixes the boosters, the camps and the deal."""
    cfg = GameConfig(game="base_race", players=2)
    one, two = ENGINE.setup(cfg, 11, catalog), ENGINE.setup(cfg, 11, catalog)
    assert one == two
    assert ENGINE.setup(cfg, 12, catalog).cards != one.cards


def test_opened_boosters_cycle_the_configured_sets(catalog: Any) -> None:
    cfg = GameConfig(game="base_race", players=2, sets=("ZNR", "MID"))
    state = ENGINE.setup(cfg, 5, catalog)
    sets = [c.set for c in state.cards.values()]
    assert sets.count("MID") == 16 and sets.count("ZNR") >= 32
    assert len(state.set_aside) == 3


def test_default_set_is_znr(catalog: Any) -> None:
    state = ENGINE.setup(GameConfig(game="base_race", players=2), 5, catalog)
    assert {c.set for c in state.cards.values() if c.magic_back} == {"ZNR"}
    assert all(state.cards[c].is_land and state.cards[c].basic_land for c in state.camps)
    nonland_dealt = [c for seat in (0, 1) for c in state.hands[seat] if c not in state.camps]
    assert len(nonland_dealt) == 22 and not any(state.cards[c].is_land for c in nonland_dealt)


def test_unknown_set_is_bad_config(catalog: Any) -> None:
    with pytest.raises(RuleError) as error:
        ENGINE.setup(GameConfig(game="base_race", players=2, sets=("NOPE",)), 5, catalog)
    assert error.value.reason == "bad_config"
