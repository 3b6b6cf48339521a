"""Tournaments in Redis: every step of an event is one script that compares and sets its version.

A tournament is six keys sharing the hash tag of its id's shard (see
:mod:`packplay.server.storage.keys`): a hash with its meta, status, version, current round and
each round's pairing; its players; the game of each table; each player's seat token of
each round; each table's result; the claims on tables whose game is being created.

Any process may run any step, and each happens once:

- a step that changes the event (a registration, a drop, the start, the pairing of a
  round, the finish) is computed from one read of the whole tournament and written by
  a script only if the version is still the one read, bumping it; the loser reads again;
- a table's game is created by the process that claims the table (a lease, taken over
  when it lapses, so a process killed while creating loses nothing but the lease), and
  its game id is set once (``HSETNX``) together with the players' seat tokens;
- a table's result is set once (``HSETNX``): every process reads the same finished game.

Every write refreshes the expiry of all the tournament's keys.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from packplay.server.storage import keys, scripts
from packplay.server.storage.pipeline import Pipeline, Script
from packplay.tournaments.model import Result, Round
from packplay.tournaments.records import (
    PlayerRecord,
    Status,
    TournamentMeta,
    TournamentSnapshot,
    table_field,
)

Outcome = Literal["ok", "moved", "missing"]
"""A versioned write: done, refused because the version moved on, or no such tournament."""
ClaimOutcome = Literal["ok", "busy", "seated"]


def seat_field(round_number: int, player_id: str) -> str:
    return f"{round_number}:{player_id}"


def round_field(round_number: int) -> str:
    return f"round:{round_number}"


CHANGED = b"changed"
"""The notice that anything may have changed: followers read the whole tournament again."""


def result_notice(round_number: int, table: int) -> bytes:
    """The notice that a table has its result (nothing else changed with it)."""
    return f"result {round_number} {table}".encode()


def seated_notice(round_number: int, table: int) -> bytes:
    """The notice that a table has its game and its players their seats."""
    return f"seated {round_number} {table}".encode()


encode = msgspec.msgpack.Encoder().encode
_meta_decoder = msgspec.msgpack.Decoder(TournamentMeta)
_player_decoder = msgspec.msgpack.Decoder(PlayerRecord)
_round_decoder = msgspec.msgpack.Decoder(Round)
_result_decoder = msgspec.msgpack.Decoder(Result)

# One script per step of a tournament (KEYS, ARGV and replies in each file's header).
_CREATE = scripts.load("tournaments/create")
_LOAD = scripts.load("tournaments/load")
_ENTRY = scripts.load("tournaments/entry")
_PUT_PLAYER = scripts.load("tournaments/put_player")
_ADD_PLAYER = scripts.load("tournaments/add_player")
_SET = scripts.load("tournaments/set")
_CLAIM = scripts.load("tournaments/claim")
_SEAT = scripts.load("tournaments/seat")
_RECORD = scripts.load("tournaments/record")
_PROBE = scripts.load("tournaments/probe")


@dataclass(frozen=True)
class Entry:
    """One player's part of a tournament now: what ``getMyTable`` needs, read in one script."""

    status: Status
    round: int
    player: PlayerRecord | None
    pairing: Round | None
    """The current round's tables and byes, without results."""
    seat: tuple[str, int, str] | None
    """The player's (game id, seat, seat token) in the current round, once its game exists."""


@dataclass(frozen=True)
class Probe:
    """A tournament's counters, read without reading the tournament."""

    version: int
    round: int
    games: int
    """Games created, over every round."""
    done: int
    """Tables of the current round with a result."""


class TournamentStore:
    """The port over Redis that the tournament service uses; one per process."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline

    async def create(self, meta: TournamentMeta, ttl: int) -> bool:
        """A new tournament taking registrations at version 0; false if the id is taken."""
        reply = await self._run(_CREATE, meta.id, [ttl, encode(meta), meta.id, meta.created])
        return bytes(reply) == b"ok"

    async def load(self, tournament_id: str) -> TournamentSnapshot | None:
        """The whole tournament at one version, or None."""
        raw, players, games, results = await self.pipeline.run(
            _LOAD, list(_keys(tournament_id)), [], durable=False
        )
        fields = _pairs(raw)
        if b"meta" not in fields:
            return None
        rounds = fields.get(b"rounds") or b""
        pairings = {
            int(name[len(b"round:") :]): _round_decoder.decode(value)
            for name, value in fields.items()
            if name.startswith(b"round:")
        }
        return TournamentSnapshot(
            meta=_meta_decoder.decode(fields[b"meta"]),
            status=fields[b"status"].decode(),  # type: ignore[arg-type]
            version=int(fields[b"version"]),
            round=int(fields[b"round"]),
            rounds=int(rounds) if rounds else None,
            pairings=pairings,
            players=tuple(sorted((_player_decoder.decode(v) for v in _pairs(players).values()), key=_seq)),
            games={k.decode(): v.decode() for k, v in _pairs(games).items()},
            results={k.decode(): _result_decoder.decode(v) for k, v in _pairs(results).items()},
        )

    async def probe(self, tournament_id: str) -> Probe | None:
        """The tournament's version, round, games and results of the round (None: no such one)."""
        reply = await self.pipeline.run(_PROBE, list(_keys(tournament_id)), [], durable=False)
        if reply is None:
            return None
        version, number, games, done = reply
        return Probe(version=int(version), round=int(number), games=int(games), done=int(done))

    async def entry(self, tournament_id: str, player_id: str) -> Entry | None:
        """What one player needs to find its table, without reading the whole tournament."""
        reply = await self._run(_ENTRY, tournament_id, [0, player_id])
        if reply is None:
            return None
        status, number, player, pairing, seat = reply
        found = None
        if seat:
            game_id, seat_number, token = seat.decode().split(" ")
            found = (game_id, int(seat_number), token)
        return Entry(
            status=status.decode(),
            round=int(number),
            player=_player_decoder.decode(player) if player else None,
            pairing=_round_decoder.decode(pairing) if pairing else None,
            seat=found,
        )

    async def has_result(self, tournament_id: str, round_number: int, table: int) -> bool:
        found = await self.pipeline.call(
            "HEXISTS", keys.tournament_results(tournament_id), table_field(round_number, table)
        )
        return bool(found)

    async def put_player(self, tournament_id: str, expected: int, player: PlayerRecord, ttl: int) -> Outcome:
        """Register or update a player, if the tournament is still at ``expected``."""
        reply = await self._run(_PUT_PLAYER, tournament_id, [ttl, expected, player.id, encode(player)])
        return _outcome(reply)

    async def add_player(
        self, snapshot: TournamentSnapshot, player: PlayerRecord, most: int, ttl: int
    ) -> Literal["ok", "moved", "missing", "full", "taken"]:
        """Register a new player if the tournament's status and round are still the
        snapshot's (not its whole version: registrations do not race each other), there is
        room, and the id is free. Bumps the version, so that a step computed before it
        (the start) is computed again with the player."""
        args = [ttl, snapshot.status, snapshot.round, player.id, encode(player), most]
        reply = await self._run(_ADD_PLAYER, snapshot.id, args)
        return bytes(reply).decode()  # type: ignore[return-value]

    async def update(
        self,
        snapshot: TournamentSnapshot,
        fields: Mapping[str, bytes | str | int],
        ttl: int,
        running: Literal["add", "remove", ""] = "",
    ) -> Outcome:
        """Set fields of the tournament hash, if it is still at the snapshot's version."""
        flat: list[bytes | str | int | float] = []
        for name, value in fields.items():
            flat += [name, value]
        meta = snapshot.meta
        reply = await self._run(_SET, meta.id, [ttl, snapshot.version, meta.id, meta.created, running, *flat])
        return _outcome(reply)

    async def claim(
        self,
        tournament_id: str,
        round_number: int,
        table: int,
        owner: str,
        now: float,
        lease: float,
        ttl: int,
    ) -> ClaimOutcome:
        """Take the right to create a table's game until ``now + lease``."""
        args = [ttl, table_field(round_number, table), owner, repr(now), repr(now + lease)]
        reply = await self._run(_CLAIM, tournament_id, args)
        return bytes(reply).decode()  # type: ignore[return-value]

    async def seat(
        self,
        tournament_id: str,
        round_number: int,
        table: int,
        game_id: str,
        seats: dict[str, tuple[int, str]],
        ttl: int,
    ) -> str:
        """Record a table's game and each player's (seat, token) once; the game id that holds."""
        flat: list[str | int] = [ttl, table_field(round_number, table), game_id]
        for player_id, (seat, token) in seats.items():
            flat += [seat_field(round_number, player_id), f"{game_id} {seat} {token}"]
        reply = await self._run(_SEAT, tournament_id, flat)
        return bytes(reply).decode()

    async def record(
        self, tournament_id: str, round_number: int, table: int, result: Result, ttl: int
    ) -> Result | None:
        """Record a table's result once; the result that holds (None: no such tournament)."""
        recorded = await self.record_counted(tournament_id, round_number, table, result, ttl)
        return None if recorded is None else recorded[0]

    async def record_counted(
        self, tournament_id: str, round_number: int, table: int, result: Result, ttl: int
    ) -> tuple[Result, int] | None:
        """Record a table's result once: the result that holds and how many tables of the
        round have one (None: no such tournament)."""
        args = [ttl, table_field(round_number, table), encode(result), round_number]
        reply = await self._run(_RECORD, tournament_id, args)
        if reply is None:
            return None
        held, done = reply
        return _result_decoder.decode(held), int(done)

    async def result(self, tournament_id: str, round_number: int, table: int) -> Result | None:
        """A table's result, once it has one."""
        raw = await self.pipeline.call(
            "HGET", keys.tournament_results(tournament_id), table_field(round_number, table)
        )
        return None if raw is None else _result_decoder.decode(raw)

    async def seats_of(
        self, tournament_id: str, round_number: int, player_ids: list[str]
    ) -> dict[str, tuple[str, int, str]]:
        """Player id -> (game id, seat, seat token) in a round, of those players seated."""
        fields = [seat_field(round_number, p) for p in player_ids]
        raw = await self.pipeline.call("HMGET", keys.tournament_seats(tournament_id), *fields)
        seated: dict[str, tuple[str, int, str]] = {}
        for player_id, value in zip(player_ids, raw, strict=True):
            if value is not None:
                game_id, seat, token = value.decode().split(" ")
                seated[player_id] = (game_id, int(seat), token)
        return seated

    async def seat_of(
        self, tournament_id: str, round_number: int, player_id: str
    ) -> tuple[str, int, str] | None:
        """The (game id, seat, seat token) of a player in a round, once its game exists."""
        raw = await self.pipeline.call(
            "HGET", keys.tournament_seats(tournament_id), seat_field(round_number, player_id)
        )
        if raw is None:
            return None
        game_id, seat, token = raw.decode().split(" ")
        return game_id, int(seat), token

    async def round_seats(self, tournament_id: str, round_number: int) -> dict[str, tuple[str, int, str]]:
        """Player id -> (game id, seat, seat token) of every player seated in a round so far."""
        raw = await self.pipeline.call("HGETALL", keys.tournament_seats(tournament_id))
        prefix = f"{round_number}:".encode()
        seated: dict[str, tuple[str, int, str]] = {}
        for name, value in _pairs(raw).items():
            if name.startswith(prefix):
                game_id, seat, token = value.decode().split(" ")
                seated[name[len(prefix) :].decode()] = (game_id, int(seat), token)
        return seated

    async def announce(self, tournament_id: str, notice: bytes = CHANGED) -> None:
        """Tell every server process that the tournament changed (they tell its followers):
        :data:`CHANGED`, or what changed (:func:`result_notice`, :func:`seated_notice`)."""
        await self.pipeline.call("PUBLISH", keys.tournament_news(tournament_id), notice)

    async def running(self, limit: int = 1000) -> list[str]:
        """Ids of the tournaments between start and finish, oldest first."""
        shards = await asyncio.gather(
            *(
                self.pipeline.call("ZRANGE", keys.running_tournaments(shard), 0, limit - 1, "WITHSCORES")
                for shard in range(keys.SHARDS)
            )
        )
        found = sorted(
            (float(rows[i + 1]), rows[i].decode()) for rows in shards for i in range(0, len(rows), 2)
        )
        return [tournament_id for _, tournament_id in found[:limit]]

    async def forget_running(self, tournament_id: str) -> None:
        """Take a tournament that no longer exists off the work list."""
        await self.pipeline.call(
            "ZREM", keys.running_tournaments(keys.shard_of(tournament_id)), tournament_id
        )

    async def game_statuses(self, game_ids: list[str]) -> list[str | None]:
        """The stored status of each game (None for a game that no longer exists)."""
        calls = [self.pipeline.call("HGET", keys.game(game_id), "status") for game_id in game_ids]
        return [None if raw is None else raw.decode() for raw in [await call for call in calls]]

    async def _run(self, script: Script, tournament_id: str, args: list[Any]) -> Any:
        return await self.pipeline.run(script, list(_keys(tournament_id)), args)


def _keys(tournament_id: str) -> tuple[str, ...]:
    shard = keys.shard_of(tournament_id)
    return (*keys.tournament_keys(tournament_id), keys.running_tournaments(shard), keys.tournaments(shard))


def _outcome(reply: list[bytes]) -> Outcome:
    return reply[0].decode()  # type: ignore[return-value]


def _pairs(flat: list[bytes]) -> dict[bytes, bytes]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _seq(player: PlayerRecord) -> int:
    return player.seq
