"""Game state in Redis: the only home of every game, shared by all server processes.

A game is four keys (see :mod:`packplay.server.keys`): a hash with its meta, status,
version and engine state; a hash of taken seats; a stream with one entry per
version; a hash of answers by action id. Every change of version goes through one
Lua script that compares and sets the version, appends the log entry, stores the
answer and publishes the new version, all at once.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec
import redis.asyncio as aioredis

from packplay.games.base import GameConfig
from packplay.server import keys
from packplay_protocol.rest import CardRef

Status = Literal["lobby", "starting", "active", "finished"]

POOL_TIMEOUT = 5.0
"""Seconds a request waits for a free Redis connection before failing."""
LOBBY_VERSION = -1
"""The version of a game waiting for players; setting it up makes version 0."""


class GameMeta(msgspec.Struct, frozen=True, kw_only=True):
    """What never changes after creation. The seed stays here, never in a view."""

    id: str
    config: GameConfig
    seed: int
    created: float
    clock: float | None = None
    """Seconds per pending decision, or None for no turn clock."""
    boosters: tuple[tuple[CardRef, ...], ...] | None = None
    """Explicit card lists of a sandbox game, opened instead of boosters."""
    sandbox: bool = False
    """Created with a chosen seed or chosen cards (only a sandbox server allows it)."""


class Answer(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The answer to one action id, stored so that a repeated id gets it again."""

    accepted: bool
    version: int
    reason: str | None = None
    rule: str | None = None
    message: str | None = None
    digest: str = ""
    """Fingerprint of the action, to tell a resent action from another one reusing its id."""


class StoredEvent(msgspec.Struct, frozen=True, array_like=True):
    """An event as plain data and who may see it: the seats in ``to``, or, when ``to`` is
    None, everyone but the seats in ``exclude``."""

    event: Any
    to: tuple[int, ...] | None = None
    exclude: tuple[int, ...] = ()


class LogEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What made one version: the action of a seat (none for the start) and its events."""

    version: int
    at: float
    seat: int | None = None
    action_id: str | None = None
    action: Any = None
    timed_out: bool = False
    events: tuple[StoredEvent, ...] = ()


class Update(msgspec.Struct, frozen=True, kw_only=True):
    """What a commit publishes to every process: the entry and the state it led to."""

    game_id: str
    status: Status
    state: bytes
    entry: LogEntry


@dataclass(frozen=True)
class Snapshot:
    """A game as read from Redis at one version."""

    meta: GameMeta
    status: Status
    version: int
    state: bytes | None
    legal: bytes | None
    deadline: float | None
    taken: int


@dataclass(frozen=True)
class Commit:
    """One new version to write if the game is still at ``expected``."""

    game_id: str
    expected: int
    status: Status
    state: bytes
    legal: bytes
    entry: LogEntry
    ttl: int
    answer_field: str = ""
    answer: Answer | None = None
    deadline: float | None = None
    decoded: Any = field(default=None, compare=False, repr=False)
    """The new state as an object (never stored): spares this process's fan-out decoding it."""


CommitOutcome = Literal["ok", "duplicate", "conflict", "missing"]


@dataclass(frozen=True)
class GameRow:
    """A game as listings show it: no state, the names of the taken seats."""

    meta: GameMeta
    status: Status
    version: int
    names: dict[int, str]


def hash_token(token: str) -> str:
    """Tokens are stored only as this digest; a leaked dump gives no seat away."""
    return hashlib.sha256(token.encode()).hexdigest()


def answer_field(seat: int, action_id: str) -> str:
    return f"{seat}:{action_id}"


_encode = msgspec.msgpack.Encoder().encode
_meta_decoder = msgspec.msgpack.Decoder(GameMeta)
_answer_decoder = msgspec.msgpack.Decoder(Answer)
_entry_decoder = msgspec.msgpack.Decoder(LogEntry)
update_decoder = msgspec.msgpack.Decoder(Update)

_COMMIT = """
if ARGV[2] ~= '' then
  local previous = redis.call('HGET', KEYS[4], ARGV[2])
  if previous then return {'duplicate', previous} end
end
local version = tonumber(redis.call('HGET', KEYS[1], 'version'))
if version == nil then return {'missing'} end
if version ~= tonumber(ARGV[1]) then return {'conflict', tostring(version)} end
local new = version + 1
redis.call('HSET', KEYS[1], 'version', new, 'status', ARGV[4], 'state', ARGV[5], 'legal', ARGV[6],
  'deadline', ARGV[7])
redis.call('XADD', KEYS[3], new .. '-1', 'e', ARGV[8])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[4], ARGV[2], ARGV[3]) end
if ARGV[7] ~= '' then redis.call('ZADD', KEYS[5], ARGV[7], ARGV[12])
else redis.call('ZREM', KEYS[5], ARGV[12]) end
for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[11]) end
redis.call('PUBLISH', ARGV[9], ARGV[10])
return {'ok', tostring(new)}
"""

_LOAD = """
return {redis.call('HGETALL', KEYS[1]), redis.call('HLEN', KEYS[2]), redis.call('HGET', KEYS[3], ARGV[1])}
"""

_JOIN = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'missing'} end
if status ~= 'lobby' then return {'started'} end
local players = tonumber(redis.call('HGET', KEYS[1], 'players'))
local seat = tonumber(ARGV[2])
if seat < 0 then
  for s = 0, players - 1 do
    if redis.call('HEXISTS', KEYS[2], s) == 0 then seat = s break end
  end
  if seat < 0 then return {'full'} end
elseif seat >= players then return {'no_seat'}
elseif redis.call('HEXISTS', KEYS[2], seat) == 1 then return {'taken'} end
redis.call('HSET', KEYS[2], seat, ARGV[1] .. ' ' .. ARGV[6])
redis.call('SET', KEYS[3], ARGV[4] .. ' ' .. seat, 'EX', ARGV[3])
local taken = redis.call('HLEN', KEYS[2])
if taken == players then
  redis.call('HSET', KEYS[1], 'status', 'starting')
  redis.call('ZREM', KEYS[4], ARGV[4])
  redis.call('ZREM', KEYS[5], ARGV[4])
else
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[4])
  redis.call('ZADD', KEYS[5], ARGV[5], ARGV[4])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return {'ok', tostring(seat), tostring(taken)}
"""

_LEAVE = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 'missing' end
if status ~= 'lobby' then return 'started' end
local held = redis.call('HGET', KEYS[2], ARGV[1])
if not held or string.sub(held, 1, #ARGV[2]) ~= ARGV[2] then return 'not_seated' end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
return 'ok'
"""


class Store:
    """The narrow port over Redis that the service uses; one per process."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client
        self._commit = client.register_script(_COMMIT)
        self._load = client.register_script(_LOAD)
        self._join = client.register_script(_JOIN)
        self._leave = client.register_script(_LEAVE)

    @classmethod
    def from_url(cls, url: str, connections: int = 64) -> Store:
        """A store over at most ``connections`` Redis connections; requests beyond wait their turn."""
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=connections, timeout=POOL_TIMEOUT, health_check_interval=30
        )
        return cls(aioredis.Redis.from_pool(pool))

    async def close(self) -> None:
        await self.redis.aclose()

    async def create(self, meta: GameMeta, ttl: int) -> None:
        """A new open game: no state and version -1 until its last seat is taken."""
        game_key = keys.game(meta.id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(
                game_key,
                mapping={
                    "meta": _encode(meta),
                    "game": meta.config.game,
                    "players": meta.config.players,
                    "status": "lobby",
                    "version": LOBBY_VERSION,
                    "deadline": "",
                },
            )
            pipe.expire(game_key, ttl)
            for index in (keys.lobby(), keys.lobby(meta.config.game), keys.games()):
                pipe.zadd(index, {meta.id: meta.created})
            await pipe.execute()

    async def load(self, game_id: str, field: str = "") -> tuple[Snapshot | None, Answer | None]:
        """The game now, and the stored answer under ``field`` if there is one (one round trip)."""
        # One script rather than a MULTI pipeline: a single command, far less client work.
        flat, taken, answer = await self._load(
            keys=[keys.game(game_id), keys.seats(game_id), keys.answers(game_id)], args=[field or "-"]
        )
        raw = dict(zip(flat[::2], flat[1::2], strict=True))
        snapshot = _snapshot(raw, taken) if raw else None
        return snapshot, (_answer_decoder.decode(answer) if answer else None)

    async def join(
        self, game_id: str, token_hash: str, name: str, seat: int | None, ttl: int
    ) -> tuple[str, int, int]:
        """Take ``seat`` (or the first free one): (outcome, seat, seats taken).

        The outcome is ``ok``, ``missing``, ``started``, ``full``, ``no_seat`` or
        ``taken``. The join that takes the last seat moves the game to ``starting``.
        """
        meta_game: Any = await self.redis.hget(keys.game(game_id), "game")
        game_name = meta_game.decode() if meta_game else ""
        reply = await self._join(
            keys=[
                keys.game(game_id),
                keys.seats(game_id),
                keys.token(token_hash),
                keys.lobby(),
                keys.lobby(game_name),
            ],
            args=[token_hash, -1 if seat is None else seat, ttl, game_id, time.time(), name],
        )
        outcome = reply[0].decode()
        if outcome != "ok":
            return outcome, -1, 0
        return outcome, int(reply[1]), int(reply[2])

    async def leave(self, game_id: str, seat: int, token_hash: str) -> str:
        """Free a seat before the start: ``ok``, ``missing``, ``started`` or ``not_seated``."""
        reply = await self._leave(
            keys=[keys.game(game_id), keys.seats(game_id), keys.token(token_hash)],
            args=[seat, token_hash],
        )
        return bytes(reply).decode()

    async def seat_of(self, token_hash: str) -> tuple[str, int] | None:
        """The game and seat a hashed token holds, if any."""
        raw: Any = await self.redis.get(keys.token(token_hash))
        if raw is None:
            return None
        game_id, seat = raw.decode().split(" ")
        return game_id, int(seat)

    async def seats(self, game_id: str) -> dict[int, tuple[str, str]]:
        """Taken seats: seat -> (hashed token, player name)."""
        raw: Any = await self.redis.hgetall(keys.seats(game_id))
        return {int(seat): _split_seat(held) for seat, held in raw.items()}

    async def commit(self, commit: Commit) -> tuple[CommitOutcome, Answer | None, int]:
        """Write the new version atomically: (outcome, previous answer if duplicate, version).

        ``conflict`` gives the version found instead of the expected one.
        """
        game_id = commit.game_id
        update = Update(game_id=game_id, status=commit.status, state=commit.state, entry=commit.entry)
        reply = await self._commit(
            keys=[*keys.game_keys(game_id), keys.clocks()],
            args=[
                commit.expected,
                commit.answer_field,
                _encode(commit.answer) if commit.answer is not None else b"",
                commit.status,
                commit.state,
                commit.legal,
                "" if commit.deadline is None else repr(commit.deadline),
                _encode(commit.entry),
                keys.channel(game_id),
                _encode(update),
                commit.ttl,
                game_id,
            ],
        )
        outcome = reply[0].decode()
        if outcome == "duplicate":
            return "duplicate", _answer_decoder.decode(reply[1]), -1
        if outcome == "conflict":
            return "conflict", None, int(reply[1])
        if outcome == "missing":
            return "missing", None, -1
        return "ok", commit.answer, int(reply[1])

    async def remember(self, game_id: str, field: str, answer: Answer) -> Answer:
        """Store a rejection under ``field`` unless an answer is there already; the stored one."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hsetnx(keys.answers(game_id), field, _encode(answer))
            pipe.hget(keys.answers(game_id), field)
            _, stored = await pipe.execute()
        return _answer_decoder.decode(stored) if stored else answer

    async def entries_since(self, game_id: str, version: int) -> list[LogEntry]:
        """Log entries of versions after ``version``, in order."""
        rows: Any = await self.redis.xrange(keys.log(game_id), min=f"{version + 1}-0", max="+")
        return [_entry_decoder.decode(fields[b"e"]) for _, fields in rows]

    async def game_ids(self, game_name: str | None, open_only: bool, limit: int, max_age: int) -> list[str]:
        """Ids of games, newest first: open ones from the lobby index, else all recent ones.

        Entries older than ``max_age`` seconds (idle lobbies, long-gone games) leave the index here.
        """
        index = keys.lobby(game_name) if open_only else keys.games()
        await self.redis.zremrangebyscore(index, "-inf", time.time() - max_age)
        found: Any = await self.redis.zrevrange(index, 0, limit - 1)
        return [raw.decode() for raw in found]

    async def rows(self, game_ids: list[str]) -> list[GameRow]:
        """The lobby's view of each game that still exists, in the given order."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(keys.game(game_id), ["meta", "status", "version"])
                pipe.hgetall(keys.seats(game_id))
            replies = await pipe.execute()
        rows = []
        for (meta, status, version), seats in zip(replies[::2], replies[1::2], strict=True):
            if meta is not None:
                names = {int(seat): _split_seat(held)[1] for seat, held in seats.items()}
                rows.append(GameRow(_meta_decoder.decode(meta), status.decode(), int(version), names))
        return rows

    async def expire_tokens(self, token_hashes: list[str], ttl: int) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for digest in token_hashes:
                pipe.expire(keys.token(digest), ttl)
            await pipe.execute()

    async def due_clocks(self, now: float, limit: int = 100) -> list[tuple[str, float]]:
        """Games whose pending decision is past its deadline: (game id, deadline)."""
        index = keys.clocks()
        rows: Any = await self.redis.zrangebyscore(index, "-inf", now, start=0, num=limit, withscores=True)
        return [(raw.decode(), float(score)) for raw, score in rows]

    async def clear_clock(self, game_id: str) -> None:
        await self.redis.zrem(keys.clocks(), game_id)

    async def ping(self) -> bool:
        return bool(await self.redis.ping())


def _snapshot(raw: dict[bytes, bytes], taken: int) -> Snapshot:
    deadline = raw.get(b"deadline") or b""
    return Snapshot(
        meta=_meta_decoder.decode(raw[b"meta"]),
        status=raw[b"status"].decode(),  # type: ignore[arg-type]
        version=int(raw[b"version"]),
        state=raw.get(b"state"),
        legal=raw.get(b"legal"),
        deadline=float(deadline) if deadline else None,
        taken=int(taken),
    )


def _split_seat(held: bytes) -> tuple[str, str]:
    digest, _, name = held.decode().partition(" ")
    return digest, name
