"""The light parts the WebSocket protocol holds per connection instead of uvicorn's: the
inbox of received messages, the writable flag (pure asyncio, no sockets) and framing."""

from __future__ import annotations

import asyncio

import pytest
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from packplay.server.uvicorn_protocols import Flag, Inbox, framing, plain_frame


async def test_the_inbox_hands_messages_over_in_order_and_wakes_its_reader() -> None:
    inbox: Inbox[str] = Inbox()
    assert inbox.empty()
    reading = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    assert not reading.done()
    inbox.put_nowait("first")
    inbox.put_nowait("second")
    assert await asyncio.wait_for(reading, 1) == "first"
    assert inbox.qsize() == 1 and not inbox.empty()
    assert await inbox.get() == "second"
    assert inbox.empty()


async def test_a_reader_cancelled_while_waiting_leaves_the_inbox_usable() -> None:
    inbox: Inbox[int] = Inbox()
    reading = asyncio.create_task(inbox.get())
    await asyncio.sleep(0)
    reading.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reading
    inbox.put_nowait(7)
    assert await asyncio.wait_for(inbox.get(), 1) == 7


async def test_the_flag_lets_waiters_go_when_set_and_holds_them_once_cleared() -> None:
    flag = Flag()
    assert not flag.is_set()
    waiters = [asyncio.create_task(flag.wait()) for _ in range(3)]
    await asyncio.sleep(0)
    assert not any(waiter.done() for waiter in waiters)
    flag.set()
    assert await asyncio.wait_for(asyncio.gather(*waiters), 1) == [True, True, True]
    assert await flag.wait()  # set: no wait at all
    flag.clear()
    late = asyncio.create_task(flag.wait())
    await asyncio.sleep(0.01)
    assert not late.done()
    late.cancel()
    with pytest.raises(asyncio.CancelledError):
        await late
    flag.set()
    assert flag.is_set()


def test_connections_frame_alike_unless_their_compression_keeps_a_context() -> None:
    """Framings are equal exactly when the same message makes the same bytes on the wire."""

    def deflate(keep: bool, bits: int = 12) -> PerMessageDeflate:
        return PerMessageDeflate(keep is False, keep is False, bits, bits, {"level": 1, "memLevel": 5})

    assert framing([]) == framing([]) == ()
    assert framing([deflate(False)]) == framing([deflate(False)]) != framing([])
    assert framing([deflate(False, 12)]) != framing([deflate(False, 13)])
    assert framing([deflate(True)]) is None
    update = (
        b'{"type": "update", "patch": ['
        + b'{"op": "replace", "path": "/view/round", "value": 3},' * 40
        + b"]}"
    )
    made = [Frame(Opcode.TEXT, update).serialize(mask=False, extensions=[deflate(False)]) for _ in range(2)]
    assert made[0] == made[1] and len(made[0]) < len(update) / 4


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
@pytest.mark.parametrize("text", [True, False])
def test_a_plain_frame_is_what_websockets_makes(size: int, text: bool) -> None:
    message = bytes(index % 251 for index in range(size))
    opcode = Opcode.TEXT if text else Opcode.BINARY
    assert plain_frame(message, text) == Frame(opcode, message).serialize(mask=False, extensions=[])
