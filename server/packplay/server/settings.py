"""How one server process is configured: from the environment, overridden by the command line."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

LogFormat = Literal["text", "json"]

ENV_PREFIX = "PACKPLAY_"
ENV_ALIASES = {"redis_url": "REDIS_URL", "trusted_proxies": "FORWARDED_ALLOW_IPS"}
"""Other names some settings are read from when their PACKPLAY_ variable is not set
(FORWARDED_ALLOW_IPS is uvicorn's name)."""
SETTINGS_ENV = "PACKPLAY_SETTINGS_JSON"
"""Carries the whole settings of the parent to each worker process (uvicorn --workers)."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Every knob of the server. Durations are in seconds, sizes in bytes or messages.

    Each field's docstring is its description in deploy/configuration.md, and a comment line
    between fields heads a group there (``python server/tools/configuration.py`` writes it).
    """

    # The process
    host: str = "127.0.0.1"
    """Address to listen on (``0.0.0.0``: every IPv4 interface)."""
    port: int = 8000
    """Port to listen on, 0 to 65535."""
    workers: int = 1
    """Server processes on this one port, under one supervisor; they share one Redis, private
    or not. In containers keep 1 and run more containers."""
    server_name: str = "packplay"
    """The name the server gives in /v2/health and in the WebSocket welcome."""
    # Redis
    redis_url: str | None = None
    """The Redis (or Valkey) holding every game; all processes of one deployment share it.
    ``redis://host:port/db`` (``rediss://`` for TLS) for one server,
    ``redis+cluster://host:port[,host:port...]`` for a Redis Cluster,
    ``redis+sentinel://host:port[,host:port...]/<master name>`` for a master that Sentinels
    manage. Unset: the process starts a private Redis-compatible server of its own."""
    redis_dir: str | None = None
    """Data directory of the private server started without ``redis_url``: an append-only
    file, fsynced every second; one server per directory (a lock file). Unset:
    ``$XDG_DATA_HOME/packplay/redis`` (``~/.local/share/packplay/redis``)."""
    in_memory: bool = False
    """The private server keeps nothing on disk (every game is lost when it stops)."""
    redis_connections: int = 16
    """Redis connections per process at most (pub/sub takes one; batches take ``redis_pipelines``)."""
    redis_pipelines: int = 4
    """Batches of commands in flight to Redis at once per process; commands issued meanwhile wait
    for the next batch (back-pressure, never failure)."""
    redis_timeout: float = 10.0
    """Seconds to wait for Redis's answer to a batch before the requests in it fail as retryable."""
    redis_replicas: int = 0
    """Replicas that must hold a write before it is acknowledged (a WAIT sent in the same round
    trip as the write); 0 acknowledges once the master has it. The section on high
    availability and durability of deploy/README.md says what this promises."""
    redis_replica_timeout: float = 1.0
    """Seconds WAIT waits for ``redis_replicas``; a write they do not acknowledge in time fails
    as retryable (it may still have been applied: resending the action gets its answer)."""
    # Games
    cold_after: float = 120.0
    """Seconds without a move after which a process lets go of a game's state (its connections
    stay; the next move reads it again from Redis). 0 keeps it as long as it has connections."""
    cached_games: int = 10_000
    """Games kept in a process's memory beyond those with a local connection (a cache: each costs
    one read from Redis when it is needed again)."""
    snapshot_every: int = 16
    """Versions between two snapshots of a game's state in Redis (and one at its end). A move
    appends its log entry only; a process that reads the game (it never saw it, or let go of
    it) applies the entries after the last snapshot to it, fewer than this many. Lower costs
    Redis more per move, higher costs such a read more (see load/README.md)."""
    sandbox: bool = False
    """Allow sandbox games: explicit card lists and seeds, for client developers and scenario
    tests (without it such a game is refused with ``sandbox_disabled``)."""
    # Logs
    log_format: LogFormat = "text"
    """``text``: readable lines for a terminal; ``json``: one JSON object a line, for collectors."""
    log_level: str = "info"
    """Level of the server's and uvicorn's logs: ``debug``, ``info``, ``warning`` or ``error``."""
    # Browsers
    cors_origins: tuple[str, ...] = ()
    """Origins allowed to call the REST API from a browser (CORS); empty allows none."""
    ws_origins: tuple[str, ...] = ()
    """Allowed ``Origin`` headers of WebSocket handshakes; empty allows any (native clients)."""
    # Lifetimes
    finished_ttl: int = 24 * 3600
    """Seconds a finished game and its replay are kept."""
    lobby_ttl: int = 30 * 60
    """Seconds an open lobby (a game waiting for players) lives."""
    active_ttl: int = 7 * 24 * 3600
    """Seconds a started game survives without any action."""
    # Limits
    send_queue: int = 256
    """Messages queued for a connection whose client reads nothing more before it is closed
    with 4000 (resume)."""
    actions_per_second: float = 10.0
    """Sustained actions per seat, over all its connections and server processes (kept in Redis);
    beyond it an action is rejected with ``rate_limited`` and nothing is applied."""
    action_burst: int = 20
    """Actions a seat may send at once before ``actions_per_second`` holds it back."""
    frames_per_second: float = 30.0
    """Sustained frames of any kind (pings and resumes too) per connection; a frame beyond it is
    not handled (an act is rejected with ``rate_limited``, the first other frame of a run gets an
    error ``rate_limited``)."""
    frame_burst: int = 60
    """Frames a connection may send at once; as many more refused in a row close it (4005)."""
    resumes_per_minute: float = 120.0
    """Sustained resumes answered per connection (bursts of 10); others get ``rate_limited``."""
    catch_up_versions: int = 256
    """A join or resume more versions behind than this gets the whole view without the events
    between (0: always the whole view)."""
    games_per_minute: float = 30.0
    """Sustained new games per client address, over all server processes (kept in Redis); beyond
    it 429 ``rate_limited`` with Retry-After. 0: no limit."""
    games_burst: int = 20
    """New games a client may create at once before ``games_per_minute`` holds it back."""
    open_lobbies: int = 10
    """Games a client may have waiting for players at once (it created them); beyond it 429
    ``too_many_lobbies``. 0: no limit."""
    connections_per_address: int = 256
    """Open WebSockets one client address may hold on one server process; one more is closed at
    once with 4005 after an ``error`` ``rate_limited``. A player holds one or two (a game,
    a tournament followed): the default seats a venue of a hundred players behind one
    address; raise it for a larger one (two per player, and some room). 0: no limit."""
    spectators_per_address: int = 32
    """Games one client address may watch as a spectator at once on one server process; one
    more ``join`` as spectator gets ``error`` ``rate_limited``. 0: no limit."""
    spectators_per_game: int = 256
    """Spectators of one game on one server process; one more ``join`` as spectator gets
    ``error`` ``game_full``. Every spectator costs the process a frame per move. 0: no limit."""
    catch_ups_per_minute: float = 60.0
    """Joins and resumes of one client address, on one server process, whose events are
    replayed from the game's log (bursts of 20); beyond it a join or resume gets the whole view
    without the events (the log is replayed with the rules, which costs CPU). 0: no limit."""
    house_games_per_minute: float = 6.0
    """Sustained new games with house seats per client address, over all server processes
    (kept in Redis), bursts of as many; beyond it 429 ``rate_limited`` with Retry-After.
    House seats play themselves and cost the server CPU at every decision. 0: no limit."""
    house_moves_per_minute: float = 240.0
    """Sustained house decisions in the games one client address created, over all server
    processes (kept in Redis), bursts of a tenth of it; beyond it the house waits its turn
    (its games slow down, nothing is refused). A player against three house seats makes about
    a hundred a minute; raise it for a venue where many play the house from one address.
    0: no limit."""
    refusals_per_seat: int = 256
    """Refused actions whose answer is kept per seat of a game (an action id sent again gets the
    same answer); beyond it refusals are answered but not kept."""
    trusted_proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    """Addresses or networks (CIDR) of proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed; ``*`` trusts every peer (only behind a proxy that
    every request passes), empty trusts none. The client's address, which the per-client limits
    count by, is the first address in ``X-Forwarded-For`` from the right that is not a
    trusted proxy; an IPv6 client counts by its /64 network."""
    frame_limit: int = 64 * 1024
    """Largest frame accepted, in bytes: a larger WebSocket frame closes the connection with
    1009, a larger REST body gets 413 ``frame_too_large``."""
    # Connections
    ws_deflate: bool = True
    """Compress WebSocket frames (permessage-deflate), each message on its own both ways (no
    context takeover), at zlib-ng's fastest level: a Day vs Night update goes from a median of
    about 1.6 KB to 0.74 KB and its first whole view from 4.7 KB to 1.8, for about 7.5 us of
    CPU a frame; an idle connection keeps no compressor."""
    ws_deflate_context: bool = False
    """With ``ws_deflate``, compress each message against the connection's earlier ones (context
    takeover, both ways): updates about half as large again (a median of 0.28 KB), but every
    connection keeps a compressor and a decompressor, about 38 KiB more server memory each
    (56 KiB instead of 18 for an idle one)."""
    header_timeout: float = 10.0
    """Seconds from a connection's opening (or a request's first byte) to the end of the request's
    headers, WebSocket handshakes included; then 408 and the connection is closed."""
    body_timeout: float = 30.0
    """Seconds from the end of a request's headers to the end of its body; then 408 and closed."""
    backlog: int = 8192
    """Connections the kernel holds for the process before it accepts them (capped by
    ``net.core.somaxconn``); the process accepts up to 512 at each turn of its event loop. A
    burst beyond it is refused at the TCP level: clients see a connection reset or a connect
    timeout, and no answer says to retry."""
    keep_alive_timeout: int = 5
    """Seconds an HTTP connection may stay idle between two requests (behind a load balancer,
    choose more than its idle timeout)."""
    write_timeout: float = 30.0
    """Seconds a connection's send buffer may stay full (the client reads nothing) before it is dropped."""
    close_timeout: float = 10.0
    """Seconds a WebSocket client has to answer the server's close frame before it is dropped."""
    hello_timeout: float = 10.0
    """Seconds from a WebSocket's opening to a valid hello (then close 4001); announced to
    clients as ``limits.hello_timeout_seconds``."""
    ping_interval: float = 20.0
    """Seconds a client may stay silent before it sends a ping; a WebSocket silent for three of
    them is closed (1000). Announced to clients as ``limits.ping_interval_seconds``."""
    # Turn clocks and the house
    clock_interval: float = 1.0
    """Seconds between a process's looks for expired turn clocks."""
    house_seconds: float = 0.5
    """Time cap of one house decision, below each level's own budget (it stops sampling then;
    under a turn clock it takes at most a quarter of the clock)."""
    house_grace: float = 10.0
    """Seconds a house seat's decision may wait for the process that should make it; then any
    process's clock sweep makes it (the first process that served the game may have died)."""
    house_processes: int = 2
    """Worker processes per server process where the house's levels think (started and stopped
    with the server; at least one). One worker makes about two ``hard`` decisions a second: size
    it to the cores the server processes leave free."""
    # Tournaments
    tournament_interval: float = 0.5
    """Seconds between two passes of each process's tournament runner (finished tables, next rounds)."""
    tournament_ttl: int = 7 * 24 * 3600
    """Seconds a tournament survives its last change."""
    # Graceful drain
    drain_delay: float = 5.0
    """Seconds between SIGTERM, from which readiness (/v2/ready) fails, and the closing of the
    process's WebSockets (1012): long enough for the load balancer's health checks to take the
    process out of rotation, so that the clients it closes reconnect to other processes (the
    HAProxy of deploy/ checks every 2 s and gives up after two failures). 0 closes them at once."""

    def __post_init__(self) -> None:
        for name in _POSITIVE:
            if not getattr(self, name) > 0:
                raise SettingsError(f"{_env_name(name)} must be above 0 (got {getattr(self, name)!r})")
        for name in _NOT_NEGATIVE:
            if getattr(self, name) < 0:
                raise SettingsError(f"{_env_name(name)} must be 0 or more (got {getattr(self, name)!r})")
        if not 0 <= self.port <= 65535:
            raise SettingsError(f"PACKPLAY_PORT must be a port number, 0 to 65535 (got {self.port})")
        if self.log_format not in ("text", "json"):
            raise SettingsError(f"PACKPLAY_LOG_FORMAT must be text or json (got {self.log_format!r})")

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with the given fields replaced; None values are ignored."""
        return dataclasses.replace(self, **{k: v for k, v in overrides.items() if v is not None})

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Settings:
        return cls(**_coerce(json.loads(text)))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``PACKPLAY_<FIELD>`` variables (and the other names of ``ENV_ALIASES``).

        A worker started by :func:`packplay.server.main.serve` inherits the parent's
        settings whole through ``PACKPLAY_SETTINGS_JSON``.
        """
        env = os.environ if environ is None else environ
        if SETTINGS_ENV in env:
            return cls.from_json(env[SETTINGS_ENV])
        raw: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            value = env.get(ENV_PREFIX + f.name.upper())
            if value is not None:
                try:
                    raw[f.name] = _parse(f.type, value)
                except ValueError as error:
                    raise SettingsError(f"{_env_name(f.name)}: {error}") from error
        kinds = {f.name: f.type for f in dataclasses.fields(cls)}
        for name, variable in ENV_ALIASES.items():
            if name not in raw and env.get(variable):
                raw[name] = _parse(kinds[name], env[variable])
        return cls(**raw)


class SettingsError(ValueError):
    """A setting that cannot be: its message names the variable and says what it takes."""


_POSITIVE = (
    "workers", "redis_connections", "redis_pipelines", "redis_timeout", "redis_replica_timeout",
    "cached_games", "finished_ttl", "lobby_ttl", "active_ttl", "send_queue", "actions_per_second",
    "action_burst", "frames_per_second", "frame_burst", "resumes_per_minute", "games_burst",
    "frame_limit", "backlog", "header_timeout", "body_timeout", "keep_alive_timeout", "write_timeout",
    "close_timeout", "hello_timeout", "ping_interval", "clock_interval", "house_seconds",
    "house_grace", "house_processes", "tournament_interval", "tournament_ttl", "snapshot_every",
)  # fmt: skip
"""Settings that only make sense above 0 (a rate of 0 would refuse everything, an interval of
0 would spin)."""
_NOT_NEGATIVE = (
    "redis_replicas", "cold_after", "games_per_minute", "open_lobbies", "catch_up_versions",
    "drain_delay", "connections_per_address", "spectators_per_address",
    "spectators_per_game", "catch_ups_per_minute", "house_games_per_minute", "house_moves_per_minute",
    "refusals_per_seat",
)  # fmt: skip
"""Settings where 0 means "none" or "off"."""


def _env_name(field: str) -> str:
    return ENV_PREFIX + field.upper()


def _parse(kind: Any, value: str) -> Any:
    kind = str(kind)
    if kind == "int":
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"expected a whole number, got {value!r}") from None
    if kind == "float":
        try:
            return float(value)
        except ValueError:
            raise ValueError(f"expected a number, got {value!r}") from None
    if kind == "bool":
        return value.strip().lower() in {"1", "true", "yes", "on"}
    if kind.startswith("tuple"):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value


def _coerce(raw: dict[str, Any]) -> dict[str, Any]:
    """JSON gives lists where the dataclass holds tuples."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()}


__all__ = ["ENV_ALIASES", "ENV_PREFIX", "SETTINGS_ENV", "LogFormat", "Settings"]
