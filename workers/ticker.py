"""``spitlog scheduler``: the ticker that feeds due decisions to RQ, and the sweeper.

A separate process, not a thread of each worker: a worker runs jobs on its main
thread (``workers.worker``), and a bot's choice is pure Python that holds the GIL for
milliseconds, so a ticker beside it would wake late by as much; here the ticker has a
process to itself and is late by its sleep's overshoot only (well under a
millisecond). Run one per deployment, or two for availability: a claim is one script,
so two tickers never enqueue the same claim twice.

- **Ticker** (main thread): claim what is due (``Schedule.claim``), enqueue it as RQ jobs
  in one pipeline, then wait until the next due time, a wake-up, or ``SPITLOG_TICK_S``
  (1 s), whichever comes first. The wait is a local timer (precise to well under a
  millisecond); a thread beside it listens on the schedule's wake channel, where an arm
  that makes a slot the soonest publishes (one script: ``Schedule.arm``), and cuts the
  wait short. So an idle scheduler wakes once a second (its chores: the heartbeat of
  ``spitlog health scheduler``, the sweeper's watch), not every few milliseconds; a
  wake-up lost (the channel's connection dropped) costs at most ``SPITLOG_TICK_S``.
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

The sweeper runs in a child process (niced, restarted by the ticker if it dies, gone
when its parent is), so that it cannot hold up a tick (docs/decisions/0008).
"""

import contextlib
import logging
import multiprocessing
import os
import socket
import threading
import time

import redis
from rq import Queue

from service import telemetry
from service.config import Settings
from service.store.connect import client

from . import process, sweeper
from .metrics import CLAIMED, ENQUEUE_LAG
from .schedule import Decision, Schedule
from .worker import make_queue

log = logging.getLogger(__name__)

JOB_TIMEOUT_S = 30  # a job runs for milliseconds; one that hangs is stopped
JOB_TTL_S = 60  # a job still queued after this is dropped: the sweeper has re-armed it
FAILURE_TTL_S = 24 * 3600  # failed jobs stay this long for inspection (rq info)
# a finished job's hash and result expire after this: deleting a job kept for 0 s costs
# RQ more than setting an expiry on one (docs/decisions/0041)
RESULT_TTL_S = 1
CLAIM_LIMIT = 500


def job_data(d: Decision, traceparent: str | None = None):
    """The RQ job of a claimed decision (``traceparent``: the trace it continues)."""
    if d.kind == "bot":
        func, args = "workers.jobs.bot_turn", (d.game_id, d.seat, d.version, d.attempt, d.due_ms)
    elif d.kind == "arc":
        func, args = "workers.jobs.archive_game", (d.game_id, d.attempt, d.due_ms)
    elif d.kind == "wh":
        func, args = "workers.jobs.deliver_webhooks", (d.game_id, d.attempt, d.due_ms)
    elif d.kind == "seek":
        func, args = "workers.jobs.seek_due", (d.game_id, d.due_ms)
    else:
        func, args = "workers.jobs.fire_deadline", (d.game_id, d.attempt, d.due_ms)
    return Queue.prepare_data(
        func, args=args, timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S, ttl=JOB_TTL_S,
        failure_ttl=FAILURE_TTL_S, description=d.slot,
        meta={"traceparent": traceparent} if traceparent else None,
    )  # fmt: skip


class Ticker:
    LISTEN_S = 30.0  # a wake channel silent this long is pinged (a dead connection shows)

    def __init__(
        self, schedule: Schedule, queue: Queue, *, tick_s: float = 1.0, lead_ms: float = 0.0
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
            traces = [None] * len(decisions)
            if telemetry.enabled():
                traces = self.schedule.trace_of([d.game_id for d in decisions])
            with self.queue.connection.pipeline() as pipe:
                jobs = [job_data(d, t) for d, t in zip(decisions, traces, strict=True)]
                self.queue.enqueue_many(jobs, pipeline=pipe)
                pipe.execute()
            now_ms = time.time() * 1000
            for d in decisions:
                CLAIMED.labels(d.kind).inc()
                ENQUEUE_LAG.observe(max(0.0, now_ms - d.due_ms) / 1000)
        return len(decisions), nxt

    def listen(self, woken: threading.Event, stop: threading.Event) -> None:
        """Set ``woken`` at each message of the wake channel, until ``stop`` (a thread of its
        own); and once each time it (re)subscribes, for what was armed while it was not."""
        backoff = 0.1
        while not stop.is_set():
            try:
                ps = self.schedule.subscribe()
            except redis.RedisError as e:
                log.warning("the ticker could not subscribe to its wake-ups: %s", e)
                stop.wait(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            backoff = 0.1
            woken.set()
            try:
                quiet_since = time.monotonic()
                while not stop.is_set():
                    msg = ps.get_message(timeout=self.LISTEN_S)
                    if msg is not None and msg["type"] == "message":
                        woken.set()
                        quiet_since = time.monotonic()
                    elif time.monotonic() - quiet_since >= self.LISTEN_S:
                        ps.ping()  # a connection that died quietly fails here, not never
                        quiet_since = time.monotonic()
            except redis.RedisError as e:
                log.warning("the ticker lost its wake-ups (%s): subscribing again", e)
            finally:
                ps.close()

    def run(self, stop: threading.Event, every_second=None, woken=None) -> None:
        """Tick until ``stop``; call ``every_second()`` about once a second. Between two ticks
        wait for the next due time, or a wake-up (``woken``: set by ``listen``), or
        ``tick_s``, whichever comes first."""
        woken = woken if woken is not None else threading.Event()
        backoff = 0.1
        chores = 0.0
        while not stop.is_set():
            if every_second is not None and time.monotonic() >= chores:
                chores = time.monotonic() + 1.0
                every_second()
            woken.clear()  # before the claim: an arm that lands after it wakes the wait
            try:
                n, nxt = self.tick()
                backoff = 0.1
            except redis.RedisError as e:
                log.warning("the ticker could not reach the queue Redis: %s", e)
                stop.wait(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            if n >= CLAIM_LIMIT:
                continue  # more is due: no wait
            wait = self.tick_s
            if every_second is not None:
                wait = min(wait, chores - time.monotonic())
            if nxt is not None:
                wait = min(wait, (nxt - self.lead_ms) / 1000 - time.time())
            if wait > 0:
                woken.wait(wait)


def run(s: Settings) -> int:
    """The scheduler process: the ticker, its wake-up listener, and the sweeper in a child
    process."""
    schedule = Schedule(client(s.queue, socket_timeout=5))
    ticker = Ticker(schedule, make_queue(s, schedule.r), tick_s=s.tick_s, lead_ms=s.lead_ms)
    stop, woken = threading.Event(), threading.Event()
    process.stop_on_signals(stop, woken)
    threading.Thread(target=ticker.listen, args=(woken, stop), name="wake", daemon=True).start()
    spawn = multiprocessing.get_context("spawn")
    child: list = [None]
    host = socket.gethostname()

    def chores():
        with contextlib.suppress(redis.RedisError):  # the tick says so
            schedule.beat(host, time.time() * 1000)
        proc = child[0]
        if proc is None or not proc.is_alive():
            if proc is not None:
                log.warning("the sweeper exited (%s): starting another", proc.exitcode)
            proc = spawn.Process(
                target=sweeper.main, args=(s, os.getpid()), name="spitlog-sweeper", daemon=True
            )
            proc.start()
            child[0] = proc

    log.info("scheduler: waiting %.0f ms at most between claims, sweeping every %.1f s",
             s.tick_s * 1000, s.sweep_s)  # fmt: skip
    try:
        ticker.run(stop, every_second=chores, woken=woken)
    finally:
        if child[0] is not None and child[0].is_alive():
            child[0].terminate()
            child[0].join(5)
    return 0
