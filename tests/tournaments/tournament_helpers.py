"""Events played on paper: pair a round, give every table a result, pair the next."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

import networkx as nx

from packplay.tournaments import Entrant, Format, Result, Round, Table, pair_round
from packplay.tournaments.standings import standings

Decide = Callable[[Table], Result]


def entrants(count: int, prefix: str = "p") -> list[Entrant]:
    return [Entrant(id=f"{prefix}{i}", name=f"Player {i}") for i in range(count)]


def random_results(seed: int, draws: bool = True) -> Decide:
    """A result per table: a sole winner mostly, sometimes a draw or a shared win."""
    rng = random.Random(seed)

    def decide(table: Table) -> Result:
        seats = len(table.players)
        scores = tuple(float(rng.randrange(6)) for _ in range(seats))
        if draws and rng.random() < 0.1:
            return Result(winners=tuple(range(seats)), draw=True, scores=scores)
        if draws and seats > 2 and rng.random() < 0.2:
            return Result(winners=tuple(rng.sample(range(seats), 2)), scores=scores)
        return Result(winners=(rng.randrange(seats),), scores=scores)

    return decide


def first_seat_wins(table: Table) -> Result:
    return Result(winners=(0,), scores=tuple(float(-i) for i in range(len(table.players))))


def finished(round_: Round, decide: Decide) -> Round:
    tables = tuple(Table(number=t.number, players=t.players, result=decide(t)) for t in round_.tables)
    return Round(number=round_.number, tables=tables, byes=round_.byes)


def play(
    format: Format,
    people: Sequence[Entrant],
    rounds: int,
    table_size: int = 2,
    seed: int = 1,
    decide: Decide = first_seat_wins,
    before: Callable[[int, list[Entrant]], list[Entrant]] | None = None,
) -> tuple[list[Entrant], list[Round]]:
    """Play ``rounds`` rounds; ``before(number, entrants)`` may drop or add entrants first."""
    history: list[Round] = []
    current = list(people)
    for number in range(1, rounds + 1):
        if before is not None:
            current = before(number, current)
        paired = pair_round(format, current, history, number, table_size, seed)
        history.append(finished(paired, decide))
    return current, history


def met_counts(history: Sequence[Round]) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for round_ in history:
        for table in round_.tables:
            met.update(frozenset(p) for p in combinations(table.players, 2))
    return met


def fewest_rematches(players: Sequence[str], met: Counter[frozenset[str]]) -> int:
    """The fewest rematch pairs of any pairing of ``players`` (an even count)."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in combinations(players, 2) if not met[frozenset((a, b))])
    return len(players) // 2 - len(nx.max_weight_matching(graph, maxcardinality=True))


def points_of(people: Sequence[Entrant], history: Sequence[Round]) -> dict[str, int]:
    return {line.id: line.match_points for line in standings(people, history)}


def seated(round_: Round) -> list[str]:
    return [p for table in round_.tables for p in table.players]
