"""Game state in Redis: the only home of every game, shared by all server processes.

A game is six keys (see :func:`packplay.server.storage.keys.game_keys`): a hash of its status,
version, decisions, deadline, its keys' lifetime, its seats' limits of actions, the
processes watching it and the version of its snapshot; its set-up (its meta, and its card
table packed, each card by its catalog identity); its snapshot (its state at some version);
a hash of its taken seats; its log, a list with one entry per version (the action that made
it; entry 0 holds the dealt state, packed); a hash of the answers given to action ids.
Every change of version goes through one Lua script that compares and sets the version,
appends the entry, records the seat's answer and sends the entry to the other watching
processes, all at once (when writes wait for replicas, the entry is sent once they hold
it: :meth:`GameStore.commit`). The log is the truth: a commit writes the state only when
its caller sends a snapshot (every so many versions and at the end, see
:func:`snapshot_due`), and a reader rebuilds the game from the snapshot and the entries
after it (:meth:`GameStore.load`, :mod:`packplay.table.rebuild`).
Every command travels in the process's :class:`~packplay.server.storage.pipeline.Pipeline`.

Every script touches the keys of one shard only (one hash slot; see
:mod:`packplay.server.storage.keys`): the game's own and its shard's indexes and channels, so
the same scripts run on one Redis and on a Redis Cluster.
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from functools import lru_cache
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from packplay.server.storage import keys, scripts, urls
from packplay.server.storage.pipeline import Pipeline
from packplay.table.records import (
    Answer,
    Commit,
    CommitResult,
    GameMeta,
    GameRow,
    LogEntry,
    Rate,
    Snapshot,
    decode_answer,
    decode_entry,
    decode_meta,
    encode,
)

LOBBY_VERSION = -1
"""The version of a game waiting for players; setting it up makes version 0."""
CATCH_UP_ENTRIES = 32
"""A commit that loses a race brings back at most this many entries it missed."""

log = logging.getLogger(__name__)


NO_LIMIT: list[float | int | str] = ["", ""]


def snapshot_due(version: int, finished: bool, every: int) -> bool:
    """Whether the commit of ``version`` writes the state: every ``every`` versions and at the end.
    A reader then applies fewer than ``every`` entries to the snapshot it reads. Decided by the
    version alone, so the process that wins a race writes the snapshot the loser would have."""
    return finished or version % every == 0


def limit_args(rate: Rate | None) -> list[float | int | str]:
    """What the limit scripts take: milliseconds per unit and the burst ('' '': no limit)."""
    return NO_LIMIT if rate is None else [1000.0 / rate.per_second, rate.burst]


def answer_field(seat: int, action_id: str) -> str:
    return f"{seat}:{action_id}"


def limit_field(seat: int) -> str:
    """The game hash's field of a seat's limit of actions."""
    return f"limit:{seat}"


_ZLIB_HEADER = b"\x78"


def pack(blob: bytes) -> bytes:
    """A blob written once and read seldom (a game's card table, its dealt state), compressed:
    card ids are hexadecimal and set codes repeat, so it takes about half the memory. At
    the fastest level: on blobs this small it finds nearly all that the default level
    finds (1-3% more bytes) in half the time, which a game's set-up feels."""
    return zlib.compress(blob, 1)


def unpack(stored: bytes) -> bytes:
    """A packed blob back. Games stored before their blobs were packed hold them as they are:
    a MessagePack map or array, whose first byte is never zlib's."""
    return zlib.decompress(stored) if stored[:1] == _ZLIB_HEADER else stored


# One script per change of a game (KEYS, ARGV and replies in each file's header).
_CREATE = scripts.load("games/create")
_CREATE_SEATED = scripts.load("games/create_seated")
_JOIN = scripts.load("games/join")
_LEAVE = scripts.load("games/leave")
_LOAD = scripts.load("games/load")
_ENTRIES = scripts.load("games/entries")
_WATCH = scripts.load("games/watch")
_UNWATCH = scripts.load("games/unwatch")
_START = scripts.load("games/start")
_COMMIT = scripts.load("games/commit")
_ANNOUNCE = scripts.load("games/announce")
_REMEMBER = scripts.load("games/remember")
_ADMIT = scripts.load("games/admit")
_CLAIM_CLOCK = scripts.load("games/claim_clock")
_TAKE = scripts.load("games/take")


class GameStore:
    """The narrow port over Redis that the service uses; one per process."""

    def __init__(
        self, client: aioredis.Redis | RedisCluster, pipeline: Pipeline, process_id: str, *, replicas: int = 0
    ) -> None:
        self.redis = client
        """A plain or cluster client, for pub/sub and for tests; the service's commands use the pipeline."""
        self.pipeline = pipeline
        self.process_id = process_id
        self.sharded_pubsub = False
        """Entries travel as sharded messages (SPUBLISH, Redis 7 and later); see :meth:`prepare`."""
        self._barrier = "1" if replicas > 0 else ""
        """Replies that reach clients wait for the replicas (see _BARRIER)."""
        self._durable = replicas > 0
        self._publish = "PUBLISH"
        """The command that sends entries to other processes (see :meth:`prepare`)."""
        self._announcing: set[asyncio.Task[Any]] = set()

    @classmethod
    def from_url(
        cls,
        url: str,
        process_id: str = "",
        connections: int = 16,
        lanes: int = 4,
        timeout: float | None = 30.0,
        replicas: int = 0,
        replica_timeout: float = 1.0,
    ) -> GameStore:
        """A store over at most ``connections`` Redis connections, ``lanes`` of them for batches.

        ``url`` names one Redis (``redis://``, ``rediss://``, ``unix://``), a Redis Cluster
        (``redis+cluster://host:port[,host:port...]``) or a Sentinel-managed master
        (``redis+sentinel://host:port[,host:port...]/<master name>``); see
        :mod:`packplay.server.storage.urls`.
        """
        client, pipeline = urls.connect(
            url,
            connections=connections,
            lanes=lanes,
            timeout=timeout,
            replicas=replicas,
            replica_timeout=replica_timeout,
        )
        return cls(client, pipeline, process_id, replicas=replicas)

    async def prepare(self) -> None:
        """Check that Redis answers, and whether it has sharded pub/sub (SPUBLISH)."""
        await self.ping()
        versions = await self.pipeline.each_node("INFO", "server")
        self.sharded_pubsub = all(_major_version(bytes(info)) >= 7 for info in versions)
        self._publish = "SPUBLISH" if self.sharded_pubsub else "PUBLISH"

    async def close(self) -> None:
        await asyncio.gather(*self._announcing, return_exceptions=True)
        await self.pipeline.close()
        await self.redis.aclose()

    # lobby

    async def admit(
        self, client: str, games: Rate | None, most_open: int, game_id: str, ttl: int, lobby: bool
    ) -> tuple[str, int]:
        """Count a new game against the client's limits: (``ok``, 0), (``limited``, ms to wait)
        or (``lobbies``, 0) when the client has ``most_open`` open games (0: no limit) already.

        Only ``lobby`` games count as open; a game of the client's stops counting once it
        starts (or is gone)."""
        most = most_open if lobby else 0
        closed: list[str] = []
        if most > 0:
            held = await self.pipeline.call("ZRANGEBYSCORE", keys.client_lobbies(client), time.time(), "+inf")
            ids = [raw.decode() for raw in held]
            statuses = await asyncio.gather(
                *(self.pipeline.call("HGET", keys.game(game_id), "status") for game_id in ids)
            )
            closed = [game_id for game_id, status in zip(ids, statuses, strict=True) if status != b"lobby"]
        reply = await self.pipeline.run(
            _ADMIT,
            [keys.client_games(client), keys.client_lobbies(client)],
            [*limit_args(games), most, game_id, ttl, *closed],
        )
        outcome = reply[0].decode()
        return outcome, int(reply[1]) if outcome == "limited" else 0

    async def take_house_game(self, client: str, rate: Rate) -> int:
        """Count a new game with house seats against the client's limit: 0, or the milliseconds
        to wait (nothing counted)."""
        return int(await self.pipeline.run(_TAKE, [keys.client_house_games(client)], limit_args(rate)))

    async def take_house_move(self, client: str, rate: Rate) -> int:
        """Count a house decision in a game ``client`` created: 0, or the milliseconds to wait."""
        return int(await self.pipeline.run(_TAKE, [keys.client_house_moves(client)], limit_args(rate)))

    async def create(
        self, meta: GameMeta, ttl: int, invite: str = "", taken: dict[int, tuple[str, str]] | None = None
    ) -> None:
        """A new open game: no state and version -1 until its last seat is taken. A game with
        an ``invite`` (the hashed code) is left out of the lobby, and its seats need the code;
        ``taken`` seats (seat -> hashed token, name) are taken at once."""
        shard = keys.shard_of(meta.id)
        index = [keys.lobby(shard), keys.lobby(shard, meta.config.game)]
        args = [encode(meta), meta.config.game, meta.config.players, ttl, meta.id, invite]
        args += [part for seat, (digest, name) in (taken or {}).items() for part in (seat, digest, name)]
        await self.pipeline.run(_CREATE, [*keys.game_keys(meta.id), *index], args)

    async def create_seated(
        self,
        meta: GameMeta,
        seats: list[tuple[str, str]],
        cards: bytes,
        state: bytes,
        decisions: bytes,
        deadline: float | None,
        ttl: int,
    ) -> None:
        """A new game with every seat taken (hashed token, name per seat), started at version 0."""
        args = [
            encode(meta), meta.config.game, meta.config.players, ttl, meta.id,
            pack(cards), state, decisions, "" if deadline is None else repr(deadline), pack(state),
            *(part for digest, name in seats for part in (digest, name)),
        ]  # fmt: skip
        await self.pipeline.run(_CREATE_SEATED, [*keys.game_keys(meta.id), *_indexes(meta.id)], args)

    async def join(
        self, game_id: str, token_hash: str, name: str, seat: int | None, ttl: int, invite: str = ""
    ) -> tuple[str, int, int, GameMeta | None]:
        """Take ``seat`` (or the first free one): (outcome, seat, seats taken, meta).

        The outcome is ``ok``, ``missing``, ``started``, ``full``, ``no_seat``, ``taken``,
        ``invite_required`` or ``bad_invite`` (``invite``: the hashed code, '' for none).
        The join that takes the last seat moves the game to ``starting``.
        """
        reply = await self.pipeline.run(
            _JOIN,
            [*keys.game_keys(game_id), keys.lobby(keys.shard_of(game_id))],
            [
                token_hash,
                -1 if seat is None else seat,
                ttl,
                game_id,
                name,
                keys.lobby(keys.shard_of(game_id), ""),
                invite,
            ],
        )
        outcome = reply[0].decode()
        if outcome != "ok":
            return outcome, -1, 0, None
        return outcome, int(reply[1]), int(reply[2]), decode_meta(reply[3])

    async def leave(self, game_id: str, seat: int, token_hash: str) -> str:
        """Free a seat before the start: ``ok``, ``missing``, ``started`` or ``not_seated``."""
        reply = await self.pipeline.run(_LEAVE, list(keys.game_keys(game_id)), [seat, token_hash])
        return bytes(reply).decode()

    async def seats(self, game_id: str) -> dict[int, tuple[str, str]]:
        """Taken seats: seat -> (hashed token, player name)."""
        return _seats(_pairs(await self.pipeline.call("HGETALL", keys.seats(game_id))))

    async def game_ids(self, game_name: str | None, open_only: bool, limit: int) -> list[str]:
        """Ids of games, those kept longest first (open ones: the most recently joined): open ones
        from the lobby indexes, else started ones; every shard's index is read (one batch) and
        the best ``limit`` kept. Entries past their time are skipped (writes drop them); a
        started game's entry may outlive it a while, and the caller's rows skip it."""
        now = time.time()
        shards = await asyncio.gather(
            *(
                self.pipeline.call(
                    "ZREVRANGEBYSCORE",
                    keys.lobby(shard, game_name) if open_only else keys.games(shard),
                    "+inf",
                    now,
                    "WITHSCORES",
                    "LIMIT",
                    0,
                    limit,
                )
                for shard in range(keys.SHARDS)
            )
        )
        found = [(float(rows[i + 1]), rows[i].decode()) for rows in shards for i in range(0, len(rows), 2)]
        found.sort(reverse=True)
        return [game_id for _, game_id in found[:limit]]

    async def rows(self, game_ids: list[str]) -> list[GameRow]:
        """The lobby's view of each game that still exists, in the given order."""
        calls = [
            (
                self.pipeline.call("LINDEX", keys.setup(game_id), 0),
                self.pipeline.call("HMGET", keys.game(game_id), "status", "version"),
                self.pipeline.call("HGETALL", keys.seats(game_id)),
            )
            for game_id in game_ids
        ]
        # Every reply is awaited, failed or not, so that a Redis error leaves none unretrieved.
        outcomes = await asyncio.gather(*(c for call in calls for c in call), return_exceptions=True)
        replies: list[Any] = []
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome
            replies.append(outcome)
        rows = []
        for index in range(0, len(replies), 3):
            meta, (status, version), raw_seats = replies[index : index + 3]
            seats = _seats(_pairs(raw_seats))
            if meta is not None and status is not None:
                names = {seat: name for seat, (_, name) in seats.items()}
                rows.append(GameRow(decode_meta(meta), status.decode(), int(version), names))
        return rows

    # play

    async def load(self, game_id: str, watch: bool = False) -> Snapshot | None:
        """The game now: its last snapshot and the log entries after it (see
        :mod:`packplay.table.rebuild`); with ``watch`` this process is also sent its next entries."""
        fields, setup, state, seats, entries = await self.pipeline.run(
            _LOAD, list(keys.game_keys(game_id)), [self.process_id if watch else "", self._barrier]
        )
        if not fields or not setup:
            return None
        return _snapshot(_pairs(fields), setup, state, int(seats) // 2, tuple(entries))

    async def versions(self, game_ids: list[str]) -> list[int | None]:
        """The version each game is at (None: gone), in one batch."""
        replies = await asyncio.gather(
            *(self.pipeline.call("HGET", keys.game(game_id), "version") for game_id in game_ids)
        )
        return [None if reply is None else int(reply) for reply in replies]

    async def watch(self, game_id: str) -> int | None:
        """This process is sent the game's next entries; the version the game is at (None: gone)."""
        reply = await self.pipeline.run(
            _WATCH, list(keys.game_keys(game_id)), [self.process_id], durable=False
        )
        return None if reply == b"missing" else int(reply)

    async def unwatch(self, game_id: str) -> None:
        """This process no longer has a connection on the game."""
        await self.pipeline.run(_UNWATCH, [keys.game(game_id)], [self.process_id], durable=False)

    async def start(
        self, meta: GameMeta, cards: bytes, state: bytes, decisions: bytes, deadline: float | None, ttl: int
    ) -> bool:
        """Write version 0 of a full game; false when another process did first."""
        reply = await self.pipeline.run(
            _START,
            [*keys.game_keys(meta.id), *_indexes(meta.id)],
            [
                pack(cards),
                state,
                decisions,
                "" if deadline is None else repr(deadline),
                ttl,
                meta.id,
                pack(state),
            ],  # fmt: skip
        )
        return bytes(reply) == b"ok"

    async def commit(self, commit: Commit) -> CommitResult:
        """Write the new version atomically, if the game is still at ``commit.expected``."""
        game_id, entry = commit.game_id, commit.entry
        seat = -1 if entry.seat is None else entry.seat
        action_id = entry.action_id or ""
        reply = await self.pipeline.run(
            _COMMIT,
            [*keys.game_keys(game_id), *_indexes(game_id)],
            [
                commit.expected,
                answer_field(seat, action_id) if action_id else "",
                encode(commit.answer),
                commit.status,
                commit.state or "",
                commit.decisions,
                "" if commit.deadline is None else repr(commit.deadline),
                commit.entry_bytes,
                commit.ttl,
                game_id,
                self.process_id,
                keys.channel_prefix(keys.shard_of(game_id)),
                CATCH_UP_ENTRIES,
                "" if self._durable else self._publish,
                self._barrier,
                *limit_args(commit.limit),
                limit_field(seat),
            ],
        )
        outcome = reply[0].decode()
        if outcome == "duplicate":
            previous = decode_answer(reply[1])
            if previous.accepted and self._durable:
                # Its first commit may have been answered unavailable, and announced to nobody.
                self._announce(game_id, previous.version)
            return CommitResult("duplicate", previous=previous)
        if outcome == "conflict":
            return CommitResult("conflict", version=int(reply[1]), missed=tuple(reply[2]))
        if outcome == "missing":
            return CommitResult("missing")
        if outcome == "limited":
            return CommitResult("limited", wait=int(reply[1]))
        version = int(reply[1])
        if self._durable:  # else the commit script published it
            self._announce(game_id, version)
        return CommitResult("ok", version=version)

    def _announce(self, game_id: str, version: int) -> None:
        """Publish a durable commit's entry to the other processes that watch its game, now that
        the replicas hold it; the acting client's answer does not wait for this."""
        task = asyncio.ensure_future(self._send_announcement(game_id, version))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _send_announcement(self, game_id: str, version: int) -> None:
        arguments = [game_id, version, self.process_id, keys.channel_prefix(keys.shard_of(game_id))]
        try:
            await self.pipeline.run(
                _ANNOUNCE, list(keys.game_keys(game_id)), [*arguments, self._publish], durable=False
            )
        except Exception as error:
            # A task of its own, so nobody else would hear of this. Pub/sub delivers at most
            # once anyway: the other processes' quiet-game check reads what they missed.
            log.warning("game %s: announcing version %s failed: %s", game_id, version, error)

    async def remember(
        self,
        game_id: str,
        seat: int,
        field: str,
        answer: Answer,
        limit: Rate | None = None,
        most_kept: int = 256,
    ) -> Answer | int:
        """Store a refusal under ``field`` unless an answer is there already (or the seat has
        ``most_kept`` refusals kept already); the stored one, or the milliseconds the seat has to
        wait when ``limit`` holds it back (nothing stored)."""
        stored = await self.pipeline.run(
            _REMEMBER,
            list(keys.game_keys(game_id)),
            [field, encode(answer), *limit_args(limit), limit_field(seat), most_kept, f"refused:{seat}"],
        )
        if isinstance(stored, list):
            return int(stored[1])
        return decode_answer(stored) if stored else answer

    async def dealt(self, game_id: str) -> bytes | None:
        """The state the game was dealt (version 0), the start of every replay."""
        found: bytes | None = await self.pipeline.call("LINDEX", keys.log(game_id), 0)
        return None if found is None else unpack(found)

    async def entries(
        self, game_id: str, after: int, until: int | None = None
    ) -> list[tuple[LogEntry, bytes]]:
        """Log entries of the versions after ``after`` (up to ``until``), in order, with their bytes.

        Read up to the end (no ``until``) under PACKPLAY_REDIS_REPLICAS, they wait for the
        replicas (see _BARRIER); entries up to a version this process holds are there already."""
        first = max(after + 1, 1)
        if until is None and self._barrier:
            rows = await self.pipeline.run(_ENTRIES, [keys.game(game_id), keys.log(game_id)], [first, -1])
        else:
            rows = await self.pipeline.call(
                "LRANGE", keys.log(game_id), first, -1 if until is None else until
            )
        return [(decode_entry(raw), raw) for raw in rows]

    # turn clocks

    async def due_clocks(self, now: float, limit: int = 100) -> list[tuple[str, float]]:
        """Games whose pending decision is past its deadline: (game id, deadline), the earliest
        first, from every shard's clock index (one batch)."""
        shards = await asyncio.gather(
            *(
                self.pipeline.call(
                    "ZRANGEBYSCORE", keys.clocks(shard), "-inf", now, "WITHSCORES", "LIMIT", 0, limit
                )
                for shard in range(keys.SHARDS)
            )
        )
        due = [(float(rows[i + 1]), rows[i].decode()) for rows in shards for i in range(0, len(rows), 2)]
        due.sort()
        return [(game_id, deadline) for deadline, game_id in due[:limit]]

    async def clear_clock(self, game_id: str) -> None:
        await self.pipeline.call("ZREM", keys.clocks(keys.shard_of(game_id)), game_id)

    async def claim_clock(self, game_id: str, seen: float, until: float) -> bool:
        """Move a game's clock entry from ``seen`` to ``until`` if it is still at ``seen``:
        of the processes that found it due, the one this returns true to acts on it."""
        clocks = keys.clocks(keys.shard_of(game_id))
        moved = await self.pipeline.run(_CLAIM_CLOCK, [clocks], [game_id, repr(seen), repr(until)])
        return bool(moved)

    async def ping(self) -> bool:
        return bytes(await self.pipeline.call("PING")) == b"PONG"


@lru_cache(maxsize=keys.HOT_IDS)
def _indexes(game_id: str) -> tuple[str, str]:
    """The clock and started-games indexes of the game's shard, as the scripts take them."""
    shard = keys.shard_of(game_id)
    return keys.clocks(shard), keys.games(shard)


def _major_version(info: bytes) -> int:
    for line in info.splitlines():
        if line.startswith(b"redis_version:"):
            return int(line.split(b":", 1)[1].split(b".", 1)[0])
    return 0


def _pairs(flat: list[bytes]) -> dict[bytes, bytes]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _snapshot(
    raw: dict[bytes, bytes], setup: list[bytes], state: bytes | None, taken: int, entries: tuple[bytes, ...]
) -> Snapshot:
    deadline = raw.get(b"deadline") or b""
    at = raw.get(b"snapshot")
    return Snapshot(
        meta=decode_meta(setup[0]),
        status=raw[b"status"].decode(),  # type: ignore[arg-type]
        version=int(raw[b"version"]),
        cards=unpack(setup[1]) if len(setup) > 1 else None,
        state=state,
        decisions=raw.get(b"decisions"),
        deadline=float(deadline) if deadline else None,
        taken=taken,
        state_version=None if at is None else int(at),
        entries=entries,
    )


def _seats(raw: dict[bytes, bytes]) -> dict[int, tuple[str, str]]:
    """Taken seats from the seats hash: seat -> (hashed token, name)."""
    return {
        int(field): (digest.decode(), raw.get(b"n" + field, b"").decode())
        for field, digest in raw.items()
        if not field.startswith(b"n")
    }
