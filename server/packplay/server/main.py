"""``packplay serve``: run the server under uvicorn, with a private Redis when none is given.

Why uvicorn with ``ws="websockets-sansio"``: with uvloop and httptools it is the
mature, fast ASGI server, and ``--workers`` gives a process supervisor for free. Its
three WebSocket backends served the same ~830 moves/s in ``load/bench_server.py``
(the server is bound by rules, JSON and Redis, not by frame handling); of the three,
websockets-sansio is the one uvicorn maintains (the legacy ``websockets`` backend is
deprecated), it exposes websockets' own sans-I/O connection, which the play endpoint
reads and writes directly once a connection is accepted (no ASGI message per frame),
and it negotiates permessage-deflate. ``--workers N`` runs N processes on one port; they
share state only through Redis, like processes on different machines. Both protocols run
as subclasses that bound every wait for a client (:mod:`packplay.server.uvicorn_protocols`).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

import uvicorn

from packplay.server.logs import logging_config
from packplay.server.settings import SETTINGS_ENV, Settings, SettingsError
from packplay.server.storage.embedded import EmbeddedRedis, default_dir

CLI_FIELDS = ("host", "port", "workers", "redis_url", "redis_dir", "in_memory", "sandbox", "log_format")


def settings_from(options: argparse.Namespace | None) -> Settings:
    """Environment settings, overridden by the options given on the command line."""
    overrides = {name: getattr(options, name, None) for name in CLI_FIELDS}
    return Settings.from_env().with_overrides(**overrides)


def serve(options: argparse.Namespace | None = None) -> int:
    """Run until interrupted; the exit status.

    ``options`` carries ``host``, ``port``, ``workers``, ``redis_url``, ``redis_dir``,
    ``in_memory``, ``sandbox``, ``log_format`` (None: keep the environment's or the default value).
    """
    try:
        settings = settings_from(options)
    except SettingsError as error:
        print(f"packplay: {error}", file=sys.stderr)
        return 2
    embedded: EmbeddedRedis | None = None
    if settings.redis_url is None:
        # One private server for all workers, owned by this process's main thread (it dies with it).
        embedded = EmbeddedRedis(data_dir=private_dir(settings)).start()
        where = "in memory only" if embedded.data_dir is None else f"in {embedded.data_dir}"
        print(f"packplay: private Redis at {embedded.url}, data {where}", file=sys.stderr, flush=True)
        settings = settings.with_overrides(redis_url=embedded.url)
    os.environ[SETTINGS_ENV] = settings.to_json()
    # uvicorn raises the signal that stopped it again once it has stopped; as an exception
    # here, so the private server is stopped cleanly below instead of by the kernel.
    previous = signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        uvicorn.run(
            "packplay.server.app:app_from_env",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=settings.workers,
            http="packplay.server.uvicorn_protocols:GuardedHttpProtocol",
            ws="packplay.server.uvicorn_protocols:GuardedWebSocketProtocol",
            backlog=settings.backlog,
            loop="packplay.server.listener:Loop",
            timeout_keep_alive=settings.keep_alive_timeout,
            ws_max_size=settings.frame_limit,
            # The protocol has its own ping, and the watchdog closes a connection silent for
            # three of its intervals, pinged or not: uvicorn's pings (a timer and a frame per
            # connection every 20 s) would only repeat it.
            ws_ping_interval=None,
            ws_ping_timeout=None,
            ws_per_message_deflate=settings.ws_deflate,
            log_config=logging_config(settings.log_format, settings.log_level),
            proxy_headers=bool(settings.trusted_proxies),
            forwarded_allow_ips=list(settings.trusted_proxies),
            timeout_graceful_shutdown=10,
        )
    finally:
        signal.signal(signal.SIGTERM, previous)
        if embedded is not None:
            embedded.stop()
    return 0


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def private_dir(settings: Settings) -> Path | None:
    """The private server's data directory; None when it keeps everything in memory."""
    if settings.in_memory:
        return None
    return Path(settings.redis_dir).expanduser() if settings.redis_dir else default_dir()
