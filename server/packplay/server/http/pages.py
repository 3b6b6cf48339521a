"""The pages of the server: the front page at ``/``, the web client at ``/play/``, the documents.

Everything here is a static file shipped as package data (``web/`` beside this module):
the web client is plain HTML, CSS and ES modules that run as they are, built on the
JavaScript SDK (``web/play/sdk`` is the SDK's ``src`` folder). The AsyncAPI document is
generated from the protocol, like the OpenAPI one at ``/v2/openapi.json``.
"""

from __future__ import annotations

import functools
from importlib.resources import files
from pathlib import Path

import msgspec
from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from packplay_protocol.asyncapi import asyncapi_document
from packplay_protocol.route_table import MARKDOWN_MEDIA_TYPE

PLAY_PATH = "/play/"
"""Where the web client is served."""


def web_folder() -> Path:
    """The folder of the pages, in the installed package."""
    return Path(str(files("packplay.server.http").joinpath("web")))


def public_url(host: str, port: int) -> str:
    """The URL to open for a server listening on ``host``: a wildcard address means this machine."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


async def front_page(request: Request) -> Response:
    return FileResponse(web_folder() / "home.html", media_type="text/html; charset=utf-8")


async def protocol_guide(request: Request) -> Response:
    return FileResponse(web_folder() / "protocol.md", media_type=MARKDOWN_MEDIA_TYPE)


@functools.cache
def _asyncapi() -> bytes:
    return msgspec.json.encode(asyncapi_document())


async def asyncapi(request: Request) -> Response:
    return Response(_asyncapi(), media_type="application/json")


async def play_redirect(request: Request) -> Response:
    return RedirectResponse(PLAY_PATH, status_code=308)


def web_routes() -> list[BaseRoute]:
    """The front page, the documents and the web client's files."""
    # follow_symlink: in a checkout play/sdk links to clients/js/src (a wheel holds copies).
    play = StaticFiles(directory=web_folder() / "play", html=True, follow_symlink=True)
    return [
        Route("/", front_page, methods=["GET"]),
        Route("/docs/protocol.md", protocol_guide, methods=["GET"]),
        Route("/docs/asyncapi.json", asyncapi, methods=["GET"]),
        Route("/play", play_redirect, methods=["GET"]),
        Mount(PLAY_PATH.rstrip("/"), app=play, name="play"),
    ]
