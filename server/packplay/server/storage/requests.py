"""Answers kept for ``Idempotency-Key``: a creating request sent again gets the answer the
first one got, whichever process serves it.

A key is kept per client address and route. While the first request is under way its
entry says so (for :data:`PENDING_SECONDS`); once it has succeeded the entry holds its answer
for :data:`KEPT_SECONDS`. An answer holds secrets (a seat's token, an organizer's), which
Redis otherwise keeps only as digests: it is kept encrypted (AES-GCM) under a key derived
from the idempotency key, and the entry is named by another digest of it, so a dump of
Redis without the client's key gives nothing away.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from packplay.server.storage import keys
from packplay.server.storage.pipeline import Pipeline

PENDING_SECONDS = 60
KEPT_SECONDS = 24 * 3600
_PENDING = b"pending"
_DONE = b"done"


@dataclass(frozen=True)
class Replay:
    """The answer the first request with this key got."""

    status: int
    body: bytes


class Busy:
    """A request with this key is under way."""


class Mismatch:
    """The key was used for another request (another body)."""


Claim = Replay | Busy | Mismatch | None
"""What a key holds: None means the request is this one's to make."""


class RequestStore:
    """One per process, over the process's pipeline."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline

    async def claim(self, client: str, route: str, key: str, body: bytes) -> Claim:
        """Take ``key`` for this request, or what it holds already."""
        name = _name(client, route, key)
        if await self.pipeline.call("SET", name, _PENDING, "NX", "EX", PENDING_SECONDS, durable=True):
            return None
        held: bytes | None = await self.pipeline.call("GET", name)
        if held is None or held == _PENDING:
            return Busy()
        fingerprint, sealed = held[len(_DONE) : len(_DONE) + 32], held[len(_DONE) + 32 :]
        if fingerprint != _fingerprint(body):
            return Mismatch()
        opened = AESGCM(_secret(key)).decrypt(sealed[:12], sealed[12:], None)
        return Replay(int.from_bytes(opened[:2]), opened[2:])

    async def keep(self, client: str, route: str, key: str, body: bytes, status: int, answer: bytes) -> None:
        """Keep the answer of the request that took ``key``."""
        nonce = os.urandom(12)
        sealed = nonce + AESGCM(_secret(key)).encrypt(nonce, status.to_bytes(2) + answer, None)
        value = _DONE + _fingerprint(body) + sealed
        await self.pipeline.call("SET", _name(client, route, key), value, "EX", KEPT_SECONDS, durable=True)

    async def release(self, client: str, route: str, key: str) -> None:
        """Let ``key`` go (the request failed): the next one with it is made again."""
        await self.pipeline.call("DEL", _name(client, route, key), durable=True)


def _name(client: str, route: str, key: str) -> str:
    return keys.client_request(client, hashlib.sha256(f"name\0{client}\0{route}\0{key}".encode()).hexdigest())


def _secret(key: str) -> bytes:
    return hashlib.sha256(f"secret\0{key}".encode()).digest()


def _fingerprint(body: bytes) -> bytes:
    return hashlib.sha256(body).digest()
