"""The RQ jobs: module-level functions taking ids (and, for a bot, the version its
decision was planned at). RQ delivers at least once (and its scheduler has duplicated
and dropped jobs), so each is idempotent by construction:

- a bot's job whose game has moved past its version does nothing: a newer plan exists
  (``Scheduler.on_appended`` armed it with the append that moved the game, at this
  job's due time: at once); otherwise
  it decides on that version and appends through ``Acting.submit``, the same
  decide-and-append path as a human's request, with the version as the guard: of two
  runs of one decision (a duplicate, a retry, a re-arm after a crash), at most one
  append succeeds, and the other finds the version moved. A bot never acts twice for
  one decision.
- a deadline's job looks at the game as it is: it fires each deadline due by now, one
  ``Timeout`` at a time, each guarded by the version it was found due at (so a deadline
  fires at most once: a duplicate finds it gone), then arms the game's deadline slot at
  the soonest deadline left (``workers.schedule``). Every retry is bounded: a firing
  that keeps losing (a clock behind the domain's, a game moving too fast) backs off,
  doubling up to ``MAX_BACKOFF_S``; a bot whose choice keeps being refused gives up
  after ``MAX_REFUSED`` and leaves its seat to its idle deadline: a hosted bot's is T-6,
  which aborts the game (the service could not run its decisions), never a forfeit.

The lag |start - due| of every job goes to the ``spitlog_worker_lag_seconds``
histogram, and with ``SPITLOG_TRACE=1`` to the schedule's trace stream.
"""

import functools
import logging
import os
import time
from datetime import UTC

import redis
from rq import get_current_job

import domain
from service import logs, telemetry
from service.archiving import permanent
from service.config import Settings, load
from service.errors import ArchiveUnavailable, NoSuchGame

from .metrics import BOT_ACTIONS, JOBS, LAG, TIMEOUTS
from .runtime import Runtime
from .schedule import archive_slot, bot_level, bot_slot, ms, plan_rng, webhook_slot

log = logging.getLogger(__name__)

RETRY_S = 0.05  # a firing that did not happen (clock skew, a race): again this much later
MAX_BACKOFF_S = 5.0  # ... doubling with each attempt, up to this
FIRES_PER_JOB = 4  # deadlines one job fires (or tries to) before it arms itself again
MAX_REFUSED = 5  # a bot whose choices are refused this often at one version stops trying
MAX_EARLY_S = 0.05  # the longest a job waits for its due time (SPITLOG_LEAD_MS, skew)

_runtime: Runtime | None = None


def traced(task: str):
    """A job within its log context (``task``, ``game``) and, when tracing is on, a span
    continuing the trace of the append that armed it (the ``traceparent`` the ticker put
    in the job's meta)."""

    def wrap(f):
        @functools.wraps(f)
        def job(game_id: str, *args, **kwargs):
            bound = logs.bind(task=task, game=game_id)
            try:
                if not telemetry.enabled():
                    return f(game_id, *args, **kwargs)
                current = get_current_job()
                carrier = (current.meta or {}) if current is not None else {}
                with telemetry.span(f"job {task}", carrier, **{"spitlog.game": game_id}):
                    return f(game_id, *args, **kwargs)
            finally:
                logs.reset(bound)

        return job

    return wrap


def setup(s: Settings | None = None) -> Runtime:
    """Build this process's runtime (the worker does it before its first job)."""
    global _runtime
    _runtime = Runtime(s if s is not None else load(warn=None))
    return _runtime


def runtime() -> Runtime:
    return _runtime if _runtime is not None else setup()


@traced("bot_turn")
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
    if outcome in ("stale", "idle"):  # its plan is done (a newer one is kept)
        try:
            rt.schedule.done(bot_slot(game_id, seat), version)
        except redis.RedisError:  # left claimed: a later plan is due at once, no worse
            log.warning("could not end the plan of bot %s of %s", seat, game_id)
    JOBS.labels("bot_turn", outcome).inc()
    if rt.trace:
        _trace(rt, "bot", game_id, seat, None, version, attempt, due_ms, start, outcome, after)
    return outcome


def _bot_turn(rt: Runtime, game_id: str, seat: int, version: int, attempt: int):
    game = rt.reading.load(game_id)
    state = game.state
    if state.over or state.version != version:
        return "stale", state.version
    policy = bot_level(state, seat)
    if policy is None or not state.can_act[seat]:
        return "idle", state.version
    rng = plan_rng(game_id, version, seat, attempt)
    policy.reaction(rng)  # the draw that timed this decision (Scheduler.plans)
    wire = policy.choose(domain.view(state, seat), rng)
    if wire is not None:
        action = domain.parse_action(state.game, wire)
        new = rt.acting.submit(game_id, seat, action, version, known=game)
        if new is not None:
            BOT_ACTIONS.labels(policy.name).inc()
            return "acted", new.version
        now_version = rt.store.version(game_id)
        if now_version != version:
            return "stale", now_version  # the opponent got there first: a newer plan exists
        log.warning("bot %s of %s: %s refused at version %d", seat, game_id, wire, version)
        if attempt + 1 >= MAX_REFUSED:
            log.error("bot %s of %s gives up at version %d", seat, game_id, version)
            return "gave up", version
    # It passed (or erred) with something legal to do: ask again after another reaction.
    due = time.time() * 1000 + rt.scheduler.reaction_ms(policy, rng)
    rt.scheduler.rearm(game_id, version, bot_slot(game_id, seat), due, attempt + 1)
    return ("passed" if wire is None else "refused"), version


@traced("fire_deadline")
def fire_deadline(game_id: str, attempt: int = 0, due_ms=None) -> str:
    """Fire the game's deadlines (T-1..T-6) due by now, each a ``Timeout`` submitted by
    the system (no seat) at the real time; then arm the next one (``attempt``: how many
    firings in a row did not happen)."""
    rt = runtime()
    start = _at_due(due_ms)
    if due_ms is not None:
        LAG.labels("fire_deadline").observe(abs(start * 1000 - due_ms) / 1000)
    try:
        outcome, rule, after = _fire(rt, game_id, attempt, due_ms)
    except NoSuchGame:
        outcome, rule, after = "gone", None, None
    JOBS.labels("fire_deadline", outcome).inc()
    if rt.trace:
        _trace(rt, "dl", game_id, None, rule, after, attempt, due_ms, start, outcome, after)
    return outcome


def _fire(rt: Runtime, game_id: str, attempt: int, due_ms=None):
    """(outcome, the first rule fired or None, the version it leaves)."""
    fired = None
    for _try in range(FIRES_PER_JOB):
        game = rt.reading.load(game_id)
        state = game.state
        if state.over:
            return ("fired" if fired else "stale"), fired, state.version
        found = rt.deadlines.due(game, time.time())
        if found is None:  # none runs: the append that starts one arms the slot
            return ("fired" if fired else "idle"), fired, state.version
        d, at = found
        if at > d.at and time.time() < at:
            # RULES T-4: the service refused this seat's requests for a while since its
            # last action (503s, 429s of limits it did not exceed): that time does not
            # count against it, so it falls due later (refused for idle_forfeit_s, the
            # game is aborted under T-6 instead: ``Deadlines.due``)
            rt.scheduler.arm_deadline(game_id, state.version, ms(at))
            return ("fired" if fired else "excused"), fired, state.version
        if time.time() < d.at:
            if fired or due_ms is None or ms(d.at) > due_ms:
                # a later deadline (the player acted since, or the next one): its time
                rt.scheduler.arm_deadline(game_id, state.version, ms(d.at))
                return ("fired" if fired else "early"), fired, state.version
            # due by the ticker's clock, not yet by this one (clock skew beyond
            # MAX_EARLY_S): back off like a refusal, not a claim a few ms later again
            break
        new = rt.acting.submit(game_id, None, domain.Timeout(d.rule, d.seat), state.version,
                              known=game)  # fmt: skip
        if new is not None:
            TIMEOUTS.labels(d.rule).inc()
            fired = fired or d.rule
            if d.rule == "T-6":
                log.error("game %s aborted under T-6: %s", game_id, new.aborted_why)
        # else the game moved meanwhile, or the domain's clock says not yet: look again
    if fired:  # more keeps falling due: a fresh job goes on
        rt.scheduler.arm_deadline(game_id, state.version, time.time() * 1000)
        return "fired", fired, state.version
    # attempt counts the firings in a row that did not happen: 50 ms, 100 ms, ... 5 s
    wait = min(RETRY_S * 2**attempt, MAX_BACKOFF_S)
    log.warning("deadlines of %s not fired (attempt %d): again in %.2f s", game_id, attempt, wait)
    rt.scheduler.arm_deadline(game_id, state.version, (time.time() + wait) * 1000, attempt + 1)
    return "refused", None, state.version


ARCHIVE_RETRY_S = 1.0  # an archive write that failed: again this much later,
ARCHIVE_MAX_BACKOFF_S = 300.0  # ... doubling with each failure in a row, up to this


@traced("archive_game")
def archive_game(game_id: str, attempt: int = 0, due_ms=None) -> str:
    """Move a finished game out of Redis (``service.archiving.Archiver.step``): once its
    rematch asks are over, archive it and check the copy, then, once the retention is
    over, delete it from Redis. Each run does one step and arms the next. A failure leaves
    the game in Redis: one a retry may get past (the archive unreachable) backs off,
    doubling up to five minutes (``attempt``: the failures in a row); one no retry can
    fix (``archiving.permanent``: an object there that differs or is corrupt, a log or an
    id that cannot be archived) is recorded as failed for good (``Schedule.fail_archive``,
    one error logged) and not tried again: ``unarchivable``."""
    rt = runtime()
    start = _at_due(due_ms)  # (a run early would find the game waiting, and run again)
    if due_ms is not None:
        LAG.labels("archive_game").observe(abs(start * 1000 - due_ms) / 1000)
    try:
        outcome, again = rt.archiver.step(game_id)
    except ArchiveUnavailable as e:
        outcome, again = "failed", None
        wait = min(ARCHIVE_RETRY_S * 2**attempt, ARCHIVE_MAX_BACKOFF_S)
        log.warning("archiving %s failed (attempt %d), again in %.0f s: %s",
                    game_id, attempt, wait, e)  # fmt: skip
        rt.schedule.arm_archive(game_id, (time.time() + wait) * 1000, attempt + 1)
    except Exception as e:
        if not permanent(e):
            raise  # (Redis away: the job fails, and the sweeper arms it again)
        outcome, again = "unarchivable", None
        why = f"{type(e).__name__}: {e}"
        if rt.schedule.fail_archive(game_id, why, time.time() * 1000):
            log.error("archiving %s failed for good, it stays in Redis until an operator "
                      "sees to it (spitlog admin failed): %s", game_id, why)  # fmt: skip
    else:
        if outcome == "held":  # notifications still to deliver: see that they go
            rt.scheduler.arm_webhooks(game_id)
        if again is not None:
            rt.schedule.arm_archive(game_id, again * 1000)
        elif outcome in ("deleted", "gone"):  # out of Redis: every slot of it goes too
            rt.schedule.forget(game_id)
        else:  # not over ("running"): its archive plan goes, its live slots stay
            rt.schedule.done(archive_slot(game_id))
    JOBS.labels("archive_game", outcome).inc()
    if rt.trace:
        _trace(rt, "arc", game_id, None, None, None, attempt, due_ms, start, outcome, None)
    return outcome


@traced("deliver_webhooks")
def deliver_webhooks(game_id: str, attempt: int = 0, due_ms=None) -> str:
    """Deliver the game's webhook notifications that are due, in order
    (``service.deliveries.Deliverer.step``); arm the slot again at the next retry if a
    target failed. Its own errors (Redis away) leave the slot claimed: the sweeper arms
    it again."""
    rt = runtime()
    start = time.time()
    if due_ms is not None:
        LAG.labels("deliver_webhooks").observe(abs(start * 1000 - due_ms) / 1000)
    try:
        outcome, again = rt.deliverer.step(game_id)
    except NoSuchGame:
        outcome, again = "gone", None
    if again is not None:
        rt.schedule.arm_webhooks(game_id, again * 1000)
    else:
        rt.schedule.done(webhook_slot(game_id))
    JOBS.labels("deliver_webhooks", outcome).inc()
    if rt.trace:
        _trace(rt, "wh", game_id, None, None, None, attempt, due_ms, start, outcome, None)
    return outcome


@traced("seek_due")
def seek_due(seek_id: str, due_ms=None) -> str:
    """A seek's bot fallback or expiry (``service.seeks.Seeks.due``), or the game of a
    pairing its process left unmade; armed again if it ran early."""
    rt = runtime()
    start = _at_due(due_ms)
    if due_ms is not None:
        LAG.labels("seek_due").observe(abs(start * 1000 - due_ms) / 1000)
    outcome, _next = rt.seeks.due(seek_id)
    if outcome != "later":
        rt.schedule.forget_seek(seek_id)
    JOBS.labels("seek_due", outcome).inc()
    return outcome


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
