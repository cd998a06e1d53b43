"""The RQ jobs: module-level functions taking ids and the version their decision was
planned at. RQ delivers at least once (and its scheduler has duplicated and dropped
jobs), so each is idempotent by construction:

- a job whose game has moved past its version does nothing: a newer plan exists
  (``Scheduler.on_appended`` armed it with the append that moved the game);
- otherwise it decides on that version and appends through ``Games.submit``, the same
  decide-and-append path as a human's request, with the version as the guard: of two
  runs of one decision (a duplicate, a retry, a re-arm after a crash), at most one
  append succeeds, and the other finds the version moved. A bot never acts twice for
  one decision; a deadline fires at most once.

The lag |start - due| of every job goes to the ``spitlog_worker_lag_seconds``
histogram, and with ``SPITLOG_TRACE=1`` to the schedule's trace stream.
"""

import logging
import os
import time
from datetime import UTC

from rq import get_current_job

import domain
from service.errors import NoSuchGame

from . import settings
from .metrics import BOT_ACTIONS, JOBS, LAG, TIMEOUTS
from .runtime import Runtime
from .schedule import bot_level, bot_slot, deadline_slot, ms, plan_rng

log = logging.getLogger(__name__)

RETRY_REFUSED_S = 0.05  # a deadline the domain found not yet due (clock skew): try again
MAX_EARLY_S = 0.05  # the longest a job waits for its due time (SPITLOG_LEAD_MS, skew)

_runtime: Runtime | None = None


def setup(cfg: dict | None = None) -> Runtime:
    """Build this process's runtime (the worker does it before its first job)."""
    global _runtime
    _runtime = Runtime(cfg if cfg is not None else settings.from_env())
    return _runtime


def runtime() -> Runtime:
    return _runtime if _runtime is not None else setup()


def bot_turn(game_id: str, seat: int, version: int, attempt: int = 0, due_ms=None) -> str:
    """Play bot ``seat``'s decision planned at ``version`` (``attempt``: how many times it
    was asked again at that version)."""
    rt = runtime()
    start = _at_due(due_ms)
    if due_ms is not None:
        LAG.labels("bot_turn").observe(abs(start * 1000 - due_ms) / 1000)
    try:
        outcome, after = _bot_turn(rt, game_id, seat, version, attempt)
    except NoSuchGame:
        outcome, after = "gone", None
    JOBS.labels("bot_turn", outcome).inc()
    if rt.trace:
        _trace(rt, "bot", game_id, seat, None, version, attempt, due_ms, start, outcome, after)
    return outcome


def _bot_turn(rt: Runtime, game_id: str, seat: int, version: int, attempt: int):
    state = rt.games.load(game_id).state
    if state.over or state.version != version:
        return "stale", state.version
    policy = bot_level(state, seat)
    if policy is None or not state.can_act[seat]:
        return "idle", state.version
    rng = plan_rng(game_id, version, seat, attempt)
    policy.reaction(rng)  # the draw that timed this decision (Scheduler.plans)
    wire = policy.choose(domain.view(state, seat), rng)
    if wire is not None:
        new = rt.games.submit(game_id, seat, domain.parse_action(state.game, wire), version)
        if new is not None:
            BOT_ACTIONS.labels(policy.name).inc()
            return "acted", new.version
        now_version = rt.store.version(game_id)
        if now_version != version:
            return "stale", now_version  # the opponent got there first: a newer plan exists
        log.warning("bot %s of %s: %s refused at version %d", seat, game_id, wire, version)
    # It passed (or erred) with something legal to do: ask again after another reaction.
    due = time.time() * 1000 + rt.scheduler.reaction_ms(policy, rng)
    rt.scheduler.rearm(game_id, version, bot_slot(game_id, seat), due, attempt + 1)
    return ("passed" if wire is None else "refused"), version


def fire_deadline(
    game_id: str, rule: str, seat: int | None, version: int, attempt: int = 0, due_ms=None
) -> str:
    """Fire deadline ``rule`` (T-1..T-5; ``seat`` for T-4) of the game at ``version``: a
    ``Timeout`` submitted by the system (no seat) at the real time."""
    rt = runtime()
    start = _at_due(due_ms)
    if due_ms is not None:
        LAG.labels("fire_deadline").observe(abs(start * 1000 - due_ms) / 1000)
    try:
        outcome, after = _fire(rt, game_id, rule, seat, version, attempt)
    except NoSuchGame:
        outcome, after = "gone", None
    JOBS.labels("fire_deadline", outcome).inc()
    if rt.trace:
        _trace(rt, "dl", game_id, seat, rule, version, attempt, due_ms, start, outcome, after)
    return outcome


def _fire(rt: Runtime, game_id: str, rule: str, seat, version: int, attempt: int):
    state = rt.games.load(game_id).state
    if state.over or state.version != version:
        return "stale", state.version
    due = next((d for d in domain.deadlines(state) if d.rule == rule and d.seat == seat), None)
    if due is None:
        return "stale", state.version
    slot = deadline_slot(game_id, rule, seat)
    if time.time() < due.at:  # claimed early (another host's clock): back to its time
        rt.scheduler.rearm(game_id, version, slot, ms(due.at), attempt)
        return "early", version
    new = rt.games.submit(game_id, None, domain.Timeout(rule, seat), version)
    if new is not None:
        TIMEOUTS.labels(rule).inc()
        return "fired", new.version
    now_version = rt.store.version(game_id)
    if now_version != version:
        return "stale", now_version
    rt.scheduler.rearm(game_id, version, slot, (time.time() + RETRY_REFUSED_S) * 1000, attempt + 1)
    return "refused", version


def _at_due(due_ms) -> float:
    """Now, or the due time if the job started before it: the ticker hands decisions to
    the queue ``SPITLOG_LEAD_MS`` early, so that RQ's own few milliseconds between a
    dequeue and the job are spent before the due time, not after it."""
    now = time.time()
    if due_ms is not None and now * 1000 < due_ms:
        time.sleep(min(due_ms / 1000 - now, MAX_EARLY_S))
        now = time.time()
    return now


def _trace(rt, kind, game_id, seat, rule, version, attempt, due_ms, start, outcome, after):
    job = get_current_job()
    enq = job.enqueued_at.replace(tzinfo=UTC).timestamp() * 1000 if job and job.enqueued_at else 0
    try:
        rt.schedule.trace({
            "enq": f"{enq:.3f}",
            "kind": kind, "game": game_id, "seat": "-" if seat is None else seat,
            "rule": rule or "-", "version": version, "attempt": attempt,
            "due": "-" if due_ms is None else f"{due_ms:.0f}", "start": f"{start * 1000:.3f}",
            "end": f"{time.time() * 1000:.3f}", "outcome": outcome,
            "after": "-" if after is None else after, "pid": os.getpid(),
        })  # fmt: skip
    except Exception:  # the trace is for benchmarks; never fail a job over it
        log.exception("could not trace a job")
