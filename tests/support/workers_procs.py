"""Worker and scheduler processes for the workers' integration tests and the bench:
real RQ workers (``spitlog worker``) and the scheduler (``spitlog scheduler``) as
subprocesses on a real redis-server."""

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[2]


class Procs:
    """Start, SIGKILL and restart ``spitlog worker`` / ``spitlog scheduler`` processes.

    Each process gets its own session (its own process group), so a kill reaches it and
    nothing else; stopping ends only the processes started here."""

    def __init__(self, env: dict[str, str], logdir: str | Path | None = None):
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
        self.logdir = Path(logdir or tempfile.mkdtemp(prefix="spitlog-workers-"))
        self.logdir.mkdir(parents=True, exist_ok=True)
        self.procs: dict[str, subprocess.Popen] = {}
        self.rq_names: dict[str, str] = {}  # a worker's name here -> its name in RQ
        self.kills = 0
        self._lock = threading.Lock()  # ``reviving`` and a chaos thread's restarts

    def start(self, name: str, command: str = "worker") -> subprocess.Popen:
        """Start ``name`` (again, once it was killed or stopped: never over a running one,
        which would go on untracked and outlive ``stop``)."""
        running = self.procs.get(name)
        if running is not None and running.poll() is None:
            raise RuntimeError(f"{name} runs already (pid {running.pid}): kill it first")
        log = open(self.logdir / f"{name}.log", "ab")  # noqa: SIM115 - the child holds it
        if command == "slow-worker":  # jobs that take a while (slow_worker.py)
            args = [sys.executable, str(Path(__file__).with_name("slow_worker.py"))]
        else:
            args = [sys.executable, "-m", "service.cli", command]
        if command != "scheduler":
            self.rq_names[name] = f"{name}-{time.monotonic_ns()}"
            args += ["--name", self.rq_names[name]]
        proc = subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        log.close()
        self.procs[name] = proc
        return proc

    def kill(self, name: str) -> None:
        """SIGKILL one process (what a crashed host or the OOM killer does)."""
        proc = self.procs[name]
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            self.kills += 1
        proc.wait(10)

    def restart(self, name: str, command: str = "worker") -> None:
        """SIGKILL ``name`` and start it again (the same one: no other is replaced)."""
        with self._lock:
            self.kill(name)
            self.start(name, command)

    def kill_a_worker(
        self, url: str, among: list[str], within_s: float, rng, slot: str = ""
    ) -> bool:
        """Restart (``slow-worker``) one of ``among`` that RQ shows running a job (one of
        ``slot``, as ``busy_worker``) if one is seen within ``within_s``, else one chosen by
        ``rng``: whether the one killed was seen busy."""
        name = self.busy_worker(url, among, within_s, slot)
        self.restart(name or rng.choice(among), "slow-worker")
        return name is not None

    def revive(self, among: list[str], command: str = "slow-worker") -> int:
        """Start again each of ``among`` that has ended by itself (a forced kill of
        slow_worker.py): how many."""
        dead = [n for n in among if n in self.procs and self.procs[n].poll() is not None]
        for name in dead:
            self.start(name, command)
        return len(dead)

    @contextlib.contextmanager
    def reviving(self, among: list[str], command: str = "slow-worker", every_s: float = 0.1):
        """While the block runs, start again every 0.1 s those of ``among`` that ended by
        themselves; no longer once it is left (so nothing is started after ``stop``)."""
        done = threading.Event()

        def loop():
            while not done.wait(every_s):
                with self._lock:
                    self.revive(among, command)

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join(30)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                proc.wait(5)

    def log(self, name: str) -> str:
        path = self.logdir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def alive(self) -> dict[str, bool]:
        return {n: p.poll() is None for n, p in self.procs.items()}

    def busy_worker(
        self, url: str, among: list[str], within_s: float, slot: str = ""
    ) -> str | None:
        """One of ``among`` that RQ shows running a job now (one whose schedule slot
        begins with ``slot``: ``arc|`` for an archive job), watched for ``within_s``."""
        from rq import Worker

        r = redis.Redis.from_url(url)
        wanted = {self.rq_names[n]: n for n in among if n in self.rq_names}
        end = time.monotonic() + within_s
        while time.monotonic() < end:
            for w in Worker.all(connection=r):
                busy = w.name in wanted and w.get_state() == "busy"
                if busy and (not slot or _running(w).startswith(slot)):
                    return wanted[w.name]
            time.sleep(0.002)
        return None


def _running(worker) -> str:
    """The description (the schedule slot) of the job ``worker`` runs, or ''."""
    from rq.exceptions import NoSuchJobError

    try:
        job = worker.get_current_job()
    except NoSuchJobError:  # done and gone meanwhile (its hash expires a second after)
        return ""
    return (job.description or "") if job is not None else ""


def killed_at(kill_dir: str | Path, point: str) -> int:
    """How many forced kills at ``point`` (slow_worker.py's ``TEST_KILL_AT``) the workers
    of a run made: the claims in ``kill_dir``."""
    return len(list(Path(kill_dir).glob(f"{point}.*")))


def stopped_at(kill_dir: str | Path, point: str) -> list[int]:
    """The pids of the workers that stopped themselves at ``point`` (slow_worker.py's
    ``TEST_STOP_AT``), as they claimed it: each is SIGSTOPped until continued."""
    out = []
    for path in sorted(Path(kill_dir).glob(f"stop-{point}.*")):
        text = path.read_text()
        if text:  # (written right after the claim is made)
            out.append(int(text))
    return out


def wait_for_workers(url: str, n: int, timeout: float = 30) -> None:
    """Until ``n`` RQ workers have registered on the queue Redis."""
    from rq import Worker

    r = redis.Redis.from_url(url)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if len(Worker.all(connection=r)) >= n:
            return
        time.sleep(0.05)
    raise RuntimeError(f"{n} RQ workers did not register in {timeout} s")
