"""The write batch: frames of one event-loop turn are written at its end, each connection once."""

from __future__ import annotations

import asyncio

from packplay.server.ws.send_queue import WriteBatch


class Recorder:
    def __init__(self, name: str, log: list[str]) -> None:
        self.name = name
        self.log = log

    def flush(self) -> None:
        self.log.append(self.name)


async def test_connections_held_in_a_turn_are_flushed_once_each_at_its_end_in_order() -> None:
    log: list[str] = []
    batch = WriteBatch()
    first, second = Recorder("first", log), Recorder("second", log)
    batch.hold(first)
    batch.hold(second)
    assert log == [], "nothing is written before the turn ends"
    await asyncio.sleep(0)
    assert log == ["first", "second"]
    batch.hold(second)
    await asyncio.sleep(0)
    assert log == ["first", "second", "second"], "held again after its flush: flushed again"


async def test_a_connection_held_while_the_batch_flushes_waits_for_the_next_turn() -> None:
    log: list[str] = []
    batch = WriteBatch()

    class Again(Recorder):
        def flush(self) -> None:
            super().flush()
            if len(log) == 1:
                batch.hold(self)  # what a flush makes (its send finished a close, say) goes next turn

    batch.hold(Again("again", log))
    await asyncio.sleep(0)
    assert log == ["again"]
    await asyncio.sleep(0)
    assert log == ["again", "again"]


async def test_a_connection_whose_write_fails_holds_back_no_other() -> None:
    log: list[str] = []
    batch = WriteBatch()

    class Broken(Recorder):
        def flush(self) -> None:
            raise RuntimeError("the socket is gone")

    batch.hold(Recorder("first", log))
    batch.hold(Broken("broken", log))
    batch.hold(Recorder("last", log))
    await asyncio.sleep(0)
    assert log == ["first", "last"]
