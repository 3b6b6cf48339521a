"""Codec benchmark: encode+decode per second and bytes of a typical view, JSON vs MessagePack, per game.

    python load/bench_codec.py [--seconds 0.5]

A typical view is the 'view' message a pending seat receives halfway through a
random game played by the real engine (with its legal actions). The last column
shows msgspec's own MessagePack codec for reference; the protocol uses the
'msgpack' package (msgpack.packb of msgspec.to_builtins, then msgspec.convert).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import msgspec

from packplay.cards.catalog import load_catalog
from packplay.games.base import GameConfig, events_for
from packplay.games.random_policy import random_action
from packplay.games.registry import GAME_NAMES, get_game
from packplay.rng import Rng
from packplay_protocol import codec
from packplay_protocol.codec import Direction
from packplay_protocol.to_client import Events, ServerMessage, ViewMessage
from packplay_protocol.version import Encoding

SEED = 20240611


def typical_messages(game: str, catalog: Any) -> tuple[ViewMessage, Events]:
    """The view and the events a pending seat gets halfway through a seeded random game."""
    engine = get_game(game)
    config = GameConfig(game=game, players=engine.min_players)
    total = _game_length(engine, config, catalog)
    state, rng, events = engine.setup(config, SEED, catalog), Rng(SEED), []
    for _ in range(total // 2):
        seat = engine.pending(state)[0]
        transition = engine.apply(
            state, seat, random_action(engine.legal_actions(state, seat), engine.action_type, rng)
        )
        state, events = transition.state, list(transition.events)
    seat = engine.pending(state)[0]
    view = ViewMessage(
        game_id="g7Hk2pQx",
        game=game,
        version=total // 2,
        seat=seat,
        pending=engine.pending(state),
        legal=engine.legal_actions(state, seat),
        view=engine.view(state, seat),
    )
    delta = Events(
        game_id="g7Hk2pQx",
        from_version=total // 2 - 1,
        to_version=total // 2,
        events=tuple(events_for(events, seat)),
    )
    return view, delta


def _game_length(engine: Any, config: GameConfig, catalog: Any) -> int:
    state, rng, steps = engine.setup(config, SEED, catalog), Rng(SEED), 0
    while pending := engine.pending(state):
        action = random_action(engine.legal_actions(state, pending[0]), engine.action_type, rng)
        state, steps = engine.apply(state, pending[0], action).state, steps + 1
    return steps


def rate(work: Callable[[], object], seconds: float) -> float:
    """Calls of ``work`` per second, measured over about ``seconds``."""
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(50):
            work()
        calls += 50
    return calls / elapsed


def measure(message: ServerMessage, seconds: float) -> dict[str, float]:
    """Round trips per second and frame sizes, for both encodings and for msgspec's msgpack."""
    out: dict[str, float] = {}
    for encoding in Encoding:
        frame = codec.encode(message, encoding)
        decoded = codec.decode(frame, encoding, Direction.TO_CLIENT)
        assert msgspec.json.encode(decoded) == msgspec.json.encode(message)
        out[f"{encoding.value}_bytes"] = len(frame)
        out[f"{encoding.value}_rate"] = rate(_round_trip(message, encoding), seconds)
    native = msgspec.msgpack.Decoder(ServerMessage)
    out["native_rate"] = rate(lambda: native.decode(msgspec.msgpack.encode(message)), seconds)
    return out


def _round_trip(message: ServerMessage, encoding: Encoding) -> Callable[[], object]:
    return lambda: codec.decode(codec.encode(message, encoding), encoding, Direction.TO_CLIENT)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=0.5, help="measuring time per cell")
    args = parser.parse_args()
    catalog = load_catalog()
    header = (
        f"{'game':<16} {'msg':<7} {'json B':>7} {'mpack B':>7} "
        f"{'json rt/s':>10} {'mpack rt/s':>10} {'msgspec-mp rt/s':>15}"
    )
    print(header)
    print("-" * len(header))
    for game in GAME_NAMES:
        view, events = typical_messages(game, catalog)
        cases: list[tuple[str, ServerMessage]] = [("view", view), ("events", events)]
        for kind, message in cases:
            m = measure(message, args.seconds)
            print(
                f"{game:<16} {kind:<7} {m['json_bytes']:>7.0f} {m['msgpack_bytes']:>7.0f} "
                f"{m['json_rate']:>10,.0f} {m['msgpack_rate']:>10,.0f} {m['native_rate']:>15,.0f}"
            )
    print("\nrt/s: encode+decode round trips per second, one core; B: frame bytes.")


if __name__ == "__main__":
    main()
