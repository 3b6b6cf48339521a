"""The Starlette application: REST under ``/v1``, the WebSocket at ``/v1/ws``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import BaseRoute, WebSocketRoute

from packplay.server import routes, ws
from packplay.server.runtime import Runtime
from packplay.server.settings import Settings
from packplay_protocol.version import WS_PATH


def create_app(settings: Settings | None = None) -> Starlette:
    """The app of one process. Without a Redis URL it starts a private Redis-compatible server."""
    settings = settings or Settings.from_env()
    runtime = Runtime(settings)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await runtime.start()
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
    app_routes: list[BaseRoute] = [*routes.rest_routes(), WebSocketRoute(WS_PATH, ws.endpoint)]
    app = Starlette(
        routes=app_routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={HTTPException: routes.http_problem, Exception: routes.internal_problem},
    )
    app.state.runtime = runtime
    return app


def app_from_env() -> Starlette:
    """The factory each uvicorn worker calls (settings come through the environment)."""
    return create_app(Settings.from_env())
