"""``spitlog scheduler``: the ticker that feeds due decisions to RQ, and the sweeper.

A separate process, not a thread of each worker: a worker runs jobs on its main
thread (``workers.worker``), and a bot's choice is pure Python that holds the GIL for
milliseconds, so a ticker beside it would wake late by as much; here the ticker has a
process to itself and is late by its sleep's overshoot only (well under a
millisecond). Run one per deployment, or two for availability: a claim is one script,
so two tickers never enqueue the same claim twice.

- **Ticker** (main thread): claim what is due (``Schedule.claim``), enqueue it as RQ jobs
  in one pipeline, then sleep until the next due time or ``SPITLOG_TICK_S`` (5 ms),
  whichever comes first (a decision armed meanwhile for sooner waits at most that).
  It claims ``SPITLOG_LEAD_MS`` (3 ms) ahead, about what RQ takes from enqueue to job
  start; a job that starts early waits for its due time (``jobs._at_due``).
- **Sweeper** (a child process, every ``SPITLOG_SWEEP_S``): reads the lobby's running and open
  games with their versions; a game that has not moved for ``SPITLOG_STALL_S`` is
  loaded and each decision its state calls for (a bot seat that can act; the deadline
  slot, if a deadline runs) is checked in the schedule. It is fine if it waits in the
  set (the deadline slot: due no later than the soonest deadline), or was claimed less
  than ``STALL_S`` ago; it is lost if a bot's plan is for an older version (the hook
  after an append never ran: a crash, the queue Redis away), if the deadline slot is
  missing or due too late, or if it was claimed long ago (a SIGKILLed worker leaves its
  job STARTED for ~90 s; RQ dropped it; the ticker died between claim and enqueue). A
  lost decision is armed again at once (the deadlines at the soonest's time), with the
  same attempt, so the bot makes the choice the lost job would have made. The jobs'
  guards make this idempotent: a decision armed twice runs twice and acts once. A game
  that keeps moving never stalls, and in a game of humans its appends do not re-arm
  the deadline slot: so every sweep also reads the deadline slot of every moving game
  (one pipeline), and checks those whose slot is gone with an old claim (a lost job);
  every ``FULL_EVERY`` sweeps it checks them all (a lost hook). So no game waits
  longer than its grace (or its bot's reaction) plus ``STALL_S`` + ``SWEEP_S`` + a
  job (a lost hook in a game that keeps moving: ``FULL_EVERY`` sweeps).

The sweeper was first a thread beside the ticker: its sweep (tens of ms of Python with
200 games: the lobby, loading unmoved games) held the GIL against the ticker, whose
ticks then came up to 50 ms late, once a second, and the p99 of the bots' lag went from
about 15 ms to 50-160 ms. As a child process (niced, restarted by the ticker if it
dies, gone when its parent is) it cannot hold up a tick.
"""

import logging
import multiprocessing
import os
import signal
import threading
import time

import redis
from rq import Queue

from service.errors import NoSuchGame

from .metrics import CLAIMED, DEPTH, ENQUEUE_LAG, REARMED, STALLED
from .runtime import Runtime
from .schedule import Decision, Schedule, Scheduler, deadline_slot, soonest_ms
from .worker import make_queue

log = logging.getLogger(__name__)

JOB_TIMEOUT_S = 30  # a job runs for milliseconds; one that hangs is stopped
JOB_TTL_S = 60  # a job still queued after this is dropped: the sweeper has re-armed it
FAILURE_TTL_S = 24 * 3600  # failed jobs stay this long for inspection (rq info)
CLAIM_LIMIT = 500
FULL_EVERY = 10  # sweeps between two checks of every moving game's deadline slot


def job_data(d: Decision):
    """The RQ job of a claimed decision."""
    if d.kind == "bot":
        func, args = "workers.jobs.bot_turn", (d.game_id, d.seat, d.version, d.attempt, d.due_ms)
    else:
        func, args = "workers.jobs.fire_deadline", (d.game_id, d.attempt, d.due_ms)
    return Queue.prepare_data(
        func, args=args, timeout=JOB_TIMEOUT_S, result_ttl=0, ttl=JOB_TTL_S,
        failure_ttl=FAILURE_TTL_S, description=d.slot,
    )  # fmt: skip


class Ticker:
    def __init__(
        self, schedule: Schedule, queue: Queue, *, tick_s: float = 0.005, lead_ms: float = 0.0
    ):
        self.schedule = schedule
        self.queue = queue
        self.tick_s = tick_s
        self.lead_ms = lead_ms  # claim this early: a job waits for its due time

    def tick(self) -> tuple[int, float | None]:
        """Claim and enqueue what is due: (how many, the next due time in ms or None)."""
        now_ms = time.time() * 1000
        decisions, nxt = self.schedule.claim(now_ms + self.lead_ms, CLAIM_LIMIT, now_ms)
        if decisions:
            with self.queue.connection.pipeline() as pipe:
                self.queue.enqueue_many([job_data(d) for d in decisions], pipeline=pipe)
                pipe.execute()
            now_ms = time.time() * 1000
            for d in decisions:
                CLAIMED.labels(d.kind).inc()
                ENQUEUE_LAG.observe(max(0.0, now_ms - d.due_ms) / 1000)
        return len(decisions), nxt

    def run(self, stop: threading.Event, every_second=None) -> None:
        """Tick until ``stop``; call ``every_second()`` about once a second."""
        backoff = 0.1
        chores = 0.0
        while not stop.is_set():
            if every_second is not None and time.monotonic() >= chores:
                chores = time.monotonic() + 1.0
                every_second()
            try:
                n, nxt = self.tick()
                backoff = 0.1
            except redis.RedisError as e:
                log.warning("the ticker could not reach the queue Redis: %s", e)
                stop.wait(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            if n >= CLAIM_LIMIT:
                continue  # more is due: no sleep
            wait = self.tick_s
            if nxt is not None:
                wait = min(wait, max(0.0, (nxt - self.lead_ms) / 1000 - time.time()))
            if wait > 0:
                time.sleep(wait)


class Sweeper:
    def __init__(self, rt: Runtime, *, stall_s: float = 2.0, page: int = 500, clock=time.time):
        self.games = rt.games
        self.store = rt.store
        self.scheduler: Scheduler = rt.scheduler
        self.schedule: Schedule = rt.schedule
        self.stall_s = stall_s
        self.page = page
        self.clock = clock
        self._seen: dict[str, tuple[int, float]] = {}  # game -> (version, first seen at)
        self._checked: dict[str, float] = {}
        self._again: dict[tuple[str, int], tuple[int, float]] = {}  # (game, version) -> n, at
        self._passes = 0

    def live_games(self) -> list[tuple[str, int]]:
        """(id, version) of every running or open game, from the lobby's indexes."""
        out = []
        for status in ("running", "open"):
            cursor = None
            while True:
                rows, cursor = self.store.lobby(status, cursor, self.page)
                out += [(gid, version) for gid, _meta, version in rows]
                if cursor is None:
                    break
        return out

    def sweep(self) -> int:
        """One pass; answers how many decisions it armed again."""
        now = self.clock()
        seen = {}
        for gid, version in self.live_games():
            prev = self._seen.get(gid)
            seen[gid] = prev if prev is not None and prev[0] == version else (version, now)
        self._seen = seen
        self._checked = {g: t for g, t in self._checked.items() if g in seen}
        self._again = {k: v for k, v in self._again.items() if seen.get(k[0], (None,))[0] == k[1]}
        stalled = [
            gid
            for gid, (_v, since) in seen.items()
            if now - since >= self.stall_s and now - self._checked.get(gid, 0) >= self.stall_s
        ]
        STALLED.set(len(stalled))
        rearmed = 0
        for gid in stalled:
            self._checked[gid] = now
            try:
                rearmed += self.check(gid, now)
            except NoSuchGame:
                continue
        rearmed += self._sweep_deadlines([g for g in seen if g not in set(stalled)], now)
        DEPTH.set(self.schedule.depth())
        return rearmed

    def _sweep_deadlines(self, moving: list[str], now: float) -> int:
        """A game that keeps moving never stalls, and in a game of humans an append arms
        the deadline slot only when it brings a deadline sooner: so a lost deadline job
        (or hook) must not wait for a stall. One pipeline reads every moving game's
        slot; a game whose slot is gone and was claimed long ago (or never) is checked
        now, and every ``FULL_EVERY`` sweeps every moving game is (a slot still waiting
        but due too late: a hook lost before it could move it sooner)."""
        self._passes += 1
        full = self._passes % FULL_EVERY == 0
        if not moving:
            return 0
        now_ms = now * 1000
        rearmed = 0
        status = self.schedule.status([deadline_slot(g) for g in moving])
        for gid, (waiting, plan) in zip(moving, status, strict=True):
            lost = waiting is None and (
                plan is None or not plan[2] or now_ms - plan[2] >= self.stall_s * 1000
            )
            if not (lost or full) or now - self._checked.get(gid, 0) < self.stall_s:
                continue
            self._checked[gid] = now
            try:
                rearmed += self.check_deadline(gid, now)
            except NoSuchGame:
                continue
        return rearmed

    def check_deadline(self, game_id: str, now: float) -> int:
        """Arm the deadline slot of ``game_id`` again if it is lost or due too late."""
        state = self.games.load(game_id).state
        if state.over:
            self.scheduler.on_appended(game_id, state)
            return 0
        if soonest_ms(state) is None:
            return 0
        (status,) = self.schedule.status([deadline_slot(game_id)])
        deadline = self._lost_deadline(state, status, now)
        if deadline is None:
            return 0
        log.warning("re-arming the deadlines of %s at version %d", game_id, state.version)
        self.schedule.arm(game_id, state.version, deadline=deadline)
        return 1

    def _claimed_lately(self, plan, now: float) -> bool:
        return plan is not None and bool(plan[2]) and now * 1000 - plan[2] < self.stall_s * 1000

    def _lost_deadline(self, state, status, now: float) -> tuple[float, int] | None:
        """The (due ms, attempt) to arm the deadline slot at again, or None when it is
        fine: due no later than the soonest deadline, or claimed lately (its job is on
        its way). ``status``: the slot's (due, plan) from ``Schedule.status``."""
        soonest = soonest_ms(state)
        waiting, plan = status
        if soonest is None or (waiting is not None and waiting <= soonest):
            return None
        if waiting is None and self._claimed_lately(plan, now):
            return None
        REARMED.labels("dl").inc()
        return (max(soonest, now * 1000), plan[1] if plan is not None else 0)

    def check(self, game_id: str, now: float) -> int:
        """Arm again what ``game_id`` waits for and the schedule has lost."""
        state = self.games.load(game_id).state
        if state.over:  # the index lags (it is repaired as it is read): clear the slots
            self.scheduler.on_appended(game_id, state)
            return 0
        # Armed again at this version before and still unmoved (no worker runs, or they
        # all fail on this game): wait twice as long each time, up to 32 stalls, so that
        # an outage does not pile duplicates of the same decisions into the queue.
        n, at = self._again.get((game_id, state.version), (0, 0.0))
        if n and now - at < self.stall_s * 2 ** min(n, 5):
            return 0
        now_ms = now * 1000
        wanted = [slot for slot, _due, _a in self.scheduler.bot_plans(game_id, state, now)]
        *status, dl_status = self.schedule.status([*wanted, deadline_slot(game_id)])
        deadline = self._lost_deadline(state, dl_status, now)
        bots = []
        for slot, (waiting, plan) in zip(wanted, status, strict=True):
            current = plan is not None and plan[0] == state.version
            if current and (waiting is not None or self._claimed_lately(plan, now)):
                continue  # armed, waiting for its time; or claimed lately
            # the same attempt: the bot makes the choice the lost job would have made
            bots.append((slot, now_ms, plan[1] if current else 0))
            REARMED.labels("bot").inc()
        if not bots and deadline is None:
            return 0
        self._again[(game_id, state.version)] = (n + 1, now)
        log.warning("re-arming %s of %s at version %d",
                    [b[0] for b in bots] + (["deadlines"] if deadline else []), game_id,
                    state.version)  # fmt: skip
        self.schedule.arm(game_id, state.version, bots, deadline=deadline)
        return len(bots) + (deadline is not None)

    def run(self, stop: threading.Event, every_s: float = 1.0, parent: int | None = None):
        """Sweep every ``every_s`` until ``stop`` (or until ``parent`` is gone)."""
        while not stop.wait(every_s):
            if parent is not None and os.getppid() != parent:
                return  # the scheduler died: the one that replaces it starts its own
            try:
                self.sweep()
            except Exception:  # keep sweeping: a Redis hiccup must not end the safety net
                log.exception("the sweep failed")


def _stop_on_signals(stop: threading.Event) -> None:
    def on_signal(_signum, _frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)


def sweeper_main(cfg: dict, parent: int) -> None:
    """The sweeper's process (a child of the scheduler)."""
    from .cli import _common

    os.nice(5)  # the ticker and the workers first
    port = int(cfg["METRICS_PORT"]) + 1 if cfg["METRICS_PORT"] else 0
    _common({**cfg, "METRICS_PORT": port}, child_of_dev=False)  # its parent is the scheduler
    stop = threading.Event()
    _stop_on_signals(stop)
    Sweeper(Runtime(cfg), stall_s=float(cfg["STALL_S"])).run(stop, float(cfg["SWEEP_S"]), parent)


def run(cfg: dict) -> int:
    """The scheduler process: the ticker, and the sweeper in a child process."""
    schedule = Schedule(redis.Redis.from_url(cfg["QUEUE_URL"], socket_timeout=5))
    ticker = Ticker(
        schedule, make_queue(cfg, schedule.r), tick_s=float(cfg["TICK_S"]),
        lead_ms=float(cfg["LEAD_MS"]),
    )  # fmt: skip
    stop = threading.Event()
    _stop_on_signals(stop)
    spawn = multiprocessing.get_context("spawn")
    child: list = [None]

    def keep_sweeper():
        proc = child[0]
        if proc is None or not proc.is_alive():
            if proc is not None:
                log.warning("the sweeper exited (%s): starting another", proc.exitcode)
            proc = spawn.Process(
                target=sweeper_main, args=(cfg, os.getpid()), name="spitlog-sweeper", daemon=True
            )
            proc.start()
            child[0] = proc

    log.info("scheduler: ticking every %.0f ms at most, sweeping every %.1f s",
             cfg["TICK_S"] * 1000, cfg["SWEEP_S"])  # fmt: skip
    try:
        ticker.run(stop, every_second=keep_sweeper)
    finally:
        if child[0] is not None and child[0].is_alive():
            child[0].terminate()
            child[0].join(5)
    return 0
