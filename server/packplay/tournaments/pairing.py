"""Pairings: Swiss pairs by score, round robin by the circle method, multi-player tables.

**Swiss, two seats a table.** Entrants are paired by a maximum-weight perfect matching
(Edmonds' blossom algorithm, from networkx) whose costs put, in strict order of priority:
the bye (with an odd count) to one of those who have had the fewest byes; no rematch
while one can be avoided; the bye to the lowest score among them; the closest match
points (squared differences); then a seeded random choice among equal pairings. Large
events first try matchings in blocks of 32 consecutive standings (the bye in the last
block), then one over the whole event restricted to nearby standings, and fall back to
the complete graph when that one too repeats a meeting or a bye: the blossom algorithm
takes time cubic in the entrants, so blocks pair 256 entrants some twenty times faster.

**Tables of three and more** (Mishra's Factory, Wedding Planner). Entrants in order of
standing are cut into tables of at most ``table_size`` and at least three seats, sizes
differing by one at most; those who cannot be seated (five entrants at tables of four,
say) get byes, chosen as above. Then entrants are swapped between neighbouring tables
while a swap removes a repeated meeting or brings scores closer together.

**Round robin** (two seats a table). The roster of the first round is set in a seeded
order and scheduled by the circle method: with ``n`` entrants (one more, a bye, when
``n`` is odd) there are ``n - 1`` rounds and every pair meets exactly once. An entrant
whose scheduled opponent has dropped gets a bye.

Seat order inside a table is drawn from the seed. The same entrants, history and seed
always give the same round.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

import networkx as nx

from packplay.rng import Rng
from packplay.tournaments.model import Entrant, Format, Round, Table
from packplay.tournaments.standings import standings

BYE = ""
"""The matching's stand-in for a bye (entrant ids are never empty)."""
NOISE = 16
"""Random tie-breaks between equal pairings stay below this."""
WINDOW = 24
"""Large Swiss events first pair each entrant only with those this close in the standings."""
WINDOW_FROM = 64
BLOCK = 32
"""Large Swiss events first pair blocks of this many consecutive standings (an even number)."""
SWAP_PASSES = 50
Pair = tuple[str, str]
Met = Counter[frozenset[str]]


def table_sizes(count: int, table_size: int) -> tuple[list[int], int]:
    """The sizes of the tables for ``count`` entrants (largest first) and how many sit out.

    Tables hold at most ``table_size`` seats and at least three (two when ``table_size``
    is 2); as many entrants as possible are seated.
    """
    smallest = min(3, table_size)
    for seated in range(count, 0, -1):
        tables = -(-seated // table_size)
        if tables * smallest <= seated:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra), count - seated
    return [], count


def round_robin_rounds(count: int) -> int:
    """Rounds of a round robin of ``count`` entrants: every pair meets once."""
    if count < 2:
        return 0
    return count - 1 if count % 2 == 0 else count


def default_rounds(format: Format, count: int) -> int:
    """Rounds when the organizer gives none: log2 of the entrants for Swiss, all for round robin."""
    if format == "round_robin":
        return round_robin_rounds(count)
    return max(1, math.ceil(math.log2(max(count, 2))))


def roster(entrants: Sequence[Entrant], seed: int) -> list[str]:
    """The round robin's entrants in schedule order: those in at the start, shuffled by the seed."""
    ids = [e.id for e in entrants if e.joined == 1 and e.dropped != 0]
    Rng(seed).shuffle(ids)
    return ids


def pair_round(
    format: Format,
    entrants: Sequence[Entrant],
    history: Sequence[Round],
    number: int,
    table_size: int,
    seed: int,
) -> Round:
    """Round ``number`` after the complete rounds of ``history``."""
    rng = Rng(seed * 1009 + number)
    if format == "round_robin":
        return _round_robin(entrants, number, seed, rng)
    order, points = _order(entrants, history, number, rng)
    met, had = _met(history), Counter(bye for r in history for bye in r.byes)
    if table_size == 2:
        pairs, bye = swiss_pairs(order, points, met, had, rng)
        return _numbered(number, [list(p) for p in pairs], [bye] if bye else [], rng)
    tables, byes = group_tables(order, points, met, had, table_size)
    return _numbered(number, tables, byes, rng)


def playable(format: Format, entrants: Sequence[Entrant], number: int, table_size: int, seed: int) -> bool:
    """Whether round ``number`` would seat at least one table."""
    if format == "round_robin":
        return any(_round_robin(entrants, number, seed, Rng(0)).tables)
    active = sum(1 for e in entrants if e.plays_in(number))
    return bool(table_sizes(active, table_size)[0])


def swiss_pairs(
    order: Sequence[str], points: dict[str, int], met: Met, had: Counter[str], rng: Rng
) -> tuple[list[Pair], str | None]:
    """Pairs of ``order`` (best standing first) and the entrant with the bye, if any."""
    if len(order) > WINDOW_FROM:
        found = _blocked(order, points, met, had, rng)
        if not _repeats(found, met, had, order):
            return found
        found = _matching(order, points, met, had, rng, WINDOW)
        if not _repeats(found, met, had, order):
            return found
    return _matching(order, points, met, had, rng, None)


def _blocked(
    order: Sequence[str], points: dict[str, int], met: Met, had: Counter[str], rng: Rng
) -> tuple[list[Pair], str | None]:
    """Each block of :data:`BLOCK` standings matched on its own; the last one takes the rest."""
    starts = list(range(0, len(order) - BLOCK - BLOCK // 2 + 1, BLOCK)) or [0]
    pairs: list[Pair] = []
    bye = None
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(order)
        found, block_bye = _matching(order[start:end], points, met, had, rng, WINDOW)
        pairs += found
        bye = bye or block_bye
    return pairs, bye


def group_tables(
    order: Sequence[str], points: dict[str, int], met: Met, had: Counter[str], table_size: int
) -> tuple[list[list[str]], list[str]]:
    """Tables of ``order`` (best standing first) by score, and the entrants with a bye."""
    sizes, sitting_out = table_sizes(len(order), table_size)
    byes = _bye_takers(order, had, sitting_out)
    seated = [player for player in order if player not in byes]
    tables, start = [], 0
    for size in sizes:
        tables.append(seated[start : start + size])
        start += size
    _improve(tables, points, met)
    return tables, byes


def _order(
    entrants: Sequence[Entrant], history: Sequence[Round], number: int, rng: Rng
) -> tuple[list[str], dict[str, int]]:
    lines = {line.id: line for line in standings(entrants, history)}
    active = [e.id for e in entrants if e.plays_in(number)]
    rng.shuffle(active)
    active.sort(key=lambda player: lines[player].rank if player in lines else len(lines) + 1)
    return active, {player: lines[player].match_points if player in lines else 0 for player in active}


def _met(history: Sequence[Round]) -> Met:
    met: Met = Counter()
    for round_ in history:
        for table in round_.tables:
            met.update(frozenset(pair) for pair in combinations(table.players, 2))
    return met


def _matching(
    order: Sequence[str],
    points: dict[str, int],
    met: Met,
    had: Counter[str],
    rng: Rng,
    window: int | None,
) -> tuple[list[Pair], str | None]:
    players = list(order) + ([BYE] if len(order) % 2 else [])
    fewest = min(had[p] for p in order)
    lowest = min(points[p] for p in order if had[p] == fewest)
    widest = max(points.values()) - min(points.values())
    # Cost tiers, each above the most the tiers below it can add up to over a whole round.
    slots = len(players) // 2 + 1
    spread = NOISE * (len(players) + 2)
    low_bye = spread * (widest**2 + 1) * slots
    rematch = low_bye * (widest + 1)
    repeat_bye = rematch * (max(met.values(), default=0) + 1) * slots
    costs: dict[Pair, int] = {}
    for i, j in combinations(range(len(players)), 2):
        a, b = players[i], players[j]
        if window is not None and b != BYE and j - i > window:
            continue
        if b == BYE:
            cost = repeat_bye * (had[a] - fewest) + low_bye * max(points[a] - lowest, 0)
        else:
            cost = rematch * met[frozenset((a, b))] + spread * (points[a] - points[b]) ** 2
        costs[(a, b)] = cost + rng.below(NOISE)
    top = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, top - cost) for (a, b), cost in costs.items())
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != len(players):
        return _matching(order, points, met, had, rng, None) if window is not None else ([], None)
    rank = {player: index for index, player in enumerate(players)}
    pairs, bye = [], None
    for a, b in sorted((tuple(sorted(m, key=rank.__getitem__)) for m in matched), key=lambda p: rank[p[0]]):
        if b == BYE:
            bye = a
        else:
            pairs.append((a, b))
    return pairs, bye


def _repeats(found: tuple[list[Pair], str | None], met: Met, had: Counter[str], order: Sequence[str]) -> bool:
    pairs, bye = found
    if 2 * len(pairs) + (bye is not None) != len(order):
        return True
    fewest = min(had[p] for p in order)
    return any(met[frozenset(pair)] for pair in pairs) or (bye is not None and had[bye] > fewest)


def _bye_takers(order: Sequence[str], had: Counter[str], count: int) -> list[str]:
    """The ``count`` entrants with the fewest byes so far, lowest standings first."""
    if count == 0:
        return []
    ranked = sorted(range(len(order)), key=lambda index: (had[order[index]], -index))
    return [order[index] for index in ranked[:count]]


def _improve(tables: list[list[str]], points: dict[str, int], met: Met) -> None:
    """Swap entrants between tables up to two apart while it lowers the tables' cost."""
    pairs = sum(len(table) * (len(table) - 1) // 2 for table in tables)
    values = [points[player] for table in tables for player in table]
    rematch = 1 + pairs * (max(values, default=0) - min(values, default=0)) ** 2

    def cost(table: list[str]) -> int:
        return sum(
            rematch * met[frozenset((a, b))] + (points[a] - points[b]) ** 2 for a, b in combinations(table, 2)
        )

    for _ in range(SWAP_PASSES):
        swapped = [_best_swap(tables, t, u, cost) for t in range(len(tables)) for u in (t + 1, t + 2)]
        if not any(swapped):
            return


def _best_swap(tables: list[list[str]], t: int, u: int, cost: Callable[[list[str]], int]) -> bool:
    """Make the one swap between tables ``t`` and ``u`` that lowers their cost most, if any."""
    if u >= len(tables):
        return False
    first, second = tables[t], tables[u]
    best, where = cost(first) + cost(second), None
    for i in range(len(first)):
        for j in range(len(second)):
            first[i], second[j] = second[j], first[i]
            after = cost(first) + cost(second)
            first[i], second[j] = second[j], first[i]
            if after < best:
                best, where = after, (i, j)
    if where is None:
        return False
    i, j = where
    first[i], second[j] = second[j], first[i]
    return True


def _round_robin(entrants: Sequence[Entrant], number: int, seed: int, rng: Rng) -> Round:
    ids = roster(entrants, seed)
    line: list[str | None] = [*ids, None] if len(ids) % 2 else list(ids)
    playing = {e.id for e in entrants if e.plays_in(number)}
    tables, byes = [], []
    for a, b in circle(line, number - 1):
        a_in, b_in = a in playing, b in playing
        if a_in and b_in:
            assert a is not None and b is not None
            tables.append([a, b])
        elif a_in or b_in:
            byes.append(a if a_in else b)
    return _numbered(number, tables, [bye for bye in byes if bye is not None], rng)


def circle(line: Sequence[str | None], index: int) -> list[tuple[str | None, str | None]]:
    """Round ``index`` (from 0) of the circle method: the first entrant stays, the others turn."""
    count = len(line)
    if count < 2:
        return []
    turn = index % (count - 1)
    rest = list(line[1:])
    turned = [line[0], *rest[turn:], *rest[:turn]]
    return [(turned[i], turned[count - 1 - i]) for i in range(count // 2)]


def _numbered(number: int, tables: list[list[str]], byes: list[str], rng: Rng) -> Round:
    seated = []
    for index, players in enumerate(tables):
        seats = list(players)
        rng.shuffle(seats)
        seated.append(Table(number=index + 1, players=tuple(seats)))
    return Round(number=number, tables=tuple(seated), byes=tuple(byes))
