"""Standings kept result by result equal the standings computed from every round."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace
from tournament_helpers import entrants, finished, random_results

from packplay.tournaments import Entrant, Result, Round, pair_round
from packplay.tournaments.standings import Ledger, standings


def _event(seed: int, count: int, table_size: int, rounds: int) -> tuple[list[Entrant], list[Round]]:
    """A Swiss event with random results, a drop or two and a late entrant."""
    rng = random.Random(seed)
    people = entrants(count)
    history: list[Round] = []
    decide = random_results(seed)
    for number in range(1, rounds + 1):
        if number > 1 and rng.random() < 0.5:
            gone = rng.randrange(len(people))
            if people[gone].dropped is None:
                people[gone] = Entrant(id=people[gone].id, name=people[gone].name, dropped=number - 1)
        if rng.random() < 0.3:
            people.append(Entrant(id=f"late{number}", name=f"Late {number}", joined=number))
        paired = pair_round("swiss", people, history, number, table_size, seed)
        history.append(finished(paired, decide))
    return people, history


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("table_size", [2, 4])
def test_results_added_one_by_one_give_the_full_standings(seed: int, table_size: int) -> None:
    rng = random.Random(seed)
    people, history = _event(seed, rng.randrange(5, 40), table_size, rng.randrange(1, 6))
    ledger = Ledger()
    for index, round_ in enumerate(history):
        ledger.add_byes(round_.byes)
        tables = list(round_.tables)
        rng.shuffle(tables)  # results come in any order
        for done, table in enumerate(tables, start=1):
            assert table.result is not None
            ledger.add_table(table.players, table.result)
            if done % 3 == 0 or done == len(tables):
                # Part of the round played: the tables without a result yet count for nobody.
                counted = {t.number for t in tables[:done]}
                partial = Round(
                    number=round_.number,
                    tables=tuple(
                        t if t.number in counted else replace(t, result=None) for t in round_.tables
                    ),
                    byes=round_.byes,
                )
                assert ledger.lines(people) == standings(people, [*history[:index], partial])


def test_a_ledger_of_whole_rounds_equals_the_full_standings() -> None:
    people, history = _event(7, 33, 2, 5)
    ledger = Ledger()
    for round_ in history:
        ledger.add_round(round_)
    lines = ledger.lines(people)
    assert lines == standings(people, history)
    assert len({line.rank for line in lines}) > 1, "the event ranks its players apart"


def test_an_empty_ledger_ranks_everyone_first_at_the_floor() -> None:
    people = entrants(3)
    lines = Ledger().lines(people)
    assert lines == standings(people, [])
    assert {line.rank for line in lines} == {1}


def test_a_shared_win_and_a_draw_move_the_opponents_sums() -> None:
    people = entrants(4)
    ledger = Ledger()
    shared = Result(winners=(0, 1), scores=(1.0, 1.0, 3.0, 2.0))
    first = finished(pair_round("swiss", people, [], 1, 4, 3), lambda table: shared)
    ledger.add_table(first.tables[0].players, shared)
    lines = ledger.lines(people)
    assert lines == standings(people, [first])
    assert [line.match_points for line in lines] == [1, 1, 0, 0]
