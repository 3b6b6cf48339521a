"""deploy/compose.yaml against the official Compose Specification schema, and what it
promises: a persistent store (checked on a real Valkey with the same arguments), one
image built once for every replica, a load balancer in front."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import redis
from deploy_files import COMPOSE, DEPLOY, HAPROXY_CFG, load_yaml, valkey

from packplay.server.runtime import DRAIN_TIMEOUT
from packplay.server.settings import ENV_PREFIX, Settings

SCHEMA = Path(__file__).parent / "data" / "compose-spec.json"
VARIABLE = re.compile(r"\$\{(\w+)(?::?-([^}]*))?\}")


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = load_yaml(COMPOSE)
    return loaded


def interpolated(value: Any) -> Any:
    """Compose's interpolation with every variable unset: ${NAME:-default} becomes default."""
    if isinstance(value, str):
        return VARIABLE.sub(lambda m: m.group(2) or "", value)
    if isinstance(value, dict):
        return {k: interpolated(v) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolated(v) for v in value]
    return value


def test_the_compose_file_follows_the_compose_specification() -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    for document in (compose(), interpolated(compose())):
        errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(document)]
        assert errors == []


def test_the_schema_check_catches_a_misspelt_key() -> None:
    broken = compose()
    broken["services"]["app"]["enviroment"] = broken["services"]["app"].pop("environment")
    assert not jsonschema.Draft7Validator(json.loads(SCHEMA.read_text())).is_valid(broken)


def test_one_image_is_built_once_and_run_as_several_replicas() -> None:
    services = compose()["services"]
    built = [name for name, service in services.items() if "build" in service]
    assert built == ["app"]
    app = services["app"]
    assert interpolated(app["image"]) == "packplay:local"
    assert app["build"] == {"context": "..", "dockerfile": "deploy/Dockerfile"}
    assert (COMPOSE.parent / app["build"]["context"] / app["build"]["dockerfile"]).is_file()
    assert app["deploy"]["replicas"] >= 2
    assert "ports" not in app, "the processes are reached through the load balancer only"


def test_the_servers_share_the_compose_redis_and_their_settings_parse() -> None:
    services = compose()["services"]
    environment = services["app"]["environment"]
    settings = Settings.from_env(environment)
    assert settings.redis_url == "redis://redis:6379/0"
    assert settings.log_format == "json"
    assert all(
        key in ("REDIS_URL", "FORWARDED_ALLOW_IPS") or key.startswith(ENV_PREFIX) for key in environment
    )
    assert services["app"]["depends_on"]["redis"]["condition"] == "service_healthy"


def test_the_load_balancer_mounts_the_checked_haproxy_config_and_publishes_the_port() -> None:
    lb = compose()["services"]["lb"]
    (mount,) = lb["volumes"]
    source, target, mode = mount.split(":")
    assert (DEPLOY / source).resolve() == HAPROXY_CFG.resolve()
    assert target == "/usr/local/etc/haproxy/haproxy.cfg" and mode == "ro"
    assert lb["image"].startswith("haproxy:")
    assert "8000:8000" in lb["ports"]


def test_the_haproxy_config_balances_every_replica_with_websocket_timeouts() -> None:
    config = "\n".join(
        line for line in HAPROXY_CFG.read_text().splitlines() if not line.lstrip().startswith("#")
    )
    assert re.search(r"^\s*server-template app- 1-\d+ app:8000\s*$", config, re.MULTILINE)
    assert re.search(r"^\s*timeout tunnel 1h$", config, re.MULTILINE)
    assert re.search(r"^\s*http-check send meth GET uri /v2/ready$", config, re.MULTILINE)
    assert re.search(r"^\s*balance leastconn$", config, re.MULTILINE)
    assert "stick" not in config and "cookie" not in config


def test_the_stop_grace_period_outlasts_the_servers_drain() -> None:
    grace = compose()["services"]["app"]["stop_grace_period"]
    # The drain delay, the wait for the connections' answers and closes, then uvicorn's
    # 10 s for requests in flight.
    needed = Settings().drain_delay + DRAIN_TIMEOUT + 10
    assert grace.endswith("s") and int(grace[:-1]) >= needed


@pytest.fixture
def compose_valkey() -> Iterator[tuple[redis.Redis, Path]]:
    """The embedded Valkey run with the compose file's own arguments."""
    command = compose()["services"]["redis"]["command"]
    assert command[0] == "valkey-server"
    with valkey(*command[1:]) as started:
        yield started


def test_the_compose_redis_keeps_an_append_only_file_on_its_volume(
    compose_valkey: tuple[redis.Redis, Path],
) -> None:
    client, data = compose_valkey
    assert client.config_get("appendonly") == {"appendonly": "yes"}
    assert client.config_get("appendfsync") == {"appendfsync": "everysec"}
    assert client.config_get("maxmemory-policy") == {"maxmemory-policy": "noeviction"}
    client.set("probe", "1")
    assert any(data.rglob("*.aof")), "no append-only file written"
    redis_service = compose()["services"]["redis"]
    (volume,) = redis_service["volumes"]
    name, path = volume.split(":")
    assert path == "/data" and name in compose()["volumes"]
