"""``spitlog worker`` and ``spitlog scheduler``: the entry points of the background processes
(``workers/``); ``spitlog health``: whether they and the API are alive, for container
health checks."""

import os
import socket
import time

import click

from .common import settings, tool_settings


@click.command()
@click.option("--burst", is_flag=True, help="quit once the queue is empty")
@click.option("--name", help="the worker's name in RQ (default: random)")
def worker(burst: bool, name: str | None) -> int:
    """An RQ worker: plays the hosted bots and fires the timeouts (run several; each runs
    one job at a time, in its own process)."""
    from workers.process import prepare
    from workers.worker import QueueUnreachable, run

    s = settings()
    prepare(s)
    try:
        return run(s, burst=burst, name=name)
    except QueueUnreachable as e:  # one line, exit 2, as every command a Redis fails
        click.echo(f"spitlog: {e}", err=True)
        raise click.exceptions.Exit(2) from None


@click.command()
def scheduler() -> int:
    """Feed due bot turns and deadlines to the workers (every few ms) and re-arm what a
    crash lost (one per deployment; a second one is safe)."""
    from workers.process import prepare
    from workers.ticker import run

    s = settings()
    prepare(s)
    return run(s)


@click.command()
@click.argument("what", type=click.Choice(["api", "worker", "scheduler"]))
@click.option(
    "--max-age", type=float, default=10.0, show_default=True,
    help="scheduler: its heartbeat (once a second) at most this old, in seconds",
)  # fmt: skip
def health(what: str, max_age: float) -> int:
    """Exit 0 if this host's API, worker or scheduler is alive, 1 if not (and say why): the
    API, if GET /healthz on SPITLOG_BIND's port answers 200; a worker, if RQ has one
    registered from this host whose process runs; the scheduler, if it ticked lately (a
    container's health check: the image's and docker-compose.yml's). Without
    SPITLOG_REDIS_URL, a running `spitlog dev`'s."""
    import redis

    from service.store.connect import client

    s = tool_settings()
    if what == "api":
        return _api_health(s.bind)
    host = socket.gethostname()
    r = client(s.queue, socket_connect_timeout=2, socket_timeout=5)
    try:
        if what == "scheduler":
            from workers.schedule import Schedule

            beat = Schedule(r).last_beat(host)
            age = None if beat is None else time.time() - beat / 1000
            if age is None or age > max_age:
                seen = "never" if age is None else f"{age:.1f} s ago"
                click.echo(f"unhealthy: the scheduler on {host} last ticked {seen}", err=True)
                return 1
            click.echo(f"ok: the scheduler on {host} ticked {age:.1f} s ago")
            return 0
        from rq import Worker

        mine = [w for w in Worker.all(connection=r) if w.hostname == host and _runs(w.pid)]
    except redis.RedisError as e:
        why = " ".join(str(e).split())
        click.echo(f"unhealthy: the queue's Redis does not answer ({s.queue}): {why}", err=True)
        return 1
    if not mine:
        click.echo(f"unhealthy: no worker of {host} registered in RQ and running", err=True)
        return 1
    click.echo("ok: " + ", ".join(f"{w.name} (pid {w.pid}, {w.get_state()})" for w in mine))
    return 0


def _api_health(bind: str) -> int:
    """GET /healthz of the API listening on ``bind`` (an address of every interface is
    asked on loopback): 0 if it answers 200, else 1."""
    import urllib.error
    import urllib.request

    host, _, port = bind.rpartition(":")
    host = host.strip("[]")
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1" if host != "::" else "::1"
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=3) as answer:
            status = answer.status
    except urllib.error.HTTPError as e:
        status = e.code
    except (OSError, ValueError) as e:
        why = " ".join(str(getattr(e, "reason", e)).split())
        click.echo(f"unhealthy: the API does not answer on {url}: {why}", err=True)
        return 1
    if status != 200:
        click.echo(f"unhealthy: the API answers {url} with {status}", err=True)
        return 1
    click.echo(f"ok: the API answers {url}")
    return 0


def _runs(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's: it runs
        return True
    return True
