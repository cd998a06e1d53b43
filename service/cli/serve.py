"""``spitlog serve`` (gunicorn with gevent workers) and ``spitlog openapi``."""

import sys
from pathlib import Path

import click

from .common import settings


def _scheduler(s):
    """The hook that arms bots and timeouts after each append (workers.schedule)."""
    from workers.schedule import Scheduler

    return Scheduler.from_settings(s)


@click.command()
@click.option("--bind", help="host:port (default: $SPITLOG_BIND, 127.0.0.1:8000)")
def serve(bind: str | None) -> int:
    """Serve the API in production: gunicorn with gevent workers (each holds thousands of
    open SSE streams), configured by the SPITLOG_* variables."""
    from gunicorn.app.base import BaseApplication

    s = settings()  # fail now, in the master, on a bad setting
    options = {
        "bind": bind or s.bind,
        "workers": s.workers,
        "worker_class": "gevent",
        "worker_connections": s.worker_connections,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "accesslog": "-" if s.access_log else None,
        "errorlog": "-",
        "loglevel": s.log_level,
        "control_socket_disable": True,  # gunicorn >= 25: one shared path per user otherwise
    }

    class Gunicorn(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self):
            from ..http.app import create_app

            s = settings(warn=None)
            return create_app(s, scheduler=_scheduler(s))

    Gunicorn().run()
    return 0


@click.command()
@click.option("-o", "--output", default="openapi.yaml", show_default=True, type=click.Path())
@click.option("--check", is_flag=True, help="exit 1 if the file differs from the code's spec")
def openapi(output: str, check: bool) -> int:
    """Write the OpenAPI document the code serves (no Redis needed)."""
    import fakeredis

    from ..http.app import create_app, spec_yaml

    text = spec_yaml(create_app(settings(warn=None), redis_client=fakeredis.FakeRedis()))
    path = Path(output)
    if check:
        if not path.exists() or path.read_text() != text:
            print(f"{path} differs from the code's spec: run `spitlog openapi`", file=sys.stderr)
            return 1
        return 0
    path.write_text(text)
    print(f"wrote {path}")
    return 0
