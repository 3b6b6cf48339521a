"""Settings from the environment and the command line; the private Redis lifecycle."""

from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from packplay.server.main import private_dir, settings_from
from packplay.server.runtime import Runtime
from packplay.server.settings import SETTINGS_ENV, Settings, SettingsError
from packplay.server.storage.embedded import EmbeddedRedis, EmbeddedRedisError


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


def test_the_other_names_are_read_only_without_the_packplay_variable() -> None:
    others = {"REDIS_URL": "redis://other:6379/0", "FORWARDED_ALLOW_IPS": "10.0.0.0/8, 10.1.0.1"}
    settings = Settings.from_env(others)
    assert settings.redis_url == "redis://other:6379/0"
    assert settings.trusted_proxies == ("10.0.0.0/8", "10.1.0.1")
    mine = {**others, "PACKPLAY_REDIS_URL": "redis://mine:6379/0", "PACKPLAY_TRUSTED_PROXIES": ""}
    settings = Settings.from_env(mine)
    assert (settings.redis_url, settings.trusted_proxies) == ("redis://mine:6379/0", ())


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


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"PACKPLAY_PORT": "eighty"}, "PACKPLAY_PORT: expected a whole number, got 'eighty'"),
        ({"PACKPLAY_HOUSE_GRACE": "soon"}, "PACKPLAY_HOUSE_GRACE: expected a number, got 'soon'"),
        ({"PACKPLAY_PING_INTERVAL": "0"}, "PACKPLAY_PING_INTERVAL must be above 0"),
        ({"PACKPLAY_ACTIONS_PER_SECOND": "-1"}, "PACKPLAY_ACTIONS_PER_SECOND must be above 0"),
        ({"PACKPLAY_DRAIN_DELAY": "-2"}, "PACKPLAY_DRAIN_DELAY must be 0 or more"),
        ({"PACKPLAY_PORT": "70000"}, "PACKPLAY_PORT must be a port number"),
        ({"PACKPLAY_LOG_FORMAT": "xml"}, "PACKPLAY_LOG_FORMAT must be text or json"),
    ],
)
def test_a_setting_that_cannot_be_is_refused_by_name(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError, match=re.escape(says)):
        Settings.from_env(env)


def test_zero_turns_off_what_zero_may_turn_off() -> None:
    env = {"PACKPLAY_GAMES_PER_MINUTE": "0", "PACKPLAY_OPEN_LOBBIES": "0", "PACKPLAY_DRAIN_DELAY": "0"}
    settings = Settings.from_env(env)
    assert (settings.games_per_minute, settings.open_lobbies, settings.drain_delay) == (0, 0, 0)


def test_serve_with_a_bad_setting_says_which_and_exits_2() -> None:
    env = {"PATH": "/usr/bin:/bin", "PACKPLAY_PING_INTERVAL": "-1"}
    done = subprocess.run(
        [sys.executable, "-m", "packplay.cli", "serve"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "packplay: PACKPLAY_PING_INTERVAL must be above 0 (got -1.0)"


def test_every_numeric_setting_has_a_range() -> None:
    """A new number among the settings must say whether 0 is allowed."""
    from packplay.server import settings as module

    numbers = {f.name for f in dataclasses.fields(Settings) if f.type in ("int", "float")}
    ranged = set(module._POSITIVE) | set(module._NOT_NEGATIVE) | {"port"}
    assert numbers == ranged
    assert not set(module._POSITIVE) & set(module._NOT_NEGATIVE)
