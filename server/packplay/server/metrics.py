"""Prometheus metrics of one process (each process is scraped on its own)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Metrics:
    """One registry per app, so several apps can live in one test process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.connections = Gauge(
            "packplay_ws_connections", "Open WebSocket connections", registry=self.registry
        )
        self.watched_games = Gauge(
            "packplay_watched_games", "Games with a local watcher (pub/sub channels)", registry=self.registry
        )
        self.actions = Counter(
            "packplay_actions_total", "Actions answered, by game and outcome", ["game", "outcome"],
            registry=self.registry,
        )  # fmt: skip
        self.action_seconds = Histogram(
            "packplay_action_seconds", "Time to answer an action (load, rules, compare-and-set)",
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
        self.clock_timeouts = Counter(
            "packplay_clock_timeouts_total", "Actions played for seats whose clock ran out",
            registry=self.registry,
        )  # fmt: skip

    def render(self) -> bytes:
        return generate_latest(self.registry)
