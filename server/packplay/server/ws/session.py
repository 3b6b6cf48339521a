"""One WebSocket connection's protocol state, without any I/O.

The shell (:mod:`packplay.server.ws.connection`) feeds the session what happens (a decoded
frame, the result of a request it asked for, a new game version from its table)
and carries out what comes back: messages to send, and requests (:data:`Effect`)
whose results it feeds back. The session decides the order of the conversation,
authorisation, the connection's rate limits (of frames and of resumes; a seat's actions
are limited in Redis, over all its connections), and which versions a client has seen, so that a client
gets every version once and in order: each update patches the view of the version
before it, so none may be skipped. An accepted action is acknowledged by the update
it made; an ``accepted`` message is sent only when that update did not carry it. A
``hello`` sent again once welcomed starts the conversation over with another identity
(the next game): what the connection followed stops, its limits carry on.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from packplay.games.base import Audience
from packplay.table.records import Answer
from packplay.table.rendering import Frames
from packplay_protocol.errors import CloseCode, DecodeError, ErrorCode, RejectReason
from packplay_protocol.from_client import Act, ClientMessage, Follow, Hello, Join, Ping, Resume
from packplay_protocol.limits import Limits
from packplay_protocol.to_client import Accepted, Error, Pong, Rejected, ServerMessage, Welcome
from packplay_protocol.version import SUBPROTOCOLS, Negotiated

MAX_BAD_FRAMES = 8
RESUME_BURST = 10.0


class Bucket:
    """A token bucket: ``rate`` units a second sustained, ``burst`` at once."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Phase(enum.Enum):
    GREETING = "greeting"
    AUTHENTICATING = "authenticating"
    READY = "ready"
    JOINING = "joining"
    JOINED = "joined"
    FOLLOWING = "following"
    """Following a tournament (asked for or done): never a game on this connection."""
    CLOSED = "closed"


@dataclass(frozen=True)
class Authenticate:
    """Find the seat a token holds; answer with :meth:`Session.authenticated`."""

    token: str


@dataclass(frozen=True)
class Watch:
    """Follow the game, then send its view (after the events since ``since``);
    answer with :meth:`Session.caught_up` or :meth:`Session.failed`."""

    game_id: str
    audience: Audience
    since: int | None


@dataclass(frozen=True)
class CatchUp:
    """Send the events after ``since`` and the current view; answer with :meth:`Session.caught_up`
    (unless :meth:`Session.concerns` says the connection has moved on to another hello)."""

    game_id: str
    audience: Audience
    since: int
    epoch: int = 0
    """The hello it was asked under (a catch-up can run beside the reader)."""


@dataclass(frozen=True)
class Submit:
    """Apply an action; answer with :meth:`Session.answered`."""

    game_id: str
    seat: int
    act: Act


@dataclass(frozen=True)
class FollowTournament:
    """Follow a tournament and send its current state; answer with :meth:`Session.failed`
    when refused, nothing when done (the tournament's messages are sent as it changes)."""

    tournament_id: str
    secret: str | None
    watch: bool


@dataclass(frozen=True)
class Leave:
    """Stop following the game or tournament followed so far (a new hello takes over)."""


@dataclass(frozen=True)
class Close:
    """Close the connection (after sending what precedes this)."""

    code: CloseCode
    reason: str


Request = Authenticate | Watch | CatchUp | Submit | FollowTournament | Leave
"""What the shell carries out and answers (the session waits for it, or hears of it later)."""
Effect = Request | Close
Outgoing = ServerMessage | Frames | Effect


class Session:
    """The state machine of one connection: greeting, authenticating, ready, joined."""

    __slots__ = (
        "_acked",
        "_awaiting",
        "_bad_frames",
        "_catching_up",
        "_frames",
        "_held",
        "_refused",
        "_resent",
        "_resumes",
        "audience",
        "epoch",
        "game_id",
        "limits",
        "negotiated",
        "phase",
        "seat",
        "server",
        "version",
    )

    def __init__(self, negotiated: Negotiated, limits: Limits, server: str, now: float) -> None:
        self.negotiated = negotiated
        self.limits = limits
        self.server = server
        self.phase = Phase.GREETING
        self.epoch = 0
        """How many hellos came before the last one: the requests of an earlier one are stale."""
        self.game_id: str | None = None
        self.seat: int | None = None
        """The seat the hello token holds (None: spectator)."""
        self.audience: Audience = None
        self.version = -1
        """The last version whose messages this client has been sent."""
        self._held: list[Frames] = []
        self._acked: tuple[int, str] | None = None
        """The version and action id of the last update sent that acknowledged an action."""
        self._awaiting: dict[int, str] = {}
        """Accepted actions whose version this client has not been sent yet."""
        self._resent: set[str] = set()
        """Action ids sent again after their update acknowledged them: they get ``accepted``."""
        self._catching_up = False
        self._bad_frames = 0
        self._frames = Bucket(limits.frames_per_second, limits.frame_burst, now)
        self._resumes = Bucket(limits.resumes_per_minute / 60.0, RESUME_BURST, now)
        self._refused = 0
        """Frames refused in a row by the frame limit."""

    # what the client sends

    def receive(self, message: ClientMessage | DecodeError, now: float) -> list[Outgoing]:
        """React to one decoded frame (or to why it did not decode)."""
        if not self._frames.take(now):
            return self._over_limit(message)
        self._refused = 0
        if isinstance(message, DecodeError):
            return self._bad_frame(message)
        if isinstance(message, Ping):
            return [Pong(nonce=message.nonce)]
        if isinstance(message, Hello):
            return self._hello(message)
        if isinstance(message, Join):
            return self._join(message)
        if isinstance(message, Act):
            return self._act(message)
        if isinstance(message, Follow):
            return self._follow(message)
        return self._resume(message, now)

    def pinged(self, now: float) -> list[Outgoing]:
        """A WebSocket ping frame came (the protocol answers it): it counts as a frame."""
        if self._frames.take(now):
            self._refused = 0
            return []
        return self._over_limit(None)

    def _over_limit(self, message: ClientMessage | DecodeError | None) -> list[Outgoing]:
        """A frame beyond the connection's rate: not handled. An action is told so (its sender
        waits for an answer), other frames only the first of a run; a long run closes."""
        self._refused += 1
        if self._refused >= self.limits.frame_burst:
            self.phase = Phase.CLOSED
            message_ = "too many frames; closing"
            return [
                Error(code=ErrorCode.RATE_LIMITED, message=message_, fatal=True),
                Close(CloseCode.RATE_LIMITED, "too many frames"),
            ]
        detail = f"too many frames: at most {self.limits.frames_per_second:g} a second"
        if isinstance(message, Act):
            return [self._reject(message.action_id, RejectReason.RATE_LIMITED, detail)]
        if self._refused == 1:
            return [Error(code=ErrorCode.RATE_LIMITED, message=detail)]
        return []

    def _bad_frame(self, problem: DecodeError) -> list[Outgoing]:
        self._bad_frames += 1
        out: list[Outgoing] = []
        if problem.action_id is not None:
            out.append(self._reject(problem.action_id, RejectReason.BAD_MESSAGE, problem.message))
        out.append(Error(code=problem.code, message=problem.message[:2000]))
        if self._bad_frames > MAX_BAD_FRAMES:
            out.append(Close(CloseCode.BAD_MESSAGES, "too many bad frames"))
        return out

    def _hello(self, hello: Hello) -> list[Outgoing]:
        out: list[Outgoing] = []
        if self.phase in (Phase.READY, Phase.JOINED, Phase.FOLLOWING):
            # Another identity on the same connection (the next game of a tournament, a
            # bot's next table): what it followed stops, then it starts over as new.
            out.append(Leave())
            self._start_over()
        elif self.phase is not Phase.GREETING:
            return [_out_of_order("hello waits for the answer to the one before")]
        if hello.token is None:
            self.phase = Phase.READY
            return [*out, self._welcome()]
        self.phase = Phase.AUTHENTICATING
        return [*out, Authenticate(hello.token)]

    def _start_over(self) -> None:
        """Forget the game of the last hello; the connection's limits carry on."""
        self.epoch += 1
        self.phase = Phase.GREETING
        self.game_id = self.seat = self.audience = None
        self.version = -1
        self._held = []
        self._acked = None
        self._awaiting = {}
        self._resent = set()
        self._catching_up = False

    def _join(self, join: Join) -> list[Outgoing]:
        if self.phase is not Phase.READY:
            return [_out_of_order("join follows hello, once per hello")]
        if join.role == "player" and (self.seat is None or join.game_id != self.game_id):
            return [Error(code=ErrorCode.UNAUTHORIZED, message="the hello token holds no seat in this game")]
        self.phase = Phase.JOINING
        self.game_id = join.game_id
        self.audience = self.seat if join.role == "player" else None
        return [Watch(join.game_id, self.audience, join.from_version)]

    def _follow(self, follow: Follow) -> list[Outgoing]:
        if self.phase is not Phase.READY:
            return [_out_of_order("follow follows hello, once per hello, instead of join")]
        self.phase = Phase.FOLLOWING
        return [FollowTournament(follow.tournament_id, follow.secret, follow.watch)]

    def _act(self, act: Act) -> list[Outgoing]:
        if self.phase is not Phase.JOINED or self.game_id is None:
            return [self._reject(act.action_id, RejectReason.NOT_FOUND, "join a game first")]
        if self.audience is None:
            return [self._reject(act.action_id, RejectReason.UNAUTHORIZED, "spectators cannot act")]
        if self._acked is not None and self._acked[1] == act.action_id:
            self._resent.add(act.action_id)
        return [Submit(self.game_id, self.audience, act)]

    def _resume(self, resume: Resume, now: float) -> list[Outgoing]:
        if self.phase is not Phase.JOINED or self.game_id is None:
            return [_out_of_order("resume follows join")]
        if not self._resumes.take(now):
            detail = f"too many resumes: at most {self.limits.resumes_per_minute:g} a minute"
            return [Error(code=ErrorCode.RATE_LIMITED, message=detail)]
        self._catching_up = True
        return [CatchUp(self.game_id, self.audience, resume.from_version, self.epoch)]

    # results of the effects

    def concerns(self, request: Request) -> bool:
        """Whether the answer to ``request`` is still for this connection: a catch-up asked
        for under an earlier hello is about a game it no longer follows."""
        return not isinstance(request, CatchUp) or request.epoch == self.epoch

    def authenticated(self, held: tuple[str, int] | None) -> list[Outgoing]:
        """The seat the hello token holds, or None when it holds none."""
        if held is None:
            self.phase = Phase.CLOSED
            return [
                Error(code=ErrorCode.UNAUTHORIZED, message="unknown or expired token", fatal=True),
                Close(CloseCode.UNAUTHORIZED, "unknown token"),
            ]
        self.game_id, self.seat = held
        self.phase = Phase.READY
        return [self._welcome()]

    def caught_up(self, frames: Frames) -> list[Outgoing]:
        """Messages that bring the client to their version; versions held meanwhile follow."""
        self.phase = Phase.JOINED
        self._catching_up = False
        out: list[Outgoing] = [frames]
        self.version = max(self.version, frames.version)
        out.extend(self._acknowledged())
        held, self._held = self._held, []
        for later in held:
            out.extend(self.deliver(later))
        return out

    def failed(self, code: ErrorCode, detail: str) -> list[Outgoing]:
        """A requested watch or catch-up failed: the client may join or resume again."""
        if self.phase is Phase.JOINING:
            self.phase = Phase.READY
            self._held.clear()
        if self.phase is Phase.FOLLOWING:
            self.phase = Phase.READY
        self._catching_up = False
        if code is ErrorCode.NOT_FOUND and self.phase is Phase.JOINED:
            return [Error(code=code, message=detail, fatal=True), Close(CloseCode.GAME_EXPIRED, detail)]
        return [Error(code=code, message=detail)]

    def answered(self, act: Act, answer: Answer) -> list[Outgoing]:
        """The service's answer to an action.

        An acceptance already carried by the update of its version sends nothing; one
        whose version the client has not been sent yet waits for it.
        """
        if answer.accepted:
            resent = act.action_id in self._resent
            self._resent.discard(act.action_id)
            if self._acked == (answer.version, act.action_id) and not resent:
                return []
            if answer.version > self.version:
                self._awaiting[answer.version] = act.action_id
                return []
            return [Accepted(action_id=act.action_id, version=answer.version)]
        reason = RejectReason(answer.reason or RejectReason.ILLEGAL_ACTION)
        rejected = Rejected(
            action_id=act.action_id,
            reason=reason,
            rule=answer.rule,
            message=(answer.message or reason.value)[:2000],
            version=answer.version,
        )
        return [rejected]

    # what the game does

    def deliver(self, frames: Frames) -> list[Outgoing]:
        """A new version of the game, from any process: send it once, in order."""
        if self.phase is Phase.JOINING or self._catching_up:
            self._held.append(frames)
            return []
        version = frames.version
        if self.phase is not Phase.JOINED or version <= self.version:
            return []
        if version > self.version + 1 and self.game_id is not None:
            self._catching_up = True
            self._held.append(frames)
            return [CatchUp(self.game_id, self.audience, self.version, self.epoch)]
        self.version = version
        if frames.action_id is not None:
            self._acked = (version, frames.action_id)
            if self._awaiting.get(version) == frames.action_id:
                del self._awaiting[version]
        if not self._awaiting:  # (most deliveries: a spectator's, a seat's between its moves)
            return [frames]
        return [frames, *self._acknowledged()]

    def _acknowledged(self) -> list[Outgoing]:
        """Acceptances waiting for a version the client now has, sent after it."""
        out: list[Outgoing] = []
        for version in sorted(v for v in self._awaiting if v <= self.version):
            out.append(Accepted(action_id=self._awaiting.pop(version), version=version))
        return out

    def resync(self) -> list[Outgoing]:
        """The fan-out may have missed versions (its Redis connection dropped)."""
        if self.phase is not Phase.JOINED or self.game_id is None or self._catching_up:
            return []
        self._catching_up = True
        return [CatchUp(self.game_id, self.audience, self.version, self.epoch)]

    def _welcome(self) -> Welcome:
        return Welcome(
            server=self.server,
            protocol=self.negotiated.subprotocol,
            versions=tuple(SUBPROTOCOLS),
            limits=self.limits,
            game_id=self.game_id,
            seat=self.seat,
        )

    def _reject(self, action_id: str, reason: RejectReason, message: str) -> Rejected:
        return Rejected(action_id=action_id, reason=reason, message=message, version=max(self.version, 0))


def _out_of_order(message: str) -> Error:
    return Error(code=ErrorCode.OUT_OF_ORDER, message=message)
