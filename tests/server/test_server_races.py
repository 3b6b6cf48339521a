"""Races: rival and repeated actions at once, over both processes; the legal ones apply, once."""

from __future__ import annotations

import asyncio
import functools
import random
from collections import Counter

from server_client import Bot, Client, new_action_id, pick
from server_lobby import fetch_replay, open_game
from support_servers import ServerProcess

from packplay.server.play.authority import Authority
from packplay.server.settings import Settings
from packplay.server.storage.games import GameStore
from packplay_protocol.errors import RejectReason
from packplay_protocol.from_client import Act
from packplay_protocol.rest import JoinSeat, create_game
from packplay_protocol.to_client import Accepted, Rejected, ServerMessage, Update
from packplay_protocol.version import Encoding

COPIES = 3


async def _connections(servers: list[ServerProcess], game_id: str, token: str, count: int) -> list[Client]:
    clients = [Client(servers[i % 2].url, Encoding.MSGPACK if i % 3 else Encoding.JSON) for i in range(count)]
    for client in clients:
        await client.connect(token)
        await client.join(game_id)
    return clients


async def _answers(client: Client, acts: list[Act]) -> list[Accepted | Rejected]:
    """Send every act at once on one connection, then read one answer per act (an update
    that acknowledges an act counts as its ``accepted``)."""
    for act in acts:
        await client.send(act)
    waiting = Counter(act.action_id for act in acts)
    found: list[Accepted | Rejected] = []
    while waiting:
        message = await client.until(functools.partial(_answers_one_of, waiting))
        action_id = getattr(message, "action_id", "")
        if isinstance(message, Update):
            found.extend([Accepted(action_id=action_id, version=message.version)] * waiting.pop(action_id))
            continue
        assert isinstance(message, Accepted | Rejected)
        found.append(message)
        waiting[action_id] -= 1
        if not waiting[action_id]:
            del waiting[action_id]
    return found


def _answers_one_of(waiting: Counter[str], message: ServerMessage) -> bool:
    return getattr(message, "action_id", None) in waiting


async def _race(sends: list[tuple[Client, Act]]) -> list[Accepted | Rejected]:
    by_client: dict[Client, list[Act]] = {}
    for client, act in sends:
        by_client.setdefault(client, []).append(act)
    answers = await asyncio.gather(*(_answers(client, acts) for client, acts in by_client.items()))
    return [answer for batch in answers for answer in batch]


async def test_rival_and_repeated_actions_of_a_seat_apply_once(servers: list[ServerProcess]) -> None:
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    probe = Client(servers[0].url)
    await probe.connect(tokens[0])
    view = await probe.join(game_id)
    seat = view.pending[0]
    clients = await _connections(servers, game_id, tokens[seat], 6)
    rng = random.Random(3)
    legal = clients[0].view.legal if clients[0].view else view.legal
    moves = [pick(legal, rng) for _ in range(4)]
    acts = [Act(action_id=new_action_id(), version=view.version, action=move) for move in moves]
    sends = [(clients[(i + n) % len(clients)], act) for i, act in enumerate(acts) for n in range(COPIES)]
    answers = await _race(sends)

    accepted = {a.action_id for a in answers if isinstance(a, Accepted)}
    assert len(accepted) == 1
    winner = accepted.pop()
    assert [a.version for a in answers if a.action_id == winner] == [view.version + 1] * COPIES
    reasons = Counter(a.reason for a in answers if isinstance(a, Rejected))
    assert reasons == {RejectReason.STALE_VERSION: COPIES * (len(acts) - 1)}
    for client in [probe, *clients]:
        await client.close()


async def test_simultaneous_choices_on_a_stale_version_both_apply(servers: list[ServerProcess]) -> None:
    game_id, tokens = await open_game(servers[0].url, "day_night", 2)
    seats = [Client(servers[i].url) for i in range(2)]
    views = []
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        views.append(await client.join(game_id))
    assert views[0].pending == (0, 1), "day and night place their rows at the same time (C-5)"
    rng = random.Random(5)
    acts = [Act(action_id=new_action_id(), version=v.version, action=pick(v.legal, rng)) for v in views]
    answers = await _race([(seats[i], acts[i]) for i in range(2) for _ in range(COPIES)])
    assert all(isinstance(a, Accepted) for a in answers)
    assert sorted({a.version for a in answers}) == [1, 2]
    for client in seats:
        await client.close()


async def test_many_processes_racing_through_a_whole_game_apply_each_decision_once(redis_url: str) -> None:
    """Four authorities (as four processes would) hammer one game with rival actions."""
    # Twelve rival actions of one seat per decision: far beyond a seat's limit of actions,
    # lifted here (it is tested in test_server_limits).
    unlimited = Settings(actions_per_second=1e6, action_burst=1_000_000)
    authorities = [Authority(GameStore.from_url(redis_url), unlimited) for _ in range(4)]
    lobby = authorities[0].lobby
    created = await lobby.create(create_game("wedding_planner", 3))
    for seat in range(3):
        await lobby.join(created.game_id, JoinSeat(name=f"p{seat}"))
    rng = random.Random(11)
    applied = 0
    while True:
        loaded = await lobby.current(created.game_id)
        pending = loaded.engine.pending(loaded.state)
        if not pending:
            break
        seat = pending[0]
        legal = loaded.engine.legal_actions(loaded.state, seat)
        moves = [pick(legal, rng, loaded.engine.action_type) for _ in range(3)]
        acts = [Act(action_id=new_action_id(), version=loaded.version, action=move) for move in moves]
        answers = await asyncio.gather(
            *(authority.moves.act(created.game_id, seat, act) for authority in authorities for act in acts)
        )
        winners = {acts[i % len(acts)].action_id for i, a in enumerate(answers) if a.accepted}
        assert len(winners) == 1
        applied += 1
    replay = await authorities[1].lobby.replay(created.game_id)
    assert len(replay.log) == applied
    for authority in authorities:
        await authority.store.close()


async def test_two_connections_per_seat_play_a_consistent_game(servers: list[ServerProcess]) -> None:
    """Both connections of a seat act on every view they get; the log holds each decision once."""
    game_id, tokens = await open_game(servers[0].url, "mishra_factory", 2)
    pairs = [await _connections(servers, game_id, token, 2) for token in tokens]
    bots = [Bot(client, random.Random(i)) for i, client in enumerate(c for pair in pairs for c in pair)]
    await asyncio.gather(*(bot.play() for bot in bots))
    replay = await fetch_replay(servers[0].url, game_id)
    assert [entry.version for entry in replay.log] == list(range(1, len(replay.log) + 1))
    accepted = [a for bot in bots for a in bot.answers if isinstance(a, Accepted)]
    assert sorted(a.version for a in accepted) == list(range(1, len(replay.log) + 1))
    for pair in pairs:
        for client in pair:
            await client.close()
