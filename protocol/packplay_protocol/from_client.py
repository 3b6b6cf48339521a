"""Messages a client sends to the server over the WebSocket.

Every message is an object whose `type` names it. Unknown fields are ignored,
so later revisions of a version may add optional fields.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from packplay_protocol.catalog import AnyAction
from packplay_protocol.ids import ActionId, GameId, PlayerToken, Version
from packplay_protocol.tournaments import TournamentId

Role = Literal["player", "spectator"]
Nonce = Annotated[str, msgspec.Meta(max_length=64, description="Echoed back in `pong`.")]


class Hello(msgspec.Struct, frozen=True, kw_only=True, tag="hello", tag_field="type"):
    """The first message of a connection. `token` authenticates a seat; spectators omit it.

    Sent again once its `welcome` has come, it gives the connection another identity
    (the next game of a tournament, a bot's next table): the connection stops following
    the game or tournament it followed, the new `welcome` answers, and nothing about
    what was left comes after that `welcome`. Then `join` (or `follow`) as at the start.
    """

    client: Annotated[str, msgspec.Meta(max_length=100)] = ""
    """The client's name and version, for the server's logs (e.g. `packplay-js/1.2`)."""
    token: PlayerToken | None = None


class Join(msgspec.Struct, frozen=True, kw_only=True, tag="join", tag_field="type"):
    """Watch or play one game; a connection follows one game at a time (one per `hello`).

    As `player` the hello token must hold a seat of `game_id`. The server answers
    with a `view`; when `from_version` is given (resuming after a reconnect), with
    the `events` after it first, as far as the game's log reaches back.
    """

    game_id: GameId
    role: Role = "player"
    from_version: Version | None = None


class Act(msgspec.Struct, frozen=True, kw_only=True, tag="act", tag_field="type"):
    """Play `action` for the connection's seat.

    `version` is the game version the action was decided on. `action_id` makes
    the message idempotent: resending it gets the same answer and applies once.
    """

    action_id: ActionId
    version: Version
    action: AnyAction


class Resume(msgspec.Struct, frozen=True, kw_only=True, tag="resume", tag_field="type"):
    """Send again the events after `from_version`, then the view (e.g. after noticing a gap)."""

    from_version: Version


class Ping(msgspec.Struct, frozen=True, kw_only=True, tag="ping", tag_field="type"):
    """Keep the connection alive and measure latency."""

    nonce: Nonce = ""


class Follow(msgspec.Struct, frozen=True, kw_only=True, tag="follow", tag_field="type"):
    """Follow a tournament instead of joining a game; a connection follows at most one.

    With `secret` (a registered player's, from its registration) the server sends the
    player's `tournament_table` now and again whenever it changes: the next game to
    join is announced there as soon as it exists. Without `secret`, or with `watch`,
    it sends the current round's `tournament_round` and the `tournament_standings`
    now and again whenever they change. A connection that follows may not join a game:
    a player opens one connection per game with the seat's own token, besides this one.
    """

    tournament_id: TournamentId
    secret: PlayerToken | None = None
    watch: bool = False
    """With `secret`: also receive the pairings and standings."""


ClientMessage = Hello | Join | Act | Resume | Ping | Follow
CLIENT_MESSAGES: tuple[type[msgspec.Struct], ...] = (Hello, Join, Act, Resume, Ping, Follow)
