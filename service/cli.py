"""``spitlog``: the command line.

- ``spitlog dev``      try it: the API, a worker and the scheduler on an embedded
                       in-process Redis unless ``SPITLOG_REDIS_URL`` is set.
- ``spitlog serve``    production: gunicorn with gevent workers, configured by the
                       ``SPITLOG_*`` environment variables (README.md, *Deploying*).
- ``spitlog openapi``  write ``openapi.yaml`` from the code (``--check``: fail if stale).
- ``spitlog worker``   an RQ worker: plays the hosted bots, fires the timeouts (workers/).
- ``spitlog scheduler`` feeds due bot turns and deadlines to the workers, every few ms,
                       and re-arms what a crash lost (one or two per deployment).

Imports stay inside the commands: gunicorn's gevent workers patch the standard library
when they start, and the app is best imported after that.
"""

import argparse
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path


def _free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _split_bind(bind: str) -> tuple[str, int]:
    host, _, port = bind.rpartition(":")
    return host or "127.0.0.1", int(port)


def _has_worker() -> bool:
    try:
        return importlib.util.find_spec("workers.cli") is not None
    except ModuleNotFoundError:
        return False


def dev(args) -> int:
    """API, a worker and the scheduler on an embedded Redis: for trying the service, not for
    keeping games."""
    from werkzeug.serving import run_simple

    from .app import create_app
    from .config import from_env

    cfg = from_env()
    embedded = None
    if not os.environ.get("SPITLOG_REDIS_URL"):
        from fakeredis import TcpFakeServer

        port = _free_port()
        embedded = TcpFakeServer(("127.0.0.1", port), server_type="redis")
        # a client blocked in BLMOVE (an RQ worker's, up to minutes) must not hold up
        # server_close: its handler thread dies with this process
        embedded.daemon_threads = True
        threading.Thread(target=embedded.serve_forever, name="fakeredis", daemon=True).start()
        cfg["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    cfg["QUEUE_URL"] = cfg["QUEUE_URL"] or cfg["REDIS_URL"]
    host, port = _split_bind(args.bind)
    worker = None
    procs = []
    scheduler = None
    # The worker and the scheduler (workers/): two processes beside the API, on the same
    # Redis (the embedded one works with RQ workers in other processes).
    if _has_worker():
        env = {
            **os.environ,
            "SPITLOG_REDIS_URL": cfg["REDIS_URL"],
            "SPITLOG_QUEUE_URL": cfg["QUEUE_URL"],
            "SPITLOG_PARENT_PID": str(os.getpid()),  # they stop when this process ends
        }
        for command in ("worker", "scheduler"):
            procs.append(subprocess.Popen([sys.executable, "-m", "service.cli", command], env=env))
        worker = procs[0]
        from workers.schedule import Scheduler
        from workers.settings import from_env as worker_settings

        scheduler = Scheduler.from_settings({**worker_settings(env), **cfg})
    base = f"http://{host}:{port}"
    store = "an embedded in-memory Redis (gone when this stops)" if embedded else cfg["REDIS_URL"]
    print(
        f"spitlog dev: API on {base}  (docs {base}/docs, spec {base}/openapi.yaml)\n"
        f"  game store: {store}\n"
        f"  bots and timeouts: {'a worker and the scheduler' if worker else 'none'}\n"
        f"  try: curl -s -X POST {base}/v1/games -H 'Content-Type: application/json' "
        '-d \'{"game": "spit"}\'',
        flush=True,
    )

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt  # SIGTERM too stops the worker and the scheduler (finally)

    signal.signal(signal.SIGTERM, interrupt)
    try:
        app = create_app(cfg, scheduler=scheduler)
        run_simple(host, port, app, threaded=True, use_reloader=False)
    except KeyboardInterrupt:
        pass
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)
        if embedded is not None:
            embedded.shutdown()
            embedded.server_close()
    return 0


def serve(args) -> int:
    """gunicorn with gevent workers (each holds thousands of open SSE streams)."""
    from gunicorn.app.base import BaseApplication

    env = os.environ
    options = {
        "bind": args.bind or env.get("SPITLOG_BIND", "127.0.0.1:8000"),
        "workers": int(env.get("SPITLOG_WORKERS", "2")),
        "worker_class": "gevent",
        "worker_connections": int(env.get("SPITLOG_WORKER_CONNECTIONS", "2000")),
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "accesslog": "-" if env.get("SPITLOG_ACCESS_LOG") else None,
        "errorlog": "-",
        "loglevel": env.get("SPITLOG_LOG_LEVEL", "info"),
        "control_socket_disable": True,  # gunicorn >= 25: one shared path per user otherwise
    }

    class Gunicorn(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self):
            from .app import create_app
            from .config import from_env

            return create_app(from_env(), scheduler=_scheduler())

    from .config import from_env

    from_env()  # fail now, in the master, on a bad setting
    Gunicorn().run()
    return 0


def openapi(args) -> int:
    """Write the OpenAPI document the code serves (no Redis needed)."""
    import fakeredis

    from .app import create_app, spec_yaml

    text = spec_yaml(create_app(redis_client=fakeredis.FakeRedis()))
    path = Path(args.output)
    if args.check:
        if not path.exists() or path.read_text() != text:
            print(f"{path} differs from the code's spec: run `spitlog openapi`", file=sys.stderr)
            return 1
        return 0
    path.write_text(text)
    print(f"wrote {path}")
    return 0


def _scheduler():
    """The hook that arms bots and timeouts after each append (None without workers/)."""
    if not _has_worker():
        return None
    from workers.schedule import Scheduler
    from workers.settings import from_env as worker_settings

    return Scheduler.from_settings(worker_settings())


def scheduler(args) -> int:
    from workers.cli import scheduler as scheduler_main

    return scheduler_main(args.rest)


def worker(args) -> int:
    if not _has_worker():
        print("spitlog worker: there is no worker yet (bots and timeouts come next)",
              file=sys.stderr)  # fmt: skip
        return 2
    from workers.cli import main as worker_main

    return worker_main(args.rest)


def _console(args) -> int:
    """``spitlog audit|replay|export|simulate``: offline tools (service/console.py)."""
    from . import console

    return {"audit": console.audit_main, "replay": console.replay_main,
            "export": console.export_main,
            "simulate": console.simulate_main}[args.command](args.rest)  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="spitlog", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("dev", help="API (+ worker) on an embedded Redis, for trying it")
    p.add_argument("--bind", default=os.environ.get("SPITLOG_BIND", "127.0.0.1:8000"))
    p.set_defaults(func=dev)
    p = sub.add_parser("serve", help="gunicorn + gevent, configured by SPITLOG_* variables")
    p.add_argument("--bind", help="host:port (default: $SPITLOG_BIND or 127.0.0.1:8000)")
    p.set_defaults(func=serve)
    p = sub.add_parser("openapi", help="write openapi.yaml from the code's schemas")
    p.add_argument("-o", "--output", default="openapi.yaml")
    p.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    p.set_defaults(func=openapi)
    p = sub.add_parser("worker", help="the RQ worker: bots and timeouts", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=worker)
    p = sub.add_parser(
        "scheduler", help="feeds due bot turns and deadlines to the workers", add_help=False
    )
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=scheduler)
    for name, text in (
        ("audit", "re-derive every deal and re-judge every event of an exported game or URL"),
        ("replay", "step through an exported game (or a URL) in the terminal"),
        ("export", "a finished game's URL as an NDJSON log or notation (docs/export.md)"),
        ("simulate", "games between bot levels in virtual time (no Redis)"),
    ):
        p = sub.add_parser(name, help=text, add_help=False)
        p.add_argument("rest", nargs=argparse.REMAINDER)
        p.set_defaults(func=_console)
    # worker and scheduler pass their options on (argparse's REMAINDER stops at a leading
    # option such as `spitlog worker --burst`)
    args, extra = parser.parse_known_args(argv)
    if extra and args.command not in (
        "worker", "scheduler", "audit", "replay", "export", "simulate"
    ):  # fmt: skip
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if extra:
        args.rest = extra + list(args.rest)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
