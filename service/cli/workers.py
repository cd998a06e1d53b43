"""``spitlog worker`` and ``spitlog scheduler``: the entry points of the background processes
(``workers/``)."""

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
