"""Ids and secrets handed to clients: game, tournament and player ids, invite codes, tokens.

Ids are URL-safe and never start with a dash or an underscore: a leading dash would make
an id read as an option on a command line (``packplay tournament watch URL -x7...``), so
such draws are drawn again; the alphabet and length stay those of ``secrets.token_urlsafe``.
Secrets are stored only as their digest.
"""

from __future__ import annotations

import hashlib
import secrets


def new_id(nbytes: int) -> str:
    """A random URL-safe text from ``nbytes`` random bytes, beginning with a letter or digit."""
    while True:
        drawn = secrets.token_urlsafe(nbytes)
        if drawn[0].isalnum():
            return drawn


def new_token(game_id: str) -> str:
    """A player token: the game it is for, a dot, a secret (only its hash is stored)."""
    return f"{game_id}.{secrets.token_urlsafe(32)}"


def hash_token(token: str) -> str:
    """Tokens are stored only as this digest; a leaked dump gives no seat away."""
    return hashlib.sha256(token.encode()).hexdigest()
