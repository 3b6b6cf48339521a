"""Prometheus metrics of one process (each process is scraped on its own)."""

from __future__ import annotations

import gc
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Metrics:
    """One registry per app, so several apps can live in one test process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._action_counters: dict[tuple[str, str], Any] = {}
        self.connections = Gauge(
            "packplay_ws_connections", "Open WebSocket connections", registry=self.registry
        )
        self.watched_games = Gauge(
            "packplay_watched_games", "Games with a local connection", registry=self.registry
        )
        self.actions = Counter(
            "packplay_actions_total", "Actions answered, by game and outcome", ["game", "outcome"],
            registry=self.registry,
        )  # fmt: skip
        self.action_seconds = Histogram(
            "packplay_action_seconds", "Time to answer an action (rules, compare-and-set, updates)",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0),
            registry=self.registry,
        )  # fmt: skip
        self.messages_sent = Counter(
            "packplay_ws_messages_sent_total", "Messages queued to clients", registry=self.registry
        )
        self.slow_clients = Counter(
            "packplay_ws_slow_client_closes_total", "Connections closed for a full send queue",
            registry=self.registry,
        )  # fmt: skip
        self.games_created = Counter(
            "packplay_games_created_total", "Games created", ["game"], registry=self.registry
        )
        self.redis_batches = Counter(
            "packplay_redis_batches_total", "Batches of commands sent to Redis (one round trip each)",
            registry=self.registry,
        )  # fmt: skip
        self.redis_commands = Counter(
            "packplay_redis_commands_total", "Commands sent to Redis", registry=self.registry
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
        """One answered action (its labelled counter looked up once per game and outcome)."""
        counter = self._action_counters.get((game, outcome))
        if counter is None:
            counter = self._action_counters[(game, outcome)] = self.actions.labels(game, outcome)
        counter.inc()
        self.action_seconds.observe(seconds)

    def batch_sent(self, commands: int) -> None:
        self.redis_batches.inc()
        self.redis_commands.inc(commands)
