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
    """Sustained rate of `act` messages (reject reason `rate_limited`)."""
    hello_timeout_seconds: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    """Time from connecting to a valid `hello` (else close 4001)."""
    ping_interval_seconds: Annotated[float, msgspec.Meta(gt=0)] = 20.0
    """Send a `ping` at least this often when idle; the server closes silent connections."""
    send_queue: Annotated[int, msgspec.Meta(gt=0)] = 256
    """Messages the server buffers for a slow reader before closing with 4000."""


DEFAULT_LIMITS = Limits()
