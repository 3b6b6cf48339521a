"""What clients are shown of a tournament: its summary, standings and pairings, from a snapshot.

Pure functions of a :class:`~packplay.tournaments.records.TournamentSnapshot` into the
protocol's messages; the server reads the snapshot and sends what these return.
"""

from __future__ import annotations

from datetime import UTC, datetime

from packplay.tournaments.model import Table
from packplay.tournaments.records import TournamentConfig, TournamentSnapshot
from packplay.tournaments.standings import Ledger, standings
from packplay_protocol.tournaments import (
    CreateTournament,
    PairedTable,
    Pairings,
    StandingLine,
    Standings,
    TableResult,
    TableSeat,
    TournamentSummary,
)


def config_of(request: CreateTournament) -> TournamentConfig:
    """The configuration a creation request asks for."""
    return TournamentConfig(
        game=request.game,
        format=request.format,
        players_per_table=request.players_per_table,
        rounds=request.rounds,
        turn_seconds=request.turn_seconds,
        late_registration=request.late_registration,
        sets=request.sets,
        options=request.options,
    )


def summary_of(snapshot: TournamentSnapshot) -> TournamentSummary:
    meta, config = snapshot.meta, snapshot.meta.config
    return TournamentSummary(
        tournament_id=meta.id,
        name=meta.name,
        game=config.game,
        format=config.format,
        players_per_table=config.players_per_table,
        rounds=snapshot.rounds or config.rounds,
        turn_seconds=config.turn_seconds,
        late_registration=config.late_registration,
        sets=config.sets,
        status=snapshot.status,
        round=snapshot.round,
        players=sum(1 for p in snapshot.players if p.dropped is None),
        created_at=datetime.fromtimestamp(meta.created, UTC),
    )


def standings_of(snapshot: TournamentSnapshot, ledger: Ledger | None = None) -> Standings:
    """The standings at the snapshot: every result recorded so far counts (``ledger``: the
    snapshot's results already counted, instead of counting every round again)."""
    entrants = snapshot.entrants()
    found = standings(entrants, snapshot.history()) if ledger is None else ledger.lines(entrants)
    lines = tuple(
        StandingLine(
            rank=line.rank,
            player_id=line.id,
            name=line.name,
            match_points=line.match_points,
            wins=line.wins,
            draws=line.draws,
            losses=line.losses,
            byes=line.byes,
            match_win=float(line.match_win),
            opponents_match_win=float(line.opponents_match_win),
            game_win=float(line.game_win),
            opponents_game_win=float(line.opponents_game_win),
            dropped=line.dropped,
        )
        for line in found
    )
    return Standings(
        tournament_id=snapshot.id,
        round=snapshot.round,
        complete_rounds=sum(1 for number in snapshot.pairings if snapshot.complete(number)),
        final=snapshot.status == "finished",
        lines=lines,
    )


def pairings_of(snapshot: TournamentSnapshot, number: int) -> Pairings | None:
    """Round ``number``'s tables at the snapshot, or None when it is not paired."""
    played = snapshot.played(number)
    if played is None:
        return None
    names = {p.id: p.name for p in snapshot.players}
    tables = tuple(_paired_table(snapshot, number, table, names) for table in played.tables)
    byes = tuple(TableSeat(seat=0, player_id=p, name=names[p]) for p in played.byes)
    return Pairings(
        tournament_id=snapshot.id, round=number, tables=tables, byes=byes, complete=played.complete
    )


def _paired_table(
    snapshot: TournamentSnapshot, number: int, table: Table, names: dict[str, str]
) -> PairedTable:
    seats = tuple(TableSeat(seat=s, player_id=p, name=names[p]) for s, p in enumerate(table.players))
    result = None
    if table.result is not None:
        winners = tuple(table.players[s] for s in table.result.winners)
        result = TableResult(winners=winners, draw=table.result.draw, scores=table.result.scores)
    return PairedTable(
        table=table.number, game_id=snapshot.game_of(number, table), seats=seats, result=result
    )
