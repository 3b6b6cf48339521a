"""Every wait for a client is bounded, against a real server process over real sockets:
half-sent requests (slow loris), trickled bodies, idle keep-alive connections, and a
WebSocket client that stops reading, which still reads its close code 4000 first."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support_servers import ServerProcess, start_server
from websockets.client import ClientProtocol
from websockets.frames import Close
from websockets.http11 import Response
from websockets.typing import Subprotocol
from websockets.uri import parse_uri

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.errors import CloseCode

QUICK_TIMEOUTS = {
    "PACKPLAY_HEADER_TIMEOUT": "2",
    "PACKPLAY_BODY_TIMEOUT": "1",
    "PACKPLAY_KEEP_ALIVE_TIMEOUT": "1",
    "PACKPLAY_WRITE_TIMEOUT": "60",
    "PACKPLAY_SEND_QUEUE": "64",
    "PACKPLAY_CLOSE_TIMEOUT": "60",
    # The slow reader asks for the whole view thousands of times to fill the buffers; the
    # limits of resumes and frames that would stop it are tested in test_server_limits.
    "PACKPLAY_RESUMES_PER_MINUTE": "1000000",
    "PACKPLAY_FRAMES_PER_SECOND": "1000000",
    "PACKPLAY_FRAME_BURST": "1000000",
}
SLOW_CLIENTS = 500
RESUMES = 4000
PATIENCE = 30.0
"""How long the test waits for the server to close what it must close (a bound, not a figure)."""
PARTIAL = (
    b"",
    b"GET /v2/hea",
    b"GET /v2/health HTTP/1.1\r\nHost: x\r\n",
    b"GET /v2/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n",
    b'POST /v2/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"ga',
)
"""Nothing at all, half a request line, headers without their end, a WebSocket handshake
without its end, a body without its end."""


@pytest.fixture
def guarded(redis_server: EmbeddedRedis, tmp_path: Path) -> Iterator[ServerProcess]:
    server = start_server(redis_server.url, tmp_path, **QUICK_TIMEOUTS)
    yield server
    server.stop()


def _address(server: ServerProcess) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").split(":")
    return host, int(port)


def _closed_by_server(sockets: dict[socket.socket, bytearray], patience: float) -> set[socket.socket]:
    """Read every socket until the server closes it or ``patience`` runs out; the closed ones."""
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + patience
    while len(closed) < len(sockets) and time.monotonic() < deadline:
        waiting = [s for s in sockets if s not in closed]
        readable, _, _ = select.select(waiting, [], [], 0.2)
        for sock in readable:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if chunk:
                sockets[sock].extend(chunk)
            else:
                closed.add(sock)
    return closed


@pytest.fixture
def many_descriptors() -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * SLOW_CLIENTS)), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_half_sent_requests_are_answered_408_and_closed(
    guarded: ServerProcess, many_descriptors: None
) -> None:
    sockets: dict[socket.socket, bytearray] = {}
    sent: dict[socket.socket, bytes] = {}
    try:
        for index in range(SLOW_CLIENTS):
            sock = socket.create_connection(_address(guarded))
            partial = PARTIAL[index % len(PARTIAL)]
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(partial)  # (on a machine this slow it may be closed already)
            sockets[sock], sent[sock] = bytearray(), partial
        opened = time.monotonic()
        closed = _closed_by_server(sockets, PATIENCE)
        print(
            f"{SLOW_CLIENTS} half-sent requests: {SLOW_CLIENTS - len(closed)} still open "
            f"{time.monotonic() - opened:.1f} s after the last was sent (header timeout 2 s, body 1 s)"
        )
        assert len(closed) == SLOW_CLIENTS
        timed_out = set()
        for sock, received in sockets.items():
            if received:
                assert sent[sock] and received.startswith(b"HTTP/1.1 408 "), (sent[sock], bytes(received))
                timed_out.add(sent[sock])
        assert timed_out == set(PARTIAL) - {b""}, "each kind of half request was answered 408"
        assert httpx.get(guarded.url + "/v2/health").status_code == 200
    finally:
        for sock in sockets:
            sock.close()


def test_an_idle_keep_alive_connection_is_closed(guarded: ServerProcess) -> None:
    with socket.create_connection(_address(guarded)) as sock:
        sock.sendall(b"GET /v2/health HTTP/1.1\r\nHost: x\r\n\r\n")
        received = bytearray()
        closed = _closed_by_server({sock: received}, PATIENCE)
    assert closed and received.startswith(b"HTTP/1.1 200 "), "answered, then closed when idle"


def test_a_trickled_body_is_cut_at_the_deadline(guarded: ServerProcess) -> None:
    """A byte every 0.3 s keeps the connection busy, never done: the body deadline ends it."""
    with socket.create_connection(_address(guarded)) as sock:
        sock.sendall(b"POST /v2/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        received = bytearray()
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                sock.sendall(b" ")
            if _closed_by_server({sock: received}, 0.3):
                break
    assert received.startswith(b"HTTP/1.1 408 ")


class RawWebSocket:
    """A WebSocket client over a plain socket with a tiny receive buffer, reading only when told."""

    def __init__(self, server: ServerProcess) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(_address(server))
        url = server.url.replace("http://", "ws://") + "/v2/ws"
        self.protocol = ClientProtocol(parse_uri(url), subprotocols=[Subprotocol("packplay.v2.json")])
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        while not any(isinstance(event, Response) for event in self._read()):
            pass

    def send(self, text: str) -> None:
        self.protocol.send_text(text.encode())
        self._flush()

    def read_to_the_end(self) -> tuple[int, bool]:
        """Read until the server closes the socket: (bytes read, whether it was a reset)."""
        total = 0
        while True:
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                return total, True
            if not chunk:
                return total, False
            total += len(chunk)
            self.protocol.receive_data(chunk)
            self.protocol.events_received()
            with contextlib.suppress(OSError):
                self._flush()  # the answer to the server's close frame

    @property
    def close_code(self) -> int | None:
        close: Close | None = self.protocol.close_rcvd
        return None if close is None else close.code

    def _read(self) -> list[object]:
        self.protocol.receive_data(self.sock.recv(65536))
        return list(self.protocol.events_received())

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self.sock.sendall(data)


async def test_a_reader_that_stops_reads_close_4000_before_the_end(guarded: ServerProcess) -> None:
    """It asks for the whole game again and again without reading, so the server has far more
    to send than the buffers hold; it reads again only after a long pause."""
    async with httpx.AsyncClient(base_url=guarded.url) as http:
        body = {"game": "mishra_factory", "players": 4, "seats": list("abcd")}
        created = await http.post("/v2/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    client = RawWebSocket(guarded)
    client.send('{"type": "hello"}')
    client.send(f'{{"type": "join", "game_id": "{game_id}", "role": "spectator"}}')
    for _ in range(RESUMES // 20):
        try:
            for _ in range(20):
                client.send('{"type": "resume", "from_version": 0}')
        except (BrokenPipeError, ConnectionResetError):
            break  # the server has closed its side: the backlog overflowed
        await asyncio.sleep(0.02)  # the server's writer fills the buffers meanwhile
    await asyncio.sleep(8)  # longer than the server waited for a full buffer to drain before
    read, reset = await asyncio.to_thread(client.read_to_the_end)
    print(f"the slow reader read {read} bytes, then {'a reset' if reset else 'the end'}")
    assert client.close_code == CloseCode.RESUME_REQUIRED
    assert not reset
    client.sock.close()
