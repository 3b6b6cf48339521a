"""Settings from the environment and the command line; the private Redis lifecycle."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
import redis

from packplay.server.embedded_redis import EmbeddedRedis, EmbeddedRedisError
from packplay.server.main import private_dir, settings_from
from packplay.server.runtime import Runtime
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


def test_deadlines_and_the_private_servers_directory_are_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    env = {
        "PACKPLAY_HEADER_TIMEOUT": "2.5",
        "PACKPLAY_KEEP_ALIVE_TIMEOUT": "75",
        "PACKPLAY_HELLO_TIMEOUT": "4",
        "PACKPLAY_PING_INTERVAL": "7.5",
    }
    settings = Settings.from_env(env)
    assert (settings.header_timeout, settings.keep_alive_timeout) == (2.5, 75)
    limits = Runtime(settings).limits
    assert limits.hello_timeout_seconds == 4, "welcome announces the hello deadline"
    assert limits.ping_interval_seconds == 7.5, "and how often a client must say something"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert private_dir(Settings()) == tmp_path / "packplay" / "redis"
    assert private_dir(Settings(redis_dir="/srv/games")) == Path("/srv/games")
    assert private_dir(Settings(redis_dir="/srv/games", in_memory=True)) is None


def test_one_data_directory_has_one_private_server(tmp_path: Path) -> None:
    with EmbeddedRedis(data_dir=tmp_path) as first:
        with pytest.raises(EmbeddedRedisError, match="another server uses"):
            EmbeddedRedis(data_dir=tmp_path).start()
        client = redis.Redis.from_url(first.url)
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        client.close()
