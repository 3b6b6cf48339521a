"""Setup of Mishra's Factory: set-aside cards (C-1), the deck and belt (MF-8),
seeded randomness (C-4), options and boosters."""

from __future__ import annotations

import pytest
from mf_helpers import ENGINE, card, cards, ids, new_game, stacked

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig, RuleError


@pytest.fixture(scope="module")
def catalog():  # type: ignore[no-untyped-def]
    return load_catalog()


def config(players: int = 2, sets: tuple[str, ...] = (), **options: object) -> GameConfig:
    return GameConfig(game="mishra_factory", players=players, sets=sets, options=dict(options))


def test_c1_cards_without_magic_back_are_set_aside() -> None:
    token = card("W", magic_back=False)
    deck = cards(6)
    state = new_game([[deck[0], token, *deck[1:3]], deck[3:]])
    assert state.set_aside == [token.id] and state.cards[token.id] == token
    assert token.id not in state.belt + state.deck
    assert ENGINE.zones(state)["set_aside"] == [token.id]


def test_mf8_first_four_cards_fill_positions_0_to_3_in_order() -> None:
    deck = cards(7)
    state = stacked(deck)
    assert state.belt == ids(deck[:4])
    assert state.deck == ids(deck[4:])


def test_mf8_boosters_form_one_deck_in_seat_order_when_unshuffled() -> None:
    a, b, c = cards(2), cards(2), cards(2)
    state = new_game([a, b, c])
    assert state.belt + state.deck == ids(a + b + c)


def test_deck_shuffle_is_seeded_c4() -> None:
    boosters = [cards(10), cards(10)]
    one = new_game(boosters, shuffle=True, seed=11)
    two = new_game(boosters, shuffle=True, seed=11)
    other = new_game(boosters, shuffle=True, seed=12)
    order = one.belt + one.deck
    assert order == two.belt + two.deck
    assert order != other.belt + other.deck
    assert sorted(order) == sorted(ids(boosters[0] + boosters[1]))


def test_first_player_is_drawn_from_the_seed_c4() -> None:
    boosters = [cards(3), cards(3), cards(3), cards(3)]
    cfg = config(4)
    seats = {ENGINE.setup(cfg, seed, None, boosters).first_seat for seed in range(40)}
    assert seats == {0, 1, 2, 3}
    assert ENGINE.setup(cfg, 5, None, boosters).first_seat == ENGINE.setup(cfg, 5, None, boosters).first_seat


def test_first_seat_option_fixes_the_first_player() -> None:
    state = new_game([cards(3), cards(3), cards(3)], first_seat=2)
    assert state.turn == 2
    assert ENGINE.pending(state) == (2,)


@pytest.mark.parametrize(
    "options",
    [{"colour": "red"}, {"shuffle": "no"}, {"first_seat": 2}, {"first_seat": -1}, {"first_seat": True}],
)
def test_bad_options_are_refused_as_bad_config(options: dict[str, object]) -> None:
    with pytest.raises(RuleError) as info:
        cfg = GameConfig(game="mishra_factory", players=2, options=options)
        ENGINE.setup(cfg, 1, None, [cards(2), cards(2)])
    assert info.value.reason == "bad_config"


def test_given_boosters_must_be_one_per_player() -> None:
    with pytest.raises(RuleError) as info:
        ENGINE.setup(config(3), 1, None, [cards(2), cards(2)])
    assert info.value.reason == "bad_config"


def test_given_boosters_must_have_unique_ids() -> None:
    same = card("R", card_id="dup")
    with pytest.raises(RuleError) as info:
        ENGINE.setup(config(2), 1, None, [[same], [card("G", card_id="dup")]])
    assert info.value.reason == "bad_config"


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_is_2_to_4(players: int) -> None:
    with pytest.raises(RuleError):
        ENGINE.setup(config(players), 1, None, None)


def test_opens_one_mh2_booster_per_player_by_default(catalog) -> None:  # type: ignore[no-untyped-def]
    state = ENGINE.setup(config(3), 99, catalog)
    everything = [state.cards[i] for i in state.belt + state.deck + state.set_aside]
    assert len(everything) == 3 * 16 and len(state.cards) == 3 * 16
    assert {c.set for c in everything} == {"MH2"}
    assert all(not state.cards[i].magic_back for i in state.set_aside) and len(state.set_aside) == 3
    assert all(state.cards[i].magic_back for i in state.belt + state.deck)
    again = ENGINE.setup(config(3), 99, catalog)
    assert again == state  # C-4: the seed fixes the boosters, the shuffle and the first seat


def test_a_seed_gives_the_same_deal_as_always_c4(catalog) -> None:  # type: ignore[no-untyped-def]
    state = ENGINE.setup(config(3), 5, catalog)
    assert state.first_seat == 0
    assert state.belt == ["c2a6a375391", "c1b767d5274", "c47687c966c", "c5c0585a01c"]
    names = [state.cards[i].name for i in state.belt]
    assert names == ["So Shiny", "Tavern Scoundrel", "Ornithopter of Paradise", "Break Ties"]
    assert state.deck[:2] == ["c4f10e6d8e6", "c5876531737"] and len(state.deck) == 41


def test_the_card_table_holds_every_card_of_the_game_and_zones_hold_ids() -> None:
    token = card("W", magic_back=False)
    deck = cards(6)
    state = new_game([[deck[0], token, *deck[1:3]], deck[3:]])
    assert state.cards == {c.id: c for c in [*deck, token]}
    zoned = state.belt + state.deck + state.set_aside
    assert all(isinstance(i, str) for i in zoned) and sorted(zoned) == sorted(state.cards)


def test_booster_i_uses_sets_i_mod_len(catalog) -> None:  # type: ignore[no-untyped-def]
    state = ENGINE.setup(config(4, sets=("MH2", "ZNR"), shuffle=False), 3, catalog)
    magic = [state.cards[i] for i in state.belt + state.deck]
    assert [c.set for c in magic[:15]] == ["MH2"] * 15
    assert [c.set for c in magic[15:30]] == ["ZNR"] * 15
    assert [c.set for c in magic[30:45]] == ["MH2"] * 15


def test_unknown_set_is_bad_config(catalog) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as info:
        ENGINE.setup(config(2, sets=("NOPE",)), 1, catalog)
    assert info.value.reason == "bad_config"


def test_fewer_than_four_cards_fill_a_short_belt() -> None:
    deck = cards(3)
    state = stacked(deck)
    assert state.belt == ids(deck) and state.deck == []
