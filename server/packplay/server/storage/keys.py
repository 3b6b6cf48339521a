"""Every Redis key and channel name the server uses, and nothing else.

Layout for Redis Cluster: every Lua script of the server touches one hash slot. To that
end every key lives in one of :data:`SHARDS` shards, and a shard is one hash tag, so one
slot. A game's keys, and a tournament's, carry the tag of the shard its id falls in
(:func:`shard_of`); so do the indexes a script writes beside them: the lobby indexes,
the started-games index, the clock index and the tournament indexes exist once per shard,
and the channel of a server process once per shard too (a commit publishes an entry on the
channel of its game's shard). A read across all games (a listing, the clock sweep, the
tournament runner) reads every shard's index and merges; on one Redis that is one batch
of :data:`SHARDS` commands, on a cluster one batch per node.

The shards' tags are chosen so that their slots are spread evenly over the 16384 slots
(shard ``i`` hashes into slots ``[i * 16384 / SHARDS, (i + 1) * 16384 / SHARDS)``): a
cluster whose masters own equal slot ranges holds equal numbers of shards.

:data:`SHARDS` is part of the stored layout: changing it loses every game and tournament
stored under the old one. A new key must either carry the tag of its game or tournament
(``game_key(game_id, suffix)``, ``tournament_key(tournament_id, suffix)``), or exist once
per shard (``shard_key(shard, name)``) when a script writes it beside a game's keys; a
key that is only read or written by plain commands, or only by scripts that touch no
other key's slot, may carry a tag of its own. So a seat's limit of actions is a field of
its game's hash, and a client's limits of new and open games (one address) share the tag
``{<client>}``: the script that counts a new game touches those two keys only, before the
create script runs.

Former names, for reference: ``pp:game:{<game id>}[:<suffix>]`` is now
``pp:game:{<shard tag>}:<game id>[:<suffix>]`` (same suffixes), ``pp:tour:{<id>}...`` is
``pp:tour:{<shard tag>}:<id>...``; ``pp:lobby[:<game>]``, ``pp:games``, ``pp:clocks``,
``pp:tournaments`` and ``pp:tournaments:running`` are ``pp:<name>:{<shard tag>}[:<game>]``,
one per shard; the process channel ``pp:proc:<process id>`` is
``pp:proc:{<shard tag>}:<process id>``, one per shard. A game's set of watching processes,
once ``pp:game:{<shard tag>}:<game id>:procs``, is the ``watchers`` field of its hash.
"""

from __future__ import annotations

import binascii
from functools import cache, lru_cache

PREFIX = "pp"
SHARDS = 64
"""Shards of the keyspace (each one hash slot); a fixed part of the layout."""
CLUSTER_SLOTS = 16384
HOT_IDS = 8192
"""Ids whose shard and keys are remembered, about the games a process plays at once: every
move names six keys of its game, each made from the CRC of the game's id."""


def slot(key: str) -> int:
    """The Redis Cluster hash slot of ``key`` (CRC16 of its hash tag, or of the whole key)."""
    raw = key.encode()
    start = raw.find(b"{")
    if start >= 0:
        end = raw.find(b"}", start + 1)
        if end > start + 1:
            raw = raw[start + 1 : end]
    return binascii.crc_hqx(raw, 0) % CLUSTER_SLOTS


@cache
def _tags() -> tuple[str, ...]:
    width = CLUSTER_SLOTS // SHARDS
    found: list[str] = []
    for shard in range(SHARDS):
        n = 0
        while slot(f"{{{shard}.{n}}}") // width != shard:
            n += 1
        found.append(f"{shard}.{n}")
    return tuple(found)


def tag(shard: int) -> str:
    """The hash tag of a shard (without braces), such as ``5.131``."""
    return _tags()[shard]


@lru_cache(maxsize=HOT_IDS)
def shard_of(entity_id: str) -> int:
    """The shard of a game or a tournament: from the slot its id hashes to."""
    return slot(entity_id) * SHARDS // CLUSTER_SLOTS


@cache
def shard_key(shard: int, name: str) -> str:
    """A key that exists once per shard: ``pp:<name>:{<tag>}``."""
    return f"{PREFIX}:{name}:{{{tag(shard)}}}"


def game_key(game_id: str, suffix: str = "") -> str:
    """A key of one game: ``pp:game:{<tag>}:<game id>[:<suffix>]``."""
    base = f"{PREFIX}:game:{{{tag(shard_of(game_id))}}}:{game_id}"
    return f"{base}:{suffix}" if suffix else base


def tournament_key(tournament_id: str, suffix: str = "") -> str:
    """A key of one tournament: ``pp:tour:{<tag>}:<tournament id>[:<suffix>]``."""
    base = f"{PREFIX}:tour:{{{tag(shard_of(tournament_id))}}}:{tournament_id}"
    return f"{base}:{suffix}" if suffix else base


def game(game_id: str) -> str:
    """Hash of small fields: status, version, seats' decisions, turn deadline, game name, players,
    ``snapshot``: the version of the state stored (:func:`state`), and ``watchers``: the ids of
    the server processes with a connection on the game (they are sent its entries), separated
    by spaces."""
    return game_key(game_id)


def setup(game_id: str) -> str:
    """List: the game's meta, then (once started) its card table; both never change after."""
    return game_key(game_id, "setup")


def state(game_id: str) -> str:
    """String: the game's last snapshot: its state (its card table aside) at the version the
    game hash's ``snapshot`` field names (a game stored before snapshots has no such field:
    its state is at its version). The log's entries after that version lead to the game now."""
    return game_key(game_id, "state")


def seats(game_id: str) -> str:
    """Hash: ``<seat>`` -> the hashed player token, ``n<seat>`` -> the player's name, per taken seat.
    (A token names its game, so finding a token's seat reads only this key.)"""
    return game_key(game_id, "seats")


def log(game_id: str) -> str:
    """List: item ``v`` says what made version ``v``; item 0 is the dealt state, then one log entry each."""
    return game_key(game_id, "log")


def answers(game_id: str) -> str:
    """Hash: ``<seat>:<action id>`` -> the answer it got (a resent action gets it again, applied once)."""
    return game_key(game_id, "answers")


@lru_cache(maxsize=HOT_IDS)
def game_keys(game_id: str) -> tuple[str, ...]:
    """All keys of one game, in the order the store's scripts take them."""
    return (
        game(game_id),
        setup(game_id),
        state(game_id),
        seats(game_id),
        log(game_id),
        answers(game_id),
    )


def client_games(client: str) -> str:
    """String: when (Redis's clock, ms) the client's allowance of new games is whole again;
    it expires then. ``client`` is an address (an IPv6 one as its /64 network)."""
    return f"{PREFIX}:client:{{{client}}}:games"


def client_house_games(client: str) -> str:
    """String: when (Redis's clock, ms) the client's allowance of new games with house seats is
    whole again; it expires then."""
    return f"{PREFIX}:client:{{{client}}}:house"


def client_house_moves(client: str) -> str:
    """String: when (Redis's clock, ms) the allowance of house decisions in the games the client
    created is whole again; it expires then."""
    return f"{PREFIX}:client:{{{client}}}:house-moves"


def client_request(client: str, digest: str) -> str:
    """String: the answer kept for one ``Idempotency-Key`` of the client (``digest`` names the
    key and the route, see :mod:`packplay.server.storage.requests`)."""
    return f"{PREFIX}:client:{{{client}}}:request:{digest}"


def client_lobbies(client: str) -> str:
    """Sorted set: the open games the client created -> the time (unix seconds) they expire by.
    Entries past it are dropped on write; the key expires with its last game."""
    return f"{PREFIX}:client:{{{client}}}:lobbies"


def lobby(shard: int, game_name: str | None = None) -> str:
    """Sorted set of a shard's open games, all games or one game type (score: a time the game's
    keys cannot outlive; entries past it are dropped on write, and the key expires after its
    last game)."""
    key = shard_key(shard, "lobby")
    return key if game_name is None else f"{key}:{game_name}"


@cache
def games(shard: int) -> str:
    """Sorted set of a shard's started games, for listings beyond the lobby (scored and pruned
    as the lobby)."""
    return shard_key(shard, "games")


@cache
def clocks(shard: int) -> str:
    """Sorted set: game id -> deadline (unix seconds) of its pending decision, for the games of
    one shard. Every process sweeps every shard (the version compare-and-set plays a timed-out
    seat once); a process that finds an entry's game gone drops it; the key expires after the
    last game written to it."""
    return shard_key(shard, "clocks")


def tournament(tournament_id: str) -> str:
    """Hash: meta, status, version, current round, rounds, and ``round:<n>``: each round's pairing."""
    return tournament_key(tournament_id)


def tournament_players(tournament_id: str) -> str:
    """Hash: player id -> the player's record (name, hashed secret, first round, drop)."""
    return tournament_key(tournament_id, "players")


def tournament_games(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> the id of the table's game (set once)."""
    return tournament_key(tournament_id, "games")


def tournament_seats(tournament_id: str) -> str:
    """Hash: ``<round>:<player id>`` -> ``<game id> <seat> <seat token>``, handed to the player."""
    return tournament_key(tournament_id, "seats")


def tournament_results(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> the table's result (set once)."""
    return tournament_key(tournament_id, "results")


def tournament_claims(tournament_id: str) -> str:
    """Hash: ``<round>:<table>`` -> ``<process id> <until>``: who creates the table's game now."""
    return tournament_key(tournament_id, "claims")


def tournament_keys(tournament_id: str) -> tuple[str, str, str, str, str, str]:
    """All keys of one tournament, in the order the tournament scripts take them."""
    return (
        tournament(tournament_id),
        tournament_players(tournament_id),
        tournament_games(tournament_id),
        tournament_seats(tournament_id),
        tournament_results(tournament_id),
        tournament_claims(tournament_id),
    )


def tournaments(shard: int) -> str:
    """Sorted set of a shard's tournaments created within their lifetime (score: creation time)."""
    return shard_key(shard, "tournaments")


def running_tournaments(shard: int) -> str:
    """Sorted set of a shard's tournaments between start and finish (score: creation time): the
    runners' work list (every runner reads every shard's)."""
    return shard_key(shard, "tournaments:running")


NEWS_PREFIX = f"{PREFIX}:news:"


def tournament_news(tournament_id: str) -> str:
    """Pub/sub channel of one tournament: a notice after each step that changes what its
    followers see (every process subscribes to all of them by pattern)."""
    return f"{NEWS_PREFIX}{tournament_id}"


def tournament_news_pattern() -> str:
    return f"{NEWS_PREFIX}*"


@cache
def channel_prefix(shard: int) -> str:
    """Start of the channel names of one shard; a process's channel there is this plus its id."""
    return f"{PREFIX}:proc:{{{tag(shard)}}}:"


def channel(shard: int, process_id: str) -> str:
    """Pub/sub channel of one server process in one shard: the log entries of the shard's games
    it watches. Each process subscribes to its channel in every shard; a commit publishes in
    its game's shard only, so that a cluster carries it as a sharded message (SPUBLISH) to
    the shard's node and no further."""
    return channel_prefix(shard) + process_id


def channels(process_id: str) -> list[str]:
    """The channels of one process, one per shard."""
    return [channel(shard, process_id) for shard in range(SHARDS)]
