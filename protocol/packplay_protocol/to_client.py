"""Messages the server sends to a client over the WebSocket.

Clients must ignore unknown fields and unknown event types: a version only ever adds.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from packplay_protocol.cards import CardId, CardInstance
from packplay_protocol.catalog import AnyAction, AnyEvent, AnyView
from packplay_protocol.errors import ErrorCode, RejectReason
from packplay_protocol.games.common import GameResult, LegalActions
from packplay_protocol.ids import ActionId, Deadline, GameId, GameName, PlayerToken, Seat, Seed, Version
from packplay_protocol.limits import Limits
from packplay_protocol.patch import PatchOp
from packplay_protocol.tournaments import (
    PairedTable,
    PlayerId,
    RoundNumber,
    StandingLine,
    TableSeat,
    TableStatus,
    TournamentId,
)

Text = Annotated[str, msgspec.Meta(max_length=2000)]


class Welcome(msgspec.Struct, frozen=True, kw_only=True, tag="welcome", tag_field="type"):
    """The answer to `hello`: who the server is, what it speaks, its limits.

    `game_id` and `seat` tell which seat the hello token holds (null for spectators).
    """

    server: str
    protocol: str
    """The subprotocol in use, e.g. `packplay.v2.json`."""
    versions: tuple[str, ...]
    """Every subprotocol this server speaks."""
    limits: Limits
    game_id: GameId | None = None
    seat: Seat | None = None


class ViewMessage(msgspec.Struct, frozen=True, kw_only=True, tag="view", tag_field="type"):
    """One audience's whole view of a game at `version`, with what the seat may do.

    Sent on `join`, on `resume` and after a gap; between those, `update` messages
    patch it. `seat` is null for spectators. `legal` is empty unless `seat` is
    pending. `seed` is revealed only once the game is over, with `result`. Views and
    events name cards by id; `cards` gives the facts of every card this audience may
    know now (its own cards, face-up cards, cards it has seen revealed), keyed by id.

    In a game with a turn clock (`turn_seconds`), `deadlines` has one entry per seat:
    for a pending seat, the moment its clock runs out, after which the server plays
    the seat's default action for it (to the millisecond); null for a seat not
    pending. A seat's clock starts when it faces a new decision, so it changes only
    then. Without a turn clock it is null.
    """

    game_id: GameId
    game: GameName
    version: Version
    seat: Seat | None
    pending: tuple[Seat, ...]
    legal: LegalActions[AnyAction]
    deadlines: tuple[Deadline | None, ...] | None = None
    result: GameResult | None = None
    seed: Seed | None = None
    view: AnyView
    cards: dict[CardId, CardInstance] = msgspec.field(default_factory=dict)


class Update(msgspec.Struct, frozen=True, kw_only=True, tag="update", tag_field="type"):
    """What one applied action changed for this audience: the game went from
    `version` - 1 to `version`.

    `events` are what happened, filtered for this audience. `patch` is an RFC 6902
    JSON Patch that turns the `view` message of version `version` - 1 (as this client
    holds it) into the one of `version`: apply it in order to the whole view message
    (paths such as `/view/...`, `/legal/...`, `/pending`, `/cards/<id>`), then set
    its `version`. `action_id` is set in the update sent to the seat whose action
    made this version: it is that action's acceptance. An update whose `version` is
    not one more than the client's means a message was lost: send `resume`.
    """

    game_id: GameId
    version: Version
    events: tuple[AnyEvent, ...] = ()
    patch: tuple[PatchOp, ...] = ()
    action_id: ActionId | None = None


class Events(msgspec.Struct, frozen=True, kw_only=True, tag="events", tag_field="type"):
    """What happened from `from_version` to `to_version`, filtered for this audience.

    Sent when a client catches up (`join` with `from_version`, `resume`), just
    before the whole `view` of `to_version`.
    """

    game_id: GameId
    from_version: Version
    to_version: Version
    events: tuple[AnyEvent, ...]


class Accepted(msgspec.Struct, frozen=True, kw_only=True, tag="accepted", tag_field="type"):
    """The action was applied; `version` is the game's version right after it.

    Usually an action's acceptance is the `action_id` of the `update` it made; this
    message is sent instead when that update was not (a resent action id, or a
    client brought up to date by a whole `view`). It never precedes the update or
    view of `version`.
    """

    action_id: ActionId
    version: Version


class Rejected(msgspec.Struct, frozen=True, kw_only=True, tag="rejected", tag_field="type"):
    """The action was refused and changed nothing.

    `rule` is set when the game's rules refused it: a ruling id (`MF-2`) or a refusal
    code (`turn`, `card`, `move`), each explained under its own heading in the rules
    reference (a game's page for a ruling, the common page for a code), in every
    language. It is null for refusals that are not the rules' (`stale_version`,
    `rate_limited`, `duplicate`, ...). `version` is the game's current version. After
    `stale_version` decide again on the view you hold: every update up to `version` has
    been sent before this refusal.
    """

    action_id: ActionId
    reason: RejectReason
    rule: str | None = None
    message: Text
    version: Version


class GameOver(msgspec.Struct, frozen=True, kw_only=True, tag="game_over", tag_field="type"):
    """The game has ended; the full replay is at `replay_url` (a REST path)."""

    game_id: GameId
    result: GameResult
    replay_url: str


class Error(msgspec.Struct, frozen=True, kw_only=True, tag="error", tag_field="type"):
    """A problem with the connection or a message, not with a game action.

    When `fatal` the server closes the connection after this message.
    `spoken` lists the supported subprotocols (code `unsupported_version`).
    """

    code: ErrorCode
    message: Text
    fatal: bool = False
    spoken: tuple[str, ...] = ()


class Pong(msgspec.Struct, frozen=True, kw_only=True, tag="pong", tag_field="type"):
    """The answer to `ping`, with its nonce."""

    nonce: str = ""


class Seated(msgspec.Struct, frozen=True, kw_only=True, tag="seated", tag_field="type"):
    """The answer to `create`, `take_seat` and `rematch`: the seat this connection now plays.

    `token` is the seat's token (shown once), for REST calls and for `hello` on another
    connection after a disconnect. `started` tells whether the game has begun: then its
    `view` follows at once; otherwise it follows when the last seat is taken. `invite` is
    the code of a private game created with `create` (share it with the other players).
    """

    game_id: GameId
    seat: Seat
    token: PlayerToken
    started: bool
    invite: Annotated[str, msgspec.Meta(max_length=64)] | None = None


class TournamentTable(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_table", tag_field="type"):
    """Where a followed tournament's player plays now (the same as the REST table answer).

    Sent when the player follows, then each time it changes: `playing` names the game to
    join (`game_id`) with the seat's own `token`, as soon as the game exists; `waiting`
    follows once that game is over, until the next round seats the player; `bye`,
    `dropped` and `finished` as in the REST answer. After `dropped` or `finished`
    nothing more is sent for the player.
    """

    tournament_id: TournamentId
    player_id: PlayerId
    status: TableStatus
    round: Annotated[int, msgspec.Meta(ge=0, le=64)]
    table: Annotated[int, msgspec.Meta(ge=1)] | None = None
    game_id: GameId | None = None
    seat: Seat | None = None
    token: PlayerToken | None = None


class TournamentRound(msgspec.Struct, frozen=True, kw_only=True, tag="tournament_round", tag_field="type"):
    """The current round of a followed tournament: its tables, byes and results so far.

    Sent when a watcher follows, then as the round changes (paired, a table's game
    created, a table's result recorded), at most once a second with every change so far.
    Each round's last message is complete, with every table's result, and comes before
    the first message of the next round.
    """

    tournament_id: TournamentId
    round: RoundNumber
    tables: tuple[PairedTable, ...]
    byes: tuple[TableSeat, ...] = ()
    complete: bool


class TournamentStandings(
    msgspec.Struct, frozen=True, kw_only=True, tag="tournament_standings", tag_field="type"
):
    """The standings of a followed tournament, as the REST standings answer.

    Sent when a watcher follows, then as results are recorded and players drop, at most
    once a second with every change so far; `final` is true once the event is over (the
    last message about it).
    """

    tournament_id: TournamentId
    round: Annotated[int, msgspec.Meta(ge=0, le=64)]
    complete_rounds: Annotated[int, msgspec.Meta(ge=0, le=64)]
    final: bool
    lines: tuple[StandingLine, ...]


ServerMessage = (
    Welcome
    | ViewMessage
    | Update
    | Events
    | Accepted
    | Rejected
    | GameOver
    | Error
    | Pong
    | TournamentTable
    | TournamentRound
    | TournamentStandings
    | Seated
)
SERVER_MESSAGES: tuple[type[msgspec.Struct], ...] = (
    Welcome,
    ViewMessage,
    Update,
    Events,
    Accepted,
    Rejected,
    GameOver,
    Error,
    Pong,
    TournamentTable,
    TournamentRound,
    TournamentStandings,
    Seated,
)
