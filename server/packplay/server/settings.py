"""How one server process is configured: from the environment, overridden by the command line."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

LogFormat = Literal["text", "json"]

ENV_PREFIX = "PACKPLAY_"
SETTINGS_ENV = "PACKPLAY_SETTINGS_JSON"
"""Carries the whole settings of the parent to each worker process (uvicorn --workers)."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Every knob of the server. Durations are in seconds, sizes in bytes or messages."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    redis_url: str | None = None
    redis_connections: int = 64
    """Redis connections per process (pub/sub takes one); requests beyond wait for one."""
    sandbox: bool = False
    log_format: LogFormat = "text"
    log_level: str = "info"
    cors_origins: tuple[str, ...] = ()
    ws_origins: tuple[str, ...] = ()
    """Allowed ``Origin`` headers of WebSocket handshakes; empty allows any (native clients)."""
    finished_ttl: int = 24 * 3600
    lobby_ttl: int = 30 * 60
    active_ttl: int = 7 * 24 * 3600
    """How long a started game survives without any action."""
    send_queue: int = 256
    actions_per_second: float = 10.0
    """Sustained actions per connection (bursts of 20 pass)."""
    frame_limit: int = 64 * 1024
    ws_deflate: bool = True
    """Compress WebSocket frames (permessage-deflate): views shrink ~10x for ~10% more CPU."""
    clock_interval: float = 1.0
    """How often each process looks for expired turn clocks."""
    server_name: str = "packplay"

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with the given fields replaced; None values are ignored."""
        return dataclasses.replace(self, **{k: v for k, v in overrides.items() if v is not None})

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Settings:
        return cls(**_coerce(json.loads(text)))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``PACKPLAY_<FIELD>`` variables (and ``REDIS_URL``).

        A worker started by :func:`packplay.server.main.serve` inherits the parent's
        settings whole through ``PACKPLAY_SETTINGS_JSON``.
        """
        env = os.environ if environ is None else environ
        if SETTINGS_ENV in env:
            return cls.from_json(env[SETTINGS_ENV])
        raw: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            value = env.get(ENV_PREFIX + f.name.upper())
            if value is not None:
                raw[f.name] = _parse(f.type, value)
        if "redis_url" not in raw and env.get("REDIS_URL"):
            raw["redis_url"] = env["REDIS_URL"]
        return cls(**raw)


def _parse(kind: Any, value: str) -> Any:
    kind = str(kind)
    if kind == "int":
        return int(value)
    if kind == "float":
        return float(value)
    if kind == "bool":
        return value.strip().lower() in {"1", "true", "yes", "on"}
    if kind.startswith("tuple"):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value


def _coerce(raw: dict[str, Any]) -> dict[str, Any]:
    """JSON gives lists where the dataclass holds tuples."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()}


__all__ = ["ENV_PREFIX", "SETTINGS_ENV", "LogFormat", "Settings"]
