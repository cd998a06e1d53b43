"""What every worker, scheduler and sweeper process does first: logging, its metrics
endpoint, and (under ``spitlog dev``) to end with its parent."""

import os
import signal
import sys
import threading

from service import logs, telemetry
from service.config import Settings


def _die_with_parent(parent: int | None) -> None:
    """Under ``spitlog dev`` (``parent``): stop when it ends, even by SIGKILL (Linux's
    parent-death signal), instead of living on against its gone Redis."""
    if not parent:
        return
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it ended before we could ask
        sys.exit(0)


def prepare(s: Settings, *, metrics_port: int | None = None, parent: int | None = None) -> None:
    """Set up this process: end with ``parent`` (default: ``s.parent_pid``), log at
    ``s.worker_log_level``, serve metrics on ``metrics_port`` (default: ``s.metrics_port``;
    0: none)."""
    _die_with_parent(s.parent_pid if parent is None else parent)
    logs.configure(s.worker_log_level, s.log_format)
    telemetry.setup("spitlog-workers")
    port = s.metrics_port if metrics_port is None else metrics_port
    if port > 0:
        from prometheus_client import start_http_server

        start_http_server(port)


def stop_on_signals(stop: threading.Event, *wake: threading.Event) -> None:
    """SIGTERM and SIGINT set ``stop`` (and ``wake``, to cut a wait short): the process
    finishes what it does, then ends."""

    def on_signal(_signum, _frame):
        stop.set()
        for event in wake:
            event.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
