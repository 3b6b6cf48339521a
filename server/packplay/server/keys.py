"""Every Redis key and channel name the server uses, and nothing else.

A game's keys share the hash tag ``{<game id>}`` so that one Lua script may touch
them all on a Redis Cluster too.
"""

from __future__ import annotations

PREFIX = "pp"


def game(game_id: str) -> str:
    """Hash: the game's meta, status, version, state and per-seat bookkeeping."""
    return f"{PREFIX}:game:{{{game_id}}}"


def seats(game_id: str) -> str:
    """Hash: seat number -> hashed player token (a field exists once the seat is taken)."""
    return f"{PREFIX}:game:{{{game_id}}}:seats"


def log(game_id: str) -> str:
    """Stream: one entry per version (entry id ``<version>-0``): the action and its events."""
    return f"{PREFIX}:game:{{{game_id}}}:log"


def answers(game_id: str) -> str:
    """Hash: ``<seat>:<action id>`` -> the stored answer to that action (idempotency)."""
    return f"{PREFIX}:game:{{{game_id}}}:answers"


def game_keys(game_id: str) -> tuple[str, str, str, str]:
    """All keys of one game, in the order the store's scripts take them."""
    return game(game_id), seats(game_id), log(game_id), answers(game_id)


def token(token_hash: str) -> str:
    """String: a hashed player token -> ``<game id> <seat>``."""
    return f"{PREFIX}:token:{token_hash}"


def lobby(game_name: str | None = None) -> str:
    """Sorted set of open games (score: creation time), all games or one game type."""
    return f"{PREFIX}:lobby" if game_name is None else f"{PREFIX}:lobby:{game_name}"


def games() -> str:
    """Sorted set of every game (score: creation time), for listings beyond the lobby."""
    return f"{PREFIX}:games"


def clocks() -> str:
    """Sorted set: game id -> deadline (unix seconds) of its pending decision."""
    return f"{PREFIX}:clocks"


def channel(game_id: str) -> str:
    """Pub/sub channel carrying each new version of one game to every process."""
    return f"{PREFIX}:chan:game:{game_id}"


def game_id_of_channel(name: str) -> str:
    return name.removeprefix(f"{PREFIX}:chan:game:")
