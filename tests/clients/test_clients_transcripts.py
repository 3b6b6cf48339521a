"""The protocol guide's transcripts: current, and written between their markers only."""

from __future__ import annotations

import pytest
from support_servers import ServerProcess as Server

from transcripts import BEGIN, END, GAMES, GUIDE, record_game, render, section, with_section


async def test_the_guides_transcripts_are_current(server: Server) -> None:
    recordings = {game: await record_game(server.url, game, seed) for game, seed in GAMES}
    rendered = render(recordings)
    guide = section(GUIDE.read_text(encoding="utf-8"))
    assert rendered.strip("\n") == guide, "run: python protocol/tools/generate.py"
    for kind in ("hello", "welcome", "join", "view", "act", "update", "game_over"):
        assert f'"type": "{kind}"' in rendered


def test_the_section_is_replaced_between_the_markers_only() -> None:
    guide = f"# Guide\n\nbefore\n\n{BEGIN}\nold\n{END}\n\nafter\n"
    written = with_section(guide, "new\nlines\n")
    assert written == f"# Guide\n\nbefore\n\n{BEGIN}\nnew\nlines\n{END}\n\nafter\n"
    assert section(written) == "new\nlines"
    with pytest.raises(ValueError, match="markers"):
        section("# a guide without markers\n")
