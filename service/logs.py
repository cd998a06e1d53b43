"""Structured logs: every process logs one JSON object a line (``SPITLOG_LOG_FORMAT``,
python-json-logger), and every line carries the context of what the process is doing:
a request's ``request_id``, ``method``, ``route``, ``game`` (and ``seat`` once known); a
job's ``task``, ``game``, ``slot``; the trace it belongs to (``trace_id``), when tracing
is on (``service.telemetry``).

The context lives in a ``contextvars`` variable (``bind``), so it follows a request
through gevent greenlets and threads alike and costs nothing to the lines not written.
No log line carries a request's or an answer's body: a card a player may not see never
reaches a log (tests/security/test_canary.py reads every line of whole games).
"""

import contextvars
import datetime
import logging
import sys

from pythonjsonlogger.json import JsonFormatter

_EMPTY: dict = {}  # never changed: ``bind`` makes a new dict
_CONTEXT: contextvars.ContextVar[dict] = contextvars.ContextVar("spitlog_log", default=_EMPTY)  # noqa: B039
FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"


def bind(**fields) -> contextvars.Token:
    """Add ``fields`` to the context of every line logged from here on (``reset`` ends it)."""
    return _CONTEXT.set({**_CONTEXT.get(), **{k: v for k, v in fields.items() if v is not None}})


def reset(token: contextvars.Token) -> None:
    _CONTEXT.reset(token)


class ContextFilter(logging.Filter):
    """Puts the bound context (and the current trace's id) on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for k, v in _CONTEXT.get().items():
            if not hasattr(record, k):
                setattr(record, k, v)
        from . import telemetry

        trace_id = telemetry.trace_id()
        if trace_id is not None and not hasattr(record, "trace_id"):
            record.trace_id = trace_id
        return True


def iso_time(record: logging.LogRecord) -> str:
    """A record's time in ISO 8601, in UTC, to the millisecond: 2026-12-02T11:40:05.123Z."""
    at = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class JsonLines(JsonFormatter):
    """One JSON object a line, its ``time`` in ISO 8601 (``iso_time``)."""

    def __init__(self, *args, **kw):
        kw.setdefault("rename_fields", {"levelname": "level", "asctime": "time"})
        super().__init__(*args, **kw)

    def formatTime(self, record, datefmt=None) -> str:  # noqa: N802 - logging's name
        return iso_time(record)


class TextLines(logging.Formatter):
    """The text lines, their time in ISO 8601 (``iso_time``)."""

    def formatTime(self, record, datefmt=None) -> str:  # noqa: N802 - logging's name
        return iso_time(record)


def formatter(fmt: str) -> logging.Formatter:
    return JsonLines(FIELDS) if fmt == "json" else TextLines(FIELDS)


def configure(level: str = "INFO", fmt: str = "json", stream=None) -> None:
    """Log to ``stream`` (stderr) at ``level``, as ``fmt`` ("json" or "text"), with the
    context on every line; replaces the root logger's handlers."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter(fmt))
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


def gunicorn_config(level: str, fmt: str) -> dict:
    """gunicorn's ``logconfig_dict``: its own lines (and the app's) in the same format."""
    formatter_ = {"()": f"service.logs.{'JsonLines' if fmt == 'json' else 'TextLines'}",
                  "fmt": FIELDS}  # fmt: skip
    handler = {"class": "logging.StreamHandler", "formatter": "main", "filters": ["context"],
               "stream": "ext://sys.stderr"}  # fmt: skip
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "service.logs.ContextFilter"}},
        "formatters": {"main": formatter_},
        "handlers": {"main": handler},
        "root": {"level": level.upper(), "handlers": ["main"]},
        "loggers": {
            "gunicorn.error": {"level": level.upper(), "handlers": ["main"], "propagate": False},
        },
    }
