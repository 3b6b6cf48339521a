"""What one move runs through on the server: the project's modules, functions and calls.

    python load/trace_move.py                        # one move of each game
    python load/trace_move.py --game day_night --encoding msgpack --seed 2 --top 15
    python load/trace_move.py --json > move.json

A private Redis (in memory) and the server run in this process, the server in a thread
of its own with its own event loop, under the uvicorn arguments that 'packplay serve'
gives (caught from its own call: its HTTP and WebSocket protocols, its event loop, its
app factory), as a sandbox server so that every game is seeded. For each game two seats,
each on a WebSocket (the Python SDK, in the main thread's event loop), play a few moves
with FirstBot, so that caches are filled and lazy imports done; then the seat to act
plays one more move, traced. A profile function (sys.setprofile) in the server's thread
counts every call of a function of the project's packages, 'packplay' and
'packplay_protocol' (told by the module its globals belong to), from just before that
act is sent until both seats hold its version. The profiler reports a generator or a
coroutine that resumes as a call: each item a generator expression yields counts as one,
and so does a coroutine woken after an await.

Printed per game: the modules the move touched, in the order of their first call (the
path it takes), each with its functions and calls; the modules counted by part (server,
started game, game rules, protocol, other packplay); the distinct functions (module and qualified
name) and the calls in all. '--top N' also lists the N most called functions, '--json'
prints it all as JSON (every function with its calls).

The figures repeat from run to run on the same code: the games are seeded, the server's
background loops (turn clocks, idle watchdog, tournaments) and the connections' hello
deadline wait far longer than a run, and the garbage collector runs just before the move
rather than inside it. The server's tasks that run from its start (those loops, the
pub/sub listener, which wakes once a second) are left out of the count; should one of
them call project code inside the window, it is printed apart. On a compiled build
(PACKPLAY_COMPILE=1) the compiled modules' calls are not seen by the profiler: the
script names them, and the figures are then not those of the pure-Python build. The
interpreter counts too: from Python 3.12 on, list, dict and set comprehensions run inline
and are no longer calls. Compare figures from one interpreter and one build.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import gc
import json
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from types import FrameType
from typing import Any, TypeVar
from unittest import mock

import msgspec
import uvicorn
from websockets.asyncio.client import connect as open_websocket
from websockets.typing import Subprotocol

from packplay.server.main import serve
from packplay.server.settings import SETTINGS_ENV, Settings

# The server is started through these entry points only: when its modules move, here is
# what changes.
from packplay.server.storage.embedded import EmbeddedRedis, free_port
from packplay_clients import (
    FirstBot,
    GameConnection,
    RestClient,
    Transport,
    WebSocketTransport,
    connect,
    pending,
)
from packplay_clients.transport import MAX_FRAME_BYTES
from packplay_protocol.to_client import Accepted, ViewMessage

HOST = "127.0.0.1"
NAMES = ("Ada", "Grace")
"""The two seats' players."""
QUIET = 3600.0
"""Seconds the server's background loops and per-connection deadlines wait here: longer
than a run, so that none of them fires inside a traced move."""
START_TIMEOUT = 30.0
MOVE_TIMEOUT = 10.0
PROJECT = frozenset({"packplay", "packplay_protocol"})
"""The top-level packages whose functions are counted (not the clients', which run in the
clients' thread anyway)."""
PARTS = (
    ("server", "packplay.server"),
    ("started game", "packplay.table"),
    ("game rules", "packplay.games"),
    ("protocol", "packplay_protocol"),
    ("other packplay", "packplay"),
)
"""The parts modules are counted in: the first whose package holds the module."""

Function = tuple[str, str]
"""A function: its module and its qualified name."""
T = TypeVar("T")


def part_of(module: str) -> str:
    for part, package in PARTS:
        if module == package or module.startswith(package + "."):
            return part
    raise ValueError(f"{module} is not a project module")


def generated(frame: FrameType) -> str:
    """The name of a function made by ``exec`` (a dataclass's ``__init__``), whose qualified
    name lacks its class (``__create_fn__.<locals>.__init__``): its first argument gives it."""
    code = frame.f_code
    if not code.co_argcount:
        return code.co_qualname
    first = frame.f_locals.get(code.co_varnames[0])
    owner = first if isinstance(first, type) else type(first)
    return f"{owner.__qualname__}.{code.co_name}"


def in_loop(loop: asyncio.AbstractEventLoop, function: Callable[[], T]) -> concurrent.futures.Future[T]:
    """Run ``function`` in the thread of ``loop``, as one of its callbacks; its result."""
    done: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(function())
        except BaseException as error:
            done.set_exception(error)

    loop.call_soon_threadsafe(run)
    return done


class Tracer:
    """Counts the calls of the project's functions in the thread it profiles, while it is on.

    Turned on and off by callbacks of the profiled thread's event loop, so that a window
    starts and ends between two of its steps, never inside one.
    """

    def __init__(self) -> None:
        self.on = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.standing: frozenset[asyncio.Task[Any]] = frozenset()
        """The server's tasks from before any client came: its background loops."""
        self.calls: Counter[Function] = Counter()
        self.left_out: Counter[Function] = Counter()
        """Calls made by the standing tasks inside the window."""

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.on or event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if module.partition(".")[0] not in PROJECT:
            return
        code = frame.f_code
        function = (module, code.co_qualname if code.co_filename != "<string>" else generated(frame))
        if asyncio.current_task() in self.standing:
            self.left_out[function] += 1
        else:
            self.calls[function] += 1

    async def settle(self, loop: asyncio.AbstractEventLoop) -> None:
        """Take the server's loop, and its tasks now as its standing ones."""
        self.loop = loop
        self.standing = frozenset(await asyncio.wrap_future(in_loop(loop, asyncio.all_tasks)))

    async def begin(self) -> None:
        await self._switch(True)

    async def end(self) -> tuple[Counter[Function], Counter[Function]]:
        """Stop counting; the calls counted, and those of standing tasks."""
        await self._switch(False)
        return self.calls, self.left_out

    async def _switch(self, on: bool) -> None:
        def switch() -> None:
            if on:
                self.calls, self.left_out = Counter(), Counter()
            self.on = on

        assert self.loop is not None, "settle() first"
        await asyncio.wrap_future(in_loop(self.loop, switch))


def server_settings(redis_url: str) -> Settings:
    """A sandbox server (seeded games) whose background loops stay quiet through a run."""
    return Settings(
        host=HOST,
        port=free_port(HOST),
        redis_url=redis_url,
        sandbox=True,
        log_level="warning",
        clock_interval=QUIET,
        tournament_interval=QUIET,
        ping_interval=QUIET,
        cold_after=QUIET,
        hello_timeout=QUIET,
    )


def served(settings: Settings) -> tuple[Any, dict[str, Any]]:
    """The app and the arguments 'packplay serve' hands ``uvicorn.run`` for ``settings``:
    its own call, caught instead of run."""
    caught: list[tuple[Any, dict[str, Any]]] = []

    def catch(app: Any, **arguments: Any) -> None:
        caught.append((app, arguments))

    def refuse(server: uvicorn.Server, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("packplay serve starts uvicorn without uvicorn.run: catch its arguments anew")

    os.environ[SETTINGS_ENV] = settings.to_json()  # where serve() and the app read them
    with mock.patch.object(uvicorn, "run", catch), mock.patch.object(uvicorn.Server, "run", refuse):
        status = serve()
    if status != 0 or not caught:
        raise RuntimeError(f"packplay serve did not start uvicorn (exit status {status})")
    return caught[0]


class ServerThread:
    """The server, run as 'packplay serve' runs it, in a thread of its own and its own event
    loop, profiled by a :class:`Tracer` from the thread's start."""

    def __init__(self, settings: Settings, tracer: Tracer) -> None:
        app, arguments = served(settings)
        self.server = uvicorn.Server(uvicorn.Config(app, **arguments))
        self.tracer = tracer
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, name="packplay-server", daemon=True)

    def _run(self) -> None:
        sys.setprofile(self.tracer.profile)
        with asyncio.Runner(loop_factory=self.server.config.get_loop_factory()) as runner:
            self.loop = runner.get_loop()
            runner.run(self.server.serve())

    def start(self) -> asyncio.AbstractEventLoop:
        """Start, and return the server's loop once it serves."""
        self.thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        assert self.loop is not None
        return self.loop

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(START_TIMEOUT)


async def quiet_socket(url: str, offered: Sequence[str]) -> Transport:
    """A WebSocket without the client library's pings (one every 20 s), which would reach
    the server inside a traced move now and then; the SDK's own keepalive is off too."""
    offers = [Subprotocol(offer) for offer in offered]
    socket = await open_websocket(url, subprotocols=offers, max_size=MAX_FRAME_BYTES, ping_interval=None)
    return WebSocketTransport(socket)


@dataclass(frozen=True)
class Chosen:
    """The next move: who plays it, on which view, and what."""

    connection: GameConnection
    view: ViewMessage
    action: Any


@dataclass
class Trace:
    """One traced move and the calls it made on the server."""

    game: str
    seat: int
    version: int
    action: str
    calls: Counter[Function]
    left_out: Counter[Function]

    def modules(self) -> dict[str, Counter[str]]:
        """Each module's functions and calls, in the order of the module's first call."""
        modules: dict[str, Counter[str]] = {}
        for (module, name), count in self.calls.items():
            modules.setdefault(module, Counter())[name] += count
        return modules

    def parts(self) -> Counter[str]:
        """Modules per part."""
        counted = Counter(part_of(module) for module in self.modules())
        return Counter({part: counted[part] for part, _ in PARTS})


def choose(seats: Sequence[GameConnection], bot: FirstBot) -> Chosen:
    """The first seat with something to decide, and its bot's action."""
    for connection in seats:
        view = connection.view
        if view is not None and pending(view):
            return Chosen(connection, view, bot.choose(view))
    raise RuntimeError("no seat has anything to decide (the game is over?)")


async def play(seats: Sequence[GameConnection], chosen: Chosen) -> int:
    """Play the move; its version, once every seat holds it."""
    answer = await chosen.connection.act(chosen.action, version=chosen.view.version)
    if not isinstance(answer, Accepted):
        raise RuntimeError(f"the move was refused: {answer}")
    await asyncio.gather(*(seat.wait_for_version(answer.version, MOVE_TIMEOUT) for seat in seats))
    return answer.version


def action_name(action: Any) -> str:
    built = msgspec.to_builtins(action)
    return str(built.get("type", type(action).__name__)) if isinstance(built, dict) else type(action).__name__


async def trace_game(base: str, tracer: Tracer, game: str, options: argparse.Namespace) -> Trace:
    """Warm one game of ``game`` up, then trace its next move."""
    async with RestClient(base) as lobby:  # closed before the moves: no idle HTTP connection is left
        created = await lobby.create_game(game, len(NAMES), seed=options.seed, seats=NAMES)
    async with contextlib.AsyncExitStack() as stack:
        seats: list[GameConnection] = []
        for grant in created.grants:
            connection = await connect(
                base, grant.token, options.encoding, connector=quiet_socket, keepalive=False
            )
            seats.append(await stack.enter_async_context(connection))
            await connection.join()
        bot = FirstBot()
        for _ in range(options.warmup):
            await play(seats, choose(seats, bot))
        chosen = choose(seats, bot)
        gc.collect()  # from this thread: no collection starts inside the move
        await tracer.begin()
        version = await play(seats, chosen)
        calls, left_out = await tracer.end()
    seat = chosen.view.seat
    assert seat is not None
    return Trace(game, seat, version, action_name(chosen.action), calls, left_out)


async def trace_games(base: str, tracer: Tracer, options: argparse.Namespace) -> list[Trace]:
    async with RestClient(base) as lobby:
        served_games = [game_type.game for game_type in (await lobby.game_types()).games]
    unknown = set(options.game) - set(served_games)
    if unknown:
        raise SystemExit(f"no such game: {', '.join(sorted(unknown))} (the server plays {served_games})")
    wanted = [game for game in served_games if not options.game or game in options.game]
    return [await trace_game(base, tracer, game, options) for game in wanted]


def compiled_modules() -> list[str]:
    """Project modules loaded as C extensions: their calls are not seen by the profiler."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.partition(".")[0] in PROJECT
        and str(getattr(module, "__file__", None) or "").endswith(tuple(EXTENSION_SUFFIXES))
    )


def report(trace: Trace, options: argparse.Namespace) -> list[str]:
    modules, parts = trace.modules(), trace.parts()
    split = ", ".join(f"{count} {part}" for part, count in parts.items())
    lines = [
        f"{trace.game} (seed {options.seed}, {options.encoding}): seat {trace.seat} plays"
        f" {trace.action}, version {trace.version}",
        f"  {len(modules)} project modules: {split}",
        f"  {'module':48} {'functions':>9} {'calls':>6}",
    ]
    for module, functions in modules.items():
        lines.append(f"  {module:48} {len(functions):>9} {functions.total():>6}")
    lines.append(f"  {len(trace.calls)} functions, {trace.calls.total()} calls")
    if options.top:
        lines.append(f"  the {options.top} most called:")
        for (module, name), count in trace.calls.most_common(options.top):
            lines.append(f"    {count:>5}  {module}.{name}")
    if trace.left_out:
        shown = ", ".join(f"{module}.{name} {count}" for (module, name), count in trace.left_out.items())
        lines.append(f"  left out, by the server's background tasks: {shown}")
    return lines


def as_json(trace: Trace) -> dict[str, Any]:
    return {
        "game": trace.game,
        "seat": trace.seat,
        "version": trace.version,
        "action": trace.action,
        "modules": [
            {"module": module, "part": part_of(module), "functions": len(names), "calls": names.total()}
            for module, names in trace.modules().items()
        ],
        "parts": dict(trace.parts()),
        "functions": len(trace.calls),
        "calls": trace.calls.total(),
        "function_calls": listed(trace.calls),
        "left_out": listed(trace.left_out),
    }


def listed(calls: Counter[Function]) -> list[dict[str, Any]]:
    return [{"module": module, "function": name, "calls": count} for (module, name), count in calls.items()]


async def run(settings: Settings, server: ServerThread, options: argparse.Namespace) -> list[Trace]:
    tracer = server.tracer
    await tracer.settle(server.start())
    return await trace_games(f"http://{settings.host}:{settings.port}", tracer, options)


def main(options: argparse.Namespace) -> None:
    with EmbeddedRedis() as private:  # from the main thread: it dies with this process
        settings = server_settings(private.url)
        server = ServerThread(settings, Tracer())
        try:
            traces = asyncio.run(run(settings, server, options))
        finally:
            server.stop()
    compiled = compiled_modules()
    if options.json:
        setup = {"seed": options.seed, "encoding": options.encoding, "warmup": options.warmup}
        print(json.dumps(setup | {"compiled": compiled, "games": [as_json(t) for t in traces]}, indent=2))
        return
    for trace in traces:
        print("\n".join(report(trace, options)))
    if compiled:
        print(f"compiled modules, whose calls the profiler does not see: {', '.join(compiled)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", action="append", default=[], help="trace this game only (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="every game's seed")
    parser.add_argument("--encoding", choices=("json", "msgpack"), default="json")
    parser.add_argument("--warmup", type=int, default=4, help="moves played before the traced one")
    parser.add_argument("--top", type=int, default=0, help="also list the N most called functions")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    main(parser.parse_args())
