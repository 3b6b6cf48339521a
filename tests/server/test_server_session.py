"""The per-connection state machine alone: no sockets, no Redis."""

from __future__ import annotations

import msgspec

from packplay.server.ws.session import (
    MAX_BAD_FRAMES,
    RESUME_BURST,
    Authenticate,
    AwaitStart,
    CatchUp,
    Close,
    Leave,
    Outgoing,
    Session,
    Sit,
    Submit,
    Unwatch,
    Watch,
)
from packplay.table.records import Answer
from packplay.table.rendering import Frames
from packplay_protocol.errors import CloseCode, DecodeError, ErrorCode, RejectReason
from packplay_protocol.from_client import Act, Create, Follow, Hello, Join, Ping, Rematch, Resume, TakeSeat
from packplay_protocol.limits import DEFAULT_LIMITS
from packplay_protocol.rest import create_game
from packplay_protocol.to_client import Accepted, Error, Pong, Rejected, Seated, TournamentTable, Welcome
from packplay_protocol.version import Encoding, Negotiated

NEGOTIATED = Negotiated(subprotocol="packplay.v2.json", version=2, encoding=Encoding.JSON)
TAKE = {"type": "mishra_factory.take", "belt_position": 0, "group": "C"}


def _session() -> Session:
    return Session(NEGOTIATED, DEFAULT_LIMITS, "test", now=0.0)


def _marker(version: int, action_id: str | None = None) -> Frames:
    """Frames whose one message says which version they were built for."""
    return Frames(version, [Pong(nonce=f"v{version}")], action_id)


def _joined(seat: int | None = 1, version: int = 3) -> Session:
    session = _session()
    if seat is None:
        session.receive(Hello(), 0.0)
        session.receive(Join(game_id="g", role="spectator"), 0.0)
    else:
        session.receive(Hello(token="t" * 20), 0.0)
        session.authenticated(("g", seat))
        session.receive(Join(game_id="g"), 0.0)
    session.caught_up(Frames(version, []))
    return session


def _act(action_id: str = "a1", version: int = 3) -> Act:
    return Act(action_id=action_id, version=version, action=TAKE)


def test_hello_without_a_token_welcomes_a_spectator() -> None:
    (welcome,) = _session().receive(Hello(client="x"), 0.0)
    assert isinstance(welcome, Welcome) and welcome.seat is None and welcome.protocol == "packplay.v2.json"


def test_a_token_is_checked_before_the_welcome() -> None:
    session = _session()
    assert session.receive(Hello(token="t" * 20), 0.0) == [Authenticate("t" * 20)]
    (welcome,) = session.authenticated(("g", 2))
    assert isinstance(welcome, Welcome) and (welcome.game_id, welcome.seat) == ("g", 2)


def test_an_unknown_token_closes_with_4001() -> None:
    session = _session()
    session.receive(Hello(token="t" * 20), 0.0)
    error, close = session.authenticated(None)
    assert isinstance(error, Error) and error.fatal and error.code is ErrorCode.UNAUTHORIZED
    assert close == Close(CloseCode.UNAUTHORIZED, "unknown token")


def test_messages_out_of_order_are_errors() -> None:
    session = _session()
    (early_join,) = session.receive(Join(game_id="g"), 0.0)
    session.receive(Hello(token="t" * 20), 0.0)
    (hello_before_welcome,) = session.receive(Hello(), 0.0)
    session.authenticated(("g", 0))
    (early_resume,) = session.receive(Resume(from_version=0), 0.0)
    for error in (early_join, hello_before_welcome, early_resume):
        assert isinstance(error, Error) and error.code is ErrorCode.OUT_OF_ORDER


def test_another_hello_leaves_the_game_and_starts_over() -> None:
    session = _joined(seat=1, version=7)
    leave, authenticate = session.receive(Hello(token="u" * 20), 0.0)
    assert (leave, authenticate) == (Leave(), Authenticate("u" * 20))
    assert session.deliver(_marker(8)) == [], "the game left sends nothing more"
    (welcome,) = session.authenticated(("h", 0))
    assert isinstance(welcome, Welcome) and (welcome.game_id, welcome.seat) == ("h", 0)
    (refused,) = session.receive(Join(game_id="g"), 0.0)
    assert isinstance(refused, Error) and refused.code is ErrorCode.UNAUTHORIZED
    assert session.receive(Join(game_id="h"), 0.0) == [Watch("h", 0, None)]
    first = Frames(2, [])
    assert session.caught_up(first) == [first], "versions start again from the new game's"
    third = _marker(3)
    assert session.deliver(third) == [third] and session.version == 3


def test_a_catch_up_asked_before_another_hello_is_not_for_the_new_game() -> None:
    session = _joined(seat=1, version=3)
    (catch_up,) = session.deliver(_marker(6))
    assert isinstance(catch_up, CatchUp) and session.concerns(catch_up)
    session.receive(Hello(), 0.0)
    assert not session.concerns(catch_up)
    (spectating,) = session.receive(Join(game_id="g", role="spectator"), 0.0)
    assert spectating == Watch("g", None, None)
    assert session.concerns(spectating)


def test_another_hello_keeps_the_connection_limits() -> None:
    session = _joined()  # its hello and join took two frames of the burst
    for _ in range(DEFAULT_LIMITS.frame_burst - 3):
        session.receive(Ping(), 0.0)
    leave, welcome = session.receive(Hello(), 0.0)
    assert leave == Leave() and isinstance(welcome, Welcome) and welcome.seat is None
    (refused,) = session.receive(Hello(), 0.0)
    assert isinstance(refused, Error) and refused.code is ErrorCode.RATE_LIMITED


def test_a_player_joins_only_the_game_of_its_token() -> None:
    session = _session()
    session.receive(Hello(token="t" * 20), 0.0)
    session.authenticated(("g", 0))
    (refused,) = session.receive(Join(game_id="other"), 0.0)
    assert isinstance(refused, Error) and refused.code is ErrorCode.UNAUTHORIZED
    assert session.receive(Join(game_id="g", from_version=4), 0.0) == [Watch("g", 0, 4)]


def test_versions_arriving_while_joining_are_held_then_sent_once_in_order() -> None:
    session = _session()
    session.receive(Hello(), 0.0)
    session.receive(Join(game_id="g", role="spectator"), 0.0)
    five, six = _marker(5), _marker(6)
    assert session.deliver(five) == []
    assert session.deliver(six) == []
    view = Frames(5, [Pong(nonce="view5")])
    assert session.caught_up(view) == [view, six]


def test_each_version_is_sent_once_and_a_gap_asks_to_catch_up() -> None:
    session = _joined(seat=1, version=3)
    four = _marker(4)
    assert session.deliver(four) == [four]
    assert session.deliver(_marker(4)) == []
    assert session.deliver(_marker(3)) == []
    assert session.deliver(_marker(6)) == [CatchUp("g", 1, 4)]
    seven = _marker(7)
    assert session.deliver(seven) == []
    caught_up = Frames(6, [Pong(nonce="events 4..6")])
    assert session.caught_up(caught_up) == [caught_up, seven]


def test_a_seat_acts_a_spectator_does_not() -> None:
    assert _joined(seat=1).receive(_act(), 1.0) == [Submit("g", 1, _act())]
    (refused,) = _joined(seat=None).receive(_act(), 1.0)
    assert isinstance(refused, Rejected) and refused.reason is RejectReason.UNAUTHORIZED


def test_acting_before_joining_is_rejected() -> None:
    session = _session()
    session.receive(Hello(token="t" * 20), 0.0)
    session.authenticated(("g", 0))
    (refused,) = session.receive(_act(), 0.0)
    assert isinstance(refused, Rejected) and refused.reason is RejectReason.NOT_FOUND


def test_actions_are_not_limited_per_connection_but_per_seat_in_redis() -> None:
    session = _joined()
    answers = [session.receive(_act(f"a{i}"), 1.0)[0] for i in range(30)]
    assert all(isinstance(a, Submit) for a in answers), "the seat's limit is the service's"


def test_frames_beyond_the_burst_are_refused_then_the_connection_closed() -> None:
    session = _joined()
    burst = DEFAULT_LIMITS.frame_burst
    # hello, join and their answers took two frames of the burst
    passed = [session.receive(Ping(nonce=str(i)), 0.0) for i in range(burst - 2)]
    assert all(isinstance(out[0], Pong) for out in passed)
    (first,) = session.receive(Ping(nonce="over"), 0.0)
    assert isinstance(first, Error) and first.code is ErrorCode.RATE_LIMITED and not first.fatal
    assert session.receive(Ping(nonce="quiet"), 0.0) == [], "only the first of a run is told"
    (refused,) = session.receive(_act("over"), 0.0)
    assert isinstance(refused, Rejected) and refused.reason is RejectReason.RATE_LIMITED
    later = session.receive(Ping(nonce="later"), 1.0)
    assert isinstance(later[0], Pong), "the bucket refills"


def test_a_long_run_of_refused_frames_closes_with_4005() -> None:
    session = _joined()
    outs = [session.receive(Ping(nonce=str(i)), 0.0) for i in range(2 * DEFAULT_LIMITS.frame_burst)]
    closes = [o for out in outs for o in out if isinstance(o, Close)]
    assert closes and closes[0].code is CloseCode.RATE_LIMITED


def test_resumes_are_answered_at_a_bounded_rate() -> None:
    session = _joined()
    answers = []
    for i in range(int(RESUME_BURST) + 1):
        out = session.receive(Resume(from_version=0), float(i) / 100)
        answers.append(out[0])
        if isinstance(out[0], CatchUp):
            session.caught_up(Frames(3, []))
    assert all(isinstance(a, CatchUp) for a in answers[:-1])
    assert isinstance(answers[-1], Error) and answers[-1].code is ErrorCode.RATE_LIMITED
    assert isinstance(session.receive(Resume(from_version=0), 10.0)[0], CatchUp), "it refills"


def test_an_acceptance_rides_on_the_update_of_its_version() -> None:
    session = _joined(version=3)
    four = _marker(4, action_id="a1")
    assert session.deliver(four) == [four]
    assert session.answered(_act(), Answer(accepted=True, version=4)) == [], "the update said it"


def test_an_acceptance_that_comes_first_waits_for_its_version() -> None:
    session = _joined(version=3)
    assert session.answered(_act(), Answer(accepted=True, version=4)) == []
    four = _marker(4, action_id="a1")
    assert session.deliver(four) == [four]


def test_an_acceptance_not_carried_by_an_update_is_sent_after_its_version() -> None:
    session = _joined(version=3)
    assert session.answered(_act(), Answer(accepted=True, version=4)) == []
    assert session.deliver(_marker(6)) == [CatchUp("g", 1, 3)]
    view = Frames(6, [Pong(nonce="whole view 6")])
    assert session.caught_up(view) == [view, Accepted(action_id="a1", version=4)]
    assert session.answered(_act("a2"), Answer(accepted=True, version=5)) == [
        Accepted(action_id="a2", version=5)
    ], "a resent action whose version the client has"


def test_a_refusal_is_sent_at_once() -> None:
    session = _joined(version=3)
    stale = Answer(accepted=False, version=5, reason="stale_version", message="moved on")
    (rejected,) = session.answered(_act(), stale)
    assert isinstance(rejected, Rejected) and rejected.reason is RejectReason.STALE_VERSION
    assert rejected.version == 5


def test_bad_frames_get_errors_and_too_many_close_the_connection() -> None:
    session = _session()
    broken = DecodeError(code=ErrorCode.BAD_MESSAGE, message="bad action", action_id="a9")
    rejected, error = session.receive(broken, 0.0)
    assert isinstance(rejected, Rejected) and rejected.action_id == "a9"
    assert isinstance(error, Error) and error.code is ErrorCode.BAD_MESSAGE
    out: list[Outgoing] = []
    for _ in range(MAX_BAD_FRAMES):
        out = session.receive(DecodeError(code=ErrorCode.BAD_MESSAGE, message="x"), 0.0)
    assert out[-1] == Close(CloseCode.BAD_MESSAGES, "too many bad frames")


def test_ping_is_answered_in_any_phase() -> None:
    assert _session().receive(Ping(nonce="n"), 0.0) == [Pong(nonce="n")]


def test_a_resync_catches_up_from_the_last_version_sent() -> None:
    session = _joined(version=8)
    assert session.resync() == [CatchUp("g", 1, 8)]
    assert session.resync() == [], "one catch-up at a time"


def test_an_action_sent_again_after_its_update_is_answered() -> None:
    session = _joined(version=3)
    four = _marker(4, action_id="a1")
    assert session.deliver(four) == [four]
    assert session.receive(_act(), 1.0) == [Submit("g", 1, _act())]
    assert session.answered(_act(), Answer(accepted=True, version=4)) == [Accepted(action_id="a1", version=4)]


# a game on a kept socket


def _seated(game_id: str = "n", seat: int = 0, started: bool = True) -> Seated:
    return Seated(game_id=game_id, seat=seat, token="n.t" + "x" * 20, started=started)


def test_a_seat_taken_on_the_socket_is_played_without_join() -> None:
    session = _session()
    session.receive(Hello(), 0.0)
    take = TakeSeat(game_id="n", name="bob")
    assert session.receive(take, 0.0) == [Sit(take, None, None)]
    seated = _seated(started=True)
    out = session.seated(seated)
    assert out == [seated, Watch("n", 0, None)]  # nothing followed before: nothing to leave
    assert (session.game_id, session.seat, session.audience) == ("n", 0, 0)
    session.caught_up(Frames(0, []))
    assert session.receive(_act(version=0), 0.0) == [Submit("n", 0, _act(version=0))]


def test_a_waiting_seat_follows_its_game_once_it_starts() -> None:
    session = _session()
    session.receive(Hello(), 0.0)
    create = Create(setup=create_game("day_night", 2), name="ada")
    (sit,) = session.receive(create, 0.0)
    assert isinstance(sit, Sit)
    seated = _seated(started=False)
    assert session.seated(seated) == [seated, AwaitStart("n")]
    assert session.started("other") == []
    (refused,) = session.receive(_act(version=0), 0.0)
    assert isinstance(refused, Rejected) and refused.reason is RejectReason.NOT_FOUND
    assert session.started("n") == [Watch("n", 0, None)]
    assert session.started("n") == []  # once


def test_a_rematch_leaves_the_game_over_for_the_next_and_a_refusal_keeps_it() -> None:
    session = _joined(seat=1, version=9)
    (sit,) = session.receive(Rematch(), 0.0)
    assert sit == Sit(Rematch(), "g", 1)
    (error,) = session.failed(ErrorCode.GAME_NOT_OVER, "not over")
    assert isinstance(error, Error) and not error.fatal
    assert session.receive(_act(version=9), 0.0) == [Submit("g", 1, _act(version=9))]  # still joined
    session.receive(Rematch(), 0.0)
    seated = _seated("h", 1)
    unwatch, told, watch = session.seated(seated)
    assert (unwatch, told, watch) == (Unwatch(), seated, Watch("h", 1, None))
    # A version of the game left that was held back is not the new game's.
    assert session.deliver(_marker(10)) == []
    assert session.concerns(CatchUp("g", 1, 9, epoch=0)) is False


def test_a_rematch_needs_a_game_played_here() -> None:
    session = _session()
    session.receive(Hello(), 0.0)
    (refused,) = session.receive(Rematch(), 0.0)
    assert isinstance(refused, Error) and refused.code is ErrorCode.OUT_OF_ORDER
    spectator = _joined(seat=None)
    (refused,) = spectator.receive(Rematch(), 0.0)
    assert isinstance(refused, Error) and refused.code is ErrorCode.OUT_OF_ORDER


def test_a_tournament_player_is_given_its_tables() -> None:
    session = _session()
    session.receive(Hello(), 0.0)
    session.receive(Follow(tournament_id="t1", secret="t1.p1." + "s" * 20), 0.0)
    table = TournamentTable(
        tournament_id="t1",
        player_id="p1",
        status="playing",
        round=1,
        table=1,
        game_id="g1",
        seat=1,
        token="g1." + "x" * 20,
    )
    assert session.told(table) == [table, Watch("g1", 1, None)]
    session.caught_up(Frames(0, []))
    assert session.receive(_act(version=0), 0.0) == [Submit("g1", 1, _act(version=0))]
    # The same table again changes nothing; the next round's replaces the game.
    assert session.told(table) == [table]
    later = msgspec.structs.replace(table, round=2, game_id="g2", seat=0)
    assert session.told(later) == [later, Unwatch(), Watch("g2", 0, None)]
    # Create and take_seat are the tournament's to give.
    (refused,) = session.receive(TakeSeat(game_id="x", name="p"), 0.0)
    assert isinstance(refused, Error) and refused.code is ErrorCode.OUT_OF_ORDER
    # A watcher is told, never seated.
    watcher = _session()
    watcher.receive(Hello(), 0.0)
    watcher.receive(Follow(tournament_id="t1"), 0.0)
    assert watcher.told(table) == [table]
