"""Hand scores and the winner (WP-1, WP-2, WP-5, C-2, C-3)."""

from __future__ import annotations

from wp_helpers import ENGINE, artifact, card, dull, finish, land, stacked

from packplay.cards.model import CardInstance
from packplay.games.wedding_planner.scoring import score_hand
from packplay_protocol.games.wedding_planner import Score

RED_3 = card("R", mv=3, types=("Sorcery",))


def total(hand: list[CardInstance], theme: CardInstance | None = RED_3) -> int:
    return score_hand(0, hand, theme).total


def test_theme_line_color_or_mana_value() -> None:
    """+1 for a card sharing a color with the theme, or its mana value."""
    assert total([card("R", mv=5)]) == 1
    assert total([card("G", mv=3)]) == 1
    assert total([card("G", mv=5)]) == -1


def test_wp1_color_and_mana_value_score_once() -> None:
    """WP-1: a card sharing both color and mana value scores +1 on the first line."""
    score = score_hand(0, [card("R", mv=3)], RED_3)
    assert (score.theme, score.total) == (1, 1)


def test_wp1_foil_artifact_scores_once() -> None:
    """WP-1: a foil artifact scores +1 on the second line, not +2."""
    score = score_hand(0, [artifact(mv=5, foil=True)], RED_3)
    assert (score.shiny, score.total) == (1, 1)
    assert total([artifact(mv=5)]) == 1
    assert total([card("G", mv=5, foil=True)]) == 1


def test_wp1_a_card_scores_on_several_lines() -> None:
    """WP-1: a foil card matching the theme scores +2; a themed artifact too."""
    assert total([card("R", mv=5, foil=True)]) == 2
    assert total([card("", mv=3, types=("Artifact", "Creature"))]) == 2


def test_c2_multicolored_shares_any_color() -> None:
    """C-2: a multicolored card shares a color with a theme holding any of its colors."""
    gold_theme = card("WB", mv=4)
    assert total([card("B", mv=1)], gold_theme) == 1
    assert total([card("UR", mv=1)], gold_theme) == -1
    assert total([card("GW", mv=1)], gold_theme) == 1


def test_c2_lands_are_colorless() -> None:
    """C-2: a land shares no color with the theme even if its data lists one."""
    green = card("G", mv=2)
    score = score_hand(0, [land("G"), land("G")], green)
    assert score.theme == 0
    assert score.total == 0


def test_c3_spell_front_mdfc_is_not_a_land() -> None:
    """C-3: a card whose front face is not a land never scores the land line."""
    score = score_hand(0, [card("G", mv=5, types=("Sorcery",))], RED_3)
    assert (score.venue, score.total) == (None, -1)


def test_land_line_one_land_at_most() -> None:
    """+1 for a land, one at most."""
    one = land()
    score = score_hand(0, [one], RED_3)
    assert (score.venue, score.penalty, score.total) == (one.id, 0, 1)


def test_wp2_extra_land_scoring_nothing_gets_minus_one() -> None:
    """WP-2: only one land scores the land line; another plain land is -1."""
    score = score_hand(0, [land(), land(), land()], RED_3)
    assert (score.penalty, score.total) == (2, -1)


def test_wp2_the_land_line_goes_to_the_land_that_scores_nothing_else() -> None:
    """WP-2: a land on the theme line (mana value 0) leaves the land line to a plain land."""
    zero_theme = card("B", mv=0, types=("Instant",))
    themed_land, plain_land = land(), land()
    assert score_hand(0, [themed_land], zero_theme).total == 2
    score = score_hand(0, [themed_land, plain_land], zero_theme)
    assert score.total == 3
    assert score.penalty == 0


def test_wp2_shiny_land_and_plain_land() -> None:
    """WP-2: a foil land scores shiny; the land line goes to the plain land (no -1)."""
    foil, plain = land(foil=True), land()
    score = score_hand(0, [foil, plain], RED_3)
    assert (score.venue, score.shiny, score.penalty, score.total) == (plain.id, 1, 0, 2)


def test_wp2_only_scoring_lands_take_the_land_line() -> None:
    """WP-2: with no plain land, a scoring land still takes the land line once."""
    foil_a, foil_b = land(foil=True), land(foil=True)
    score = score_hand(0, [foil_a, foil_b], RED_3)
    assert (score.shiny, score.penalty, score.total) == (2, 0, 3)
    assert score.venue in (foil_a.id, foil_b.id)


def test_no_theme_scores_only_the_other_lines() -> None:
    """Decision: a seat without a theme scores no theme line; the other lines count."""
    hand = [card("R", mv=3), artifact(), land(), card("G", mv=0)]
    score = score_hand(0, hand, None)
    assert (score.theme, score.shiny, score.penalty, score.total) == (0, 1, 2, 0)


def test_worked_example_hand() -> None:
    """A mixed hand: themed foil (+2), artifact (+1), two lands (+1, -1), plain (-1)."""
    hand = [card("R", mv=1, foil=True), artifact(mv=7), land(), land(), card("U", mv=6)]
    assert score_hand(0, hand, RED_3) == Score(
        seat=0, theme=1, shiny=2, venue=min(hand[2].id, hand[3].id), penalty=2, total=2
    )


def test_wp5_highest_score_wins() -> None:
    """WP-5: the highest hand score wins; scores are given in seat order."""
    themes = [card("R", mv=3), card("U", mv=2)]
    hands = [[card("R"), card("R"), card("R"), land()], dull(4)]
    state = finish(stacked(hands, dull(1)[0], dull(8), themes))
    result = ENGINE.result(state)
    assert result is not None
    assert result.scores == (4.0, -4.0)
    assert (result.winners, result.draw) == ((0,), False)


def test_wp5_equal_scores_share_the_win() -> None:
    """WP-5: equal top scores share the win; a seat below does not."""
    themes = [card("R", mv=3), card("U", mv=2), card("G", mv=1)]
    hands = [[card("R"), *dull(3)], [card("U"), *dull(3)], dull(4)]
    state = finish(stacked(hands, dull(1)[0], dull(12), themes))
    result = ENGINE.result(state)
    assert result is not None
    assert result.scores == (-2.0, -2.0, -4.0)
    assert (result.winners, result.draw) == ((0, 1), False)


def test_wp5_everyone_tied_is_a_draw() -> None:
    themes = [card("R", mv=3), card("U", mv=2)]
    state = finish(stacked([dull(4), dull(4)], dull(1)[0], dull(8), themes))
    result = ENGINE.result(state)
    assert result is not None
    assert (result.winners, result.draw, result.scores) == ((0, 1), True, (-4.0, -4.0))


def test_theme_card_is_not_in_the_hand_score() -> None:
    """The theme is set aside: it is not scored as a hand card."""
    themes = [card("R", mv=3, foil=True), card("U", mv=2)]
    state = finish(stacked([dull(4), dull(4)], dull(1)[0], dull(8), themes))
    result = ENGINE.result(state)
    assert result is not None
    assert result.scores[0] == -4.0
