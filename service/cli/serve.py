"""``spitlog serve`` (gunicorn with gevent workers), ``spitlog openapi`` and
``spitlog asyncapi``."""

import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import click

from .. import logs, telemetry
from ..config import tcp_port
from .common import settings

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client's (service.metrics)
GRACEFUL_TIMEOUT_S = 10  # SIGTERM: in-flight requests get this long (compose waits 10 s)


def _metrics_dir() -> str | None:
    """The directory of prometheus_client's multiprocess mode, ready for this start: the
    operator's ``PROMETHEUS_MULTIPROC_DIR`` emptied of an earlier run's files (as
    prometheus_client asks), or a fresh one (returned, to remove at the end)."""
    given = os.environ.get(MULTIPROC_ENV)
    if given:
        Path(given).mkdir(parents=True, exist_ok=True)
        for old in Path(given).glob("*.db"):
            old.unlink()
        return None
    made = tempfile.mkdtemp(prefix="spitlog-metrics-")
    os.environ[MULTIPROC_ENV] = made  # before any worker imports prometheus_client
    return made


def _child_exit(_server, worker) -> None:
    """gunicorn's hook: a worker process is gone; its live gauges no longer count."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def collect_every(period_s: float) -> None:
    """Python's cyclic garbage collector in a gevent worker (``SPITLOG_GC_EVERY_S``): what
    the process holds now (the app, its code and tables) is frozen out of every later
    collection, the automatic collections are turned off, and a greenlet collects every
    ``period_s`` seconds instead: one pause a period rather than ~10 a second, each of
    which held every request of the process (docs/decisions/0016). 0: Python's way."""
    if period_s <= 0:
        return
    import gc
    import logging

    import gevent

    gc.collect()  # the start's own garbage, not frozen with the rest
    gc.freeze()
    gc.disable()

    def collect() -> None:
        try:
            while True:
                gevent.sleep(period_s)
                try:
                    gc.collect()
                except Exception:  # noqa: BLE001 - a finalizer's error: collect on
                    logging.getLogger(__name__).exception("garbage collection failed")
        finally:  # never left without a collector
            gc.enable()

    gevent.spawn(collect)


def _post_worker_init(worker) -> None:
    """gunicorn's hook, in each worker before it serves: on SIGTERM, besides gunicorn's
    graceful stop (no new connections; requests in flight finish), the app drains: its
    SSE streams and long-polls end within a second, the streams with a ``retry:`` hint,
    so that no open stream holds the worker until its graceful timeout. And its garbage
    collection (``collect_every``)."""
    services = worker.wsgi.extensions["spitlog"]
    stop = worker.handle_exit
    collect_every(services.settings.gc_every_s)

    def on_term(signum, frame):
        services.drain()
        stop(signum, frame)

    signal.signal(signal.SIGTERM, on_term)


@click.command()
@click.option("--bind", help="host:port (default: $SPITLOG_BIND, 127.0.0.1:8000)")
def serve(bind: str | None) -> int:
    """Serve the API in production: gunicorn with gevent workers (each holds thousands of
    open SSE streams), configured by the SPITLOG_* variables; its Prometheus metrics on
    SPITLOG_METRICS_BIND if set. SIGTERM stops it gracefully: requests in flight finish
    (up to 10 s), SSE streams end with a retry hint."""
    from gunicorn.app.base import BaseApplication
    from gunicorn.glogging import Logger

    class Logs(Logger):
        """gunicorn's logger without its access line: a ``logconfig_dict`` turns that line on
        in gunicorn, and the app logs each request itself (SPITLOG_ACCESS_LOG)."""

        def access(self, resp, req, environ, request_time):
            return None

    s = settings()  # fail now, in the master, on a bad setting
    public = bind or s.bind
    if s.metrics_bind is not None and tcp_port(s.metrics_bind) == tcp_port(public):
        raise click.UsageError(f"--bind {public}: SPITLOG_METRICS_BIND has its port")
    made = _metrics_dir()
    # imported once PROMETHEUS_MULTIPROC_DIR is set: prometheus_client chooses its values'
    # class (one process's, or the files every worker writes) when it is first imported
    from .http_worker import Worker

    options = {
        # the API's listener, and the metrics' own (``MetricsListener`` tells them apart)
        "bind": [public] + ([s.metrics_bind] if s.metrics_bind is not None else []),
        "workers": s.workers,
        "worker_class": Worker,  # gevent's; problem+json for its refusals (http_worker)
        "worker_connections": s.worker_connections,
        "timeout": 30,
        "graceful_timeout": GRACEFUL_TIMEOUT_S,
        "keepalive": 5,
        "accesslog": None,
        "logger_class": Logs,
        "errorlog": "-",
        "loglevel": s.log_level,
        "logconfig_dict": logs.gunicorn_config(s.log_level, s.log_format),
        "control_socket_disable": True,  # gunicorn >= 25: one shared path per user otherwise
        "child_exit": _child_exit,
        "post_worker_init": _post_worker_init,
    }

    class Gunicorn(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self):
            from ..bootstrap import Root, queue_scheduler
            from ..http.app import create_app

            s = settings(warn=None)
            telemetry.setup("spitlog-api")  # in each worker process: after the fork
            return create_app(root=Root(s, scheduler=queue_scheduler(s)))

    try:
        Gunicorn().run()
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
    return 0


@click.command()
@click.option("-o", "--output", default="openapi.yaml", show_default=True, type=click.Path())
@click.option("--check", is_flag=True, help="exit 1 if the file differs from the code's spec")
def openapi(output: str, check: bool) -> int:
    """Write the OpenAPI document the code serves (no Redis needed)."""
    import redis

    from ..http.app import create_app, spec_yaml

    # the document needs no command sent: redis-py connects only when one is
    text = spec_yaml(create_app(settings(warn=None), redis_client=redis.Redis()))
    path = Path(output)
    if check:
        if not path.exists() or path.read_text() != text:
            print(f"{path} differs from the code's spec: run `spitlog openapi`", file=sys.stderr)
            return 1
        return 0
    path.write_text(text)
    print(f"wrote {path}")
    return 0


@click.command()
@click.option("-o", "--output", default="asyncapi.yaml", show_default=True, type=click.Path())
@click.option("--check", is_flag=True, help="exit 1 if the file differs from the code's document")
def asyncapi(output: str, check: bool) -> int:
    """Write the AsyncAPI document of the live path (the seat channel, the streams)."""
    from ..http import asyncapi as document

    text = document.to_yaml(document.build())
    path = Path(output)
    if check:
        if not path.exists() or path.read_text() != text:
            print(f"{path} differs from the code's document: run `spitlog asyncapi`",
                  file=sys.stderr)  # fmt: skip
            return 1
        return 0
    path.write_text(text)
    print(f"wrote {path}")
    return 0
