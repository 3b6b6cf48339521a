"""Fixtures of the load-balancer tests: a private Redis-compatible server per test session.

These tests run real HAProxy processes (Debian's ``haproxy`` on PATH): they carry the
``haproxy`` marker, left out of the default run, and run on their own with
``pytest -m haproxy`` (``.ci/run`` does, after installing the package when it is missing).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support_servers import redis_server

__all__ = ["redis_server"]
HERE = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(pytest.mark.haproxy)
