"""The floor of the hot-path benchmark: a bare Starlette WebSocket relay, no rules, no Redis.

Each connection names its game and seat in the query string ('/ws?game=g&seat=0');
every frame a seat sends is sent, unchanged, to every seat of its game, the sender
included. That is the least any game server does per move: one small frame in, one
small frame out to each seat. Run it under the same uvicorn settings as the server:

    python load/relay.py --port 8100
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

_tables: dict[str, set[WebSocket]] = defaultdict(set)


async def relay(websocket: WebSocket) -> None:
    game = websocket.query_params.get("game", "")
    await websocket.accept()
    table = _tables[game]
    table.add(websocket)
    try:
        while True:
            frame = await websocket.receive_text()
            for seat in table:
                await seat.send_text(frame)
    except WebSocketDisconnect:
        pass
    finally:
        table.discard(websocket)
        if not table:
            _tables.pop(game, None)


app = Starlette(routes=[WebSocketRoute("/ws", relay)])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    options = parser.parse_args()
    uvicorn.run(
        app,
        host=options.host,
        port=options.port,
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        log_level="warning",
        backlog=8192,
        loop="packplay.server.listener:Loop",  # the server's loop, which accepts in batches
    )
