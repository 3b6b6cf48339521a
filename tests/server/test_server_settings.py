"""Settings from the environment and the command line; the private Redis lifecycle."""

from __future__ import annotations

import argparse

import pytest
import redis

from packplay.server.embedded_redis import EmbeddedRedis
from packplay.server.main import settings_from
from packplay.server.settings import SETTINGS_ENV, Settings


def test_environment_variables_fill_typed_fields() -> None:
    env = {
        "PACKPLAY_PORT": "9000",
        "PACKPLAY_SANDBOX": "true",
        "PACKPLAY_CORS_ORIGINS": "https://a.example, https://b.example",
        "PACKPLAY_CLOCK_INTERVAL": "0.5",
        "REDIS_URL": "redis://cache:6379/0",
    }
    settings = Settings.from_env(env)
    assert (settings.port, settings.sandbox, settings.clock_interval) == (9000, True, 0.5)
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.redis_url == "redis://cache:6379/0"


def test_workers_inherit_the_parents_settings_whole() -> None:
    parent = Settings(port=1234, ws_origins=("https://x.example",), redis_url="redis://r:1/0")
    assert Settings.from_env({SETTINGS_ENV: parent.to_json(), "PACKPLAY_PORT": "1"}) == parent


def test_command_line_options_override_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PACKPLAY_PORT", "9000")
    monkeypatch.setenv("PACKPLAY_LOG_FORMAT", "json")
    options = argparse.Namespace(
        host=None, port=8100, workers=None, redis_url=None, sandbox=None, log_format=None
    )
    settings = settings_from(options)
    assert (settings.port, settings.log_format, settings.workers) == (8100, "json", 1)


def test_the_private_server_answers_then_is_gone() -> None:
    server = EmbeddedRedis().start()
    client = redis.Redis.from_url(server.url, socket_connect_timeout=0.5)
    assert client.ping()
    server.stop()
    with pytest.raises(redis.ConnectionError):
        client.ping()
    client.close()
