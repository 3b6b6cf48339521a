"""The runner: every process carries every running tournament forward.

For each running tournament the runner creates the games of the current round that have
none yet (seats taken, one token per seat, handed to each player through ``getMyTable``),
records the result of every table whose game is over, and once every table of the round
has one, pairs the next round at once, or finishes the event. Each of these steps is
written by one script of :mod:`packplay.server.storage.tournaments`, so two processes doing
the same step do it once, and a process killed between steps leaves nothing half done: a
table's game is created by the process holding a short lease on it, and the next pass of
any process takes over when the lease lapses. The runtime calls :meth:`TournamentRunner.tick`
every ``tournament_interval``; a step of the organizer carries its tournament forward at once.

A game that ends here and is a table of the current round (the runner keeps which games
are, from its last read of each event: one lookup per round) has its result recorded at
once, without reading the event: the script that records it counts the round's results,
and only the last one of the round reads the whole event again, to pair the next round.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import NamedTuple

from packplay.server.play.authority import Authority
from packplay.server.play.errors import Refused
from packplay.server.settings import Settings
from packplay.server.storage.errors import StorageUnavailable
from packplay.server.storage.tournaments import (
    TournamentStore,
    encode,
    result_notice,
    round_field,
    seated_notice,
)
from packplay.table.game_copy import GameCopy
from packplay.tournaments.lifecycle import MAX_PLAYERS
from packplay.tournaments.model import Result, Round, Table
from packplay.tournaments.pairing import pair_round, playable
from packplay.tournaments.records import TournamentSnapshot
from packplay_protocol.rest import create_game

log = logging.getLogger(__name__)
ATTEMPTS = 16
"""Steps that lose a race to another process are tried again this many times."""
LEASE = 15.0
"""Seconds a process may take to create a table's game before another one may."""
SEATING = 16
"""Games of one round created at once by one process."""
FALLBACK = 5.0
"""Seconds at most between two whole reads of a running event by one process's ticks.
In between, a tick reads only the event's counters (:meth:`TournamentStore.probe`) and
reads the whole event only when its version, round or games moved, or its round has every
result: results are recorded as games end, and the next round paired by the last one.
The whole read finds what nobody recorded (a game over on a process that died first)."""


class _Seat(NamedTuple):
    """Where a game of the current round sits in its event."""

    tournament_id: str
    round: int
    table: int
    seats: int
    tables: int
    """Tables in the round."""


class TournamentRunner:
    """One per process; it holds nothing that Redis does not (but which games are tables)."""

    def __init__(
        self,
        store: TournamentStore,
        authority: Authority,
        settings: Settings,
        process_id: str,
        now: Callable[[], float],
        announce: Callable[..., Awaitable[None]],
    ) -> None:
        self.store = store
        self.authority = authority
        self.settings = settings
        self.process_id = process_id
        self.now = now
        self.announce = announce
        self._busy: set[str] = set()
        self._again: set[str] = set()
        """Tournaments to carry forward once more when the pass under way is done."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: dict[str, tuple[tuple[int, int, int], int, float]] = {}
        """Tournament id -> (version, round, games), tables of the round, and the monotonic
        time, as of this process's last whole read."""
        self._games: dict[str, _Seat] = {}
        """Game id -> its table, for the current round of each running event seen here."""
        authority.moves.on_finish(self.game_finished)

    @property
    def ttl(self) -> int:
        return self.settings.tournament_ttl

    async def tick(self) -> int:
        """Carry every running tournament forward; the number of tournaments looked at."""
        running = await self.store.running()
        for tournament_id in running:
            if await self._due(tournament_id):
                await self.advance(tournament_id)
        for gone in self._seen.keys() - set(running):
            del self._seen[gone]
        return len(running)

    async def _due(self, tournament_id: str) -> bool:
        """Whether a tick reads the whole event (see :data:`FALLBACK`)."""
        seen = self._seen.get(tournament_id)
        if seen is None or time.monotonic() - seen[2] >= FALLBACK:
            return True
        probe = await self.store.probe(tournament_id)
        if probe is None:
            return True
        return (probe.version, probe.round, probe.games) != seen[0] or probe.done >= seen[1]

    def kick(self, tournament_id: str) -> None:
        """Carry one tournament forward now, without waiting for the next tick."""
        task = asyncio.create_task(self.advance(tournament_id), name=f"packplay-tournament-{tournament_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def game_finished(self, copy: GameCopy) -> None:
        """A game ended here: if it is a table of a running event, record it now."""
        table = self._games.pop(copy.game_id, None)
        if table is not None:
            task = asyncio.create_task(self._finished(table, copy), name=f"packplay-table-{copy.game_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _finished(self, table: _Seat, copy: GameCopy) -> None:
        """Record a table's result from its finished game; carry the event on after the
        round's last (a failure here is made good by the next pass over the event)."""
        ended = copy.engine.result(copy.state)
        try:
            if ended is None:
                result = await self._result_of(copy.game_id, table.seats)
            else:
                result = Result(winners=ended.winners, draw=ended.draw, scores=ended.scores)
            recorded = await self.store.record_counted(
                table.tournament_id, table.round, table.table, result, self.ttl
            )
            if recorded is None:
                return
            await self.announce(table.tournament_id, result_notice(table.round, table.table))
        except (StorageUnavailable, OSError) as error:
            log.warning("the result of game %s could not be recorded yet: %s", copy.game_id, error)
            return
        if recorded[1] >= table.tables:
            await self.advance(table.tournament_id)

    async def advance(self, tournament_id: str) -> None:
        """Do every step the tournament is ready for (this process does one tournament at a
        time: a call meanwhile makes the pass under way look once more when it is done)."""
        if tournament_id in self._busy:
            self._again.add(tournament_id)
            return
        self._busy.add(tournament_id)
        try:
            while True:
                self._again.discard(tournament_id)
                await self._advance(tournament_id)
                if tournament_id not in self._again:
                    return
        finally:
            self._busy.discard(tournament_id)

    async def _advance(self, tournament_id: str) -> None:
        for _ in range(ATTEMPTS):
            snapshot = await self.store.load(tournament_id)
            if snapshot is None:
                await self.store.forget_running(tournament_id)
                return
            number = snapshot.round
            tables = len(snapshot.pairings[number].tables) if number in snapshot.pairings else 0
            key = (snapshot.version, number, len(snapshot.games))
            self._seen[tournament_id] = (key, tables, time.monotonic())
            if snapshot.status != "running" or not await self._step(snapshot):
                return

    async def _step(self, snapshot: TournamentSnapshot) -> bool:
        """Seat, record, pair or finish; whether to read the tournament again and go on."""
        number = snapshot.round
        played = snapshot.played(number)
        assert played is not None
        self._remember_games(snapshot, number, played)
        await self._seat_all(snapshot, number, played)
        played = await self._record_results(snapshot, number, played)
        if not played.complete:
            return False
        config, entrants, seed = snapshot.meta.config, snapshot.entrants(), snapshot.meta.seed
        after = number + 1
        if after > (snapshot.rounds or 0) or not playable(
            config.format, entrants, after, config.players_per_table, seed
        ):
            fields: dict[str, bytes | str | int] = {"status": "finished", "finished": repr(self.now())}
            outcome = await self.store.update(snapshot, fields, self.ttl, running="remove")
            if outcome == "ok":
                await self.announce(snapshot.id)
            return outcome == "moved"
        history = [*snapshot.history()[:-1], played]
        paired = await asyncio.to_thread(
            pair_round, config.format, entrants, history, after, config.players_per_table, seed
        )
        fields = {"round": after, round_field(after): encode(paired)}
        outcome = await self.store.update(snapshot, fields, self.ttl)
        if outcome == "ok":
            await self.announce(snapshot.id)
        return outcome in ("ok", "moved")

    def _remember_games(self, snapshot: TournamentSnapshot, number: int, played: Round) -> None:
        for table in played.tables:
            game_id = snapshot.game_of(number, table)
            if game_id is not None and table.result is None:
                self._remember(snapshot.id, number, table, game_id, len(played.tables))
        if len(self._games) > 4 * MAX_PLAYERS:
            self._games.clear()  # rounds long over: their games are recorded by the runner anyway

    def _remember(self, tournament_id: str, number: int, table: Table, game_id: str, tables: int) -> None:
        self._games[game_id] = _Seat(tournament_id, number, table.number, len(table.players), tables)

    async def _seat_all(self, snapshot: TournamentSnapshot, number: int, played: Round) -> None:
        waiting = [t for t in played.tables if snapshot.game_of(number, t) is None]
        gate = asyncio.Semaphore(SEATING)

        async def seat(table: Table) -> None:
            async with gate:
                await self._seat(snapshot, number, table)

        await asyncio.gather(*(seat(t) for t in waiting))

    async def _seat(self, snapshot: TournamentSnapshot, number: int, table: Table) -> None:
        """Create a table's game with its seats taken, unless another process is doing it."""
        claim = await self.store.claim(
            snapshot.id, number, table.number, self.process_id, self.now(), LEASE, self.ttl
        )
        if claim != "ok":
            return
        config = snapshot.meta.config
        names = {p.id: p.name for p in snapshot.players}
        request = create_game(
            config.game,
            len(table.players),
            sets=config.sets,
            options=config.options,
            turn_seconds=config.turn_seconds,
            seats=tuple(names[p] for p in table.players),
        )
        created = await self.authority.lobby.create(request)
        seats = {p: (g.seat, g.token) for p, g in zip(table.players, created.grants, strict=True)}
        held = await self.store.seat(snapshot.id, number, table.number, created.game_id, seats, self.ttl)
        if held == created.game_id:
            tables = len(snapshot.pairings[number].tables)
            self._remember(snapshot.id, number, table, created.game_id, tables)
            await self.announce(snapshot.id, seated_notice(number, table.number))
        else:
            log.warning(
                "tournament %s round %s table %s: game %s created after %s took the table",
                snapshot.id, number, table.number, created.game_id, held,
            )  # fmt: skip

    async def _record_results(self, snapshot: TournamentSnapshot, number: int, played: Round) -> Round:
        """Record the result of every table of the round whose game is over."""
        open_tables = [
            (t, game_id)
            for t in played.tables
            if t.result is None and (game_id := snapshot.game_of(number, t)) is not None
        ]
        statuses = await self.store.game_statuses([game_id for _, game_id in open_tables])
        for (table, game_id), status in zip(open_tables, statuses, strict=True):
            if status not in ("finished", None):
                continue
            result = await self._result_of(game_id, len(table.players))
            recorded = await self.store.record_counted(snapshot.id, number, table.number, result, self.ttl)
            if recorded is not None:
                played = played.with_result(table.number, recorded[0])
                await self.announce(snapshot.id, result_notice(number, table.number))
        return played

    async def _result_of(self, game_id: str, seats: int) -> Result:
        """The finished game's result; a game gone from storage counts as a draw."""
        try:
            copy = await self.authority.lobby.current(game_id)
            result = copy.engine.result(copy.state)
        except Refused:
            result = None
        if result is None:
            log.warning("game %s of a tournament is gone; its table counts as a draw", game_id)
            return Result(winners=tuple(range(seats)), draw=True)
        return Result(winners=result.winners, draw=result.draw, scores=result.scores)
