"""The server's event loop accepts the connections waiting at each turn (real sockets), and
`packplay serve` runs on it."""

from __future__ import annotations

import argparse
import asyncio
import errno
import os
import socket
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
import uvicorn
from uvicorn.importer import import_from_string

from packplay.server import listener, main
from packplay.server.listener import Loop
from packplay.server.settings import SETTINGS_ENV


class Counted(asyncio.Protocol):
    made: list[asyncio.BaseTransport] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        Counted.made.append(transport)


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    Counted.made = []
    with asyncio.Runner(loop_factory=Loop) as runner:
        runner.run(main())


async def turns_until(condition: Callable[[], bool], limit: int = 1000) -> int:
    """Turns of the loop until ``condition`` holds (each ``sleep(0)`` lets one turn run)."""
    for turn in range(limit):
        if condition():
            return turn
        await asyncio.sleep(0)
    raise AssertionError(f"not within {limit} turns of the loop")


def connect(port: int, count: int) -> list[socket.socket]:
    """Connections the kernel has queued for the listener (blocking: each is established)."""
    return [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]


def test_a_burst_of_connections_is_accepted_within_a_few_turns_of_the_loop() -> None:
    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(Counted, "127.0.0.1", 0, backlog=512)
        port = server.sockets[0].getsockname()[1]
        clients = connect(port, 300)  # the loop is held meanwhile, as a busy server's is
        # libuv alone takes one connection per turn: 300 turns.
        assert await turns_until(lambda: len(Counted.made) == 300) <= 5
        server.close()
        await server.wait_closed()
        assert not server.is_serving()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2)
        for client in clients:
            client.close()
        for transport in Counted.made:
            transport.close()

    run(main)


def test_a_listener_out_of_file_descriptors_rests_then_accepts_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listener, "RETRY_AFTER_SECONDS", 0.05)

    class Exhausted(socket.socket):
        refusals = 1

        def accept(self) -> tuple[socket.socket, Any]:
            if Exhausted.refusals:
                Exhausted.refusals -= 1
                raise OSError(errno.EMFILE, "Too many open files")
            return super().accept()

    async def main() -> None:
        listening = Exhausted(socket.AF_INET, socket.SOCK_STREAM)
        listening.bind(("127.0.0.1", 0))
        server = await asyncio.get_running_loop().create_server(Counted, sock=listening, backlog=16)
        port = listening.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        await asyncio.sleep(0.01)
        assert Exhausted.refusals == 0 and not Counted.made, "refused once, then resting"
        await asyncio.wait_for(turns_until(lambda: len(Counted.made) == 1, limit=10**6), 5)
        server.close()
        client.close()
        Counted.made[0].close()

    run(main)


def test_the_server_runs_on_this_loop_with_the_configured_backlog(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(options))
    monkeypatch.setenv("PACKPLAY_BACKLOG", "300")
    # serve() hands its settings to uvicorn's workers through the environment: set first so
    # that the undo removes what serve() writes there.
    monkeypatch.setenv(SETTINGS_ENV, "{}")
    monkeypatch.delenv(SETTINGS_ENV)
    options = argparse.Namespace(redis_url="redis://127.0.0.1:1/0")
    assert main.serve(options) == 0
    assert import_from_string(ran["loop"]) is Loop
    assert ran["backlog"] == 300
    monkeypatch.undo()
    assert SETTINGS_ENV not in os.environ
