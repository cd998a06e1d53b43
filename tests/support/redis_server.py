"""A real redis-server on a free loopback port, for the integration and end-to-end tests
and for the benchmarks (one way to start it, in one place)."""

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(workdir: str, *flags: str, port: int | None = None) -> tuple[subprocess.Popen, int]:
    """A redis-server (no persistence unless ``flags`` ask for it) running in ``workdir``,
    answering PING, on ``port`` (default: a free one); (its process, its port).
    RuntimeError if it is not installed."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
    port = port or free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", workdir, "--maxmemory-policy", "noeviction", "--maxclients", "10000", *flags],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = redis.Redis(port=port)
    for _ in range(200):
        try:
            client.ping()
            return proc, port
        except redis.ConnectionError:
            if proc.poll() is not None:
                break
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("redis-server did not start")


def stop_redis(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


MASTER_NAME = "spitlog"
_REPL_USER, _REPL_PASSWORD = "repl", "repl-secret"


def _wait(what: str, check, timeout: float = 60.0, every: float = 0.05):
    """``check()``'s first true answer, asked until ``timeout``; RuntimeError naming
    ``what`` if none came."""
    end = time.monotonic() + timeout
    while True:
        try:
            got = check()
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError):
            got = None
        if got:
            return got
        if time.monotonic() > end:
            raise RuntimeError(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


class Replicated:
    """A primary and its replicas, and Redis Sentinels that watch them (``MASTER_NAME``),
    each a real process on a loopback port, for failovers on purpose.

    Every node has the user ``repl`` for replication (``masteruser``), so that ``cut``
    can stop a primary's replicas from taking its writes, deterministically: the primary
    then holds writes its replicas lack. ``flags``: more flags for every node (AOF, say).
    ``failover_timeout_ms``: a Sentinel that lost an election tries again after twice
    this; at 1 s it did so before the Sentinels' hellos (every 2 s) had told it of the
    new primary, and promoted the old one, just back as a replica, a second time.
    ``down_after_ms``: at 1 s a primary busy with its first writes (an fsync held up by
    the other processes of a loaded box) was seen down once in a few dozen failovers,
    and failed over again.
    """

    def __init__(self, workdir: str, *flags: str, replicas: int = 1, sentinels: int = 3,
                 down_after_ms: int = 2500, failover_timeout_ms: int = 3000):  # fmt: skip
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.flags = (
            "--user", _REPL_USER, "on", f">{_REPL_PASSWORD}", "~*", "&*", "+@all",
            "--masteruser", _REPL_USER, "--masterauth", _REPL_PASSWORD,
            "--repl-diskless-sync-delay", "0", *flags,
        )  # fmt: skip
        self.nodes: dict[int, subprocess.Popen] = {}
        self.dirs: dict[int | None, Path] = {}
        self.sentinels: dict[int, subprocess.Popen] = {}
        try:
            primary = self._node()
            for _ in range(replicas):
                self._node("--replicaof", "127.0.0.1", str(primary))
            for port in list(self.nodes)[1:]:
                self._wait_synced(port)
            for _ in range(sentinels):
                self._sentinel(primary, sentinels // 2 + 1, down_after_ms, failover_timeout_ms)
            self.wait_watched()
        except BaseException:
            self.stop()
            raise

    def _node(self, *flags: str, port: int | None = None) -> int:
        """Start a node (again, on ``port``, in its own directory): its port."""
        node_dir = self.dirs.get(port) or self.workdir / f"node{len(self.dirs)}"
        node_dir.mkdir(exist_ok=True)
        proc, port = start_redis(str(node_dir), *self.flags, *flags, port=port)
        self.nodes[port], self.dirs[port] = proc, node_dir
        return port

    def _sentinel(self, primary: int, quorum: int, down_after_ms: int, failover_ms: int):
        port = free_port()
        conf = self.workdir / f"sentinel-{port}.conf"
        conf.write_text(
            f"port {port}\nbind 127.0.0.1\ndir {self.workdir}\nlogfile sentinel-{port}.log\n"
            f"sentinel monitor {MASTER_NAME} 127.0.0.1 {primary} {quorum}\n"
            f"sentinel down-after-milliseconds {MASTER_NAME} {down_after_ms}\n"
            f"sentinel failover-timeout {MASTER_NAME} {failover_ms}\n"
            f"sentinel parallel-syncs {MASTER_NAME} 1\n"
        )
        proc = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", str(conf), "--sentinel"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.sentinels[port] = proc
        _wait(f"sentinel {port} answers", lambda: redis.Redis(port=port).ping())

    def url(self, db: int = 0) -> str:
        """The ``redis+sentinel://`` URL of this primary, by every Sentinel."""
        hosts = ",".join(f"127.0.0.1:{p}" for p in self.sentinels)
        return f"redis+sentinel://{hosts}/{MASTER_NAME}/{db}"

    def _told(self) -> set[int]:
        """The primary's port as each Sentinel that answers names it."""
        out = set()
        for port in self.sentinels:
            try:
                _host, p = redis.Redis(
                    port=port, socket_timeout=2
                ).sentinel_get_master_addr_by_name(MASTER_NAME)
                out.add(int(p))
            except (redis.ConnectionError, redis.TimeoutError, TypeError):
                pass
        return out

    def primary(self) -> int:
        """The primary's port, as every Sentinel names it (waited for)."""
        return _wait("the Sentinels agree on the primary", lambda: len(t := self._told()) == 1
                     and next(iter(t)))  # fmt: skip

    def replica_ports(self) -> list[int]:
        primary = self.primary()
        return [p for p, proc in self.nodes.items() if p != primary and proc.poll() is None]

    @staticmethod
    def _role(port: int) -> str | None:
        role = redis.Redis(port=port, socket_timeout=2).execute_command("ROLE")
        return role[0].decode() if role else None

    def _wait_synced(self, port: int) -> None:
        """Until the replica on ``port`` has a live link to its primary and is synced."""

        def synced():
            info = redis.Redis(port=port, socket_timeout=2).info("replication")
            return info.get("master_link_status") == "up" and not info.get(
                "master_sync_in_progress"
            )

        _wait(f"replica {port} synced", synced)

    def wait_watched(self, timeout: float = 60.0) -> None:
        """Until every Sentinel names the same primary and sees each running replica
        healthy (linked to it, not down): ready for a failover."""
        primary = self.primary()
        running = {p for p, proc in self.nodes.items() if proc.poll() is None and p != primary}

        last: list = []  # what the last look found wanting, for the error

        def ready():
            last.clear()
            for port in self.sentinels:
                s = redis.Redis(port=port, socket_timeout=2, decode_responses=True)
                seen = {int(r["port"]): r for r in s.sentinel_slaves(MASTER_NAME)}
                for p in running:
                    r = seen.get(p)
                    if r is None or r.get("is_sdown") or r.get("is_disconnected"):
                        last.append((port, p, r and r.get("flags")))
                    elif r.get("master-link-status") != "ok":
                        last.append((port, p, r.get("master-link-status")))
                others = s.sentinel_master(MASTER_NAME).get("num-other-sentinels")
                if others != len(self.sentinels) - 1:
                    last.append((port, "other sentinels", others))
            return not last

        try:
            _wait("the Sentinels see the replicas", ready, timeout, every=0.1)
        except RuntimeError as e:
            raise RuntimeError(f"{e} (sentinel, replica, state: {last})") from None

    def kill(self, port: int) -> None:
        """SIGKILL the node on ``port`` (a crashed host: no goodbye to anyone)."""
        proc = self.nodes[port]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def wait_promoted(self, old: int, timeout: float = 60.0) -> int:
        """Until the Sentinels have made another node than ``old`` the primary, and it
        says it is one: its port."""

        def promoted():
            told = self._told()
            if len(told) != 1 or old in told:
                return None
            port = next(iter(told))
            return port if self._role(port) == "master" else None

        return _wait(f"a replica of {old} promoted", promoted, timeout, every=0.1)

    def failover(self) -> None:
        """Have a Sentinel fail the primary over now (``SENTINEL FAILOVER``: no wait for
        the primary to be seen down, no vote), e.g. once a test has killed it."""
        sentinel = redis.Redis(port=next(iter(self.sentinels)), socket_timeout=5)
        sentinel.execute_command("SENTINEL", "FAILOVER", MASTER_NAME)

    def restart_as_replica(self, port: int) -> None:
        """Start the node on ``port`` again (its data as its flags keep it) as a replica
        of the current primary; until it is synced and the Sentinels see it."""
        primary = self.primary()
        self._node("--replicaof", "127.0.0.1", str(primary), port=port)
        self._wait_synced(port)
        self.wait_watched()

    def cut(self) -> None:
        """Stop the primary's replicas from taking its writes, until ``heal``: the
        replication user is switched off on the primary and its links are closed, so a
        replica can neither stay nor come back (it keeps trying). The primary goes on
        taking writes."""
        r = redis.Redis(port=self.primary(), socket_timeout=5)
        r.acl_setuser(_REPL_USER, enabled=False)
        r.client_kill_filter(user=_REPL_USER)
        _wait("the replicas gone", lambda: r.info("replication")["connected_slaves"] == 0)

    def heal(self) -> None:
        """Let the replicas take the primary's writes again (after ``cut``)."""
        r = redis.Redis(port=self.primary(), socket_timeout=5)
        r.acl_setuser(_REPL_USER, enabled=True)
        for port in self.replica_ports():
            self._wait_synced(port)

    def stop(self) -> None:
        for proc in [*self.sentinels.values(), *self.nodes.values()]:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
