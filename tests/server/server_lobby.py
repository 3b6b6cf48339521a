"""REST steps shared by the integration tests: open a game, seat everyone, fetch the replay."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
from server_leaks import catalog

from packplay.games.audit import verify
from packplay.games.base import GameConfig
from packplay.games.playout import LoggedAction as PlayedAction
from packplay.games.playout import replay as replay_engine
from packplay.games.registry import get_game
from packplay_protocol.games.common import GameResult
from packplay_protocol.rest import GameSummary, Replay, SeatGrant


async def open_game(base: str, game: str, players: int, **extra: Any) -> tuple[str, list[str]]:
    """Create a game and take every seat: (game id, token per seat)."""
    async with httpx.AsyncClient(base_url=base) as http:
        created = await http.post("/v2/games", json={"game": game, "players": players, **extra})
        assert created.status_code == 201, created.text
        game_id = msgspec.json.decode(created.content, type=GameSummary).game_id
        tokens = []
        for seat in range(players):
            joined = await http.post(f"/v2/games/{game_id}/seats", json={"name": f"p{seat}"})
            assert joined.status_code == 201, joined.text
            tokens.append(msgspec.json.decode(joined.content, type=SeatGrant).token)
    return game_id, tokens


async def fetch_replay(base: str, game_id: str) -> Replay:
    async with httpx.AsyncClient(base_url=base) as http:
        response = await http.get(f"/v2/games/{game_id}/replay")
    assert response.status_code == 200, response.text
    replay = msgspec.json.decode(response.content, type=Replay)
    verdict = verify(replay)  # every export checks from its explicit set-up alone
    assert verdict.ok and verdict.result == replay.result, verdict.problem
    return replay


def replayed_result(replay: Replay) -> GameResult | None:
    """The result of replaying the log on the engine alone (no server involved)."""
    setup = replay.setup
    engine = get_game(setup.game)
    config = GameConfig(game=setup.game, players=setup.players, sets=setup.sets, options=setup.options)
    log = [PlayedAction(entry.seat, entry.action) for entry in replay.log]
    return engine.result(replay_engine(engine, config, replay.seed, catalog(), log))
