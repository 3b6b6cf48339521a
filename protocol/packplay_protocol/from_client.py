"""Messages a client sends to the server over the WebSocket.

Every message is an object whose `type` names it. Unknown fields are ignored,
so later revisions of a version may add optional fields.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from packplay_protocol.catalog import AnyAction
from packplay_protocol.ids import ActionId, GameId, PlayerName, PlayerToken, Seat, Version
from packplay_protocol.rest import CreateGame, InviteCode
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


class Create(msgspec.Struct, frozen=True, kw_only=True, tag="create", tag_field="type"):
    """Create a game and take a seat of it on this connection: no REST call, no `join`.

    `setup` is the body the REST create accepts, with its limits and refusals (the new
    games of this client's address are counted as the REST ones are), but without `seats`:
    the sender takes `seat` (null: the lowest seat the house does not play) under `name`.
    The answer is `seated`; when every other seat is the house's the game starts at once
    and its `view` follows, otherwise the game waits for `take_seat` from other players
    and the `view` comes when it starts. Sent after `hello` (with or without a token);
    the game followed so far, if any, is left.
    """

    setup: CreateGame
    name: PlayerName
    seat: Seat | None = None


class TakeSeat(msgspec.Struct, frozen=True, kw_only=True, tag="take_seat", tag_field="type"):
    """Take a seat of a game waiting for players, as the REST join does (`invite` for a
    private game), and play it on this connection. The answer is `seated`; the taker of
    the last seat starts the game, and every seated connection then gets its `view`."""

    game_id: GameId
    name: PlayerName
    seat: Seat | None = None
    invite: InviteCode | None = None


class Rematch(msgspec.Struct, frozen=True, kw_only=True, tag="rematch", tag_field="type"):
    """Once the game played on this connection is over: a new game with the same setup and
    the same players, each in the seat it had (the house plays its seats again).

    Each player sends one `rematch`; each gets `seated` with the new game, which starts
    when all have asked (the view follows then). The new game is private to the players
    of the old one. Counted against the sender's limits of new games as a create is.
    """


ClientMessage = Hello | Join | Act | Resume | Ping | Follow | Create | TakeSeat | Rematch
CLIENT_MESSAGES: tuple[type[msgspec.Struct], ...] = (
    Hello,
    Join,
    Act,
    Resume,
    Ping,
    Follow,
    Create,
    TakeSeat,
    Rematch,
)
