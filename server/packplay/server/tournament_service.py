"""Tournaments: the REST-facing steps (create, register, drop, start, finish, read) and the
runner that carries every running event forward.

The runner is a loop any process runs (see :mod:`packplay.server.runtime`). For each
running tournament it creates the games of the current round that have none yet (seats
taken, one token per seat, handed to each player through ``getMyTable``), records the
result of every table whose game is over, and once every table of the round has one,
pairs the next round at once, or finishes the event. Each of these steps is written by
one script of :mod:`packplay.server.storage.tournaments`, so two processes doing the same
step do it once, and a process killed between steps leaves nothing half done.

Every write that changes what a follower sees (a registration, a drop, the start, a
table's game created, a table's result, a pairing, the finish) is announced on the
tournament's channel; each process with followers of the tournament reads it again and
tells them (see :mod:`packplay.server.tournament_feed`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import msgspec

from packplay.cards.catalog import UnknownSetError
from packplay.games.base import GameConfig, RuleError
from packplay.games.registry import get_game
from packplay.server.play.authority import Authority
from packplay.server.play.errors import Refused
from packplay.server.play.ids import hash_token, new_id
from packplay.server.settings import Settings
from packplay.server.storage.tournaments import (
    Entry,
    PlayerRecord,
    TournamentConfig,
    TournamentMeta,
    TournamentSnapshot,
    TournamentStore,
    encode,
    round_field,
    table_field,
)
from packplay.table.game_copy import GameCopy
from packplay.tournaments import Result, Round, Table, default_rounds, pair_round, round_robin_rounds
from packplay.tournaments import standings as rank
from packplay.tournaments.pairing import playable
from packplay_protocol.errors import ErrorCode
from packplay_protocol.rest import create_game, pointer_of
from packplay_protocol.tournaments import (
    CreatedTournament,
    CreateTournament,
    MyTable,
    PairedTable,
    Pairings,
    RegisterPlayer,
    Registration,
    StandingLine,
    Standings,
    TableResult,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentPlayer,
    TournamentSummary,
)

log = logging.getLogger(__name__)
ATTEMPTS = 16
"""Versioned writes that lose a race are tried again this many times."""
BUSY_ATTEMPTS = 64
"""The same for registrations and drops, which many players make at once: each tried
again after a short random pause that grows with the attempts."""
LEASE = 15.0
"""Seconds a process may take to create a table's game before another one may."""
MAX_PLAYERS = 1024
SEATING = 16
"""Games of one round created at once by one process."""


class TournamentService:
    """One per process; like the authority of games, it holds nothing that Redis does not."""

    def __init__(
        self,
        store: TournamentStore,
        authority: Authority,
        settings: Settings,
        process_id: str,
        now: Callable[[], float] = time.time,
        announce: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.announce = announce or _quiet
        """Tells every process that a tournament changed (publishes on its channel)."""
        self.authority = authority
        self.settings = settings
        self.process_id = process_id
        self.now = now
        self._seq = 0
        """The last registration order number given here (microseconds, made increasing)."""
        self._busy: set[str] = set()
        self._again: set[str] = set()
        """Tournaments to carry forward once more when the pass under way is done."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._games: dict[str, str] = {}
        """Game id -> tournament id, for the current round of each running event seen here."""
        authority.moves.on_commit(self._committed)

    @property
    def ttl(self) -> int:
        return self.settings.tournament_ttl

    # organizer and players

    async def create(self, request: CreateTournament) -> CreatedTournament:
        """A new tournament taking registrations.

        Raises:
            Refused: ``bad_config``.
        """
        config = _config(request)
        self._check_playable(config)
        tournament_id = new_id(9)
        organizer = f"{tournament_id}.{secrets.token_urlsafe(32)}"
        meta = TournamentMeta(
            id=tournament_id,
            name=request.name,
            config=config,
            seed=secrets.randbits(48),
            created=self.now(),
            organizer=hash_token(organizer),
        )
        await self.store.create(meta, self.ttl)
        snapshot = await self._load(tournament_id)
        return CreatedTournament(tournament=_summary(snapshot), organizer_token=organizer)

    async def register(self, tournament_id: str, request: RegisterPlayer) -> Registration:
        """Register a player; it joins the next round to be paired.

        Raises:
            Refused: ``not_found``; ``out_of_order`` when registration is closed.
        """
        secret_part = secrets.token_urlsafe(32)
        snapshot = await self._load(tournament_id)
        for attempt in range(BUSY_ATTEMPTS):
            await _back_off(attempt)
            _check_open(snapshot)
            player_id = _new_player_id(snapshot)
            secret = f"{tournament_id}.{player_id}.{secret_part}"
            self._seq = max(int(self.now() * 1_000_000), self._seq + 1)
            record = PlayerRecord(
                id=player_id,
                name=request.name,
                secret=hash_token(secret),
                seq=self._seq,
                joined=snapshot.round + 1,
            )
            # Not the whole tournament's version: only what decides whether and when the
            # player is in (many players register at once, and none waits for another).
            outcome = await self.store.add_player(snapshot, record, MAX_PLAYERS, self.ttl)
            if outcome == "ok":
                await self.announce(tournament_id)
                return Registration(
                    tournament_id=tournament_id,
                    player_id=player_id,
                    name=request.name,
                    secret=secret,
                    joins_round=record.joined,
                )
            if outcome == "full":
                raise Refused(
                    ErrorCode.OUT_OF_ORDER, f"registration is closed: {MAX_PLAYERS} players at most"
                )
            if outcome == "moved":
                snapshot = await self._load(tournament_id)
        raise _busy()

    async def drop(self, tournament_id: str, player_id: str, token: str) -> None:
        """Drop a player: it is paired no more; a game it is in goes on.

        Raises:
            Refused: ``not_found``, ``unauthorized``, ``forbidden``; ``out_of_order``
            once the event is over or the player has dropped.
        """
        for attempt in range(BUSY_ATTEMPTS):
            await _back_off(attempt)
            snapshot = await self._load(tournament_id)
            player = snapshot.player(player_id)
            if player is None:
                raise Refused(ErrorCode.NOT_FOUND, f"no player {player_id} in this tournament")
            if not _is_organizer(snapshot, token) and not _holds(player, token):
                raise _refused(snapshot, token, "only the player itself or the organizer may drop a player")
            if snapshot.status == "finished" or player.dropped is not None:
                raise Refused(ErrorCode.OUT_OF_ORDER, "the player has dropped or the event is over")
            last = snapshot.round if player.joined <= snapshot.round else 0
            dropped = _replace(player, dropped=last)
            if await self.store.put_player(tournament_id, snapshot.version, dropped, self.ttl) == "ok":
                await self.announce(tournament_id)
                return
        raise _busy()

    async def start(self, tournament_id: str, token: str) -> Tournament:
        """Close registration (unless late registration is on), pair round 1, create its games.

        Raises:
            Refused: ``not_found``, ``unauthorized``, ``forbidden``; ``out_of_order``
            when the event has started or has too few players.
        """
        for _ in range(ATTEMPTS):
            snapshot = await self._load(tournament_id)
            self._check_organizer(snapshot, token)
            if snapshot.status != "registering":
                raise Refused(ErrorCode.OUT_OF_ORDER, "the tournament has started already")
            config, entrants = snapshot.meta.config, snapshot.entrants()
            if not playable(config.format, entrants, 1, config.players_per_table, snapshot.meta.seed):
                raise Refused(
                    ErrorCode.OUT_OF_ORDER, "too few players to seat a table; register more players first"
                )
            rounds = _rounds(config, sum(1 for e in entrants if e.plays_in(1)))
            first = await asyncio.to_thread(
                pair_round, config.format, entrants, [], 1, config.players_per_table, snapshot.meta.seed
            )
            fields: dict[str, bytes | str | int] = {"status": "running", "round": 1, "rounds": rounds}
            fields[round_field(1)] = encode(first)
            if await self.store.update(snapshot, fields, self.ttl, running="add") == "ok":
                await self.announce(tournament_id)
                self.kick(tournament_id)
                return await self.get(tournament_id)
        raise _busy()

    async def finish(self, tournament_id: str, token: str) -> Tournament:
        """End the event: at once before the start, else after the current round.

        Raises:
            Refused: ``not_found``, ``unauthorized``, ``forbidden``.
        """
        for _ in range(ATTEMPTS):
            snapshot = await self._load(tournament_id)
            self._check_organizer(snapshot, token)
            if snapshot.status == "finished" or snapshot.rounds == snapshot.round:
                self.kick(tournament_id)
                return await self.get(tournament_id)
            if snapshot.status == "registering":
                fields = {"status": "finished", "finished": repr(self.now())}
                outcome = await self.store.update(snapshot, fields, self.ttl, running="remove")
            else:
                outcome = await self.store.update(snapshot, {"rounds": snapshot.round}, self.ttl)
            if outcome == "ok":
                await self.announce(tournament_id)
                self.kick(tournament_id)
                return await self.get(tournament_id)
        raise _busy()

    # reading

    async def get(self, tournament_id: str) -> Tournament:
        snapshot = await self._load(tournament_id)
        players = tuple(
            TournamentPlayer(player_id=p.id, name=p.name, joins_round=p.joined, dropped=p.dropped)
            for p in snapshot.players
        )
        return Tournament(summary=_summary(snapshot), players=players)

    async def standings(self, tournament_id: str) -> Standings:
        return standings_of(await self._load(tournament_id))

    async def pairings(self, tournament_id: str, number: int) -> Pairings:
        """Round ``number``'s tables.

        Raises:
            Refused: ``not_found``: no such tournament, or the round is not paired.
        """
        paired = pairings_of(await self._load(tournament_id), number)
        if paired is None:
            raise Refused(ErrorCode.NOT_FOUND, f"round {number} is not paired")
        return paired

    async def follower(self, tournament_id: str, secret: str | None) -> str | None:
        """The player id a follower's secret proves (None for a watcher without one).

        Raises:
            Refused: ``not_found``; ``unauthorized``: the secret is no player's.
        """
        if secret is None:
            await self._load(tournament_id)
            return None
        return (await self.my_table(tournament_id, secret)).player_id

    async def my_table(self, tournament_id: str, token: str) -> MyTable:
        """Where the secret's player plays now (read without loading the whole tournament:
        every player asks this often).

        Raises:
            Refused: ``not_found``; ``unauthorized``: the secret is no player's.
        """
        parts = token.split(".")
        player_id = parts[1] if len(parts) == 3 and parts[0] == tournament_id else ""
        entry = await self.store.entry(tournament_id, player_id) if player_id else None
        if entry is None and player_id:
            raise Refused(ErrorCode.NOT_FOUND, f"no tournament {tournament_id}")
        if entry is None or entry.player is None or not _holds(entry.player, token):
            await self._load(tournament_id)  # not_found first, for an unknown tournament
            raise Refused(ErrorCode.UNAUTHORIZED, "the secret is no player's of this tournament")
        return await self._table_of(tournament_id, entry, entry.player)

    async def _table_of(self, tournament_id: str, entry: Entry, player: PlayerRecord) -> MyTable:
        def table(status: TableStatus, **found: Any) -> MyTable:
            return MyTable(
                tournament_id=tournament_id, player_id=player.id, status=status, round=entry.round, **found
            )

        if entry.status != "running":
            return table("registered" if entry.status == "registering" else "finished")
        if player.dropped is not None:
            return table("dropped")
        paired = entry.pairing
        if paired is None or player.id in paired.byes:
            return table("bye" if paired is not None else "waiting")
        mine = next((t for t in paired.tables if player.id in t.players), None)
        if mine is None or entry.seat is None:
            return table("waiting", table=None if mine is None else mine.number)
        if await self.store.has_result(tournament_id, entry.round, mine.number):
            return table("waiting")
        game_id, seat, seat_token = entry.seat
        return table("playing", table=mine.number, game_id=game_id, seat=seat, token=seat_token)

    # the runner

    async def tick(self) -> int:
        """Carry every running tournament forward; the number of tournaments looked at."""
        running = await self.store.running()
        for tournament_id in running:
            await self.advance(tournament_id)
        return len(running)

    def kick(self, tournament_id: str) -> None:
        """Carry one tournament forward now, without waiting for the next tick."""
        task = asyncio.create_task(self.advance(tournament_id), name=f"packplay-tournament-{tournament_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _committed(self, copy: GameCopy) -> None:
        if copy.status == "finished":
            self.game_finished(copy.game_id)

    def game_finished(self, game_id: str) -> None:
        """A game ended here: if it is a table of a running event, record it now."""
        tournament_id = self._games.pop(game_id, None)
        if tournament_id is not None:
            self.kick(tournament_id)

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
            if snapshot.status != "running" or not await self._step(snapshot):
                return

    async def _step(self, snapshot: TournamentSnapshot) -> bool:
        """Seat, record, pair or finish; whether to read the tournament again and go on."""
        number = snapshot.round
        played = snapshot.played(number)
        assert played is not None
        self._remember_games(snapshot, number)
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

    def _remember_games(self, snapshot: TournamentSnapshot, number: int) -> None:
        prefix = f"{number}:"
        for name, game_id in snapshot.games.items():
            if name.startswith(prefix) and name not in snapshot.results:
                self._games[game_id] = snapshot.id
        if len(self._games) > 4 * MAX_PLAYERS:
            self._games.clear()  # rounds long over: their games are recorded by the runner anyway

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
            self._games[created.game_id] = snapshot.id
            await self.announce(snapshot.id)
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
            held = await self.store.record(snapshot.id, number, table.number, result, self.ttl)
            if held is not None:
                played = played.with_result(table.number, held)
                await self.announce(snapshot.id)
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

    # helpers

    async def _load(self, tournament_id: str) -> TournamentSnapshot:
        snapshot = await self.store.load(tournament_id)
        if snapshot is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no tournament {tournament_id}")
        return snapshot

    def _check_organizer(self, snapshot: TournamentSnapshot, token: str) -> None:
        if not _is_organizer(snapshot, token):
            raise _refused(snapshot, token, "only the organizer may do this")

    def _check_playable(self, config: TournamentConfig) -> None:
        """Refuse a configuration whose games could not be set up."""
        try:
            engine = get_game(config.game)
        except RuleError as error:
            raise Refused(ErrorCode.BAD_CONFIG, error.message) from error
        size = config.players_per_table
        if not engine.min_players <= size <= engine.max_players:
            limits = f"{engine.min_players}-{engine.max_players}"
            raise Refused(ErrorCode.BAD_CONFIG, f"{engine.title} is for {limits} players a table")
        if config.format == "round_robin" and (size != 2 or config.late_registration):
            raise Refused(
                ErrorCode.BAD_CONFIG, "a round robin has two players a table and no late registration"
            )
        players = max(size, engine.min_players)
        try:
            create_game(config.game, players, options=config.options)
        except msgspec.ValidationError as error:
            raise Refused(ErrorCode.BAD_CONFIG, str(error), pointer_of(str(error))) from error
        game = GameConfig(
            game=config.game,
            players=players,
            sets=config.sets or engine.default_sets,
            options=config.options,
        )
        try:
            engine.setup(game, 0, self.authority.catalog())
        except (RuleError, UnknownSetError, KeyError) as error:
            raise Refused(ErrorCode.BAD_CONFIG, str(error).strip("'\"")) from error


async def _back_off(attempt: int) -> None:
    """Nothing before the first attempt; then up to 5 ms per attempt made, at random."""
    if attempt:
        await asyncio.sleep(random.uniform(0, 0.005 * min(attempt, 20)))


async def _quiet(tournament_id: str) -> None:
    """Announce nothing (a service without followers)."""


def standings_of(snapshot: TournamentSnapshot) -> Standings:
    """The standings at the snapshot: every result recorded so far counts."""
    history = snapshot.history()
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
        for line in rank(snapshot.entrants(), history)
    )
    return Standings(
        tournament_id=snapshot.id,
        round=snapshot.round,
        complete_rounds=sum(1 for r in history if r.complete),
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


def table_in(snapshot: TournamentSnapshot, seats: dict[str, tuple[str, int, str]], player_id: str) -> MyTable:
    """Where a player plays at the snapshot, given the current round's seats by player id
    (the same answer as :meth:`TournamentService.my_table`)."""
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
    mine = next((t for t in paired.tables if player_id in t.players), None)
    seat = seats.get(player_id)
    if mine is None or seat is None:
        return table("waiting", table=None if mine is None else mine.number)
    if table_field(number, mine.number) in snapshot.results:
        return table("waiting")
    game_id, seat_number, token = seat
    return table("playing", table=mine.number, game_id=game_id, seat=seat_number, token=token)


def _config(request: CreateTournament) -> TournamentConfig:
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


def _rounds(config: TournamentConfig, players: int) -> int:
    if config.format == "round_robin":
        full = round_robin_rounds(players)
        return min(config.rounds or full, full)
    return config.rounds or default_rounds(config.format, players)


def _summary(snapshot: TournamentSnapshot) -> TournamentSummary:
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


def _check_open(snapshot: TournamentSnapshot) -> None:
    config = snapshot.meta.config
    if snapshot.status == "finished":
        raise Refused(ErrorCode.OUT_OF_ORDER, "registration is closed: the tournament is over")
    if snapshot.status == "running" and not config.late_registration:
        raise Refused(ErrorCode.OUT_OF_ORDER, "registration is closed: the tournament has started")
    if snapshot.status == "running" and snapshot.round >= (snapshot.rounds or 0):
        raise Refused(ErrorCode.OUT_OF_ORDER, "registration is closed: the last round is paired")
    if len(snapshot.players) >= MAX_PLAYERS:
        raise Refused(ErrorCode.OUT_OF_ORDER, f"registration is closed: {MAX_PLAYERS} players at most")


def _new_player_id(snapshot: TournamentSnapshot) -> str:
    while True:
        player_id = secrets.token_hex(4)
        if snapshot.player(player_id) is None:
            return player_id


def _is_organizer(snapshot: TournamentSnapshot, token: str) -> bool:
    return secrets.compare_digest(hash_token(token), snapshot.meta.organizer)


def _holds(player: PlayerRecord, token: str) -> bool:
    return secrets.compare_digest(hash_token(token), player.secret)


def _player_of(snapshot: TournamentSnapshot, token: str) -> PlayerRecord:
    """The player whose secret ``token`` is (a secret names its tournament and player)."""
    parts = token.split(".")
    player = snapshot.player(parts[1]) if len(parts) == 3 and parts[0] == snapshot.id else None
    if player is None or not _holds(player, token):
        raise Refused(ErrorCode.UNAUTHORIZED, "the secret is no player's of this tournament")
    return player


def _refused(snapshot: TournamentSnapshot, token: str, detail: str) -> Refused:
    """``forbidden`` for a player of this tournament, ``unauthorized`` for any other token."""
    try:
        _player_of(snapshot, token)
    except Refused:
        return Refused(ErrorCode.UNAUTHORIZED, "the token is neither the organizer's nor a player's")
    return Refused(ErrorCode.FORBIDDEN, detail)


def _replace(player: PlayerRecord, **changes: object) -> PlayerRecord:
    return msgspec.structs.replace(player, **changes)


def _busy() -> Refused:
    return Refused(ErrorCode.UNAVAILABLE, "the tournament is changing fast; try again")
