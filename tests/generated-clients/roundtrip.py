"""A Day vs Night game through the Python client that openapi-python-client generates
from the OpenAPI document, against a live server: the game types, a typed refusal
naming an option, create, join both seats, read the game as a seat, wait for the turn
clocks to play it out, then read its replay.

    python roundtrip.py http://127.0.0.1:PORT

Runs with the generated package `packplay_rest_api_client` on the path; exits non-zero
on the first difference.
"""

from __future__ import annotations

import sys
import time

from packplay_rest_api_client import AuthenticatedClient, Client
from packplay_rest_api_client.api.games import (
    create_game,
    get_game,
    get_game_type,
    get_replay,
    join_seat,
    list_game_types,
)
from packplay_rest_api_client.models import (
    CreateDayNightGame,
    CreateDayNightGameGame,
    CreatedGame,
    DayNightOptions,
    GameSnapshot,
    GameSummaryStatus,
    GameType,
    GameTypeList,
    JoinSeat,
    Problem,
    Replay,
    SeatGrant,
)

GAMES = ["day_night", "mishra_factory", "wedding_planner", "base_race"]
WAIT_SECONDS = 60.0


def main(base_url: str) -> int:
    lobby = Client(base_url=base_url, raise_on_unexpected_status=True)
    types = list_game_types.sync(client=lobby)
    assert isinstance(types, GameTypeList), types
    assert [t.game for t in types.games] == GAMES, types
    day_night = get_game_type.sync("day_night", client=lobby)
    assert isinstance(day_night, GameType) and day_night.simultaneous, day_night
    assert [o.name for o in day_night.options] == ["day_seat"], day_night.options

    refused = create_game.sync_detailed(
        client=lobby,
        body=CreateDayNightGame(
            game=CreateDayNightGameGame.DAY_NIGHT, players=2, options=DayNightOptions(day_seat=2)
        ),
    )
    assert refused.status_code == 422 and isinstance(refused.parsed, Problem), refused
    assert refused.parsed.pointer == "/options/day_seat", refused.parsed

    created = create_game.sync(
        client=lobby,
        body=CreateDayNightGame(
            game=CreateDayNightGameGame.DAY_NIGHT,
            players=2,
            turn_seconds=0.05,
            options=DayNightOptions(day_seat=1),
        ),
    )
    assert isinstance(created, CreatedGame) and created.grants == [], created
    game_id = created.game_id
    grants = [join_seat.sync(game_id, client=lobby, body=JoinSeat(name=name)) for name in ("Ada", "Grace")]
    assert all(isinstance(g, SeatGrant) for g in grants), grants
    assert [g.seat for g in grants] == [0, 1], grants  # type: ignore[union-attr]

    seat = AuthenticatedClient(base_url=base_url, token=grants[1].token, raise_on_unexpected_status=True)  # type: ignore[union-attr]
    snapshot = get_game.sync(game_id, client=seat)
    assert isinstance(snapshot, GameSnapshot) and snapshot.state is not None, snapshot
    assert snapshot.state.seat == 1, snapshot.state

    not_over = get_replay.sync_detailed(game_id, client=lobby)
    over = not_over.status_code == 200
    assert over or (not_over.status_code == 409 and isinstance(not_over.parsed, Problem)), not_over

    deadline = time.monotonic() + WAIT_SECONDS
    while snapshot.summary.status != GameSummaryStatus.OVER:
        assert time.monotonic() < deadline, f"game {game_id} not over after {WAIT_SECONDS}s"
        time.sleep(0.2)
        polled = get_game.sync(game_id, client=seat)
        assert isinstance(polled, GameSnapshot), polled
        snapshot = polled

    replay = get_replay.sync(game_id, client=lobby)
    assert isinstance(replay, Replay), replay
    assert replay.game_id == game_id and replay.setup.game == "day_night", replay
    assert replay.setup.options.additional_properties == {"day_seat": 1}, replay.setup.options
    assert len(replay.log) == snapshot.summary.version > 0, (len(replay.log), snapshot.summary.version)
    assert [entry.version for entry in replay.log] == list(range(1, len(replay.log) + 1))
    print(
        f"python client: game {game_id} created, 2 seats joined, read as seat 1, "
        f"replay of {len(replay.log)} actions, winners {list(replay.result.winners)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
