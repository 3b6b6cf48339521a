"""Tournaments as pure functions: pairings, round-robin schedules, tables and standings.

Nothing here does I/O or reads a clock: the server stores a tournament in Redis and
calls these functions with what it read (entrants, finished rounds, a seed), so any
process computes the same pairing from the same data.

Modules: ``model`` (entrants, rounds, tables, results), ``standings`` (match points and
tie-breakers), ``pairing`` (Swiss pairs, round robin, multi-player tables, byes),
``records`` (a tournament as stored), ``lifecycle`` (rounds, registration, where a player
sits) and ``views`` (summaries, standings and pairings as the protocol sends them).
"""

from packplay.tournaments.model import Entrant, Format, Result, Round, Table
from packplay.tournaments.pairing import default_rounds, pair_round, round_robin_rounds, table_sizes
from packplay.tournaments.standings import Standing, standings

__all__ = [
    "Entrant",
    "Format",
    "Result",
    "Round",
    "Standing",
    "Table",
    "default_rounds",
    "pair_round",
    "round_robin_rounds",
    "standings",
    "table_sizes",
]
