"""Annotated transcripts of real games: a page per game in ``protocol/transcripts/``.

For each game, a sandbox server (a private Redis and the app, in this process) plays
one seeded two-player game: at each step the lowest pending seat plays
:class:`~packplay_clients.bots.FirstBot`'s action through the SDK, and the next step
waits until both seats hold the new version. Seat 0's REST calls and WebSocket
frames are recorded, made deterministic (game id, tokens and times become
placeholders) and written as the game's page; the protocol guide
(``protocol/README.md``) links each page between its transcript markers.
``generate.py`` beside it runs it, after the other protocol documents.
"""

from __future__ import annotations

import asyncio
import functools
import json
import socket
import textwrap
from collections import Counter
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx
import uvicorn

from packplay.games.registry import get_game
from packplay.server.app import create_app
from packplay.server.settings import Settings
from packplay.server.storage.embedded import EmbeddedRedis
from packplay_clients import FirstBot, GameConnection, RestClient, connect_websocket
from packplay_clients.transport import Frame, Transport

from specgen import PROTOCOL_DIR

GUIDE = PROTOCOL_DIR / "README.md"
FOLDER = "transcripts"
"""The pages' folder in ``protocol/``: one page per game, and nothing else."""
BEGIN = "<!-- transcripts:begin -->"
END = "<!-- transcripts:end -->"
GAMES: tuple[tuple[str, int], ...] = (
    ("day_night", 1),
    ("mishra_factory", 1),
    ("wedding_planner", 1),
    ("base_race", 1),
)
"""Each game with the seed of its transcript."""
WIDTH = 120
"""The transcripts' lines of JSON."""
PROSE_WIDTH = 88
STEP_TIMEOUT = 10.0
Direction = Literal["sent", "received"]


@dataclass(frozen=True)
class Recorded:
    """One recorded frame: what seat 0's client sent or received, decoded from JSON."""

    direction: Direction
    channel: Literal["rest", "ws"]
    body: Any
    label: str = ""


@dataclass
class Recording:
    """Seat 0's frames, and what must become placeholders."""

    frames: list[Recorded] = field(default_factory=list)
    secrets: dict[str, str] = field(default_factory=dict)


# recording


class _RecordingTransport:
    """A transport that keeps a copy of every frame."""

    def __init__(self, inner: Transport, recording: Recording) -> None:
        self._inner = inner
        self._recording = recording

    @property
    def subprotocol(self) -> str | None:
        return self._inner.subprotocol

    async def send(self, frame: Frame) -> None:
        self._recording.frames.append(Recorded("sent", "ws", json.loads(frame)))
        await self._inner.send(frame)

    async def recv(self) -> Frame:
        frame = await self._inner.recv()
        self._recording.frames.append(Recorded("received", "ws", json.loads(frame)))
        return frame

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self._inner.close(code, reason)


class _RecordingHttp(httpx.AsyncBaseTransport):
    def __init__(self, recording: Recording) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self._recording = recording

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        await response.aread()
        label = f"{request.method} {request.url.path}"
        sent = json.loads(request.content) if request.content else None
        self._recording.frames.append(Recorded("sent", "rest", sent, label))
        self._recording.frames.append(Recorded("received", "rest", json.loads(response.content), label))
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


# playing


async def record_game(base_url: str, game: str, seed: int) -> Recording:
    """Play one seeded two-player game with FirstBot; seat 0's frames."""
    recording = Recording()
    async with RestClient(base_url, transport=_RecordingHttp(recording)) as lobby:
        created = await lobby.create_game(game, 2, seed=seed)
        grant = await lobby.join_seat(created.game_id, "Ada")
    async with RestClient(base_url) as lobby:
        other = await lobby.join_seat(created.game_id, "Bo")
    recording.secrets |= {created.game_id: "<game_id>", grant.token: "<token of seat 0>"}
    seats = [_connection(base_url, grant.token, 0, recording), _connection(base_url, other.token, 1, None)]
    try:
        for connection in seats:
            await connection.open()
            await connection.join()
        await _play(seats)
    finally:
        for connection in seats:
            await connection.close()
    return recording


def _connection(base_url: str, token: str, seat: int, recording: Recording | None) -> GameConnection:
    async def connector(url: str, offer: Sequence[str]) -> Transport:
        opened = await connect_websocket(url, offer)
        return opened if recording is None else _RecordingTransport(opened, recording)

    return GameConnection(
        base_url,
        token=token,
        client="packplay-docs/1",
        connector=connector,
        keepalive=False,
        action_prefix=f"seat{seat}",
    )


async def _play(seats: list[GameConnection]) -> None:
    """One action at a time, by the lowest pending seat, each seen by both seats before the next."""
    bot = FirstBot()
    while (view := seats[0].view) is not None and view.result is None:
        actor = seats[min(view.pending)]
        assert actor.view is not None and actor.view.version == view.version
        await actor.act(bot.choose(actor.view), version=view.version)
        for connection in seats:
            await connection.wait_for_version(view.version + 1, STEP_TIMEOUT)
    for connection in seats:
        await connection.wait_until(functools.partial(_over, connection), STEP_TIMEOUT)


def _over(connection: GameConnection) -> bool:
    return connection.game_over is not None


@asynccontextmanager
async def sandbox_server() -> AsyncIterator[str]:
    """A sandbox server on a free loopback port, with its own private Redis; its base URL."""
    with EmbeddedRedis() as redis, socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        settings = Settings(port=port, redis_url=redis.url, sandbox=True, log_level="warning")
        config = uvicorn.Config(
            create_app(settings),
            ws="packplay.server.uvicorn_protocols:GuardedWebSocketProtocol",
            log_level="warning",
            lifespan="on",
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve(sockets=[listener]))
        while not server.started:
            if serving.done():
                serving.result()
            await asyncio.sleep(0.02)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True
            await serving


async def record_all() -> dict[str, Recording]:
    async with sandbox_server() as base_url:
        return {game: await record_game(base_url, game, seed) for game, seed in GAMES}


# rendering

LEGEND = """\
The seed is fixed; both seats are played by the SDK's `FirstBot` (the first legal
action, else the first choice filled with its first options), one action at a time by
the lowest pending seat. `→` marks what seat 0's client sends and `←` what it receives;
`REST` lines are HTTP calls, the others WebSocket frames (JSON, one message per frame),
shown as they were sent. The game id, the token and times are placeholders. The `view`
after `join` is the whole view with its card table; each `update` after it carries the
events of one version and the JSON Patch that turns seat 0's view message into the next
one.
"""


@dataclass(frozen=True)
class Transcript:
    """One game's annotated lines, and what its page and the guide's link say of it."""

    game: str
    seed: int
    actions: int
    frames: int
    lines: tuple[str, ...]

    @property
    def title(self) -> str:
        return f"{get_game(self.game).title} (`{self.game}`)"

    @property
    def path(self) -> str:
        """Its page, relative to ``protocol/``."""
        return f"{FOLDER}/{self.game}.md"

    @property
    def facts(self) -> str:
        return f"two players, {self.actions} actions; seat 0 exchanges {self.frames} WebSocket frames"


def transcript_of(game: str, seed: int, recording: Recording) -> Transcript:
    """The annotated transcript of one recorded game."""
    writer = _Writer()
    lines: list[str] = []
    for frame in recording.frames:
        if frame.channel == "ws" and not writer.connected:
            writer.connected = True
            lines.append("// (seat 1 takes the other seat the same way: the last seat taken starts the game)")
        lines.extend(writer.lines(_placeheld(frame, recording.secrets)))
    lines.append("// → (close 1000: the client is done)")
    frames = sum(frame.channel == "ws" for frame in recording.frames)
    return Transcript(game, seed, writer.last_version, frames, tuple(lines))


def page(transcript: Transcript) -> str:
    """The whole page of one transcript."""
    intro = (
        "Generated by `python protocol/tools/generate.py` (`protocol/tools/transcripts.py`) "
        "from a real game: do not edit this page by hand. It is seat 0's side of a two-player "
        f"game of {get_game(transcript.game).title} on a sandbox server, every REST call and "
        "WebSocket frame with a note; the [protocol guide](../README.md) explains the messages, "
        "and its [Transcripts](../README.md#transcripts) section links every game's page."
    )
    return "\n".join(
        [
            f"# Transcript: {transcript.title}",
            "",
            textwrap.fill(intro, PROSE_WIDTH, break_on_hyphens=False),
            "",
            f"Seed {transcript.seed}, {transcript.facts}.",
            "",
            LEGEND,
            "```jsonc",
            *transcript.lines,
            "```",
            "",
        ]
    )


def links(transcripts: Sequence[Transcript]) -> str:
    """The guide's transcript section (without the markers): a link to each page."""
    return "\n".join(f"- [{t.title}]({t.path}): seed {t.seed}, {t.facts}." for t in transcripts)


def _placeheld(frame: Recorded, secrets: dict[str, str]) -> Recorded:
    longest_first = sorted(secrets.items(), key=lambda item: -len(item[0]))  # a token holds its game id

    def replace(value: Any) -> Any:
        if isinstance(value, str):
            for secret, placeholder in longest_first:
                value = value.replace(secret, placeholder)
            return value
        if isinstance(value, dict):
            return {k: "<time>" if k == "created_at" else replace(v) for k, v in value.items()}
        if isinstance(value, list):
            return [replace(v) for v in value]
        return value

    return Recorded(frame.direction, frame.channel, replace(frame.body), replace(frame.label))


class _Writer:
    """Turns frames into annotated lines, remembering the last version seen."""

    def __init__(self) -> None:
        self.connected = False
        self.last_version = 0

    def lines(self, frame: Recorded) -> list[str]:
        arrow = "→" if frame.direction == "sent" else "←"
        body = frame.body
        if frame.channel == "rest":
            note = _rest_note(frame)
        else:
            note = _NOTES.get(body["type"], _generic_note)(body)
            self.last_version = max(self.last_version, body.get("version", 0))
        out = [f"// {arrow} {note}"]
        if body is not None:
            out.append(_format(body))
        return out


def _rest_note(frame: Recorded) -> str:
    if frame.direction == "sent" and frame.label.endswith("/seats"):
        return f"REST {frame.label}: take the lowest free seat"
    if frame.direction == "sent":
        return f"REST {frame.label}: create a two-player game (a sandbox server accepts a seed)"
    if frame.label.endswith("/seats"):
        return "REST 201: seat 0 and its secret token (shown once; the server keeps only its hash)"
    return "REST 201: the game, open until both seats are taken"


def _view_note(view: dict[str, Any]) -> str:
    known = len(view["cards"])
    at = f"the whole view at version {view['version']}, with the facts of the {known} cards seat 0 knows"
    if view.get("result") is not None:
        return f"{at}: the game is over; the seed is revealed"
    legal = view["legal"]
    if not legal["actions"] and not legal["choices"]:
        return f"{at}: waiting for seat {_seats(view['pending'])}"
    offers = [f"{len(legal['actions'])} action(s)"] if legal["actions"] else []
    offers += [f"a choice of {_count(c['min_count'], c['max_count'])} cards" for c in legal["choices"]]
    return f"{at}: seat 0 to decide ({', '.join(offers)})"


def _count(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def _seats(seats: list[int]) -> str:
    return " and ".join(str(s) for s in seats)


def _act_note(act: dict[str, Any]) -> str:
    return f"act {act['action_id']} on version {act['version']}: {act['action']['type']}"


def _kinds(events: list[dict[str, Any]]) -> str:
    counted = Counter(e["type"] for e in events)
    return ", ".join(k if n == 1 else f"{k} ×{n}" for k, n in counted.items()) or "nothing seat 0 may see"


def _events_note(events: dict[str, Any]) -> str:
    return f"events {events['from_version']} → {events['to_version']}: {_kinds(events['events'])}"


def _update_note(update: dict[str, Any]) -> str:
    acknowledged = f", the acceptance of {update['action_id']}" if update.get("action_id") else ""
    ops = len(update["patch"])
    events = _kinds(update["events"])
    return f"update to version {update['version']}{acknowledged}: {events}; {ops} patch operations"


def _game_over_note(over: dict[str, Any]) -> str:
    result = over["result"]
    scores = ", ".join(f"{s:g}" for s in result["scores"])
    won = "a draw" if result["draw"] else f"seat {_seats(result['winners'])} wins"
    return f"game_over: {won}, scores {scores} ({result['reason_text']}); the replay is at replay_url"


def _generic_note(body: dict[str, Any]) -> str:
    return str(body["type"])


_NOTES = {
    "hello": lambda m: "hello with the seat's token",
    "welcome": lambda m: f"welcome: {m['protocol']}, the limits, and the seat the token holds",
    "join": lambda m: f"join the game as a {m['role']}",
    "act": _act_note,
    "accepted": lambda m: f"accepted: {m['action_id']} made version {m['version']}",
    "rejected": lambda m: f"rejected {m['action_id']}: {m['reason']}",
    "events": _events_note,
    "view": _view_note,
    "update": _update_note,
    "game_over": _game_over_note,
}


def _format(value: Any, depth: int = 0) -> str:
    """JSON on one line when it fits the width (a card always does), else broken into lines
    that each hold as many short members as fit."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or _flat(value) or len(flat) + 2 * depth <= WIDTH:
        return flat
    pad, end = "  " * (depth + 1), "  " * depth
    if isinstance(value, dict):
        items = [f"{json.dumps(k)}: {_format(v, depth + 1)}" for k, v in value.items()]
        opening, closing = "{", "}"
    else:
        items = [_format(v, depth + 1) for v in value]
        opening, closing = "[", "]"
    lines = _packed(items, WIDTH - len(pad))
    return f"{opening}\n" + ",\n".join(pad + line for line in lines) + f"\n{end}{closing}"


def _packed(items: list[str], width: int) -> list[str]:
    """Short one-line items joined into lines of at most ``width`` characters."""
    lines: list[str] = []
    for item in items:
        if lines and "\n" not in item and "\n" not in lines[-1] and len(lines[-1]) + len(item) + 2 <= width:
            lines[-1] += ", " + item
        else:
            lines.append(item)
    return lines


def _flat(value: dict[str, Any] | list[Any]) -> bool:
    """Lists of scalars (card ids) and records of scalars, short lists and small records
    (a card, a board piece) read best on one line."""
    if isinstance(value, list):
        return all(map(_scalar, value))
    return all(_scalar(m) or _flat_shallow(m) for m in value.values())


def _flat_shallow(value: Any) -> bool:
    if isinstance(value, list):
        return all(map(_scalar, value))
    return isinstance(value, dict) and all(map(_scalar, value.values()))


def _scalar(value: Any) -> bool:
    return not isinstance(value, dict | list)


# the files


def section(text: str) -> str:
    """The transcript section of the guide ``text``.

    Raises:
        ValueError: the markers are missing.
    """
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{GUIDE.name} lacks the markers {BEGIN} ... {END}")
    return text[start + len(BEGIN) : end].strip("\n")


def with_section(text: str, body: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return f"{text[:start]}\n{body.strip(chr(10))}\n{text[end:]}"


def documents(recordings: dict[str, Recording], guide: str) -> dict[str, str]:
    """The files the transcripts write, by path relative to ``protocol/``: a page per game
    recorded in ``recordings``, and the guide ``guide`` with its links to them."""
    transcripts = [transcript_of(game, seed, recordings[game]) for game, seed in GAMES]
    docs = {t.path: page(t) for t in transcripts}
    docs[GUIDE.name] = with_section(guide, links(transcripts))
    return docs


def current(out: Path) -> dict[str, str]:
    """The files as the games played now write them, for the ``protocol/`` folder ``out``."""
    guide = (out / GUIDE.name).read_text(encoding="utf-8")
    return documents(asyncio.run(record_all()), guide)


def stale(out: Path) -> list[str]:
    """The paths under ``out`` that differ from what the games played now would write."""
    return changed(out, current(out))


def write(out: Path) -> list[str]:
    """Play the games and write their files under ``out``; the changed paths."""
    return save(out, current(out))


def changed(out: Path, docs: Mapping[str, str]) -> list[str]:
    """The paths under ``out`` that differ from ``docs``, and the pages ``docs`` no longer has."""
    differing = [p for p, text in docs.items() if not (out / p).is_file() or _read(out / p) != text]
    folder = out / FOLDER
    pages = {f"{FOLDER}/{p.name}" for p in folder.glob("*.md")} if folder.is_dir() else set()
    return sorted(differing + [p for p in pages if p not in docs])


def save(out: Path, docs: Mapping[str, str]) -> list[str]:
    """Write ``docs`` under ``out`` and remove pages it no longer has; the changed paths."""
    paths = changed(out, docs)
    for path in paths:
        target = out / path
        if path in docs:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(docs[path], encoding="utf-8")
        else:
            target.unlink()
    return paths


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")
