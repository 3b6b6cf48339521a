"""``packplay bot``, end to end against a real server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from clients_tables import Connections, fetch_replay, open_table
from support_servers import ServerProcess as Server

from packplay.cli import main
from packplay_clients import FirstBot, play


@pytest.mark.parametrize(
    ("game", "players", "encoding"), [("mishra_factory", 3, "msgpack"), ("day_night", 2, "json")]
)
def test_bot_create_fills_every_seat_and_prints_the_result(
    server: Server, capsys: pytest.CaptureFixture[str], game: str, players: int, encoding: str
) -> None:
    argv = ["bot", server.url, "--create", game, "--players", str(players), "--encoding", encoding]
    status = main([*argv, "--seed", "3"])
    outcome = json.loads(capsys.readouterr().out)
    replay = asyncio.run(fetch_replay(server.url, outcome["game_id"]))
    assert status == 0 and outcome["game"] == game and outcome["players"] == players
    assert outcome["result"]["winners"] == list(replay.result.winners)
    assert outcome["actions"] == len(replay.log) and outcome["replay_url"].endswith("/replay")


async def test_bot_plays_one_seat_against_another_client(
    server: Server, connections: Connections, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, tokens = await open_table(server.url, "wedding_planner", 2)
    human = await connections.connect(server.url, tokens[0])
    await human.join()
    # Ids and tokens may start with "-": the "=" form keeps argparse from reading them as options.
    argv = ["bot", server.url, f"--game-id={game_id}", f"--token={tokens[1]}", "--bot", "first"]
    status, over = await asyncio.gather(
        asyncio.to_thread(main, argv), play(human, FirstBot(), idle_timeout=10)
    )
    outcome = json.loads(capsys.readouterr().out)
    assert status == 0 and outcome["seat"] == 1 and outcome["game_id"] == game_id
    assert outcome["result"]["winners"] == list(over.result.winners)


@pytest.mark.parametrize("bot", ["strong", "bots_samples:Recorder"])
def test_bot_plays_with_the_strong_bot_or_one_named_by_import_path(
    server: Server, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bot: str
) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "bots"))
    argv = ["bot", server.url, "--create", "base_race", "--bot", bot, "--budget", "4", "--seed", "2"]
    assert main(argv) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["game"] == "base_race" and outcome["actions"] > 2
    assert main(["bot", server.url, "--create", "base_race", "--bot", "clever"]) == 2
    assert "unknown bot 'clever'" in capsys.readouterr().err


def test_bot_reports_refusals(server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", server.url, "--create", "no_such_game"]) == 1
    assert "validation_failed" in capsys.readouterr().err
    assert main(["bot", server.url, "--game-id", "abc"]) == 2
    assert "--token" in capsys.readouterr().err
