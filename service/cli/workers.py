"""``spitlog worker`` and ``spitlog scheduler``: the entry points of the background processes
(``workers/``); ``spitlog health``: whether they are alive, for container health checks."""

import os
import socket
import time

import click

from .common import settings


@click.command()
@click.option("--burst", is_flag=True, help="quit once the queue is empty")
@click.option("--name", help="the worker's name in RQ (default: random)")
def worker(burst: bool, name: str | None) -> int:
    """An RQ worker: plays the hosted bots and fires the timeouts (run several; each runs
    one job at a time, in its own process)."""
    from workers.process import prepare
    from workers.worker import run

    s = settings()
    prepare(s)
    return run(s, burst=burst, name=name)


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
@click.argument("what", type=click.Choice(["worker", "scheduler"]))
@click.option(
    "--max-age", type=float, default=10.0, show_default=True,
    help="scheduler: its heartbeat (once a second) at most this old, in seconds",
)  # fmt: skip
def health(what: str, max_age: float) -> int:
    """Exit 0 if a worker (or the scheduler) of this host is alive, 1 if not (and say why):
    a worker, if RQ has one registered from this host whose process runs; the scheduler,
    if it ticked lately (a container's health check)."""
    import redis

    from service.store.connect import client

    s = settings()
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
        click.echo(f"unhealthy: the queue Redis does not answer: {e}", err=True)
        return 1
    if not mine:
        click.echo(f"unhealthy: no worker of {host} registered in RQ and running", err=True)
        return 1
    click.echo("ok: " + ", ".join(f"{w.name} (pid {w.pid}, {w.get_state()})" for w in mine))
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
