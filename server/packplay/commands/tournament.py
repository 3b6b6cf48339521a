"""``packplay tournament``: run an event on a running server, watch its standings, export results.

    packplay tournament create URL --game GAME [--name NAME] [--format swiss|round_robin]
        [--players-per-table N] [--rounds N] [--turn-seconds S] [--late-registration] [--sets A,B]
    packplay tournament start URL ID --token=ORGANIZER_TOKEN
    packplay tournament bots URL ID --count N [--bot random|first] [--seed N]
    packplay tournament watch URL ID [--interval S] [--once]
    packplay tournament export URL ID [--format json|csv] [--table standings|pairings] [--out FILE]

``create`` prints the tournament and its organizer token as JSON (keep the token: it starts
and finishes the event). ``bots`` registers N bots and plays every table they are given
until the event is over. ``watch`` shows the standings live in the terminal until the
event is over, redrawn each time the server tells of a change (it follows the event over
the WebSocket). ``export`` writes the standings and every round's tables.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from packplay_clients import (
    BOTS,
    ConnectionLost,
    PackplayError,
    RestClient,
    ServerError,
    TournamentFeed,
    play_tournament,
)
from packplay_protocol.tournaments import Pairings, StandingLine, Standings, Tournament

STANDING_COLUMNS = (
    "rank", "player_id", "name", "match_points", "wins", "draws", "losses", "byes",
    "match_win", "opponents_match_win", "game_win", "opponents_game_win", "dropped",
)  # fmt: skip
TABLE_COLUMNS = ("round", "table", "game_id", "seat", "player_id", "name", "winner", "score")


def register(commands: Any) -> None:
    parser = commands.add_parser("tournament", help="run tournaments on a server: create, watch, export")
    sub = parser.add_subparsers(dest="tournament_command", required=True, metavar="ACTION")

    create = sub.add_parser("create", help="create a tournament; prints it and the organizer token")
    create.add_argument("url", help="the server's base URL, e.g. http://127.0.0.1:8000")
    create.add_argument("--game", required=True, help="day_night, mishra_factory, wedding_planner, base_race")
    create.add_argument("--name", default="Tournament")
    create.add_argument("--format", choices=("swiss", "round_robin"), default="swiss")
    create.add_argument("--players-per-table", type=int, default=2)
    create.add_argument("--rounds", type=int, help="default: log2 of the players (Swiss), all (round robin)")
    create.add_argument("--turn-seconds", type=float, default=60.0, help="the turn clock (default 60)")
    create.add_argument("--late-registration", action="store_true", help="allow registering after the start")
    create.add_argument("--sets", default="", help="comma-separated set codes (default: the game's own)")
    create.set_defaults(handler=_create)

    start = sub.add_parser("start", help="start a tournament (organizer token)")
    _target(start)
    start.add_argument("--token", required=True, help="the organizer token; write --token=T")
    start.set_defaults(handler=_start)

    bots = sub.add_parser("bots", help="register bots and play their tables until the event is over")
    _target(bots)
    bots.add_argument("--count", type=int, required=True)
    bots.add_argument("--bot", choices=sorted(BOTS), default="random")
    bots.add_argument("--seed", type=int, help="seed of the first bot")
    bots.set_defaults(handler=_bots)

    watch = sub.add_parser("watch", help="live standings in the terminal until the event is over")
    _target(watch)
    watch.add_argument(
        "--interval",
        type=float,
        default=1.0,
        help="seconds between refreshes when the server sends no tournament messages",
    )
    watch.add_argument("--once", action="store_true", help="print the standings once and exit")
    watch.set_defaults(handler=_watch)

    export = sub.add_parser("export", help="write the standings and every round's tables")
    _target(export)
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--table", choices=("standings", "pairings"), default="standings", help="CSV only")
    export.add_argument("--out", type=Path, help="write here instead of standard output")
    export.set_defaults(handler=_export)


def _target(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", help="the server's base URL, e.g. http://127.0.0.1:8000")
    parser.add_argument("tournament_id", metavar="ID", help="the tournament's id")


def _run(args: argparse.Namespace, work: Any) -> int:
    try:
        asyncio.run(work)
    except PackplayError as error:
        print(f"packplay tournament: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


def _create(args: argparse.Namespace) -> int:
    async def work() -> None:
        async with RestClient(args.url) as rest:
            created = await rest.create_tournament(
                args.name,
                args.game,
                format=args.format,
                players_per_table=args.players_per_table,
                rounds=args.rounds,
                turn_seconds=args.turn_seconds,
                late_registration=args.late_registration,
                sets=tuple(s.strip() for s in args.sets.split(",") if s.strip()),
            )
        print(msgspec.json.encode(created).decode())

    return _run(args, work())


def _start(args: argparse.Namespace) -> int:
    async def work() -> None:
        async with RestClient(args.url) as rest:
            started = await rest.start_tournament(args.tournament_id, args.token)
        print(msgspec.json.encode(started.summary).decode())

    return _run(args, work())


def _bots(args: argparse.Namespace) -> int:
    async def work() -> None:
        async with RestClient(args.url) as rest:
            entries = [await rest.register(args.tournament_id, f"bot {i + 1}") for i in range(args.count)]
        seeds = [None if args.seed is None else args.seed + i for i in range(args.count)]
        played = await asyncio.gather(
            *(
                play_tournament(args.url, args.tournament_id, e.secret, BOTS[args.bot](seed))
                for e, seed in zip(entries, seeds, strict=True)
            )
        )
        print(json.dumps({"bots": args.count, "games": sum(len(games) for games in played)}))

    return _run(args, work())


def _watch(args: argparse.Namespace) -> int:
    async def work() -> None:
        async with RestClient(args.url) as rest:
            if args.once:
                Console().print(await _board(rest, args.tournament_id))
                return
            with Live(await _board(rest, args.tournament_id), refresh_per_second=4) as live:
                feed: TournamentFeed | None = None
                opened = TournamentFeed(args.url, args.tournament_id)
                try:
                    await opened.open()
                    feed = opened
                except (ServerError, ConnectionLost):
                    await opened.aclose()  # a server without tournament messages: ask every interval
                try:
                    while True:
                        board = await _board(rest, args.tournament_id)
                        live.update(board)
                        if board.renderables[-1] is _FINAL:
                            return
                        if feed is None or feed.failure is not None:
                            await asyncio.sleep(args.interval)
                        else:
                            await _next_change(feed, max(args.interval, 30.0))
                finally:
                    if feed is not None:
                        await feed.aclose()

    return _run(args, work())


async def _next_change(feed: TournamentFeed, longest: float) -> None:
    """Until the server tells of a change (then a moment more: one redraw for a burst)."""
    seen = feed.received
    await feed.wait_until(lambda: feed.received > seen, longest)
    await asyncio.sleep(0.25)


_FINAL = Text("Final standings.", style="bold green")


async def _board(rest: RestClient, tournament_id: str) -> Group:
    """The header (event, round, tables still playing) and the standings table."""
    tournament = await rest.tournament(tournament_id)
    standings = await rest.standings(tournament_id)
    summary = tournament.summary
    header = Text(f"{summary.name}: {summary.game}, {summary.format}, {summary.status}", style="bold")
    if summary.round:
        paired = await rest.pairings(tournament_id, summary.round)
        over = sum(1 for t in paired.tables if t.result is not None)
        rounds = summary.rounds or "?"
        header.append(f"\nround {summary.round} of {rounds}: {over} of {len(paired.tables)} tables over")
    table = Table("#", "player", "points", "W-D-L", "byes", "OMW%", "GW%", "OGW%")
    for line in standings.lines:
        name = f"{line.name} (dropped)" if line.dropped else line.name
        table.add_row(
            str(line.rank),
            name,
            str(line.match_points),
            f"{line.wins}-{line.draws}-{line.losses}",
            str(line.byes),
            *(f"{100 * share:.1f}" for share in _shares(line)),
        )
    footer = _FINAL if standings.final else Text(f"{summary.players} players in", style="dim")
    return Group(header, table, footer)


def _shares(line: StandingLine) -> tuple[float, float, float]:
    return line.opponents_match_win, line.game_win, line.opponents_game_win


def _export(args: argparse.Namespace) -> int:
    async def work() -> None:
        async with RestClient(args.url) as rest:
            tournament = await rest.tournament(args.tournament_id)
            standings = await rest.standings(args.tournament_id)
            rounds = [
                await rest.pairings(args.tournament_id, n) for n in range(1, tournament.summary.round + 1)
            ]
        text = (
            _as_json(tournament, standings, rounds)
            if args.format == "json"
            else _as_csv(args.table, standings, rounds)
        )
        if args.out is None:
            sys.stdout.write(text)
        else:
            args.out.write_text(text, encoding="utf-8")

    return _run(args, work())


def _as_json(tournament: Tournament, standings: Standings, rounds: list[Pairings]) -> str:
    document = {"tournament": tournament, "standings": standings, "rounds": rounds}
    return json.dumps(msgspec.to_builtins(document), indent=2, ensure_ascii=False) + "\n"


def _as_csv(which: str, standings: Standings, rounds: list[Pairings]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if which == "standings":
        writer.writerow(STANDING_COLUMNS)
        for line in standings.lines:
            writer.writerow(getattr(line, column) for column in STANDING_COLUMNS)
        return out.getvalue()
    writer.writerow(TABLE_COLUMNS)
    for paired in rounds:
        for table in paired.tables:
            result = table.result
            for seat in table.seats:
                won = "" if result is None else seat.player_id in result.winners
                score = "" if result is None or not result.scores else result.scores[seat.seat]
                writer.writerow(
                    (
                        paired.round,
                        table.table,
                        table.game_id,
                        seat.seat,
                        seat.player_id,
                        seat.name,
                        won,
                        score,
                    )
                )
        for bye in paired.byes:
            writer.writerow((paired.round, "", "", "", bye.player_id, bye.name, "bye", ""))
    return out.getvalue()
