"""Fixtures of the load-balancer tests: a private Redis-compatible server per test session."""

from __future__ import annotations

from support_servers import redis_server

__all__ = ["redis_server"]
