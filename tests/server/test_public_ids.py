"""Ids handed to clients read as arguments on a command line, never as options."""

from __future__ import annotations

import re

from packplay.server.play.ids import new_id


def test_ids_are_url_safe_and_begin_with_a_letter_or_digit() -> None:
    # A draw begins with "-" or "_" one time in 32: 4,000 draws meet that case about 125 times.
    drawn = [new_id(9) for _ in range(4_000)]
    assert all(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{11}", one) for one in drawn)
    assert any("-" in one or "_" in one for one in drawn)
    assert len(set(drawn)) == len(drawn)


def test_the_length_follows_the_bytes_drawn() -> None:
    assert {len(new_id(12)) for _ in range(200)} == {16}
