"""``packplay serve``: run the server under uvicorn, with a private Redis when none is given.

Why uvicorn with ``ws="websockets-sansio"``: with uvloop and httptools it is the
mature, fast ASGI server, and ``--workers`` gives a process supervisor for free. Its
three WebSocket backends served the same ~830 moves/s in ``load/bench_server.py``
(the server is bound by rules, JSON and Redis, not by frame handling); of the three,
websockets-sansio is the one uvicorn maintains (the legacy ``websockets`` backend is
deprecated), it waits on transport flow control in ``send``, which the send-queue
backpressure relies on, and it negotiates permessage-deflate. ``--workers N`` runs N
processes on one port; they share state only through Redis, like processes on
different machines.
"""

from __future__ import annotations

import argparse
import os

import uvicorn

from packplay.server.embedded_redis import EmbeddedRedis
from packplay.server.logs import logging_config
from packplay.server.settings import SETTINGS_ENV, Settings

CLI_FIELDS = ("host", "port", "workers", "redis_url", "sandbox", "log_format")


def settings_from(options: argparse.Namespace | None) -> Settings:
    """Environment settings, overridden by the options given on the command line."""
    overrides = {name: getattr(options, name, None) for name in CLI_FIELDS}
    return Settings.from_env().with_overrides(**overrides)


def serve(options: argparse.Namespace | None = None) -> int:
    """Run until interrupted; the exit status.

    ``options`` carries ``host``, ``port``, ``workers``, ``redis_url``, ``sandbox``,
    ``log_format`` (None: keep the environment's or the default value).
    """
    settings = settings_from(options)
    embedded: EmbeddedRedis | None = None
    if settings.redis_url is None and settings.workers > 1:
        # One private server for all workers, owned by this parent process.
        embedded = EmbeddedRedis().start()
        settings = settings.with_overrides(redis_url=embedded.url)
    os.environ[SETTINGS_ENV] = settings.to_json()
    try:
        uvicorn.run(
            "packplay.server.app:app_from_env",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=settings.workers,
            ws="websockets-sansio",
            ws_max_size=settings.frame_limit,
            ws_per_message_deflate=settings.ws_deflate,
            log_config=logging_config(settings.log_format, settings.log_level),
            proxy_headers=True,
            timeout_graceful_shutdown=10,
        )
    finally:
        if embedded is not None:
            embedded.stop()
    return 0
