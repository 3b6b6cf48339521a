"""The process's metrics that need no server: the garbage collector's pauses, the hot path's counts."""

from __future__ import annotations

import gc

import pytest

from packplay.server.metrics import Metrics


def _pauses(metrics: Metrics, generation: int) -> float:
    labels = {"generation": str(generation)}
    return metrics.registry.get_sample_value("packplay_gc_pause_seconds_count", labels) or 0.0


def test_every_collection_is_timed_by_generation_while_timing_is_on() -> None:
    metrics = Metrics()
    metrics.time_gc()
    try:
        gc.collect(0)
        gc.collect(2)
        young, full = _pauses(metrics, 0), _pauses(metrics, 2)
        assert young >= 1 and full >= 1
        total = metrics.registry.get_sample_value("packplay_gc_pause_seconds_sum", {"generation": "2"})
        assert total is not None and total > 0
        cpu = metrics.registry.get_sample_value("packplay_gc_cpu_seconds_total")
        paused = sum(
            metrics.registry.get_sample_value("packplay_gc_pause_seconds_sum", {"generation": str(g)}) or 0.0
            for g in range(3)
        )
        assert cpu is not None and 0 < cpu <= paused + 0.001, "the CPU in collections, within their pauses"
    finally:
        metrics.stop_timing_gc()
    gc.collect(0)
    assert _pauses(metrics, 0) == young, "no longer timed once stopped"
    assert b'packplay_gc_pause_seconds_bucket{generation="2",le="2.5"}' in metrics.render()


def test_two_registries_time_collections_on_their_own() -> None:
    first, second = Metrics(), Metrics()
    first.time_gc()
    second.time_gc()
    try:
        gc.collect(1)
        assert _pauses(first, 1) >= 1 and _pauses(second, 1) >= 1
    finally:
        first.stop_timing_gc()
        second.stop_timing_gc()
    assert first._gc_pause not in gc.callbacks and second._gc_pause not in gc.callbacks


def test_the_hot_path_counts_are_read_when_scraped() -> None:
    """Actions, their times, messages and Redis batches are plain numbers, rendered as
    Prometheus counters and a histogram (cumulative buckets, ``le`` bounds included)."""
    metrics = Metrics()
    for seconds in (0.0004, 0.001, 0.3, 5.0):
        metrics.action_answered("day_night", "accepted", seconds)
    metrics.action_answered("base_race", "stale_version", 0.002)
    metrics.tallies.messages = lambda: 2  # the WebSocket tier's count
    metrics.tallies.redis = lambda: (1, 7)  # the pipeline's
    text = metrics.render().decode()
    samples = dict(line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))
    assert samples['packplay_actions_total{game="day_night",outcome="accepted"}'] == "4.0"
    assert samples['packplay_actions_total{game="base_race",outcome="stale_version"}'] == "1.0"
    assert samples['packplay_action_seconds_bucket{le="0.0005"}'] == "1.0"
    assert samples['packplay_action_seconds_bucket{le="0.001"}'] == "2.0", "a time on a bound counts in it"
    assert samples['packplay_action_seconds_bucket{le="0.002"}'] == "3.0"
    assert samples['packplay_action_seconds_bucket{le="1.0"}'] == "4.0"
    assert samples['packplay_action_seconds_bucket{le="+Inf"}'] == "5.0"
    assert float(samples["packplay_action_seconds_sum"]) == pytest.approx(5.3034)
    assert samples["packplay_ws_messages_sent_total"] == "2.0"
    assert samples["packplay_redis_batches_total"] == "1.0"
    assert samples["packplay_redis_commands_total"] == "7.0"
