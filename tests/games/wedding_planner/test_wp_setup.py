"""Setup: set-aside cards, themes, the pile and the deal, options, seats (C-1, C-3, C-4, WP-6)."""

from __future__ import annotations

from typing import Any

import pytest
from wp_helpers import ENGINE, card, config, dull, insert, land, new_game, stacked

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig, RuleError
from packplay.games.registry import get_game
from packplay.games.wedding_planner import WeddingPlanner


def booster(theme_colors: str = "B", extra: int = 13) -> list[Any]:
    """A 15-card booster plus an insert: one theme candidate, dull cards, a land."""
    return [card(theme_colors, mv=2), land(), *dull(extra), insert()]


def test_registry_and_class_vars() -> None:
    engine = get_game("wedding_planner")
    assert isinstance(engine, WeddingPlanner)
    assert (engine.min_players, engine.max_players) == (2, 6)
    assert engine.default_sets == ("VOW",)


def test_c1_cards_without_magic_back_are_set_aside() -> None:
    """C-1: the insert of each booster is set aside; never dealt, never a theme."""
    boosters = [booster() for _ in range(3)]
    state = new_game(boosters)
    inserts = [b[-1].id for b in boosters]
    assert sorted(state.set_aside) == sorted(inserts)
    in_play = state.draw + state.discard + [c for h in state.hands for c in h]
    assert not set(inserts) & set(in_play)
    assert not set(inserts) & set(state.themes)


def test_wp_theme_drawn_from_own_booster_candidates() -> None:
    """Theme: a non-land, non-colorless Magic card of the seat's own booster."""
    for seed in range(20):
        boosters = [booster("W"), booster("U"), booster("G")]
        state = new_game(boosters, seed=seed, shuffle=True)
        for seat, theme in enumerate(state.themes):
            assert theme == boosters[seat][0].id


def test_wp_theme_random_among_candidates_c4() -> None:
    """C-4: the theme pick is a seeded random draw among the seat's candidates."""
    candidates = [card("R", mv=mv) for mv in range(1, 6)]
    seen = set()
    for seed in range(40):
        boosters = [[*candidates, *dull(10)], booster()]
        state = new_game(boosters, seed=seed)
        seen.add(state.themes[0])
        assert state.themes[0] in {c.id for c in candidates}
    assert len(seen) > 1


def test_c3_land_and_colorless_cards_are_never_themes() -> None:
    """C-2/C-3: lands (even with colors in the data) and colorless cards are not candidates."""
    colored_land = land("G")
    mdfc_spell_front = card("G", mv=3, types=("Sorcery",))
    boosters = [[colored_land, *dull(13), mdfc_spell_front], booster()]
    for seed in range(10):
        state = new_game(boosters, seed=seed)
        assert state.themes[0] == mdfc_spell_front.id


def test_wp_no_theme_candidate_gives_no_theme() -> None:
    """Decision: a booster with no non-land colored card gives its seat no theme; all its cards play."""
    plain = [land(), *dull(13)]
    state = new_game([plain, booster()], shuffle=True)
    assert state.themes[0] is None
    assert state.themes[1] is not None
    in_pile = state.draw + state.discard + [c for h in state.hands for c in h]
    assert {c.id for c in plain} <= set(in_pile)


def test_wp_pile_holds_every_other_card_and_deal() -> None:
    """All cards but themes and set-aside go to the pile; 4 each; the next card starts the discard pile."""
    boosters = [booster() for _ in range(4)]
    state = new_game(boosters, shuffle=True)
    assert [len(h) for h in state.hands] == [4, 4, 4, 4]
    assert len(state.discard) == 1
    assert len(state.draw) == 4 * 14 - 16 - 1
    everything = set(state.draw + state.discard + [c for h in state.hands for c in h])
    expected = {c.id for b in boosters for c in b if c.magic_back} - set(state.themes)
    assert everything == expected


def test_option_shuffle_false_deals_in_blocks() -> None:
    """shuffle: false keeps booster order: seat 0 the top 4, seat 1 the next 4, then the discard."""
    hands = [dull(4), dull(4)]
    top = dull(1)[0]
    rest = dull(5)
    themes = [card("R"), card("U")]
    state = stacked(hands, top, rest, themes)
    assert state.hands == [[c.id for c in h] for h in hands]
    assert state.discard == [top.id]
    assert state.draw == [c.id for c in rest]


def test_c4_same_seed_same_game_and_seeds_differ() -> None:
    """C-4: the game is a function of its seed (boosters, themes, shuffle, first seat)."""
    catalog = load_catalog()
    cfg = GameConfig(game="wedding_planner", players=4)
    one = ENGINE.setup(cfg, 1234, catalog)
    assert ENGINE.setup(cfg, 1234, catalog) == one
    assert ENGINE.setup(cfg, 1235, catalog) != one


def test_opened_boosters_use_default_set_and_c1() -> None:
    """Without boosters: one VOW booster per seat (WP-6), inserts set aside (C-1)."""
    state = ENGINE.setup(GameConfig(game="wedding_planner", players=3), 5, load_catalog())
    assert len(state.cards) == 3 * 16
    assert len(state.set_aside) == 3
    assert {c.set for c in state.cards.values() if c.magic_back} == {"VOW"}
    assert all(theme is not None for theme in state.themes)


def test_sets_cycle_over_boosters() -> None:
    cfg = GameConfig(game="wedding_planner", players=3, sets=("VOW", "MID"))
    state = ENGINE.setup(cfg, 5, load_catalog())
    assert {c.set for c in state.cards.values() if c.magic_back} == {"VOW", "MID"}


def test_unknown_set_is_bad_config() -> None:
    cfg = GameConfig(game="wedding_planner", players=2, sets=("XXX",))
    with pytest.raises(RuleError) as error:
        ENGINE.setup(cfg, 5, load_catalog())
    assert error.value.reason == "bad_config"


def test_first_seat_random_c4() -> None:
    """C-4: the first player is drawn at random."""
    firsts = {new_game([booster() for _ in range(3)], seed=s, shuffle=True).first_seat for s in range(30)}
    assert firsts == {0, 1, 2}


def test_option_first_seat() -> None:
    state = new_game([booster() for _ in range(3)], first_seat=2)
    assert state.first_seat == 2
    assert ENGINE.pending(state) == (2,)


def test_option_themes_fixes_the_theme() -> None:
    candidates = [card("R", mv=1), card("G", mv=2)]
    boosters = [[*candidates, *dull(12)], booster()]
    state = new_game(boosters, themes=[candidates[1].id, None])
    assert state.themes[0] == candidates[1].id


@pytest.mark.parametrize(
    "options",
    [
        {"colour": 1},
        {"shuffle": "no"},
        {"first_seat": 5},
        {"first_seat": -1},
        {"first_seat": True},
        {"themes": [None]},
        {"themes": ["nope", None]},
        {"themes": "abc"},
    ],
)
def test_bad_options_are_bad_config(options: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as error:
        new_game([booster(), booster()], **options)
    assert error.value.reason == "bad_config"


def test_option_theme_must_be_a_candidate_of_own_booster() -> None:
    """A theme id from another seat's booster, or a land, is refused."""
    one, two = booster(), booster()
    for bad in (two[0].id, one[1].id):
        with pytest.raises(RuleError) as error:
            new_game([one, two], themes=[bad, None])
        assert error.value.reason == "bad_config"


def test_wp6_one_booster_per_player() -> None:
    """WP-6: given boosters must be exactly one per player."""
    with pytest.raises(RuleError) as error:
        ENGINE.setup(config(3), 1, None, [booster(), booster()])
    assert (error.value.rule, error.value.reason) == ("WP-6", "bad_config")


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_2_to_6(players: int) -> None:
    with pytest.raises(RuleError) as error:
        ENGINE.setup(config(players), 1, None, [booster() for _ in range(players)])
    assert error.value.reason == "bad_config"


def test_too_few_cards_is_bad_config() -> None:
    """The pile must deal 4 per seat and start the discard pile."""
    small = [[card("R"), *dull(4)], [card("R"), *dull(3)]]
    with pytest.raises(RuleError) as error:
        new_game(small)
    assert error.value.reason == "bad_config"
    assert new_game([[card("R"), *dull(6)], [card("R"), *dull(3)]]).draw == []


def test_duplicate_ids_are_bad_config() -> None:
    one = booster()
    with pytest.raises(RuleError) as error:
        new_game([one, one])
    assert error.value.reason == "bad_config"
