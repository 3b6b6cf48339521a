"""Update-size benchmark: what one seat's update after a move is made of, in bytes.

    python load/bench_update_size.py [--games 30] [--players 2]

Random legal games of every game type are played through the server's own game copy and
rendering, without sockets or Redis. For each seat's update it prints the median and
mean frame in JSON (and the median JSON payload as the server's permessage-deflate sends
it by default, each message compressed on its own) and MessagePack, then the JSON bytes
by part: the events, and the patch's operations by the top-level field of the view
message they change ('view', 'legal', 'cards', 'pending'...). The last column is the
median JSON update without the operations that add card facts to the view's card table:
what a wire form that names cards by their catalog identity alone would send.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

import msgspec
from bench_move_path import dealt, options, shared, stepped, updates
from zlib_ng import zlib_ng

from packplay.cards.catalog import load_catalog
from packplay.games.random_policy import random_action
from packplay.games.registry import GAME_NAMES, get_game
from packplay.rng import Rng
from packplay_protocol import codec
from packplay_protocol.to_client import Update
from packplay_protocol.version import Encoding


class Sizes:
    """Every update's frame sizes and its JSON bytes by part."""

    def __init__(self) -> None:
        self.json: list[int] = []
        self.deflated: list[int] = []
        self.msgpack: list[int] = []
        self.without_card_facts: list[int] = []
        self.parts: Counter[str] = Counter()

    def add(self, update: Update) -> None:
        frame = codec.encode(update, Encoding.JSON)
        self.json.append(len(frame))
        self.deflated.append(deflated_size(frame))
        self.msgpack.append(len(codec.encode(update, Encoding.MSGPACK)))
        self.parts["events"] += len(msgspec.json.encode(update.events))
        card_facts = 0
        for op in update.patch:
            size = len(msgspec.json.encode(op)) + 1  # the comma between operations
            field = op.path.split("/")[1]
            self.parts[f"patch {field}"] += size
            if field == "cards" and op.op == "add":
                card_facts += size
        self.without_card_facts.append(len(frame) - card_facts)


def deflated_size(frame: bytes) -> int:
    """The frame's payload as the server's permessage-deflate sends it by default: compressed on
    its own (no context takeover) at zlib-ng's fastest level, with uvicorn's window and memory
    sizes, less the four bytes of the sync flush that RFC 7692 drops."""
    compressor = zlib_ng.compressobj(1, zlib_ng.DEFLATED, -12, 5)
    return len(compressor.compress(frame) + compressor.flush(zlib_ng.Z_SYNC_FLUSH)) - 4


def play_one(game: str, players: int, seed: int, catalog: Any, sizes: Sizes) -> None:
    copy, views = dealt(game, players, seed, catalog)
    engine, rng = copy.engine, Rng(seed)
    while copy.result is None and copy.pending:
        seat = copy.pending[rng.below(len(copy.pending))]
        taken = stepped(copy, seat, random_action(copy.legal[seat], engine.action_type, rng))
        for update in updates(views, shared(views, copy, taken), players):
            sizes.add(update)


def main(options: argparse.Namespace) -> None:
    catalog = load_catalog()
    for game in GAME_NAMES:
        engine = get_game(game)
        players = min(max(options.players, engine.min_players), engine.max_players)
        sizes = Sizes()
        for seed in range(options.games):
            play_one(game, players, seed, catalog, sizes)
        count = len(sizes.json)
        print(
            f"{game:16} {players} seats, {count} updates: JSON median {statistics.median(sizes.json):6.0f} B,"
            f" mean {statistics.mean(sizes.json):6.0f} B, deflated median"
            f" {statistics.median(sizes.deflated):5.0f} B | MessagePack median"
            f" {statistics.median(sizes.msgpack):6.0f} B | JSON without card facts, median"
            f" {statistics.median(sizes.without_card_facts):6.0f} B"
        )
        parts = ", ".join(f"{name} {total / count:.0f}" for name, total in sizes.parts.most_common())
        print(f"{'':16} JSON bytes per update by part: {parts}")


if __name__ == "__main__":
    main(options(__doc__, games=30))
