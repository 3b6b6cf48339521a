"""Pairings: Swiss without rematches or second byes while avoidable, by score; round robin; tables."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_helpers import (
    entrants,
    fewest_rematches,
    finished,
    first_seat_wins,
    met_counts,
    play,
    points_of,
    random_results,
    seated,
)

from packplay.tournaments import Entrant, Round, default_rounds, pair_round, round_robin_rounds, table_sizes
from packplay.tournaments.pairing import circle, playable, roster

# table sizes


def test_table_sizes_seat_everyone_they_can_at_balanced_tables() -> None:
    for table_size in range(2, 7):
        smallest = min(3, table_size)
        for count in range(0, 80):
            sizes, out = table_sizes(count, table_size)
            assert sum(sizes) + out == count
            assert all(smallest <= size <= table_size for size in sizes)
            assert not sizes or max(sizes) - min(sizes) <= 1
            assert sizes == sorted(sizes, reverse=True)
            better = [
                seats
                for seats in range(sum(sizes) + 1, count + 1)
                if any(t * smallest <= seats <= t * table_size for t in range(1, seats + 1))
            ]
            assert better == [], (count, table_size)


def test_five_at_tables_of_four_seat_four_and_give_one_bye() -> None:
    assert table_sizes(5, 4) == ([4], 1)
    assert table_sizes(7, 3) == ([3, 3], 1)
    assert table_sizes(10, 4) == ([4, 3, 3], 0)
    assert table_sizes(2, 4) == ([], 2)
    assert table_sizes(9, 2) == ([2, 2, 2, 2], 1)


def test_default_rounds() -> None:
    assert [default_rounds("swiss", n) for n in (1, 2, 3, 8, 9, 256)] == [1, 1, 2, 3, 4, 8]
    assert [default_rounds("round_robin", n) for n in (1, 2, 5, 8)] == [0, 1, 5, 7]


# Swiss, two seats


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 14), rounds=st.integers(1, 7), seed=st.integers(0, 2**31), draws=st.booleans())
def test_swiss_rematches_only_when_every_pairing_has_one(
    count: int, rounds: int, seed: int, draws: bool
) -> None:
    people = entrants(count)
    history: list[Round] = []
    decide = random_results(seed, draws)
    for number in range(1, rounds + 1):
        paired = pair_round("swiss", people, history, number, 2, seed)
        _check_swiss_round(paired, history, [p.id for p in people])
        history.append(finished(paired, decide))


def _check_swiss_round(paired: Round, history: list[Round], players: list[str]) -> None:
    met = met_counts(history)
    had = Counter(bye for r in history for bye in r.byes)
    assert sorted(seated(paired) + list(paired.byes)) == sorted(players)
    assert len(paired.byes) == len(players) % 2
    candidates: list[str | None] = [None]
    if paired.byes:
        fewest = min(had[p] for p in players)
        (bye,) = paired.byes
        assert had[bye] == fewest, "a second bye while someone had none"
        candidates = [p for p in players if had[p] == fewest]
    rematches = sum(1 for t in paired.tables if met[frozenset(t.players)])
    best = min(fewest_rematches([p for p in players if p != c], met) for c in candidates)
    assert rematches == best


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 10), seed=st.integers(0, 2**31))
def test_swiss_pairs_the_closest_scores_among_pairings_without_rematch(count: int, seed: int) -> None:
    people = entrants(count)
    _, history = play("swiss", people, 2, seed=seed, decide=random_results(seed, draws=True))
    paired = pair_round("swiss", people, history, 3, 2, seed)
    points = points_of(people, history)
    met = met_counts(history)

    def spread(pairs: list[tuple[str, str]]) -> int:
        return sum((points[a] - points[b]) ** 2 for a, b in pairs)

    chosen = [tuple(t.players) for t in paired.tables]
    if any(met[frozenset(p)] for p in chosen):
        return
    rivals = [
        pairing
        for bye in (paired.byes or (None,))
        for pairing in _pairings([p.id for p in people if p.id != bye])
        if not any(met[frozenset(p)] for p in pairing)
    ]
    assert spread(chosen) == min(spread(p) for p in rivals)  # type: ignore[arg-type]


def _pairings(players: list[str]) -> list[list[tuple[str, str]]]:
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    found = []
    for i, other in enumerate(rest):
        for tail in _pairings(rest[:i] + rest[i + 1 :]):
            found.append([(first, other), *tail])
    return found


def test_round_two_pairs_winners_with_winners() -> None:
    people = entrants(16)
    _, history = play("swiss", people, 1)
    points = points_of(people, history)
    paired = pair_round("swiss", people, history, 2, 2, 1)
    assert all(points[a] == points[b] for a, b in (t.players for t in paired.tables))


def test_the_bye_goes_to_the_lowest_score_without_one() -> None:
    people = entrants(7)
    _, history = play("swiss", people, 1)
    points = points_of(people, history)
    paired = pair_round("swiss", people, history, 2, 2, 1)
    (bye,) = paired.byes
    assert points[bye] == 0 and bye not in history[0].byes


def test_byes_go_round_before_anyone_gets_a_second() -> None:
    people = entrants(5)
    _, history = play("swiss", people, 5, seed=3)
    assert sorted(r.byes[0] for r in history) == sorted(p.id for p in people)


def test_large_events_pair_without_rematches_and_in_score_order() -> None:
    people = entrants(101)
    _, history = play("swiss", people, 6, seed=5, decide=random_results(5, draws=False))
    met = met_counts(history)
    assert max(met.values()) == 1
    assert len({r.byes[0] for r in history}) == 6


def test_the_same_history_and_seed_give_the_same_round() -> None:
    people = entrants(12)
    _, history = play("swiss", people, 2, seed=9, decide=random_results(9))
    first = pair_round("swiss", people, history, 3, 2, 9)
    assert msgspec.json.encode(first) == msgspec.json.encode(pair_round("swiss", people, history, 3, 2, 9))
    assert first != pair_round("swiss", people, history, 3, 2, 10)


# drops and late entrants


def test_dropped_entrants_are_not_paired_after_their_round() -> None:
    def drop_two(number: int, current: list[Entrant]) -> list[Entrant]:
        if number == 3:
            return [msgspec.structs.replace(e, dropped=2) if e.id in ("p0", "p5") else e for e in current]
        return current

    people, history = play("swiss", entrants(10), 5, seed=2, decide=random_results(2), before=drop_two)
    for round_ in history[2:]:
        present = seated(round_) + list(round_.byes)
        assert "p0" not in present and "p5" not in present and len(present) == 8
        assert len(round_.byes) == 0
    for round_ in history[:2]:
        assert {"p0", "p5"} <= set(seated(round_))


def test_a_drop_makes_an_odd_count_and_a_bye() -> None:
    def drop_one(number: int, current: list[Entrant]) -> list[Entrant]:
        return [msgspec.structs.replace(e, dropped=1) if e.id == "p3" and number == 2 else e for e in current]

    _, history = play("swiss", entrants(8), 3, before=drop_one)
    assert [len(r.byes) for r in history] == [0, 1, 1]
    assert history[1].byes != history[2].byes


def test_late_entrants_join_from_their_round() -> None:
    def late(number: int, current: list[Entrant]) -> list[Entrant]:
        if number == 2:
            return [*current, Entrant(id="late", name="Late", joined=2)]
        return current

    _, history = play("swiss", entrants(6), 3, before=late)
    assert "late" not in seated(history[0]) + list(history[0].byes)
    assert all("late" in seated(r) + list(r.byes) for r in history[1:])


def test_an_entrant_dropped_before_the_start_is_never_paired() -> None:
    people = [*entrants(4), Entrant(id="gone", name="Gone", dropped=0)]
    _, history = play("swiss", people, 2)
    assert all("gone" not in seated(r) + list(r.byes) for r in history)


def test_playable_needs_a_table() -> None:
    assert playable("swiss", entrants(2), 1, 2, 0)
    assert not playable("swiss", entrants(1), 1, 2, 0)
    assert not playable("swiss", entrants(2), 1, 4, 0)
    assert playable("swiss", entrants(3), 1, 4, 0)
    assert not playable("round_robin", entrants(1), 1, 2, 0)


# round robin


@settings(max_examples=30, deadline=None)
@given(count=st.integers(2, 13), seed=st.integers(0, 2**31))
def test_round_robin_meets_every_pair_exactly_once(count: int, seed: int) -> None:
    people = entrants(count)
    rounds = round_robin_rounds(count)
    _, history = play("round_robin", people, rounds, seed=seed)
    met = met_counts(history)
    assert set(met) == {frozenset(p) for p in combinations([e.id for e in people], 2)}
    assert set(met.values()) == {1}
    for round_ in history:
        assert len(set(seated(round_))) == len(seated(round_)) == count - count % 2
        assert len(round_.byes) == count % 2
    expected = Counter({p.id: 1 for p in people} if count % 2 else {})
    assert Counter(b for r in history for b in r.byes) == expected


def test_circle_method_keeps_the_first_and_turns_the_others() -> None:
    line = ["a", "b", "c", "d"]
    assert circle(line, 0) == [("a", "d"), ("b", "c")]
    assert circle(line, 1) == [("a", "b"), ("c", "d")]
    assert circle(line, 2) == [("a", "c"), ("d", "b")]


def test_round_robin_opponents_of_a_dropped_entrant_get_byes() -> None:
    people = entrants(6)
    order = roster(people, 1)

    def drop(number: int, current: list[Entrant]) -> list[Entrant]:
        gone = order[0]
        return [msgspec.structs.replace(e, dropped=2) if e.id == gone and number == 3 else e for e in current]

    _, history = play("round_robin", people, 5, before=drop)
    for round_ in history[2:]:
        assert order[0] not in seated(round_)
        assert len(round_.byes) == 1 and len(round_.tables) == 2
    assert len({r.byes[0] for r in history[2:]}) == 3


def test_the_round_robin_roster_is_those_in_at_the_start() -> None:
    people = [*entrants(4), Entrant(id="gone", name="Gone", dropped=0)]
    assert sorted(roster(people, 3)) == ["p0", "p1", "p2", "p3"]
    assert roster(people, 3) == roster(people, 3)


# tables of three and more


@settings(max_examples=40, deadline=None)
@given(count=st.integers(3, 30), table_size=st.integers(3, 6), seed=st.integers(0, 2**31))
def test_tables_seat_everyone_once_in_valid_sizes(count: int, table_size: int, seed: int) -> None:
    people = entrants(count)
    decide = random_results(seed)
    history: list[Round] = []
    for number in range(1, 4):
        paired = pair_round("swiss", people, history, number, table_size, seed)
        sizes, out = table_sizes(count, table_size)
        assert sorted(len(t.players) for t in paired.tables) == sorted(sizes)
        assert len(paired.byes) == out
        assert sorted(seated(paired) + list(paired.byes)) == sorted(p.id for p in people)
        history.append(finished(paired, decide))


def test_tables_group_by_score() -> None:
    people = entrants(16)
    _, history = play("swiss", people, 1, table_size=4)
    points = points_of(people, history)
    paired = pair_round("swiss", people, history, 2, 4, 1)
    assert sorted(sorted(points[p] for p in t.players) for t in paired.tables) == [
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [3, 3, 3, 3],
    ]


def test_tables_avoid_meeting_again_when_a_swap_allows_it() -> None:
    people = entrants(16)
    _, history = play("swiss", people, 2, table_size=4)
    assert max(met_counts(history).values()) == 1


def test_table_byes_go_to_those_without_one() -> None:
    _, history = play("swiss", entrants(5), 5, table_size=4, seed=4, decide=first_seat_wins)
    assert sorted(r.byes[0] for r in history) == [f"p{i}" for i in range(5)]


def test_a_large_swiss_event_paired_in_blocks_has_no_rematch_nor_second_bye() -> None:
    """255 entrants, 8 rounds: blocks of standings pair it, and what holds for small events holds."""
    people, history = play("swiss", entrants(255), 8, decide=random_results(5, draws=False))
    met = met_counts(history)
    assert max(met.values()) == 1
    byes = Counter(bye for r in history for bye in r.byes)
    assert all(len(r.byes) == 1 for r in history) and max(byes.values()) == 1
    for number, round_ in enumerate(history, start=1):
        assert sorted([*seated(round_), *round_.byes]) == sorted(p.id for p in people)
        before = points_of(people, history[: number - 1])
        # By score: paired players mostly share their match points.
        gaps = [abs(before[a] - before[b]) for t in round_.tables for a, b in combinations(t.players, 2)]
        assert sum(1 for gap in gaps if gap > 3) <= len(gaps) // 8, (number, gaps)
