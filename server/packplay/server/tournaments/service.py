"""Tournaments as the REST API sees them: create, register, drop, start, finish, and reads.

Every step reads the tournament once and writes with a script that compares and sets its
version (registrations and drops, which many players make at once, retry after a short
random pause); what the event looks like is computed by the pure
:mod:`packplay.tournaments` from what was read. Every write that changes what a follower
sees is announced on the tournament's channel; each process with followers of the
tournament reads it again and tells them (see :mod:`packplay.server.tournaments.feed`).
The rounds themselves are carried forward by :mod:`packplay.server.tournaments.runner`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from packplay.cards.catalog import UnknownSetError
from packplay.games.base import GameConfig, RuleError
from packplay.games.registry import get_game
from packplay.server.play.authority import Authority
from packplay.server.play.errors import Refused
from packplay.server.play.ids import hash_token, new_id
from packplay.server.settings import Settings
from packplay.server.storage.tournaments import Entry, TournamentStore, encode, round_field
from packplay.server.tournaments.runner import TournamentRunner
from packplay.tournaments.lifecycle import MAX_PLAYERS, registration_closed, rounds_for
from packplay.tournaments.pairing import pair_round, playable
from packplay.tournaments.records import PlayerRecord, TournamentConfig, TournamentMeta, TournamentSnapshot
from packplay.tournaments.views import config_of, pairings_of, standings_of, summary_of
from packplay_protocol.errors import ErrorCode
from packplay_protocol.problems import pointer_of
from packplay_protocol.rest import create_game
from packplay_protocol.tournaments import (
    CreatedTournament,
    CreateTournament,
    MyTable,
    Pairings,
    RegisterPlayer,
    Registration,
    Standings,
    TableStatus,
    Tournament,
    TournamentPlayer,
)

log = logging.getLogger(__name__)
ATTEMPTS = 16
"""Versioned writes that lose a race are tried again this many times."""
BUSY_ATTEMPTS = 64
"""The same for registrations and drops, which many players make at once: each tried
again after a short random pause that grows with the attempts."""


class TournamentService:
    """One per process; like the authority of games, it holds nothing that Redis does not."""

    def __init__(
        self,
        store: TournamentStore,
        authority: Authority,
        settings: Settings,
        process_id: str,
        now: Callable[[], float] = time.time,
        announce: Callable[..., Awaitable[None]] | None = None,
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
        self.runner = TournamentRunner(store, authority, settings, process_id, now, self.announce)

    @property
    def ttl(self) -> int:
        return self.settings.tournament_ttl

    # organizer and players

    async def create(self, request: CreateTournament) -> CreatedTournament:
        """A new tournament taking registrations.

        Raises:
            Refused: ``bad_config``.
        """
        config = config_of(request)
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
        return CreatedTournament(tournament=summary_of(snapshot), organizer_token=organizer)

    async def register(self, tournament_id: str, request: RegisterPlayer) -> Registration:
        """Register a player; it joins the next round to be paired.

        Raises:
            Refused: ``not_found``; ``out_of_order`` when registration is closed.
        """
        secret_part = secrets.token_urlsafe(32)
        snapshot = await self._load(tournament_id)
        for attempt in range(BUSY_ATTEMPTS):
            await _back_off(attempt)
            closed = registration_closed(snapshot)
            if closed is not None:
                raise Refused(ErrorCode.OUT_OF_ORDER, closed)
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
            rounds = rounds_for(config, sum(1 for e in entrants if e.plays_in(1)))
            first = await asyncio.to_thread(
                pair_round, config.format, entrants, [], 1, config.players_per_table, snapshot.meta.seed
            )
            fields: dict[str, bytes | str | int] = {"status": "running", "round": 1, "rounds": rounds}
            fields[round_field(1)] = encode(first)
            if await self.store.update(snapshot, fields, self.ttl, running="add") == "ok":
                await self.announce(tournament_id)
                self.runner.kick(tournament_id)
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
                self.runner.kick(tournament_id)
                return await self.get(tournament_id)
            if snapshot.status == "registering":
                fields = {"status": "finished", "finished": repr(self.now())}
                outcome = await self.store.update(snapshot, fields, self.ttl, running="remove")
            else:
                outcome = await self.store.update(snapshot, {"rounds": snapshot.round}, self.ttl)
            if outcome == "ok":
                await self.announce(tournament_id)
                self.runner.kick(tournament_id)
                return await self.get(tournament_id)
        raise _busy()

    # reading

    async def get(self, tournament_id: str) -> Tournament:
        snapshot = await self._load(tournament_id)
        players = tuple(
            TournamentPlayer(player_id=p.id, name=p.name, joins_round=p.joined, dropped=p.dropped)
            for p in snapshot.players
        )
        return Tournament(summary=summary_of(snapshot), players=players)

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


async def _quiet(tournament_id: str, notice: bytes = b"") -> None:
    """Announce nothing (a service without followers)."""


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
