"""The sweeper: re-arms the decisions a crash lost (a child process of the scheduler,
``workers.ticker`` says why a process). Its working is told in ``workers.ticker``'s
module doc, with the ticker's."""

import logging
import os
import threading
import time

from service.config import Settings
from service.errors import NoSuchGame

from .metrics import ARCHIVE_FAILED, DEPTH, LIVE, OVERDUE, REARMED, STALLED
from .process import prepare, stop_on_signals
from .runtime import Runtime
from .schedule import (
    Schedule,
    Scheduler,
    archive_slot,
    deadline_slot,
    ms,
    soonest_ms,
    webhook_slot,
)

log = logging.getLogger(__name__)

FULL_EVERY = 10  # sweeps between two checks of every moving game's deadline slot
# ... and of every finished game's archive slot, lost when it is not waiting and was
# claimed longer ago than this many stall times (an archive job may take seconds)
ARCHIVE_STALLS = 5


class Sweeper:
    def __init__(self, rt: Runtime, *, stall_s: float = 2.0, page: int = 500, clock=time.time):
        self.reading = rt.reading
        self.deadlines = rt.deadlines
        self.store = rt.store
        self.scheduler: Scheduler = rt.scheduler
        self.schedule: Schedule = rt.schedule
        self.seeks = rt.seeks
        self.stall_s = stall_s
        self.page = page
        self.clock = clock
        self._seen: dict[str, tuple[int, float]] = {}  # game -> (version, first seen at)
        self._checked: dict[str, float] = {}
        self._again: dict[tuple[str, int], tuple[int, float]] = {}  # (game, version) -> n, at
        # game -> (version, its soonest deadline in ms or None), as last loaded: a game still
        # at that version has been waiting for that deadline since (spitlog_deadline_overdue)
        self._soonest: dict[str, tuple[int, int | None]] = {}
        self._passes = 0

    def live_games(self) -> list[tuple[str, int]]:
        """(id, version) of every running or open game, from the lobby's indexes."""
        out = []
        for status in ("running", "open"):
            cursor, n = None, 0
            while True:
                rows, cursor = self.store.lobby(status, cursor, self.page)
                out += [(row.id, row.version) for row in rows]
                n += len(rows)
                if cursor is None:
                    break
            LIVE.labels(status).set(n)
        return out

    def _loaded(self, game_id: str, state) -> None:
        """Remember ``state``'s soonest deadline (the overdue gauge)."""
        self._soonest[game_id] = (state.version, None if state.over else soonest_ms(state))

    def overdue(self, seen: dict[str, tuple[int, float]], now: float) -> float:
        """How long ago (s) the soonest deadline of the most overdue game fell due, among
        those loaded at the version they are still at (0: none is overdue)."""
        self._soonest = {g: vs for g, vs in self._soonest.items() if g in seen}
        due = [s for g, (v, s) in self._soonest.items() if s is not None and seen[g][0] == v]
        return max(0.0, now - min(due) / 1000) if due else 0.0

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
        if self._passes % FULL_EVERY == 1:
            rearmed += self.sweep_archives(now)
        rearmed += self.sweep_seeks(now)
        DEPTH.set(self.schedule.depth())
        OVERDUE.set(self.overdue(seen, now))
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

    def finished_games(self) -> list[str]:
        """The ids of the finished games still in Redis, from the lobby's index."""
        out, cursor = [], None
        while True:
            rows, cursor = self.store.lobby("finished", cursor, self.page)
            out += [row.id for row in rows]
            if cursor is None:
                return out

    def sweep_archives(self, now: float) -> int:
        """Arm again the archive slot of every finished game that lost it (a hook or a job
        that never ran: a crash); answers how many. The games: those of the finished
        lobby, and those with an archive plan (a job that died after it removed the game
        from the lobby, before it was done); not those whose archiving failed for good
        (``Schedule.fail_archive``: counted, ``spitlog_archive_failed_games``)."""
        self._sweep_webhooks(now)
        games = sorted(set(self.finished_games()) | set(self.schedule.archive_plans()))
        status = self.schedule.status([archive_slot(g) for g in games]) if games else []
        # read after the slots: a job that fails for good records it and drops its slot
        # at once (``fail_archive``), so a slot found gone is among these, or lost
        failed = self.schedule.archive_failures()
        ARCHIVE_FAILED.set(len(failed))
        rearmed = 0
        for gid, (waiting, plan) in zip(games, status, strict=True):
            if waiting is not None or gid in failed:
                continue
            if (
                plan is not None
                and plan[2]
                and now * 1000 - plan[2] < (ARCHIVE_STALLS * self.stall_s * 1000)
            ):
                continue  # claimed lately: its job is on its way
            REARMED.labels("arc").inc()
            self.schedule.arm_archive(gid, now * 1000, plan[1] if plan is not None else 0)
            rearmed += 1
        if rearmed:
            log.warning("re-armed the archiving of %d finished games", rearmed)
        return rearmed

    def _sweep_webhooks(self, now: float) -> None:
        """Arm again each webhook slot whose job was claimed long ago and never finished
        (killed): its plan is still there, not waiting."""
        games = self.schedule.archive_plans("wh")
        slots = [webhook_slot(g) for g in games]
        for gid, (waiting, plan) in zip(games, self.schedule.status(slots), strict=True):
            if (
                waiting is None
                and plan is not None
                and plan[2]
                and now * 1000 - plan[2] >= (ARCHIVE_STALLS * self.stall_s * 1000)
            ):
                REARMED.labels("wh").inc()
                self.schedule.arm_webhooks(gid, now * 1000, plan[1])

    def sweep_seeks(self, now: float) -> int:
        """Seeks whose fallback or expiry is overdue by a stall (their job lost) are
        armed again; pairings a crash left unmade for a stall are made (``Seeks``)."""
        stale = int((now - self.stall_s) * 1000)
        overdue = self.seeks.store.overdue(stale)
        for seek_id in overdue:
            REARMED.labels("seek").inc()
            self.schedule.arm_seek(seek_id, now * 1000)
        made = self.seeks.settle_stale(stale)
        if overdue or made:
            log.warning("re-armed %d seeks, made the games of %d pairings", len(overdue), made)
        return len(overdue) + made

    def check_deadline(self, game_id: str, now: float) -> int:
        """Arm the deadline slot of ``game_id`` again if it is lost or due too late."""
        game = self.reading.load(game_id)
        state = game.state
        self._loaded(game_id, state)
        if state.over:
            self.scheduler.on_appended(game_id, state, rated=game.rated)
            return 0
        if soonest_ms(state) is None:
            return 0
        (status,) = self.schedule.status([deadline_slot(game_id)])
        deadline = self._lost_deadline(game, status, now)
        if deadline is None:
            return 0
        log.warning("re-arming the deadlines of %s at version %d", game_id, state.version)
        self.schedule.arm(game_id, state.version, deadline=deadline)
        return 1

    def _claimed_lately(self, plan, now: float) -> bool:
        return plan is not None and bool(plan[2]) and now * 1000 - plan[2] < self.stall_s * 1000

    def _lost_deadline(self, game, status, now: float) -> tuple[float, int] | None:
        """The (due ms, attempt) to arm the deadline slot at again, or None when it is
        fine: due no later than the soonest deadline (a T-4 pushed back by the seat's
        refused requests as the deadline job pushes it: ``Deadlines.due``), or claimed
        lately (its job is on its way). ``status``: the slot's (due, plan) from
        ``Schedule.status``."""
        found = self.deadlines.due(game, now)
        soonest = None if found is None else ms(found[1])
        waiting, plan = status
        if soonest is None or (waiting is not None and waiting <= soonest):
            return None
        if waiting is None and self._claimed_lately(plan, now):
            return None
        REARMED.labels("dl").inc()
        return (max(soonest, now * 1000), plan[1] if plan is not None else 0)

    def check(self, game_id: str, now: float) -> int:
        """Arm again what ``game_id`` waits for and the schedule has lost."""
        game = self.reading.load(game_id)
        state = game.state
        self._loaded(game_id, state)
        if state.over:  # the index lags (it is repaired as it is read): clear the slots
            self.scheduler.on_appended(game_id, state, rated=game.rated)
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
        deadline = self._lost_deadline(game, dl_status, now)
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


def main(s: Settings, parent: int) -> None:
    """The sweeper's process (a child of the scheduler, ``parent``)."""
    os.nice(5)  # the ticker and the workers first
    prepare(s, metrics_port=s.metrics_port + 1 if s.metrics_port else 0, parent=0)
    stop = threading.Event()
    stop_on_signals(stop)
    Sweeper(Runtime(s), stall_s=s.stall_s).run(stop, s.sweep_s, parent)
