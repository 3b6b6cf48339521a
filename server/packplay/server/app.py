"""The application: REST under ``/v2`` (Starlette), the WebSocket at ``/v2/ws`` (plain ASGI)."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from packplay.server.http import pages, problems, routes
from packplay.server.runtime import Runtime
from packplay.server.settings import Settings
from packplay.server.storage.errors import StorageUnavailable
from packplay.server.ws import connection
from packplay_protocol.version import WS_PATH

log = logging.getLogger(__name__)
_OTHER_VERSION = re.compile(r"/v\d+/ws")
"""The WebSocket path of another protocol version (``/v1/ws``)."""


def create_app(settings: Settings | None = None) -> ASGIApp:
    """The app of one process. Without a Redis URL it starts a private Redis-compatible server.

    WebSocket connections to the play endpoint go straight to it; everything else (the
    REST routes, the lifespan) goes through Starlette and its middleware.
    """
    settings = settings or Settings.from_env()
    runtime = Runtime(settings)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await runtime.start()
        url = pages.public_url(settings.host, settings.port)
        log.info("Packplay is serving %s (play in a browser at %s)", url, url.rstrip("/") + pages.PLAY_PATH)
        if "*" in settings.trusted_proxies:
            log.warning(
                "PACKPLAY_TRUSTED_PROXIES is '*': any peer may name a client address in "
                "X-Forwarded-For, and a client whose header a proxy passes on can dodge the "
                "per-client limits; name the proxies' networks instead"
            )
        try:
            yield
        finally:
            await runtime.stop()

    middleware = []
    if settings.cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(settings.cors_origins),
                allow_methods=["GET", "POST", "DELETE"],
                allow_headers=["Authorization", "Content-Type"],
            )
        )
    app_routes: list[BaseRoute] = [*routes.rest_routes(), *routes.retired_routes(), *pages.web_routes()]
    app = Starlette(
        routes=app_routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={
            HTTPException: problems.http_problem,
            StorageUnavailable: problems.unavailable_problem,
            ClientDisconnect: problems.client_gone,
            Exception: problems.internal_problem,
        },
    )
    app.state.runtime = runtime
    play = connection.Endpoint(runtime)
    runtime.metrics.tallies.messages = lambda: play.writes.sent

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == WS_PATH:
            await play(scope, receive, send)
        elif scope["type"] == "websocket" and _OTHER_VERSION.fullmatch(scope["path"]):
            await connection.retired_path(scope, receive, send)
        elif scope["type"] == "http":
            await app(scope, receive, _naming(send, runtime.process_header))
        else:
            await app(scope, receive, send)

    return application


def _naming(send: Send, header: tuple[bytes, bytes]) -> Send:
    """``send`` with the process's name added to the response's headers."""

    async def named(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), header]}
        await send(message)

    return named


def app_from_env() -> ASGIApp:
    """The factory each uvicorn worker calls (settings come through the environment)."""
    return create_app(Settings.from_env())
