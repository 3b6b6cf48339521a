"""Errors over REST: problem documents (RFC 9457) with a stable ``code`` clients branch on."""

from __future__ import annotations

import re
from typing import Annotated

import msgspec

from packplay_protocol.errors import ErrorCode


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    """An RFC 9457 problem document; clients branch on `code`, never on `title`."""

    type: str
    title: str
    status: Annotated[int, msgspec.Meta(ge=400, le=599)]
    code: ErrorCode
    detail: str | None = None
    instance: str | None = None
    pointer: str | None = None
    """The member of the request body at fault, as a JSON Pointer (`/options/first_seat`),
    when a refusal is about one member."""


PROBLEM_MEDIA_TYPE = "application/problem+json"

PROBLEM_STATUS: dict[ErrorCode, int] = {
    ErrorCode.BAD_MESSAGE: 400,
    ErrorCode.UNKNOWN_TYPE: 400,
    ErrorCode.VALIDATION_FAILED: 422,
    ErrorCode.BAD_CONFIG: 422,
    ErrorCode.FRAME_TOO_LARGE: 413,
    ErrorCode.UNSUPPORTED_VERSION: 400,
    ErrorCode.OUT_OF_ORDER: 409,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.SANDBOX_DISABLED: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.GAME_FULL: 409,
    ErrorCode.SEAT_TAKEN: 409,
    ErrorCode.GAME_STARTED: 409,
    ErrorCode.GAME_NOT_OVER: 409,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.TOO_MANY_LOBBIES: 429,
    ErrorCode.INVITE_REQUIRED: 403,
    ErrorCode.INTERNAL: 500,
    ErrorCode.UNAVAILABLE: 503,
}
"""The HTTP status that goes with each code in a problem document."""


def problem(
    code: ErrorCode, detail: str | None = None, instance: str | None = None, pointer: str | None = None
) -> Problem:
    """The problem document for `code`, with its usual status and title."""
    return Problem(
        type=f"urn:packplay:problem:{code.value}",
        title=code.value.replace("_", " ").capitalize(),
        status=PROBLEM_STATUS[code],
        code=code,
        detail=detail,
        instance=instance,
        pointer=pointer,
    )


_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_NAMED = re.compile(r"^Object (?:contains unknown|missing required) field `(?P<name>[^`]+)`")


def pointer_of(message: str) -> str | None:
    """The JSON Pointer of the member a validation message is about, or None.

    Reads msgspec's messages (and the create-game checks, which end the same way):
    "... - at `$.options.seats[1]`" is `/options/seats/1`; an unknown or missing field
    adds its own name.
    """
    at = _AT.search(message)
    path = at.group("path") if at is not None else ""
    named = _NAMED.match(message)
    if named is not None:
        path += "." + named.group("name")
    if not path:
        return None
    parts = re.findall(r"\.([^.\[]+)|\[(\d+)\]", path)
    return "".join("/" + (key or index).replace("~", "~0").replace("/", "~1") for key, index in parts)
