"""``packplay serve``: run the game server (see packplay.server)."""

from __future__ import annotations

import argparse
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser("serve", help="run the game server")
    parser.add_argument("--host", default=None, help="bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default 8000)")
    parser.add_argument("--workers", type=int, default=None, help="server processes (default 1)")
    parser.add_argument("--redis-url", default=None, help="Redis URL (default: start a private server)")
    parser.add_argument(
        "--redis-dir",
        default=None,
        help="data directory of the private Redis (default $XDG_DATA_HOME/packplay/redis)",
    )
    parser.add_argument(
        "--in-memory",
        action="store_true",
        default=None,
        help="the private Redis keeps nothing on disk: every game is lost when the server stops",
    )
    parser.add_argument("--sandbox", action="store_true", default=None, help="allow sandbox games")
    parser.add_argument("--log-format", choices=("text", "json"), default=None)
    parser.set_defaults(handler=serve_command)


def serve_command(args: argparse.Namespace) -> int:
    from packplay.server.main import serve

    return serve(args)
