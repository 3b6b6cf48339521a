"""Errors as problem documents (RFC 9457): the authority's refusals, Starlette's own errors,
storage away, a client gone, and the unexpected."""

from __future__ import annotations

import logging
import secrets

import msgspec
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from packplay_protocol.errors import ErrorCode
from packplay_protocol.problems import PROBLEM_MEDIA_TYPE, problem

log = logging.getLogger(__name__)
_encode = msgspec.json.Encoder().encode


def problem_response(
    code: ErrorCode,
    detail: str | None,
    request: Request,
    pointer: str | None = None,
    retry_after: int | None = None,
) -> Response:
    document = problem(code, detail, instance=request.url.path, pointer=pointer)
    headers = None if retry_after is None else {"Retry-After": str(retry_after)}
    return Response(
        _encode(document), status_code=document.status, headers=headers, media_type=PROBLEM_MEDIA_TYPE
    )


_HTTP_CODES = {401: ErrorCode.UNAUTHORIZED, 403: ErrorCode.FORBIDDEN, 404: ErrorCode.NOT_FOUND}


async def http_problem(request: Request, error: Exception) -> Response:
    """Starlette's own errors (unknown route, wrong method) as problem documents."""
    assert isinstance(error, HTTPException)
    code = _HTTP_CODES.get(error.status_code, ErrorCode.VALIDATION_FAILED)
    document = msgspec.structs.replace(
        problem(code, error.detail, request.url.path), status=error.status_code
    )
    return Response(
        _encode(document),
        status_code=error.status_code,
        headers=error.headers,  # a 405 carries Allow
        media_type=PROBLEM_MEDIA_TYPE,
    )


RETRY_AFTER_SECONDS = 2
"""What a 503 tells the client to wait before retrying."""


async def unavailable_problem(request: Request, error: Exception) -> Response:
    """Storage did not answer: 503 with a retry hint (nothing was changed, or the change was whole)."""
    log.warning("storage unavailable on %s %s: %s", request.method, request.url.path, error)
    document = problem(ErrorCode.UNAVAILABLE, "storage unavailable; retry shortly", request.url.path)
    return Response(
        _encode(document),
        status_code=document.status,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        media_type=PROBLEM_MEDIA_TYPE,
    )


async def client_gone(request: Request, error: Exception) -> Response:
    """The client went away (or was cut at a deadline) before its body was read: nobody to answer."""
    return Response(status_code=400)


async def internal_problem(request: Request, error: Exception) -> Response:
    incident = secrets.token_hex(6)
    log.exception("internal error %s on %s %s", incident, request.method, request.url.path, exc_info=error)
    return problem_response(ErrorCode.INTERNAL, f"internal error; report incident {incident}", request)
