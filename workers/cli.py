"""The entry points behind ``spitlog worker`` and ``spitlog scheduler`` (service/cli.py).

Both read the ``SPITLOG_*`` variables (``workers.settings``; README.md, *Workers*).
"""

import argparse
import logging
import os
import signal
import sys

from . import settings


def _die_with_parent() -> None:
    """Under ``spitlog dev`` (``SPITLOG_PARENT_PID``): stop when it ends, even by SIGKILL
    (Linux's parent-death signal), instead of living on against its gone Redis."""
    parent = os.environ.get("SPITLOG_PARENT_PID")
    if not parent:
        return
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != int(parent):  # it ended before we could ask
        sys.exit(0)


def _common(cfg: dict, *, child_of_dev: bool = True) -> None:
    if child_of_dev:
        _die_with_parent()
    logging.basicConfig(
        level=cfg["WORKER_LOG_LEVEL"].upper(),
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    port = int(cfg["METRICS_PORT"])
    if port > 0:
        from prometheus_client import start_http_server

        start_http_server(port)


def main(argv=None) -> int:
    """An RQ worker for the bots and the timeouts (spitlog worker)."""
    parser = argparse.ArgumentParser(prog="spitlog worker", description=main.__doc__)
    parser.add_argument("--burst", action="store_true", help="quit once the queue is empty")
    parser.add_argument("--name", help="the worker's name in RQ (default: random)")
    args = parser.parse_args(argv)
    cfg = settings.from_env()
    _common(cfg)
    from .worker import run

    return run(cfg, burst=args.burst, name=args.name)


def scheduler(argv=None) -> int:
    """Feeds due bot turns and deadlines to the workers' queue
    (every few ms) and re-arms what a crash lost."""
    parser = argparse.ArgumentParser(prog="spitlog scheduler", description=scheduler.__doc__)
    parser.parse_args(argv)
    cfg = settings.from_env()
    _common(cfg)
    from .ticker import run

    return run(cfg)
