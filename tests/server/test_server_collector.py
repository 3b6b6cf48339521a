"""The garbage collector's policy: its thresholds, and a collection after many protocols let go."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from packplay.server.collector import MIDDLE_THRESHOLD, PROTOCOLS_PER_COLLECTION, YOUNG_THRESHOLD, Collector


@pytest.fixture
def thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)
    gc.unfreeze()


def _middle_collections() -> int:
    return int(gc.get_stats()[1]["collections"])


def test_tune_sets_the_young_and_middle_thresholds(thresholds: None) -> None:
    Collector().tune()
    assert gc.get_threshold()[:2] == (YOUNG_THRESHOLD, MIDDLE_THRESHOLD)
    assert gc.get_freeze_count() > 0, "what existed is kept out of later collections"


def test_every_thousand_protocols_let_go_collect_the_middle_generation(thresholds: None) -> None:
    gc.set_threshold(0)  # no collection but the ones asked for
    policy = Collector()
    before = _middle_collections()
    for _ in range(PROTOCOLS_PER_COLLECTION - 1):
        policy.protocol_let_go()
    assert _middle_collections() == before
    policy.protocol_let_go()
    assert _middle_collections() == before + 1
    for _ in range(PROTOCOLS_PER_COLLECTION):
        policy.protocol_let_go()
    assert _middle_collections() == before + 2


def test_a_closed_connections_cycles_are_freed_by_the_collection(thresholds: None) -> None:
    gc.set_threshold(0)
    policy = Collector()

    class Connection:
        pass

    for _ in range(PROTOCOLS_PER_COLLECTION):
        connection, peer = Connection(), Connection()
        connection.peer, peer.peer = peer, connection  # type: ignore[attr-defined]
        policy.protocol_let_go()
    del connection, peer
    left = sum(1 for o in gc.get_objects() if type(o) is Connection)
    assert left == 2, "only the last pair waits for the next collection"
