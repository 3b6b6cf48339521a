"""Prometheus metrics of one process (each process is scraped on its own).

What is counted on every move (actions, their times, messages sent, Redis batches) is
kept in plain numbers and read when the metrics are scraped (:class:`Tallies`): a
``prometheus_client`` counter takes a lock at every increment, several a move. Messages
and Redis batches are counted where they happen (the WebSocket tier's write batch, the
storage pipeline) and read from there.
"""

from __future__ import annotations

import bisect
import gc
import time
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


ACTION_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0)


class Tallies(Collector):
    """The counts of the hot path, as plain numbers (one event loop updates them)."""

    def __init__(self) -> None:
        self.actions: dict[tuple[str, str], int] = {}
        self.action_buckets = [0] * (len(ACTION_BUCKETS) + 1)
        """Actions answered within each bucket's bound (the last: beyond them all)."""
        self.action_seconds = 0.0
        self.messages: Callable[[], int] = lambda: 0
        """Messages queued to clients so far (the WebSocket tier counts them)."""
        self.redis: Callable[[], tuple[int, int]] = lambda: (0, 0)
        """Batches and commands sent to Redis so far (the storage pipeline counts them)."""
        self.tournament_pushes: Callable[[], tuple[int, float]] = lambda: (0, 0.0)
        """Pushes of a tournament's round and standings to its watchers so far, and the CPU
        seconds they took (the tournament feeds count them)."""

    def collect(self) -> Iterator[Metric]:
        actions = CounterMetricFamily(
            "packplay_actions", "Actions answered, by game and outcome", labels=["game", "outcome"]
        )
        for (game, outcome), count in sorted(self.actions.items()):
            actions.add_metric([game, outcome], count)
        yield actions
        cumulative, buckets = 0, []
        for bound, count in zip((*map(str, ACTION_BUCKETS), "+Inf"), self.action_buckets, strict=True):
            cumulative += count
            buckets.append((bound, cumulative))
        yield HistogramMetricFamily(
            "packplay_action_seconds",
            "Time to answer an action (rules, compare-and-set, updates)",
            buckets=buckets,
            sum_value=self.action_seconds,
        )
        yield CounterMetricFamily(
            "packplay_ws_messages_sent", "Messages queued to clients", value=self.messages()
        )
        batches, commands = self.redis()
        yield CounterMetricFamily(
            "packplay_redis_batches", "Batches of commands sent to Redis (one round trip each)", value=batches
        )
        yield CounterMetricFamily("packplay_redis_commands", "Commands sent to Redis", value=commands)
        pushes, push_seconds = self.tournament_pushes()
        yield CounterMetricFamily(
            "packplay_tournament_pushes",
            "Pushes of a tournament's round and standings to its watchers (each to all of them)",
            value=pushes,
        )
        yield CounterMetricFamily(
            "packplay_tournament_push_cpu_seconds",
            "CPU seconds spent making and queuing those pushes",
            value=push_seconds,
        )


class Metrics:
    """One registry per app, so several apps can live in one test process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tallies = Tallies()
        self.registry.register(self.tallies)
        self.connections = Gauge(
            "packplay_ws_connections", "Open WebSocket connections", registry=self.registry
        )
        self.watched_games = Gauge(
            "packplay_watched_games", "Games with a local connection", registry=self.registry
        )
        self.slow_clients = Counter(
            "packplay_ws_slow_client_closes_total", "Connections closed for a full send queue",
            registry=self.registry,
        )  # fmt: skip
        self.games_created = Counter(
            "packplay_games_created_total", "Games created", ["game"], registry=self.registry
        )
        self.limited = Counter(
            "packplay_limited_total",
            "Requests a limit per client address held back: refused (connections, spectators,"
            " spectators_per_game, house_games), answered without their events (catch_ups) or"
            " delayed (house_moves)",
            ["limit"],
            registry=self.registry,
        )
        self.clock_timeouts = Counter(
            "packplay_clock_timeouts_total", "Actions played for seats whose clock ran out",
            registry=self.registry,
        )  # fmt: skip

        self.gc_pauses = Histogram(
            "packplay_gc_pause_seconds",
            "Pauses of Python's cyclic garbage collector, by generation collected (2: a full"
            " collection); the event loop serves nobody meanwhile",
            ["generation"],
            buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.gc_cpu = Counter(
            "packplay_gc_cpu_seconds",
            "CPU time of this process's thread spent in the garbage collector's pauses (a pause"
            " also lasts while the core runs another process: this is what the collections cost)",
            registry=self.registry,
        )
        self._gc_generations = [self.gc_pauses.labels(str(generation)) for generation in range(3)]
        self._gc_began = 0.0
        self._gc_cpu_began = 0.0

    def time_gc(self) -> None:
        """Time every collection of this process from now on (until :meth:`stop_timing_gc`)."""
        gc.callbacks.append(self._gc_pause)

    def stop_timing_gc(self) -> None:
        if self._gc_pause in gc.callbacks:
            gc.callbacks.remove(self._gc_pause)

    def _gc_pause(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
            self._gc_cpu_began = time.thread_time()
        else:
            self._gc_generations[info["generation"]].observe(time.perf_counter() - self._gc_began)
            self.gc_cpu.inc(time.thread_time() - self._gc_cpu_began)

    def render(self) -> bytes:
        return generate_latest(self.registry)

    def action_answered(self, game: str, outcome: str, seconds: float) -> None:
        tallies, key = self.tallies, (game, outcome)
        tallies.actions[key] = tallies.actions.get(key, 0) + 1
        tallies.action_buckets[bisect.bisect_left(ACTION_BUCKETS, seconds)] += 1
        tallies.action_seconds += seconds
