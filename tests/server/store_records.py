"""Records the store tests write straight to a GameStore: a game's meta, a started game, a commit."""

from __future__ import annotations

import time

from packplay.games.base import GameConfig
from packplay.server.play.ids import hash_token
from packplay.server.storage.games import GameStore
from packplay.table.records import Answer, Commit, GameMeta, LogEntry, encode


def meta(game_id: str = "g1", players: int = 2) -> GameMeta:
    config = GameConfig(game="mishra_factory", players=players)
    return GameMeta(id=game_id, config=config, seed=7, created=time.time())


def commit(expected: int, action_id: str = "", status: str = "active", seat: int = 0) -> Commit:
    """The commit of version ``expected + 1`` of game ``g1``, accepted."""
    entry = LogEntry(version=expected + 1, at=0.0, seat=seat, action_id=action_id or f"x{expected}")
    return Commit(
        game_id="g1",
        expected=expected,
        status=status,  # type: ignore[arg-type]
        state=f"state{expected + 1}".encode(),
        decisions=b"",
        entry=entry,
        entry_bytes=encode(entry),
        ttl=60,
        answer=Answer(accepted=True, version=expected + 1, digest="d"),
    )


async def started(store: GameStore, cards: bytes = b"cards", dealt: bytes = b"state0") -> None:
    """Game ``g1`` created, both seats taken and started at version 0."""
    await store.create(meta(), ttl=60)
    for seat in range(2):
        await store.join("g1", hash_token(f"t{seat}"), "p", None, ttl=60)
    assert await store.start(meta(), cards, dealt, b"", None, ttl=60)
