"""A tournament's life as rules: how many rounds, when registration closes, where a player sits.

Pure functions of a :class:`~packplay.tournaments.records.TournamentSnapshot`; the server
refuses or answers with what they return.
"""

from __future__ import annotations

from typing import Any

from packplay.tournaments.pairing import default_rounds, round_robin_rounds
from packplay.tournaments.records import TournamentConfig, TournamentSnapshot, table_field
from packplay_protocol.tournaments import MyTable, TableStatus

MAX_PLAYERS = 1024
"""Players a tournament registers at most."""


def rounds_for(config: TournamentConfig, players: int) -> int:
    """The number of rounds the event plays with ``players`` in its first round."""
    if config.format == "round_robin":
        full = round_robin_rounds(players)
        return min(config.rounds or full, full)
    return config.rounds or default_rounds(config.format, players)


def registration_closed(snapshot: TournamentSnapshot) -> str | None:
    """Why the event takes no more registrations, or None while it does."""
    config = snapshot.meta.config
    if snapshot.status == "finished":
        return "registration is closed: the tournament is over"
    if snapshot.status == "running" and not config.late_registration:
        return "registration is closed: the tournament has started"
    if snapshot.status == "running" and snapshot.round >= (snapshot.rounds or 0):
        return "registration is closed: the last round is paired"
    if len(snapshot.players) >= MAX_PLAYERS:
        return f"registration is closed: {MAX_PLAYERS} players at most"
    return None


def table_in(snapshot: TournamentSnapshot, seats: dict[str, tuple[str, int, str]], player_id: str) -> MyTable:
    """Where a player plays at the snapshot, given the current round's seats by player id
    (game, seat, seat token)."""
    number = snapshot.round

    def table(status: TableStatus, **found: Any) -> MyTable:
        return MyTable(tournament_id=snapshot.id, player_id=player_id, status=status, round=number, **found)

    player = snapshot.player(player_id)
    if snapshot.status != "running" or player is None:
        return table("registered" if snapshot.status == "registering" else "finished")
    if player.dropped is not None:
        return table("dropped")
    paired = snapshot.pairings.get(number)
    if paired is None or player_id in paired.byes:
        return table("bye" if paired is not None else "waiting")
    mine = snapshot.table_of(number, player_id)
    seat = seats.get(player_id)
    if mine is None or seat is None:
        return table("waiting", table=None if mine is None else mine.number)
    if table_field(number, mine.number) in snapshot.results:
        return table("waiting")
    game_id, seat_number, token = seat
    return table("playing", table=mine.number, game_id=game_id, seat=seat_number, token=token)
