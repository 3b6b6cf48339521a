"""The limits a server enforces, announced in `welcome`."""

from __future__ import annotations

from typing import Annotated

import msgspec

DEFAULT_MAX_FRAME_BYTES = 64 * 1024
"""Largest frame a server accepts from a client; larger frames are refused unread."""


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """What a connection may do. Exceeding a limit gets an `error` or a close code."""

    max_frame_bytes: Annotated[int, msgspec.Meta(gt=0)] = DEFAULT_MAX_FRAME_BYTES
    """Largest frame the server reads; a larger frame closes the connection with 1009, unread
    (a REST body over it gets 413 `frame_too_large`)."""
    actions_per_second: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    """Sustained rate of `act` messages per seat, over all the seat's connections (reject
    reason `rate_limited`, nothing applied: send the same action again later)."""
    action_burst: Annotated[int, msgspec.Meta(gt=0)] = 20
    """Actions a seat may send at once before `actions_per_second` holds it back."""
    frames_per_second: Annotated[float, msgspec.Meta(gt=0)] = 30.0
    """Sustained rate of frames of any kind (`ping` and `resume` included) per connection.
    A frame beyond it is not handled: an `act` gets `rejected` `rate_limited`, the first
    other frame of a run an `error` `rate_limited`; `frame_burst` refused in a row close
    the connection with 4005."""
    frame_burst: Annotated[int, msgspec.Meta(gt=0)] = 60
    """Frames a connection may send at once before `frames_per_second` holds it back."""
    resumes_per_minute: Annotated[float, msgspec.Meta(gt=0)] = 120.0
    """Sustained rate of `resume` messages answered per connection (bursts of 10); another
    gets an `error` `rate_limited`."""
    catch_up_versions: Annotated[int, msgspec.Meta(ge=0)] = 256
    """A `join` or `resume` from more versions back than this gets the whole view without
    the `events` between (the view is the state; the events are only its story)."""
    hello_timeout_seconds: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    """Time from connecting to a valid `hello` (else close 4001)."""
    ping_interval_seconds: Annotated[float, msgspec.Meta(gt=0)] = 20.0
    """Send a `ping` at least this often when idle; the server closes silent connections."""
    send_queue: Annotated[int, msgspec.Meta(gt=0)] = 256
    """Messages the server buffers for a slow reader before closing with 4000."""


DEFAULT_LIMITS = Limits()
