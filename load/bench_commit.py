"""What a move's commit costs Redis: the state stored on every move, against the log with snapshots.

    python load/bench_commit.py                          # snapshots every 1, 8, 32 and 64 versions
    python load/bench_commit.py --baseline ../old        # also an older checkout's commit script
    python load/bench_commit.py --games 500 --every 32 --repeat 5

Games of one type (Day vs Night by default) are played in this process, each action
decided on a copy of the game (as the server does), and their commits sent to a private
Redis through the server's own store and pipeline: every game's next move at once, so the
commits share round trips as a busy server's do. Only the commits are measured, not
the games' set-up, which is measured apart. Printed per variant: the Redis server's CPU per commit
(its own count, ``INFO cpu``), the commands Redis ran per commit (the scripts' own included,
the scripts not), the bytes that crossed the socket per commit, and the Redis CPU and
commands per game of the set-up (the game created with every seat taken, then watched and
unwatched by the process, as a server does with each game it hosts). ``--baseline DIR`` runs
the game scripts of another checkout (commit, create_seated, watch, unwatch: their ARGV are
the same), with the state on every move unless ``--baseline-every N``. Last, per game, what
setting up the same games through the lobby costs Redis (created, joined by two players, started). Then,
for each snapshot interval, what reading a game costs the process that rebuilds it: the
mean entries it applies and the CPU that takes, beside a read at a snapshot. Variants
take turns in each of ``--repeat`` rounds; the medians are printed. Compare figures within
one run: absolute figures drift. ``--call-cost`` prints only what an ``EVALSHA`` costs Redis
before it runs a command, by its count of arguments, beside the commit's five commands.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import msgspec
import redis
import uvloop

from packplay.cards.catalog import Catalog, load_catalog
from packplay.games.base import GameConfig
from packplay.games.random_policy import random_action
from packplay.games.registry import get_game
from packplay.rng import Rng
from packplay.server.play.lobby import initial_state
from packplay.server.storage import games as store_module
from packplay.server.storage.embedded import EmbeddedRedis
from packplay.server.storage.games import GameStore, snapshot_due
from packplay.server.storage.pipeline import Script
from packplay.table import decisions
from packplay.table.game_copy import GameCopy, Step, encode_cards
from packplay.table.rebuild import rebuild
from packplay.table.records import Commit, GameMeta, Snapshot

TTL = 3600


@dataclass
class Played:
    """One game played here: its start and every step, in order."""

    meta: GameMeta
    dealt: GameCopy
    cards: bytes
    steps: list[Step]


def play(game: str, count: int, catalog: Catalog, seed: int) -> list[Played]:
    engine = get_game(game)
    played = []
    for n in range(count):
        config = GameConfig(game=game, players=engine.min_players, sets=engine.default_sets, options={})
        meta = GameMeta(id=f"bench{seed}-{n}", config=config, seed=seed * 100_000 + n, created=0.0)
        state = initial_state(meta, catalog)
        copy = GameCopy.dealt(meta, engine, state, 0.0)
        dealt = GameCopy.dealt(meta, engine, initial_state(meta, catalog), 0.0)
        rng = Rng(seed * 100_000 + n)
        steps = []
        while copy.status != "finished":
            seat = copy.pending[0]
            action = random_action(engine.legal_actions(copy.state, seat), engine.action_type, rng)
            step = copy.step(seat, action, f"a{copy.version}", float(copy.version))
            copy.advance(step)
            steps.append(step)
        played.append(Played(meta, dealt, encode_cards(state.cards), steps))
    return played


SCRIPTS = {
    "commit": "_COMMIT",
    "create_seated": "_CREATE_SEATED",
    "watch": "_WATCH",
    "unwatch": "_UNWATCH",
    "create": "_CREATE",
    "join": "_JOIN",
    "start": "_START",
}
"""The game scripts a run measures (their file under lua/games, the storage's name for them)."""


def baseline_scripts(checkout: Path) -> dict[str, Script]:
    """Those scripts of another checkout, their includes pasted in as its storage does."""
    return {name: baseline_script(checkout, name) for name in SCRIPTS}


def baseline_script(checkout: Path, name: str) -> Script:
    folder = checkout / "server" / "packplay" / "server" / "storage" / "lua"
    text = (folder / "games" / f"{name}.lua").read_text(encoding="utf-8")
    include = re.compile(r'^--- @include "(\w+)"$', re.MULTILINE)
    pasted = include.sub(
        lambda found: (
            (folder / "includes" / f"{found.group(1)}.lua").read_text(encoding="utf-8").rstrip("\n")
        ),
        text,
    )
    return Script(pasted)


def _commit(meta: GameMeta, step: Step, every: int) -> Commit:
    """The commit the server sends for ``step`` (``every`` 0: the state on every move, as before)."""
    finished = step.status == "finished"
    due = every == 0 or snapshot_due(step.version, finished, every)
    return Commit(
        game_id=meta.id,
        expected=step.version - 1,
        status=step.status,
        state=step.state_bytes if due else None,
        decisions=decisions.encode(step.decisions),
        entry=step.entry,
        entry_bytes=step.entry_bytes,
        ttl=TTL,
        answer=step.answer,
        deadline=step.deadline,
    )


def _redis_counts(client: redis.Redis) -> tuple[int, int]:
    """Commands run (scripts' own included, not the scripts), bytes in and out."""
    stats: dict[str, Any] = client.info("commandstats")
    commands = sum(
        int(entry["calls"])
        for name, entry in stats.items()
        if name not in ("cmdstat_evalsha", "cmdstat_eval", "cmdstat_info", "cmdstat_flushall")
    )
    stats = client.info("stats")
    return commands, int(stats["total_net_input_bytes"]) + int(stats["total_net_output_bytes"])


def _cpu(client: redis.Redis) -> float:
    """Seconds of CPU the Redis server has used (its own count, to the microsecond)."""
    stats: dict[str, Any] = client.info("cpu")
    return float(stats["used_cpu_user"]) + float(stats["used_cpu_sys"])


async def lobby_set_up(store: GameStore, direct: redis.Redis, games: list[Played]) -> tuple[float, float]:
    """Redis CPU (us) and commands per game set up through the lobby: created, joined by two
    players, started (under other ids than the measured games')."""
    metas = [msgspec.structs.replace(game.meta, id=f"{game.meta.id}-lobby") for game in games]
    commands, _ = _redis_counts(direct)
    cpu = _cpu(direct)
    await asyncio.gather(*(store.create(meta, TTL) for meta in metas))
    for player in ("p0", "p1"):
        await asyncio.gather(*(store.join(meta.id, player, player, None, TTL) for meta in metas))
    await asyncio.gather(
        *(
            store.start(meta, game.cards, game.dealt.state_bytes, b"", None, TTL)
            for meta, game in zip(metas, games, strict=True)
        )
    )
    await store.ping()
    spent = _cpu(direct) - cpu
    after, _ = _redis_counts(direct)
    return spent / len(games) * 1e6, (after - commands) / len(games)


async def measure(
    url: str, games: list[Played], every: int, scripts: dict[str, Script] | None
) -> tuple[float, ...]:
    """Redis CPU (us), commands and bytes per commit of every move of ``games``, then Redis CPU
    (us) and commands per game of their set-up: created with every seat taken, watched, unwatched;
    then per game set up through the lobby."""
    direct = redis.Redis.from_url(url)
    direct.flushall()
    store = GameStore.from_url(url, process_id="bench")
    saved = {attribute: getattr(store_module, attribute) for attribute in SCRIPTS.values()}
    for name, script in (scripts or {}).items():
        setattr(store_module, SCRIPTS[name], script)
    try:
        await store.ping()
        set_up_commands, _ = _redis_counts(direct)
        set_up_cpu = _cpu(direct)
        await asyncio.gather(
            *(
                store.create_seated(
                    game.meta,
                    [("d", "p0"), ("d", "p1")],
                    game.cards,
                    game.dealt.state_bytes,
                    decisions.encode(game.dealt.decisions),
                    game.dealt.deadline,
                    TTL,
                )
                for game in games
            )
        )
        await asyncio.gather(*(store.watch(game.meta.id) for game in games))
        await asyncio.gather(*(store.unwatch(game.meta.id) for game in games))
        await store.ping()
        set_up_cpu = _cpu(direct) - set_up_cpu
        commands, traffic = _redis_counts(direct)
        set_up_commands = commands - set_up_commands
        cpu = _cpu(direct)
        commits = 0
        for version in range(max(len(game.steps) for game in games)):
            batch = [
                _commit(game.meta, game.steps[version], every) for game in games if version < len(game.steps)
            ]
            results = await asyncio.gather(*(store.commit(commit) for commit in batch))
            assert all(result.outcome == "ok" for result in results), results[0]
            commits += len(batch)
        spent = _cpu(direct) - cpu
        after_commands, after_traffic = _redis_counts(direct)
        lobby = await lobby_set_up(store, direct, games)
    finally:
        for attribute, script in saved.items():
            setattr(store_module, attribute, script)
        await store.close()
        direct.close()
    per_commit = (
        spent / commits * 1e6,
        (after_commands - commands) / commits,
        (after_traffic - traffic) / commits,
    )
    return *per_commit, set_up_cpu / len(games) * 1e6, set_up_commands / len(games), *lobby


def rebuild_cost(games: list[Played], every: int, catalog: Catalog) -> tuple[float, float, float]:
    """Mean entries applied and microseconds of CPU to read a game at each of its versions
    from the last snapshot, and at a snapshot (nothing applied)."""
    applied, spent, at_snapshot = [], [], []
    for game in games:
        engine = game.dealt.engine
        states = {0: game.dealt.state_bytes} | {step.version: step.state_bytes for step in game.steps}
        for step in game.steps:
            at = (
                step.version
                if snapshot_due(step.version, step.status == "finished", every)
                else step.version - step.version % every
            )
            entries = tuple(s.entry_bytes for s in game.steps[at : step.version])
            snapshot = Snapshot(
                meta=game.meta,
                status=step.status,
                version=step.version,
                cards=game.cards,
                state=states[at],
                decisions=decisions.encode(step.decisions),
                deadline=step.deadline,
                taken=2,
                state_version=at,
                entries=entries,
            )
            started = time.process_time()
            rebuilt = rebuild(snapshot, engine, catalog)
            took = time.process_time() - started
            assert rebuilt is not None and rebuilt.state_bytes == step.state_bytes
            applied.append(len(entries))
            (spent if entries else at_snapshot).append(took)
            if not entries:
                continue
            started = time.process_time()
            rebuild(
                replace(snapshot, state=step.state_bytes, state_version=None, entries=()), engine, catalog
            )
            at_snapshot.append(time.process_time() - started)
    mean = statistics.mean
    return mean(applied), mean(spent) * 1e6 if spent else 0.0, mean(at_snapshot) * 1e6


_FIVE = """
if redis.call('HSETNX', KEYS[6], ARGV[2], ARGV[3]) == 0 then return 0 end
redis.call('HMGET', KEYS[1], 'version', 'deadline', 'expires', ARGV[18], 'watchers', 'snapshot')
redis.call('TIME')
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'status', ARGV[4], 'decisions', ARGV[6], ARGV[18], ARGV[16])
redis.call('RPUSH', KEYS[5], ARGV[8])
return 1"""


def call_costs(url: str, calls: int = 20_000, batch: int = 200) -> None:
    """What a script call costs Redis before it runs a command, by its count of arguments, and
    the commit's five commands in a script with its 26 arguments against four of them sent plain."""
    direct = redis.Redis.from_url(url)
    empty, five = direct.script_load("return 1"), direct.script_load(_FIVE)

    def arguments(i: int) -> tuple[list[str], list[Any]]:
        game = f"{{g{i % 300}}}"
        names = [f"{game}:{part}" for part in ("game", "setup", "state", "seats", "log", "answers")]
        values = [i, f"0:a{i}", "x" * 40, "active", "", "d" * 60, "", "e" * 70, TTL, game, "bench"]
        return [*names, "clocks", "games"], [*values, "chan:", 32, "", "", 100, 10, "limit:0"]

    def plain(pipe: Any, keys_: list[str], values: list[Any]) -> None:
        pipe.execute_command("HSETNX", keys_[5], values[1], values[2])
        pipe.execute_command("HMGET", keys_[0], "version", "deadline", "expires", values[17], "snapshot")
        pipe.execute_command("HSET", keys_[0], "version", values[0], "decisions", values[5], values[17], 1)
        pipe.execute_command("RPUSH", keys_[4], values[7])

    shapes: dict[str, Any] = {
        "EVALSHA of 'return 1', 2 arguments": lambda pipe, k, v: pipe.evalsha(empty, 1, k[0], v[0]),
        "EVALSHA of 'return 1', 14 arguments": lambda pipe, k, v: pipe.evalsha(empty, 8, *k, *v[:6]),
        "EVALSHA of 'return 1', 26 arguments": lambda pipe, k, v: pipe.evalsha(empty, 8, *k, *v),
        "the commit's five commands, 26 arguments": lambda pipe, k, v: pipe.evalsha(five, 8, *k, *v),
        "four of them plain, no script": plain,
    }
    for name, send in shapes.items():
        direct.flushall()
        cpu = _cpu(direct)
        for start in range(0, calls, batch):
            pipe = direct.pipeline(transaction=False)
            for i in range(start, start + batch):
                send(pipe, *arguments(i))
            pipe.execute()
        print(f"{name}: Redis {(_cpu(direct) - cpu) / calls * 1e6:5.1f} us a call")
    direct.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games played at once")
    parser.add_argument("--game", default="day_night")
    parser.add_argument("--every", type=int, nargs="+", default=[1, 8, 32, 64], help="snapshot intervals")
    parser.add_argument("--baseline", type=Path, help="an older checkout whose game scripts to run as well")
    parser.add_argument(
        "--baseline-every",
        type=int,
        default=0,
        help="the baseline's snapshot interval (0: the state on every move, as before the log)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--call-cost", action="store_true", help="only what a script call costs Redis, by its arguments"
    )
    options = parser.parse_args()
    if options.call_cost:
        with EmbeddedRedis() as server:
            for _ in range(options.repeat):
                call_costs(server.url)
        return
    catalog = load_catalog()
    games = play(options.game, options.games, catalog, 1)
    moves = sum(len(game.steps) for game in games)
    print(f"{options.games} games of {options.game}, {moves / options.games:.1f} moves each")
    variants: list[tuple[str, int, dict[str, Script] | None]] = []
    if options.baseline is not None:
        every = options.baseline_every
        label = "the state on every move" if every == 0 else f"a snapshot every {every:>3}"
        variants.append((f"before: {label}", every, baseline_scripts(options.baseline)))
    variants += [(f"log, a snapshot every {every:>3}", every, None) for every in options.every]
    figures: dict[str, list[tuple[float, ...]]] = {name: [] for name, _, _ in variants}
    with EmbeddedRedis() as server:
        for _ in range(options.repeat):
            for name, every, script in variants:
                figures[name].append(uvloop.run(measure(server.url, games, every, script)))
    first = statistics.median(row[0] for row in figures[variants[0][0]])
    first_set_up = statistics.median(row[3] for row in figures[variants[0][0]])
    first_lobby = statistics.median(row[5] for row in figures[variants[0][0]])
    for name, _, _ in variants:
        cpu, commands, traffic, set_up, set_up_commands, lobby, lobby_commands = (
            statistics.median(column) for column in zip(*figures[name], strict=True)
        )
        print(
            f"{name}: Redis {cpu:5.1f} us/commit ({cpu / first:.2f}x the first line), "
            f"{commands:.2f} commands/commit, {traffic:6.0f} B/commit; set-up (created seated, watched,"
            f" unwatched) {set_up:5.1f} us/game ({set_up / first_set_up:.2f}x),"
            f" {set_up_commands:.1f} commands/game; through the lobby (created, joined twice, started)"
            f" {lobby:5.1f} us/game ({lobby / first_lobby:.2f}x), {lobby_commands:.1f} commands/game"
        )
    for every in options.every:
        applied, spent, at_snapshot = rebuild_cost(games, every, catalog)
        print(
            f"a read of the game, snapshots every {every:>3}: {applied:4.1f} entries applied on average, "
            f"{spent:6.0f} us of CPU when there are some, {at_snapshot:5.0f} us at a snapshot"
        )


if __name__ == "__main__":
    main()
