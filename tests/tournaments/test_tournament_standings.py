"""Standings: match points, every tie-breaker in its order, the floor, byes, draws and shared wins."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import entrants, play, random_results

from packplay.tournaments import Entrant, Result, Round, Standing, Table, standings
from packplay.tournaments.standings import beats, game_points, match_points

THIRD = F(1, 3)


def _round(number: int, *tables: tuple[tuple[str, ...], Result], byes: tuple[str, ...] = ()) -> Round:
    return Round(
        number=number,
        tables=tuple(Table(number=i + 1, players=p, result=r) for i, (p, r) in enumerate(tables)),
        byes=byes,
    )


def _people(*ids: str) -> list[Entrant]:
    return [Entrant(id=i, name=i.upper()) for i in ids]


def _by_id(people: list[Entrant], rounds: list[Round]) -> dict[str, Standing]:
    return {line.id: line for line in standings(people, rounds)}


WIN0 = Result(winners=(0,))
WIN1 = Result(winners=(1,))
DRAWN = Result(winners=(0, 1), draw=True)


# one table


def test_match_points_sole_win_shared_win_draw_and_loss() -> None:
    four = Result(winners=(1, 2), scores=(1, 9, 9, 4))
    assert [match_points(WIN0, s) for s in (0, 1)] == [3, 0]
    assert [match_points(DRAWN, s) for s in (0, 1)] == [1, 1]
    assert [match_points(four, s) for s in range(4)] == [0, 1, 1, 0]


def test_game_points_count_the_place_at_the_table() -> None:
    result = Result(winners=(0,), scores=(10, 7, 7, 3))
    assert [game_points(result, 4, s) for s in range(4)] == [F(3), F(4, 3), F(4, 3), F(0)]
    shared = Result(winners=(0, 1), scores=(8, 8, 2, 5))
    assert [game_points(shared, 4, s) for s in range(4)] == [F(7, 3), F(7, 3), F(0), F(1)]
    assert [game_points(WIN0, 2, s) for s in (0, 1)] == [F(3), F(0)]
    assert [game_points(DRAWN, 2, s) for s in (0, 1)] == [F(1), F(1)]


def test_a_winner_beats_a_higher_score_that_did_not_win() -> None:
    result = Result(winners=(1,), scores=(20, 5, 1))
    assert beats(result, 1, 0) == 1 and beats(result, 0, 1) == -1
    assert beats(result, 0, 2) == 1 and beats(result, 2, 0) == -1
    assert beats(Result(winners=(0,)), 1, 2) == 0


def test_an_all_way_draw_is_one_point_each_and_the_floor() -> None:
    drawn = Result(winners=(0, 1, 2), draw=True, scores=(3, 3, 3))
    people = _people("a", "b", "c")
    lines = standings(people, [_round(1, (("a", "b", "c"), drawn))])
    assert [(x.match_points, x.draws, x.rank) for x in lines] == [(1, 1, 1)] * 3
    assert all(x.match_win == THIRD and x.game_win == THIRD for x in lines)


# the tie-breakers, one at a time


def test_match_points_come_first() -> None:
    people = _people("a", "b", "c", "d")
    rounds = [_round(1, (("a", "b"), WIN0), (("c", "d"), DRAWN))]
    assert [x.id for x in standings(people, rounds)] == ["a", "c", "d", "b"]
    assert [x.match_points for x in standings(people, rounds)] == [3, 1, 1, 0]


def test_opponents_match_win_breaks_equal_points() -> None:
    # a and c both 1-1; a lost to the unbeaten b, c lost to d, who lost again.
    people = _people("a", "b", "c", "d", "e", "f")
    rounds = [
        _round(1, (("a", "e"), WIN0), (("b", "f"), WIN0), (("c", "d"), WIN1)),
        _round(2, (("a", "b"), WIN1), (("c", "f"), WIN0), (("d", "e"), WIN1)),
    ]
    lines = _by_id(people, rounds)
    a, c = lines["a"], lines["c"]
    assert a.match_points == c.match_points == 3
    # a met e (1-1: 1/2) and b (2-0: 1); c met d (1-1: 1/2) and f (0-2: floor 1/3).
    assert a.opponents_match_win == F(3, 4)
    assert c.opponents_match_win == (F(1, 2) + THIRD) / 2
    order = [x.id for x in standings(people, rounds)]
    assert order.index("a") < order.index("c")


def test_game_win_breaks_equal_points_and_opponents_match_win() -> None:
    # One table of four: a and b share nothing, both lose; a finished second, b last.
    people = _people("w", "a", "b", "x")
    result = Result(winners=(0,), scores=(9, 5, 1, 3))
    lines = _by_id(people, [_round(1, (("w", "a", "b", "x"), result))])
    a, b = lines["a"], lines["b"]
    assert a.match_points == b.match_points == 0
    assert a.opponents_match_win == b.opponents_match_win
    assert a.game_win == F(2, 3) > b.game_win == THIRD
    # x beat b only (1 of 3 points a match): both sit on the floor and share third place.
    lines_in_order = standings(people, [_round(1, (("w", "a", "b", "x"), result))])
    assert [(x.id, x.rank) for x in lines_in_order] == [("w", 1), ("a", 2), ("b", 3), ("x", 3)]


def test_opponents_game_win_breaks_what_is_left() -> None:
    # a and b both finish second at a table of six; a's opponents placed 1, 3, 4, 5, 6, while
    # two of b's tied for third: equal points, opponents' match-win and game-win, but not
    # opponents' game-win. b registered first, so only the tie-breaker can put a ahead.
    people = _people("b", "a", "c", "d", "g", "i", "j", "e", "f", "h", "k", "l")
    first = Result(winners=(0,), scores=(9, 8, 7, 6, 5, 4))
    second = Result(winners=(0,), scores=(9, 8, 6, 6, 5, 4))
    rounds = [_round(1, (("c", "a", "d", "g", "i", "j"), first), (("e", "b", "f", "h", "k", "l"), second))]
    lines = _by_id(people, rounds)
    a, b = lines["a"], lines["b"]
    assert (a.match_points, a.opponents_match_win, a.game_win) == (
        b.match_points,
        b.opponents_match_win,
        b.game_win,
    )
    assert a.opponents_game_win == (1 + F(3, 5) + F(2, 5) + THIRD + THIRD) / 5
    assert b.opponents_game_win == (1 + F(7, 15) + F(7, 15) + THIRD + THIRD) / 5
    assert a.rank < b.rank


def test_equal_on_everything_share_a_rank_in_registration_order() -> None:
    people = _people("z", "y", "x", "w")
    lines = standings(people, [_round(1, (("z", "y"), DRAWN), (("x", "w"), DRAWN))])
    assert [(x.id, x.rank) for x in lines] == [("z", 1), ("y", 1), ("x", 1), ("w", 1)]
    lines = standings(people, [_round(1, (("z", "y"), WIN1), (("x", "w"), WIN1))])
    assert [(x.id, x.rank) for x in lines] == [("y", 1), ("w", 1), ("z", 3), ("x", 3)]


# the floor, byes, drops


def test_the_floor_lifts_opponents_who_lost_everything() -> None:
    people = _people("a", "b", "c", "d")
    rounds = [
        _round(1, (("a", "b"), WIN0), (("c", "d"), WIN0)),
        _round(2, (("a", "c"), WIN0), (("b", "d"), WIN0)),
    ]
    lines = _by_id(people, rounds)
    assert lines["d"].match_win == THIRD
    assert lines["c"].match_win == F(1, 2)
    # a met b (1/2) and c (1/2); b met a (1) and d (0, floored to 1/3).
    assert lines["a"].opponents_match_win == F(1, 2)
    assert lines["b"].opponents_match_win == (1 + THIRD) / 2


def test_a_bye_is_a_match_won_but_no_opponent() -> None:
    people = _people("a", "b", "c")
    rounds = [_round(1, (("b", "c"), WIN0), byes=("a",)), _round(2, (("a", "b"), WIN1), byes=("c",))]
    lines = _by_id(people, rounds)
    a = lines["a"]
    assert (a.match_points, a.byes, a.losses, a.matches) == (3, 1, 1, 2)
    assert a.match_win == F(1, 2) and a.game_win == F(1, 2)
    assert a.opponents_match_win == lines["b"].match_win == 1
    assert lines["c"].opponents_match_win == 1


def test_no_match_yet_is_the_floor_everywhere() -> None:
    line = standings(_people("a"), [])[0]
    assert (line.match_win, line.game_win, line.opponents_match_win, line.opponents_game_win) == (
        THIRD,
        THIRD,
        THIRD,
        THIRD,
    )


def test_dropped_entrants_stay_in_the_standings_unless_they_never_played() -> None:
    people = [*_people("a", "b"), Entrant(id="c", name="C", dropped=1)]
    people.append(Entrant(id="gone", name="G", dropped=0))
    rounds = [_round(1, (("a", "c"), WIN1), byes=("b",))]
    lines = _by_id(people, rounds)
    assert set(lines) == {"a", "b", "c"}
    assert lines["c"].dropped and not lines["a"].dropped


def test_a_table_without_a_result_counts_for_nobody() -> None:
    people = _people("a", "b")
    unplayed = Round(number=1, tables=(Table(number=1, players=("a", "b")),))
    assert [x.matches for x in standings(people, [unplayed])] == [0, 0]


# whole events


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(2, 16),
    table_size=st.sampled_from([2, 3, 4, 6]),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 2**31),
)
def test_standings_of_any_event_are_consistent(count: int, table_size: int, rounds: int, seed: int) -> None:
    people, history = play("swiss", entrants(count), rounds, table_size, seed, random_results(seed))
    lines = standings(people, history)
    assert sorted(x.id for x in lines) == sorted(p.id for p in people)
    keys = [(-x.match_points, -x.opponents_match_win, -x.game_win, -x.opponents_game_win) for x in lines]
    assert keys == sorted(keys)
    for previous, line, key, before in zip(lines, lines[1:], keys[1:], keys, strict=False):
        assert line.rank == (previous.rank if key == before else lines.index(line) + 1)
    for x in lines:
        assert x.matches == rounds
        assert x.match_points == 3 * (x.wins + x.byes) + x.draws
        for value in (x.match_win, x.game_win, x.opponents_match_win, x.opponents_game_win):
            assert THIRD <= value <= 1
    played = sum(len(t.players) for r in history for t in r.tables)
    assert sum(x.wins + x.draws + x.losses for x in lines) == played
