"""``spitlog dev``: the API, a worker and the scheduler, on an embedded Redis unless
``SPITLOG_REDIS_URL`` is set. For trying the service: its Redis lives in memory and dies
with it. The embedded Redis is fakeredis's, the ``[dev]`` extra, on a loopback port: the
banner gives its URL, and ``devfile`` tells ``spitlog admin`` and ``spitlog health``
where it is while it runs."""

import os
import re
import signal
import socket
import subprocess
import sys
import threading

import click

from . import devfile
from .common import need, settings


def _free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _split_bind(bind: str) -> tuple[str, int]:
    host, _, port = bind.rpartition(":")
    return host or "127.0.0.1", int(port)


def _shown(url: str) -> str:
    """``url`` with its password, if any, starred out (for the banner)."""
    return re.sub(r"(//[^/@:]*:)[^/@]*@", r"\1***@", url)


@click.command()
@click.option("--bind", help="host:port (default: $SPITLOG_BIND, 127.0.0.1:8000)")
def dev(bind: str | None) -> int:
    """Try it: the API, a worker and the scheduler on an embedded in-memory Redis (unless
    SPITLOG_REDIS_URL is set). Not for keeping games."""
    s = settings()
    embedded = None
    if not os.environ.get("SPITLOG_REDIS_URL"):
        need("dev", "spitlog dev needs the embedded Redis (or SPITLOG_REDIS_URL)")
        from fakeredis import TcpFakeServer

        port = _free_port()
        embedded = TcpFakeServer(("127.0.0.1", port), server_type="redis")
        # a client blocked in BLMOVE (an RQ worker's, up to minutes) must not hold up
        # server_close: its handler thread dies with this process
        embedded.daemon_threads = True
        threading.Thread(target=embedded.serve_forever, name="fakeredis", daemon=True).start()
        s = settings(redis_url=f"redis://127.0.0.1:{port}/0", warn=None)
    from werkzeug.serving import make_server, run_simple

    from ..bootstrap import Root, queue_scheduler
    from ..http.app import create_app

    host, port = _split_bind(bind or s.bind)
    # The worker and the scheduler (workers/): two processes beside the API, on the same
    # Redis (the embedded one works with RQ workers in other processes).
    env = {
        **os.environ,
        "SPITLOG_REDIS_URL": s.redis_url,
        "SPITLOG_QUEUE_URL": s.queue,
        "SPITLOG_PARENT_PID": str(os.getpid()),  # they stop when this process ends
    }
    procs = [subprocess.Popen([sys.executable, "-m", "service.cli", command], env=env)
             for command in ("worker", "scheduler")]  # fmt: skip
    base = f"http://{host}:{port}"
    store = "embedded, in memory: gone when this stops" if embedded else "SPITLOG_REDIS_URL"
    found = devfile.write({
        "api": base, "bind": f"{host}:{port}", "redis_url": s.redis_url, "queue_url": s.queue,
        "archive_url": devfile.absolute_archive(s.archive_url),
        "s3_endpoint_url": s.s3_endpoint_url,
    })  # fmt: skip
    tools = "spitlog admin and spitlog health " + (
        f"find it ({found})" if found else f"need SPITLOG_REDIS_URL={_shown(s.redis_url)}"
    )
    print(
        f"spitlog dev: API on {base}  (docs {base}/docs, spec {base}/openapi.yaml)\n"
        f"  game store: Redis at {_shown(s.redis_url)}  ({store})\n"
        f"  {tools}\n"
        f"  archive: {devfile.absolute_archive(s.archive_url)}\n"
        f"  bots and timeouts: a worker and the scheduler\n"
        f"  try: curl -s -X POST {base}/v1/games -H 'Content-Type: application/json' "
        '-d \'{"game": "spit"}\'',
        flush=True,
    )

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt  # SIGTERM too stops the worker and the scheduler (finally)

    signal.signal(signal.SIGTERM, interrupt)
    try:
        app = create_app(root=Root(s, scheduler=queue_scheduler(s)))
        if s.metrics_bind is not None:  # the same app: it tells the listeners apart
            m_host, m_port = _split_bind(s.metrics_bind)
            metrics = make_server(m_host, m_port, app, threaded=True)
            threading.Thread(target=metrics.serve_forever, name="metrics", daemon=True).start()
            print(f"  metrics: http://{m_host}:{m_port}/metrics", flush=True)
        run_simple(host, port, app, threaded=True, use_reloader=False)
    except KeyboardInterrupt:
        pass
    finally:
        devfile.remove()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)
        if embedded is not None:
            embedded.shutdown()
            embedded.server_close()
    return 0
