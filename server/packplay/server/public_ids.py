"""Ids handed to clients (games, tournaments, invite codes): URL-safe, and never starting
with a dash or an underscore.

A leading dash would make an id read as an option on a command line (``packplay tournament
watch URL -x7...``), so such draws are drawn again; the alphabet and length stay those of
``secrets.token_urlsafe``.
"""

from __future__ import annotations

import secrets


def new_id(nbytes: int) -> str:
    """A random URL-safe text from ``nbytes`` random bytes, beginning with a letter or digit."""
    while True:
        drawn = secrets.token_urlsafe(nbytes)
        if drawn[0].isalnum():
            return drawn
