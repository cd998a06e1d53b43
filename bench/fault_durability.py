"""Durability under fire: kill -9 the real redis-server again and again while clients play.

    python bench/fault_durability.py [--kills 20] [--clients 4] [--mode strict|default|both]

A redis-server with AOF on (``appendfsync always`` for ``strict``, ``everysec`` for
``default``) runs on a free loopback port. Client threads play games through the
service's application layer (``service.games.Games``: the same decide-and-append path
as HTTP requests): create, join, then random legal actions. A killer thread SIGKILLs
the server every ``--every`` seconds and restarts it from its AOF. Each action the
service acknowledged (an answer 201 with its version) is remembered. At the end:

- **lost**: acknowledged versions missing from the log (must be 0 in strict mode);
- **clean prefix**: every log's versions are 1..n with no gap, and ``replay`` of it
  rebuilds a state whose version is n;
- the counts of actions acknowledged, refused and failed while Redis was down.

Note what a process kill can and cannot show: Redis write()s the AOF before it
replies in both modes, so a killed *process* loses nothing either way; ``everysec``
can lose up to a second only when the *host* crashes (the page cache is lost). This
test kills the process; the README states the host-crash bound of the default mode.
"""

import argparse
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis  # noqa: E402

import domain  # noqa: E402
from service.games import Games  # noqa: E402
from service.store.redis import RedisStore  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A redis-server with AOF in a directory of its own, killable and restartable."""

    def __init__(self, workdir: str, fsync: str):
        self.port, self.workdir, self.fsync = _free_port(), workdir, fsync
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        exe = shutil.which("redis-server") or "redis-server"
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.workdir,
             "--appendonly", "yes", "--appendfsync", self.fsync, "--save", "",
             "--maxmemory-policy", "noeviction"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis(port=self.port)
        for _ in range(400):
            try:
                if client.ping():
                    return
            except (redis.ConnectionError, redis.BusyLoadingError):
                time.sleep(0.025)
        raise RuntimeError("redis-server did not come back")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def run(mode: str, kills: int, clients: int = 4, every: float = 0.35, seed: int = 1) -> dict:
    """Play under ``kills`` SIGKILLs of Redis; return the figures (see the module doc)."""
    fsync = "always" if mode == "strict" else "everysec"
    with tempfile.TemporaryDirectory() as workdir:
        server = Server(workdir, fsync)
        server.start()
        client = redis.Redis(port=server.port, socket_timeout=2, socket_connect_timeout=1)
        games = Games(RedisStore(client, durability=mode))
        acked: dict[str, int] = {}
        counts = {"acknowledged": 0, "refused": 0, "failed": 0}
        lock = threading.Lock()
        stop = threading.Event()

        def player(k: int) -> None:
            rng = random.Random(seed * 1000 + k)
            gid, tokens = None, []
            while not stop.is_set():
                try:
                    if gid is None:
                        r = games.create("spit" if k % 2 == 0 else "speed", {}, "human", "").body
                        with lock:  # the creation is acknowledged: it must survive
                            acked[r["id"]] = r["state"]["version"]
                        # a join whose answer is lost (Redis killed) abandons the game:
                        # it may have landed, with a token this player never got
                        j = games.join(r["id"], "").body
                        gid, tokens = r["id"], [r["token"], j["token"]]
                        with lock:
                            acked[gid] = max(acked[gid], j["state"]["version"])
                    seat = rng.randrange(2)
                    game = games.load(gid)
                    if game.state.over:
                        gid = None
                        continue
                    legal = [a for a in domain.view(game.state, seat)["legal_actions"]]
                    legal = [a for a in legal if a["type"] != "resign"]
                    if not legal:
                        time.sleep(0.002)
                        continue
                    answer = games.act(gid, tokens[seat], rng.choice(legal))  # refused: raises
                    with lock:
                        counts["acknowledged"] += 1
                        acked[gid] = max(acked[gid], answer.body["version"])
                except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                    with lock:
                        counts["failed"] += 1
                    time.sleep(0.05)
                except domain.DomainError:
                    with lock:
                        counts["refused"] += 1
                except Exception as e:  # the service's own errors (409/422/503 answers)
                    if type(e).__module__ != "service.errors":
                        raise
                    with lock:
                        counts["refused"] += 1
                    time.sleep(0.01)

        threads = [threading.Thread(target=player, args=(k,), daemon=True) for k in range(clients)]
        for t in threads:
            t.start()
        t0 = time.monotonic()
        for _ in range(kills):
            time.sleep(every)
            server.kill()
            time.sleep(0.05)
            server.start()
        time.sleep(every)
        stop.set()
        for t in threads:
            t.join(10)
        elapsed = time.monotonic() - t0
        lost = gaps = 0
        for gid, version in acked.items():
            entries = games.store.read_after(gid, 0)
            versions = [v for v, _e in entries]
            if versions != list(range(1, len(versions) + 1)):
                gaps += 1
            state = domain.replay([domain.event_from_dict(e) for _v, e in entries])
            assert state.version == len(versions)
            lost += max(0, version - len(versions))
        server.kill()
    return {
        "mode": mode,
        "kills": kills,
        "games": len(acked),
        **counts,
        "lost": lost,
        "logs_with_gaps": gaps,
        "seconds": round(elapsed, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--every", type=float, default=0.35)
    ap.add_argument("--mode", choices=["strict", "default", "both"], default="both")
    args = ap.parse_args()
    modes = ["strict", "default"] if args.mode == "both" else [args.mode]
    print(f"{'mode':>8} {'kills':>5} {'games':>5} {'acked':>6} {'refused':>7} {'failed':>6} "
          f"{'lost':>4} {'gaps':>4} {'secs':>5}")  # fmt: skip
    for mode in modes:
        r = run(mode, args.kills, args.clients, args.every)
        print(f"{r['mode']:>8} {r['kills']:>5} {r['games']:>5} {r['acknowledged']:>6} "
              f"{r['refused']:>7} {r['failed']:>6} {r['lost']:>4} {r['logs_with_gaps']:>4} "
              f"{r['seconds']:>5}")  # fmt: skip


if __name__ == "__main__":
    main()
