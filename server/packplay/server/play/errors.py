"""What the authority raises when it refuses a request, and what its local games raise."""

from __future__ import annotations

from packplay_protocol.errors import ErrorCode


class Refused(Exception):
    """A request the authority refuses; ``code`` is the protocol's stable error code."""

    def __init__(
        self, code: ErrorCode, detail: str, pointer: str | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.pointer = pointer
        """The request member at fault (a JSON Pointer), when there is one."""
        self.retry_after = retry_after
        """Seconds after which the same request may succeed (a limit held it back)."""


class GameMissing(LookupError):
    """No such game (never created, or expired)."""


class GameNotStarted(LookupError):
    """The game still waits for players."""
