"""Prometheus metrics of the API (``/metrics``). Each app has its own registry, so several
apps (tests) can live in one process.

Under gunicorn (``spitlog serve``) the processes share one view: prometheus_client's
multiprocess mode, on when ``PROMETHEUS_MULTIPROC_DIR`` is set in the environment before
prometheus_client is first imported (``spitlog serve`` sets a fresh directory). Each
process then writes its values to files there, ``/metrics`` sums every process's (dead
ones' counters included, so totals never go back), and the gauge of open streams counts
the live processes only (gunicorn's ``child_exit`` hook marks a dead one).
"""

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def multiprocess_dir() -> str | None:
    """The directory of the multiprocess mode, or None when each process counts alone."""
    return os.environ.get(MULTIPROC_ENV) or None


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "spitlog_http_requests",
            "HTTP requests answered",
            ["method", "route", "status"],
            registry=r,
        )
        self.latency = Histogram(
            "spitlog_http_request_duration_seconds",
            "Time to answer a request (streams: to start)",
            ["route"],
            registry=r,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
        )
        self.actions = Counter(
            "spitlog_actions", "Actions judged, by outcome", ["game", "outcome"], registry=r
        )
        self.append_retries = Counter(
            "spitlog_append_retries", "Re-decisions after a version clash", registry=r
        )
        self.sse_open = Gauge(
            "spitlog_sse_streams_open", "SSE streams open", registry=r, multiprocess_mode="livesum"
        )
        self.view_renders = Counter(
            "spitlog_view_renders",
            "Views rendered (each is shared by every read and stream of its game's version)",
            ["viewer"],
            registry=r,
        )
        self.live_open = Gauge(
            "spitlog_live_channels_open", "WebSocket seat channels open", registry=r,
            multiprocess_mode="livesum",
        )  # fmt: skip
        self.live_closed = Counter(
            "spitlog_live_channels_closed", "WebSocket seat channels closed, by the close code "
            "the server sent (none: the client closed first or vanished)", ["code"], registry=r,
        )  # fmt: skip
        self.live_frames_refused = Counter(
            "spitlog_live_frames_refused", "Frames a channel's client sent over its frame rate",
            registry=r,
        )  # fmt: skip
        self._children: dict = {}
        self.games_created = Counter("spitlog_games_created", "Games created", ["game"], registry=r)

    def answered(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count a request and time it (label lookups cached: this runs on every request)."""
        key = (method, route, status)
        pair = self._children.get(key)
        if pair is None:
            pair = self._children[key] = (
                self.requests.labels(method, route, str(status)),
                self.latency.labels(route),
            )
        pair[0].inc()
        pair[1].observe(seconds)

    def action(self, game: str, outcome: str) -> None:
        key = (game, outcome)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = self.actions.labels(game, outcome)
        child.inc()

    def exposition(self) -> tuple[bytes, str]:
        """The text ``/metrics`` answers, and its content type: this registry's, or in the
        multiprocess mode every process's, summed."""
        if multiprocess_dir() is None:
            return generate_latest(self.registry), CONTENT_TYPE_LATEST
        from prometheus_client.multiprocess import MultiProcessCollector

        everyone = CollectorRegistry()
        MultiProcessCollector(everyone)
        return generate_latest(everyone), CONTENT_TYPE_LATEST
