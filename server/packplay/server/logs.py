"""Log output of the server: readable text for a terminal, one JSON object a line for collectors."""

from __future__ import annotations

import json
import logging
from typing import Any

from packplay.server.settings import LogFormat

_STANDARD = set(vars(logging.makeLogRecord({})))


class JsonFormatter(logging.Formatter):
    """time, level, logger, message, any ``extra`` fields, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD and k != "color_message"})
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def logging_config(log_format: LogFormat, level: str = "info") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the app and uvicorn alike."""
    formatter: dict[str, Any]
    if log_format == "json":
        formatter = {"()": f"{__name__}.JsonFormatter"}
    else:
        formatter = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    handler = {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stderr"}
    loggers = {name: {"handlers": ["default"], "level": level.upper(), "propagate": False}
               for name in ("packplay", "uvicorn", "uvicorn.error", "uvicorn.access")}  # fmt: skip
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {"default": handler},
        "loggers": loggers,
    }
