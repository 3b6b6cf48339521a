"""The Python client SDK and bots of Packplay; they depend only on the protocol package.

Modules: ``rest`` (the REST lobby, :class:`RestClient`), ``connection`` (one game over
the WebSocket, :class:`GameConnection`), ``bots`` (:class:`RandomBot`,
:class:`FirstBot`, :func:`play`, the :class:`Bot` and :class:`Observing` interfaces),
``legal`` (actions built from a view's legal choices), ``tournament`` (a tournament player
driven by a bot, :func:`play_tournament`, and :class:`TournamentFeed`, a tournament
followed over the WebSocket), ``transport`` (the injectable
transport: WebSocket or in memory), ``errors``, and ``opponents`` (benchmark players
written from the printed rules: :class:`~packplay_clients.opponents.GreedyOpponent`,
:class:`~packplay_clients.opponents.ThoughtfulOpponent`).

A seat played to the end by a bot::

    async with RestClient("http://127.0.0.1:8000") as lobby:
        game = await lobby.create_game("mishra_factory", players=2)
        grant = await lobby.join_seat(game.game_id, "ada")
    async with await connect("http://127.0.0.1:8000", grant.token) as connection:
        await connection.join()
        over = await play(connection, RandomBot(seed=1))
"""

from packplay_clients.bots import BOTS, Bot, FirstBot, Observing, RandomBot, pending, play
from packplay_clients.connection import (
    CLIENT_NAME,
    RESUME_CLOSE_CODES,
    Answer,
    GameConnection,
    connect,
    ws_url,
)
from packplay_clients.errors import (
    ApiError,
    ConnectionLost,
    PackplayError,
    PlayError,
    ServerError,
    TransportClosed,
)
from packplay_clients.legal import count_range, fill, first_fill, random_fill
from packplay_clients.rest import RestClient
from packplay_clients.tournament import Servers, TournamentFeed, play_tournament
from packplay_clients.transport import (
    Connector,
    MemoryTransport,
    Transport,
    WebSocketTransport,
    connect_websocket,
    memory_pair,
)

__all__ = [
    "BOTS",
    "CLIENT_NAME",
    "RESUME_CLOSE_CODES",
    "Answer",
    "ApiError",
    "Bot",
    "ConnectionLost",
    "Connector",
    "FirstBot",
    "GameConnection",
    "MemoryTransport",
    "Observing",
    "PackplayError",
    "PlayError",
    "RandomBot",
    "RestClient",
    "ServerError",
    "Servers",
    "TournamentFeed",
    "Transport",
    "TransportClosed",
    "WebSocketTransport",
    "connect",
    "connect_websocket",
    "count_range",
    "fill",
    "first_fill",
    "memory_pair",
    "pending",
    "play",
    "play_tournament",
    "random_fill",
    "ws_url",
]
