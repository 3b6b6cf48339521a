"""What the SDK raises: a refused REST call, a refused WebSocket request, a lost connection.

Every error carries the protocol's stable code (``ErrorCode`` or a close code), so a
caller branches on data, never on message text.
"""

from __future__ import annotations

from packplay_protocol.errors import ErrorCode
from packplay_protocol.problems import Problem
from packplay_protocol.to_client import Error, Rejected


class PackplayError(Exception):
    """The base of every error the SDK raises."""


class ApiError(PackplayError):
    """A REST call answered with a problem document; ``code`` is its stable code."""

    def __init__(self, problem: Problem, retry_after: int | None = None) -> None:
        super().__init__(f"{problem.status} {problem.code.value}: {problem.detail or problem.title}")
        self.problem = problem
        self.retry_after = retry_after
        """Seconds the answer's ``Retry-After`` asks to wait (429, 503), or None."""

    @property
    def code(self) -> ErrorCode:
        return self.problem.code

    @property
    def status(self) -> int:
        return self.problem.status

    @property
    def pointer(self) -> str | None:
        """The request member at fault (a JSON Pointer such as `/options/first_seat`), if any."""
        return self.problem.pointer


class ServerError(PackplayError):
    """The server answered ``hello`` or ``join`` with an ``error`` message."""

    def __init__(self, error: Error) -> None:
        super().__init__(f"{error.code.value}: {error.message}")
        self.error = error

    @property
    def code(self) -> ErrorCode:
        return self.error.code


class ConnectionLost(PackplayError):
    """The connection closed for good: a close code that asks for no resume, or resuming failed."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"connection closed ({code}{': ' + reason if reason else ''})")
        self.code = code
        self.reason = reason


class TransportClosed(PackplayError):
    """Raised by a transport whose socket is closed, with the close code received."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"transport closed ({code})")
        self.code = code
        self.reason = reason


class PlayError(PackplayError):
    """A bot's action was refused for a reason that deciding again cannot fix."""

    def __init__(self, rejected: Rejected) -> None:
        rule = f" [{rejected.rule}]" if rejected.rule else ""
        super().__init__(f"{rejected.reason.value}{rule}: {rejected.message}")
        self.rejected = rejected
