"""Fixtures of the deployment tests: a private Redis-compatible server for the few that run one."""

from __future__ import annotations

from support_servers import redis_server

__all__ = ["redis_server"]
