"""The schedule's scripts and the sweeper on a real redis-server (no worker processes):
arming bots is monotonic per game, the deadline slot only ever moves sooner, a due
decision is claimed by one ticker only, a game over leaves no slot (and is armed for the
archive once its rematch asks are over), an action of a human game arms nothing unless it
brings a deadline sooner or takes away one due soon, and the sweeper re-arms exactly what
a crash lost."""

import dataclasses
import math
import threading
import time

import pytest

import domain
from service.acting import Acted
from service.config import load
from tests.support.api import move_each
from tests.support.fakes import MovableClock
from workers.jobs import MAX_BACKOFF_S, RETRY_S, _fire
from workers.runtime import Runtime
from workers.schedule import (
    DUE,
    NEAR_S,
    PLAN,
    Schedule,
    Scheduler,
    all_slots,
    archive_slot,
    bot_level,
    bot_slot,
    deadline_slot,
    ms,
    plan_rng,
)
from workers.sweeper import Sweeper
from workers.ticker import Ticker
from workers.worker import make_queue

pytestmark = pytest.mark.redis


@pytest.fixture
def clock():
    return MovableClock()


@pytest.fixture
def rt(redis_url, redis_client, clock):  # redis_client: flushed for each test
    return Runtime(load(warn=None, redis_url=redis_url, bot_pace=1.0), clock=clock)


def test_arming_is_monotonic_per_game(rt):
    s = rt.schedule
    slot = bot_slot("g_1", 0)
    assert s.arm("g_1", 5, [(slot, 1000.0, 0)])
    assert not s.arm("g_1", 4, [(slot, 500.0, 0)])  # a hook from an older append, late
    assert s.status([slot]) == [(1000.0, (5, 0, 0))]
    assert s.arm("g_1", 5, [(slot, 1200.0, 1)])  # the same version again (a re-arm)
    assert s.arm("g_1", 6, [], [slot])  # the next state has no such decision
    assert s.status([slot]) == [(None, None)]


def test_T6_a_bot_plan_moved_on_keeps_its_sooner_due_time(rt):
    """RULES T-6: a plan moved to a newer version with ``keep`` keeps the due time of the
    plan it replaces if that is sooner (waiting in the set, or claimed and its job not
    done: its claim time, so at once); without ``keep`` (the bot's own action) it is due
    when asked. A job that ends without acting drops its plan, not a newer one."""
    s = rt.schedule
    slot = bot_slot("g_k", 1)
    keep = {slot}
    assert s.arm("g_k", 5, [(slot, 5000.0, 0)])
    assert s.arm("g_k", 6, [(slot, 9000.0, 0)], keep=keep)  # later: the earlier time stays
    assert s.status([slot]) == [(5000.0, (6, 0, 0))]
    assert s.arm("g_k", 7, [(slot, 4000.0, 0)], keep=keep)  # sooner: taken
    assert s.status([slot]) == [(4000.0, (7, 0, 0))]
    assert s.arm("g_k", 8, [(slot, 9000.0, 0)])  # the bot acted: due at its new reaction
    assert s.status([slot]) == [(9000.0, (8, 0, 0))]
    (claimed,), _ = s.claim(9000.0, now_ms=9001.0)  # its job is on its way
    assert claimed.slot == slot and s.status([slot]) == [(None, (8, 0, 9001))]
    assert s.arm("g_k", 9, [(slot, 12_000.0, 0)], keep=keep)  # moved on under that job
    assert s.status([slot]) == [(9001.0, (9, 0, 0))]  # due at once: its job is stale
    s.done(slot, 8)  # that job ends stale: the newer plan stays
    assert s.status([slot]) == [(9001.0, (9, 0, 0))]
    (claimed,), _ = s.claim(9001.0, now_ms=9002.0)
    s.done(slot, 9)  # a job that ends without acting, and no newer plan: its plan goes
    assert s.status([slot]) == [(None, None)]
    assert s.arm("g_k", 10, [(slot, 15_000.0, 0)], keep=keep)  # nothing to keep
    assert s.status([slot]) == [(15_000.0, (10, 0, 0))]


def test_T6_an_opponent_acting_faster_than_the_bot_does_not_put_its_decision_off(rt):
    """RULES T-6 (docs/decisions/0029): after every append of a game with a hosted bot
    its plan moves to the new version, but unless the bot acted it keeps its due time.
    A person who acts faster than the bot's reaction (here: ready, 1 ms before the bot's
    ready falls due) no longer pushes the bot's decision off, which would keep it from
    ever acting while its T-6 clock ran; the bot decides on the game as it is at that
    time. Its own action plans the next one at its reaction from then."""
    g = rt.seating.create("speed", {"ready_grace_s": 60}, "bot:easy", "").body
    gid, token = g["id"], g["token"]
    slot = bot_slot(gid, 1)
    state = rt.reading.load(gid).state
    ((due, plan),) = rt.schedule.status([slot])
    assert due is not None and plan[0] == state.version
    rt.scheduler.clock = lambda: due / 1000 - 0.001  # the hook runs 1 ms before it
    assert isinstance(rt.acting.act(gid, token, {"type": "ready"}), Acted)
    state = rt.reading.load(gid).state
    assert state.can_act[1] and rt.schedule.status([slot]) == [(due, (state.version, 0, 0))]
    # the bot's own action: its next plan is due at its reaction from now
    rt.scheduler.clock = Clock()
    now = rt.scheduler.clock()
    after = rt.acting.submit(gid, 1, domain.Ready(), state.version)
    assert after is not None
    if not after.can_act[1]:  # a deal that leaves the bot no move yet: no plan of its own
        assert rt.schedule.status([slot]) == [(None, None)]
        return
    policy = bot_level(after, 1)
    reaction = rt.scheduler.reaction_ms(policy, plan_rng(gid, after.version, 1))
    assert rt.schedule.status([slot]) == [(now * 1000 + reaction, (after.version, 0, 0))]


def test_a_job_moves_the_deadline_slot_only_sooner_and_only_from_the_latest_version(rt):
    s = rt.schedule
    slot = deadline_slot("g_1")
    s.arm("g_1", 5, deadline=(9000.0, 0))
    s.arm("g_1", 6, deadline=(12000.0, 0))  # later: the job will arm it again then
    assert s.status([slot]) == [(9000.0, (5, 0, 0))]
    s.arm("g_1", 6, deadline=(7000.0, 2))  # sooner
    assert s.status([slot]) == [(7000.0, (6, 2, 0))]
    s.arm("g_1", 4, deadline=(1000.0, 0))  # from a job that looked at an older state
    assert s.status([slot]) == [(7000.0, (6, 2, 0))]


def test_a_hook_sets_the_deadline_slot_exactly_unless_a_later_version_was_armed(rt):
    s = rt.schedule
    slot = deadline_slot("g_2")
    s.arm("g_2", 7, exact=(50_000.0,))
    s.arm("g_2", 8, exact=(90_000.0,))  # exactly: later too
    assert s.status([slot]) == [(90_000.0, (8, 0, 0))]
    s.arm("g_2", 7, exact=(10_000.0,))  # an older append's hook, landing late: nothing
    assert s.status([slot]) == [(90_000.0, (8, 0, 0))]
    s.arm("g_2", 9, exact=(None,))  # the state has no deadline
    assert s.status([slot]) == [(None, None)]
    s.arm("g_2", 8, deadline=(20_000.0, 0))  # a job of an older state cannot put it back
    assert s.status([slot]) == [(None, None)]


def _wakes(ps) -> list[float]:
    """The due times published on the wake channel since the last call."""
    out = []
    while (msg := ps.get_message(timeout=0.2)) is not None:
        if msg["type"] == "message":
            out.append(float(msg["data"]))
    return out


def test_an_arm_publishes_a_wake_up_only_when_it_brings_the_soonest_slot(rt):
    s = rt.schedule
    ps = s.subscribe()
    ps.get_message(timeout=1)  # the subscription's own
    s.arm("g_1", 1, [(bot_slot("g_1", 0), 5000.0, 0)])  # the first: the soonest
    assert _wakes(ps) == [5000.0]
    s.arm("g_2", 1, [(bot_slot("g_2", 0), 9000.0, 0)])  # later than the soonest: no one waits
    s.arm("g_1", 2, [(bot_slot("g_1", 0), 6000.0, 0)])  # the soonest moved later: nor here
    assert _wakes(ps) == []
    s.arm("g_3", 1, deadline=(4000.0, 0))  # a deadline sooner than all
    s.arm("g_4", 1, [], exact=(3000.0,))
    s.arm_archive("g_5", 8000.0)  # archive slots always publish (one a game)
    assert _wakes(ps) == [4000.0, 3000.0, 8000.0]
    s.arm("g_6", 0, [(bot_slot("g_6", 0), 1.0, 0)])
    s.arm("g_6", 0, [(bot_slot("g_6", 1), 0.5, 0)])
    assert _wakes(ps) == [1.0, 0.5]
    ps.close()


class _LongWaits(threading.Event):
    """The ticker's wake-up event, which tells when the ticker began a wait of over a
    second (``long_wait``)."""

    def __init__(self):
        super().__init__()
        self.long_wait = threading.Event()

    def wait(self, timeout=None):
        if timeout is None or timeout > 1:
            self.long_wait.set()
        return super().wait(timeout)


def test_an_idle_ticker_wakes_for_a_decision_armed_while_it_waits(rt):
    """The ticker waits up to tick_s (here a minute) when the schedule is empty: a bot armed
    meanwhile, due in 100 ms, is claimed within a second of that, not a minute later."""
    ticker = Ticker(rt.schedule, make_queue(rt.settings, rt.schedule.r), tick_s=60.0)
    ticker.LISTEN_S = 0.5  # (so that the listener sees ``stop`` soon)
    stop, woken = threading.Event(), _LongWaits()
    listener = threading.Thread(target=ticker.listen, args=(woken, stop), daemon=True)
    listener.start()
    loop = threading.Thread(target=ticker.run, args=(stop,), kwargs={"woken": woken})
    loop.start()
    try:
        # the ticker has claimed nothing and waits its minute
        assert woken.long_wait.wait(60), "the ticker never began its long wait"
        due = time.time() * 1000 + 100
        rt.schedule.arm("g_1", 1, [(bot_slot("g_1", 0), due, 0)])
        end = time.monotonic() + 40
        while rt.schedule.depth() and time.monotonic() < end:
            time.sleep(0.01)
        claimed_at = time.time() * 1000
        assert rt.schedule.depth() == 0, "not claimed: the ticker slept through its wake-up"
        assert claimed_at - due < 40_000  # woken, not at the end of its minute
        # claimed, then enqueued (two steps): the job is on the queue soon after
        queue = make_queue(rt.settings, rt.schedule.r)
        end = time.monotonic() + 30
        while queue.count == 0 and time.monotonic() < end:
            time.sleep(0.01)
        assert queue.count == 1
    finally:
        stop.set()
        woken.set()
        loop.join(5)
        listener.join(5)


def test_a_due_decision_is_claimed_by_one_ticker_only(rt):
    s = rt.schedule
    for i in range(300):
        s.arm(f"g_{i}", 1, [(bot_slot(f"g_{i}", 0), 1000.0 + i, 0)])
    claimed, lock = [], threading.Lock()

    def ticker():
        while True:
            got, _next = Schedule(rt.schedule.r).claim(time.time() * 1000, 7)
            if not got:
                return
            with lock:
                claimed.extend(d.game_id for d in got)

    threads = [threading.Thread(target=ticker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(claimed) == sorted(f"g_{i}" for i in range(300))
    assert s.depth() == 0
    _due, plan = s.status([bot_slot("g_7", 0)])[0]
    assert plan[0] == 1 and plan[2] > 0  # the claim is stamped on the plan


def test_after_each_append_the_bots_and_deadlines_are_armed(rt):
    t0 = time.time()
    g = rt.seating.create("spit", {"ready_grace_s": 5}, "bot:hard", "", seat0="bot:easy").body
    state = rt.reading.load(g["id"]).state
    status = dict(zip(all_slots(g["id"]), rt.schedule.status(all_slots(g["id"])), strict=True))
    assert all(due is not None and plan[0] == state.version for due, plan in status.values())
    # a bot reacts after its level's reaction time (hard: 0.2 s at least); the deadline
    # slot is due at the soonest deadline: T-2, 5 s after the round's start
    assert t0 * 1000 + 200 < status[bot_slot(g["id"], 1)][0] < t0 * 1000 + 5000
    assert [d.rule for d in domain.deadlines(state)][0] == "T-2"
    assert status[deadline_slot(g["id"])][0] == pytest.approx((state.phase_since + 5) * 1000, abs=1)
    rt.acting.submit(g["id"], 0, domain.Resign(), state.version)
    assert rt.schedule.status(all_slots(g["id"])) == [(None, None)] * len(all_slots(g["id"]))


def test_a_human_action_arms_nothing_unless_a_deadline_comes_sooner_or_a_near_one_goes(rt):
    """Each action pushes its seat's idle deadline (T-4) back: the slot, due at the soonest
    deadline of the state before, is still due no later than the new soonest. So an
    action of a game of humans costs no round trip to the schedule, unless it brings a
    deadline sooner, or takes away one due within NEAR_S (here T-2, met): then the slot
    moves to the new soonest, instead of a job waking at T-2's time to find nothing."""
    # T-4 and T-1 both further than NEAR_S: the plays below move them, and arm nothing
    options = {"ready_grace_s": 5, "idle_forfeit_s": 60, "spit_grace_s": NEAR_S + 15}
    g = rt.seating.create("spit", options, "human", "").body
    gid, t0 = g["id"], g["token"]
    t1 = rt.joining.join(gid, "").body["token"]
    state = rt.reading.load(gid).state
    assert state.phase == "ready"
    slot = deadline_slot(gid)
    armed = rt.schedule.status([slot])[0][0]
    assert armed == pytest.approx((state.phase_since + 5) * 1000, abs=1)  # T-2, the join's
    calls = []
    real = rt.schedule._arm
    rt.schedule._arm = lambda **kw: calls.append(kw) or real(**kw)
    assert isinstance(rt.acting.act(gid, t0, {"type": "ready"}), Acted)  # T-2 still runs: no arm
    assert calls == []
    assert isinstance(rt.acting.act(gid, t1, {"type": "ready"}), Acted)  # the round starts
    state = rt.reading.load(gid).state
    soonest = domain.deadlines(state)[0]
    assert soonest.rule in ("T-1", "T-4") and soonest.at > state.phase_since + 5
    # T-2, due within NEAR_S, is met: one arm sets the slot to the new soonest
    assert len(calls) == 1
    calls.clear()
    armed = rt.schedule.status([slot])[0][0]
    assert armed == pytest.approx(soonest.at * 1000, abs=1)
    for _ in range(5):
        before = rt.reading.load(gid).state
        play = next((a for a in domain.view(before, 0)["legal_actions"] if a["type"] == "play"),
                    None)  # fmt: skip
        if play is None:
            break
        assert isinstance(rt.acting.act(gid, t0, play), Acted)
        after = rt.reading.load(gid).state
        was, due = domain.deadlines(before)[0].at, domain.deadlines(after)[0].at
        # seat 0's own T-4 moves back; only seat 1's clock, resumed by the play (a card
        # of its fits now: RULES T-4 counts in total), can bring the soonest deadline sooner
        # (the schedule keeps whole milliseconds: sooner by less than one is not sooner)
        if ms(due) >= ms(was):
            assert calls == [], (was, due)
        else:
            assert len(calls) == 1, (was, due)
            armed = calls.pop()["args"][5]  # the deadline slot, at the new soonest
            assert float(armed) == pytest.approx(max(due * 1000, 0), abs=1)
            return
    assert rt.schedule.status([slot])[0][0] == armed


def test_a_near_deadline_met_moves_the_slot_and_a_far_one_does_not(rt):
    """The hook of a human game, given the states before and after an append: a soonest
    deadline within NEAR_S that goes later sets the slot to the new one (or removes the
    slot when none is left); one further away leaves the slot as it is (its job, if it
    ever runs before the game moves on, arms the next)."""
    clock = Clock()
    sch = Scheduler(rt.schedule, clock=clock)
    gid = rt.seating.create("spit", {"ready_grace_s": 5}, "human", "").body["id"]
    rt.joining.join(gid, "")
    ready = rt.reading.load(gid).state  # T-2, 5 s after the join
    slot = deadline_slot(gid)
    t2 = domain.deadlines(ready)[0]
    assert t2.rule == "T-2" and rt.schedule.status([slot])[0][0] == pytest.approx(t2.at * 1000)
    later = dataclasses.replace(
        ready, version=ready.version + 1, phase_since=ready.phase_since + 20
    )
    clock.t = ready.phase_since
    sch.on_appended(gid, later, ready)  # T-2 due in 5 s went 20 s later: the slot follows
    assert rt.schedule.status([slot])[0][0] == pytest.approx(domain.deadlines(later)[0].at * 1000)
    further = dataclasses.replace(
        later, version=later.version + 1, phase_since=later.phase_since + 20
    )
    clock.t = later.phase_since - NEAR_S  # now T-2 of ``later`` is due in NEAR_S + 5 s
    sch.on_appended(gid, further, later)  # far: nothing moves
    assert rt.schedule.status([slot])[0][0] == pytest.approx(domain.deadlines(later)[0].at * 1000)


def test_a_finished_game_is_armed_for_the_archive_after_its_rematch_asks(rt):
    """The end of a finished game arms its archive slot once its rematch asks are over
    (the archive job would wait for them anyway); a rated game's at once (its job rates
    it first), an aborted game's too."""
    sch = Scheduler(rt.schedule, archive_after_s=65.0)
    g = rt.seating.create("speed", {}, "human", "").body
    rt.joining.join(g["id"], "")
    state = rt.acting.submit(g["id"], 0, domain.Resign(), rt.reading.load(g["id"]).state.version)
    assert state.status == "finished"
    sch.on_appended(g["id"], state, None)
    due = rt.schedule.status([archive_slot(g["id"])])[0][0]
    assert due == pytest.approx((state.phase_since + 65.0) * 1000, abs=1)
    again = rt.seating.create("speed", {}, "human", "").body
    rt.joining.join(again["id"], "")
    ended = rt.acting.submit(
        again["id"], 1, domain.Resign(), rt.reading.load(again["id"]).state.version
    )
    t = time.time()
    sch.on_appended(again["id"], ended, None, rated=True)  # rated: its job rates it at once
    assert rt.schedule.status([archive_slot(again["id"])])[0][0] == pytest.approx(
        t * 1000, abs=1000
    )
    gone = rt.seating.create("speed", {"join_timeout_s": 1}, "human", "").body["id"]
    aborted = dataclasses.replace(rt.reading.load(gone).state, status="aborted", phase="aborted")
    t = time.time()
    sch.on_appended(gone, aborted, None)
    assert rt.schedule.status([archive_slot(gone)])[0][0] == pytest.approx(t * 1000, abs=1000)


def test_a_deadline_sooner_than_any_before_arms_the_slot_sooner(rt):
    sch = Scheduler(rt.schedule)
    g = rt.seating.create("spit", {"join_timeout_s": 600}, "human", "").body
    gid = g["id"]
    waiting = rt.reading.load(gid).state
    slot = deadline_slot(gid)
    assert rt.schedule.status([slot])[0][0] == pytest.approx(
        (waiting.created_at + 600) * 1000, abs=1
    )
    rt.joining.join(gid, "")
    joined = rt.reading.load(gid).state  # T-2 (10 s) is far sooner than T-5 was
    assert rt.schedule.status([slot])[0][0] == pytest.approx(
        domain.deadlines(joined)[0].at * 1000, abs=1
    )
    armed = rt.schedule.status([slot])[0][0]
    # T-4 after the round starts comes later than T-2 did: nothing moves
    rt.acting.act(gid, g["token"], {"type": "ready"})
    assert rt.schedule.status([slot])[0][0] == armed
    # the hook of an append decided on an unknown state arms the soonest exactly
    state = rt.reading.load(gid).state
    sch.on_appended(gid, state, None)
    assert rt.schedule.status([slot])[0][0] == pytest.approx(
        domain.deadlines(state)[0].at * 1000, abs=1
    )


def test_a_game_with_a_bot_keeps_its_deadline_slot_exact(rt):
    """A bot's game arms at every append: the deadline slot follows the soonest deadline
    exactly, so a deadline met (T-2, once both are ready) leaves no early job behind."""
    g = rt.seating.create("spit", {"ready_grace_s": 5}, "bot:hard", "", seat0="bot:easy").body
    gid, slot = g["id"], deadline_slot(g["id"])
    state = rt.reading.load(gid).state
    t2 = rt.schedule.status([slot])[0][0]
    assert t2 == pytest.approx((state.phase_since + 5) * 1000, abs=1)
    for seat in (0, 1):
        state = rt.acting.submit(gid, seat, domain.Ready(), state.version)
    soonest = domain.deadlines(state)[0]
    # T-2 was met: the slot is at the soonest deadline now (a hosted bot's idle clock, T-6,
    # or T-1 if the deal began with a stalemate), not at T-2's time
    assert soonest.rule in ("T-1", "T-6") and "T-2" not in {d.rule for d in domain.deadlines(state)}
    assert rt.schedule.status([slot])[0][0] == pytest.approx(soonest.at * 1000, abs=1)
    assert soonest.rule == "T-1" or rt.schedule.status([slot])[0][0] > t2 + 60_000


class Clock:
    def __init__(self):
        self.t = time.time()

    def __call__(self):
        return self.t


def test_the_sweeper_rearms_what_a_crash_lost_and_nothing_else(rt):
    clock = Clock()
    sweeper = Sweeper(rt, stall_s=2.0, clock=clock)
    g = rt.seating.create("speed", None, "bot:hard", "", seat0="bot:hard").body
    gid = g["id"]
    version = rt.reading.load(gid).state.version
    sweeper.sweep()  # first sight of the game
    # A ticker claims both bot turns; the jobs die with their worker (nothing ran).
    got, _ = rt.schedule.claim(time.time() * 1000 + 10_000, 10)
    assert {d.slot for d in got} >= {bot_slot(gid, 0), bot_slot(gid, 1)}
    clock.t += 1.0
    assert sweeper.sweep() == 0  # unmoved for 1 s only: the jobs may be on their way
    clock.t += 1.5
    assert sweeper.sweep() >= 2  # unmoved for 2.5 s, claimed long ago: lost
    due, plan = rt.schedule.status([bot_slot(gid, 0)])[0]
    assert due is not None and plan[:2] == (version, 0)  # same decision, same attempt
    clock.t += 2.5
    assert sweeper.sweep() == 0  # armed and waiting: nothing to do


def test_the_sweeper_rearms_a_game_whose_hook_never_ran(rt):
    clock = Clock()
    sweeper = Sweeper(rt, stall_s=2.0, clock=clock)
    g = rt.seating.create("spit", None, "bot:medium", "", seat0="bot:medium").body
    rt.schedule.r.delete(DUE, PLAN)  # as if the queue Redis lost it, or a crash before the hook
    assert sweeper.sweep() == 1  # the deadline slot, gone: at once, stalled or not
    clock.t += 2.5
    assert sweeper.sweep() == 2  # both bots, once the game has not moved for STALL_S
    assert rt.schedule.status([bot_slot(g["id"], 1)])[0][0] is not None
    state = rt.reading.load(g["id"]).state
    assert rt.schedule.status([deadline_slot(g["id"])])[0][0] == pytest.approx(
        max(domain.deadlines(state)[0].at, clock.t) * 1000, abs=1
    )


def test_the_sweeper_arms_a_rated_game_over_for_its_rating_at_once(rt):
    """A rated game over whose hook never ran (the index lags): the sweeper arms its
    archive slot as the hook would have, at once (its job rates it first), not after
    the rematch asks as for an unrated game."""
    from service.players import Who

    assert rt.scheduler.archive_after_s > 30  # the default: the rematch asks, the grace
    who = Who(pkey="a_000000000001:alice", name="Alice")
    g = rt.seating.create("speed", {}, "bot:easy", "", who=who, rated=True).body
    move_each(None, rt, g["id"], (None, None))  # resigned before, it would be aborted
    ended = rt.acting.submit(g["id"], 0, domain.Resign(), rt.reading.load(g["id"]).state.version)
    assert ended.status == "finished"
    rt.schedule.r.delete(DUE, PLAN)  # as if the worker died between the append and its hook
    t = time.time()
    Sweeper(rt, stall_s=2.0).check(g["id"], t)
    assert rt.schedule.status([archive_slot(g["id"])])[0][0] == pytest.approx(t * 1000, abs=1000)


def test_an_archive_job_of_a_game_still_running_ends_its_plan_and_keeps_the_rest(rt, monkeypatch):
    """An archive job that finds its game not over (``running``: an arm by mistake, or an
    operator's) ends its own plan (claimed and never done, the sweeper would run it again
    and again) and leaves the game's bot and deadline slots as they were."""
    from workers import jobs

    monkeypatch.setattr(jobs, "_runtime", rt)
    gid = rt.seating.create("speed", None, "bot:hard", "").body["id"]
    live = [s for s in all_slots(gid) if rt.schedule.status([s])[0][1] is not None]
    assert live
    before = rt.schedule.status(live)
    rt.schedule.arm_archive(gid, time.time() * 1000)
    rt.schedule.r.zrem(DUE, archive_slot(gid))  # claimed, as by the ticker
    assert jobs.archive_game(gid) == "running"
    assert rt.schedule.status([archive_slot(gid)]) == [(None, None)]
    assert rt.schedule.status(live) == before


def test_a_game_out_of_redis_leaves_no_slot_even_if_its_last_hook_never_ran(rt):
    """A bot game whose last append's hook never ran (its worker killed between the two:
    the bots' and the deadline's plans stay, at the version before): once the game
    leaves Redis, ``forget`` drops every slot of it, not only its archive's."""
    g = rt.seating.create("speed", None, "bot:hard", "", seat0="bot:hard").body
    gid = g["id"]
    assert {s for s in all_slots(gid) if rt.schedule.status([s])[0][1] is not None} == set(
        all_slots(gid)
    )
    rt.schedule.arm_archive(gid, time.time() * 1000)  # as the sweeper does for a game over
    rt.schedule.forget(gid)
    assert [s for s in (*all_slots(gid), archive_slot(gid))
            if rt.schedule.status([s]) != [(None, None)]] == []  # fmt: skip
    assert not any(gid in k.decode() for k in rt.schedule.r.hkeys(PLAN))
    assert not any(gid in m.decode() for m in rt.schedule.r.zrange(DUE, 0, -1))


def test_a_lost_deadline_job_of_a_game_that_keeps_moving_is_rearmed(rt):
    """Seat 1 is away while seat 0 keeps acting, so the game never stalls, and seat 0's
    actions arm nothing (test above: its own T-4 moves later). A deadline job lost
    (claimed, never run) is armed again by the sweeper all the same, once its claim is
    STALL_S old."""
    clock = Clock()
    sweeper = Sweeper(rt, stall_s=2.0, clock=clock)
    g = rt.seating.create("speed", None, "human", "").body
    gid, slot = g["id"], deadline_slot(g["id"])
    rt.joining.join(gid, "")
    got, _ = rt.schedule.claim(time.time() * 1000 + 10**9, 10)  # claimed, then lost
    assert slot in {d.slot for d in got}
    version = rt.reading.load(gid).state.version
    moves = iter(range(version, version + 100))
    sweeper.live_games = lambda: [(gid, next(moves))]  # the game moves at every sweep
    clock.t = time.time()
    rearmed = [sweeper.sweep()]
    for _ in range(3):
        clock.t += 1.0
        rearmed.append(sweeper.sweep())
    assert rearmed == [0, 0, 1, 0]  # claimed 2 s ago and nothing ran: lost; then waiting
    state = rt.reading.load(gid).state
    assert rt.schedule.status([slot])[0][0] == pytest.approx(
        max(domain.deadlines(state)[0].at, clock.t) * 1000, abs=1
    )


def test_the_sweeper_rearms_a_deadline_slot_due_too_late(rt):
    clock = Clock()
    sweeper = Sweeper(rt, stall_s=2.0, clock=clock)
    g = rt.seating.create("spit", {"join_timeout_s": 30}, "human", "").body
    gid = g["id"]
    due = (rt.reading.load(gid).state.created_at + 30) * 1000
    rt.schedule.r.zadd(DUE, {deadline_slot(gid): due + 60_000})  # a lost hook's trace
    sweeper.sweep()
    clock.t += 2.5
    assert sweeper.sweep() == 1
    assert rt.schedule.status([deadline_slot(gid)])[0][0] == pytest.approx(due, abs=1)
    clock.t += 5
    assert sweeper.sweep() == 0  # due in time now: nothing to do


# ---------------------------------------------------------------- the deadline job


def test_a_deadline_job_fires_once_and_a_duplicate_finds_nothing(rt, clock):
    clock.shift(-1)  # created a second ago: its T-5 is due
    g = rt.seating.create("spit", {"join_timeout_s": 0.05}, "human", "").body
    clock.shift(1)
    assert _fire(rt, g["id"], 0)[:2] == ("fired", "T-5")
    assert rt.reading.load(g["id"]).state.status == "aborted"
    assert _fire(rt, g["id"], 0)[0] == "stale"  # RQ delivered it twice
    assert [e["type"] for _v, e in rt.store.read_after(g["id"], 0)].count("deadline_expired") == 1


def test_a_deadline_job_early_by_the_ticks_clock_backs_off(rt):
    """Claimed at the deadline's time by the ticker's clock, and not yet due by the
    worker's (a skew beyond MAX_EARLY_S): back off, doubling up to 5 s, instead of
    being claimed again a few milliseconds later, over and over."""
    g = rt.seating.create("spit", {"join_timeout_s": 600}, "human", "").body
    gid, slot = g["id"], deadline_slot(g["id"])
    at = domain.deadlines(rt.reading.load(gid).state)[0].at
    rt.schedule.claim(time.time() * 1000 + 10**9, 10)
    before = time.time()
    assert _fire(rt, gid, 0, due_ms=math.ceil(at * 1000))[0] == "refused"
    after = time.time()
    due, plan = rt.schedule.status([slot])[0]
    assert plan[1] == 1 and (before + RETRY_S) * 1000 - 1 <= due <= (after + RETRY_S) * 1000 + 1
    rt.schedule.claim(time.time() * 1000 + 10**9, 10)
    before = time.time()
    assert _fire(rt, gid, 9, due_ms=math.ceil(at * 1000))[0] == "refused"
    after = time.time()
    due, plan = rt.schedule.status([slot])[0]
    assert plan[1] == 10
    assert (before + MAX_BACKOFF_S) * 1000 - 1 <= due <= (after + MAX_BACKOFF_S) * 1000 + 1
    # claimed before its time because the game moved: back to the deadline's own time
    rt.schedule.claim(time.time() * 1000 + 10**9, 10)
    assert _fire(rt, gid, 0, due_ms=time.time() * 1000)[0] == "early"
    assert rt.schedule.status([slot])[0][0] == pytest.approx(at * 1000, abs=1)


def test_the_sweeper_shows_live_games_and_how_long_an_unmoved_game_is_overdue(rt):
    """spitlog_games_live and spitlog_deadline_overdue_seconds (deploy/alerts.yml: a game
    stuck past its deadline): a waiting game's T-5 falls due and no worker fires it."""
    from prometheus_client import REGISTRY

    clock = Clock()
    sweeper = Sweeper(rt, stall_s=2.0, clock=clock)
    g = rt.seating.create("spit", {"join_timeout_s": 30}, "human", "").body
    rt.seating.create("speed", {"ready_grace_s": 300}, "bot:hard", "")  # due long after
    t5 = rt.reading.load(g["id"]).state.created_at + 30
    clock.t = t5 - 10
    sweeper.sweep()
    live = {s: REGISTRY.get_sample_value("spitlog_games_live", {"status": s})
            for s in ("open", "running")}  # fmt: skip
    assert live == {"open": 1, "running": 1}
    assert REGISTRY.get_sample_value("spitlog_deadline_overdue_seconds") == 0
    clock.t = t5 + 40  # unmoved, checked, 40 s past its deadline
    sweeper.sweep()
    assert REGISTRY.get_sample_value("spitlog_deadline_overdue_seconds") == pytest.approx(40)
    rt.joining.join(g["id"], "")  # someone joined at last: it moved
    clock.t += 1
    sweeper.sweep()
    assert REGISTRY.get_sample_value("spitlog_deadline_overdue_seconds") == 0


def test_a_job_decides_on_the_game_it_loaded_without_loading_it_again(rt):
    """``Acting.submit(known=...)``: a bot's or a deadline's job decides on the game it has
    just loaded (one round trip), and the append's version check stands for the second
    load; a game that moved since is refused as a load would have found it moved."""
    g = rt.seating.create("speed", None, "bot:hard", "", seat0="bot:hard").body
    game = rt.reading.load(g["id"])
    loads = []
    real = rt.store.load
    rt.store.load = lambda *a, **k: loads.append(a) or real(*a, **k)
    state = rt.acting.submit(g["id"], 0, domain.Resign(), game.version, known=game)
    assert state is not None and state.over and loads == []
    stale = rt.acting.submit(g["id"], 1, domain.Resign(), game.version, known=game)
    assert stale is None  # the log moved past the version it knew: refused, as before


def test_an_archive_job_no_retry_can_fix_fails_for_good_once(
    redis_url, redis_client, tmp_path, monkeypatch, caplog
):
    """An archive job that fails for a reason a retry cannot fix (here a game whose meta
    lost its seed: every run would fail the same) is recorded as failed, with the reason,
    logs one error, and is not run again: its slot goes, the sweeper leaves it alone and
    counts it (``spitlog_archive_failed_games``); ``spitlog admin failed`` shows it. Once
    the cause is fixed, ``spitlog admin archive`` archives it and puts it back on its way
    out of Redis. A failure a retry may get past (the archive down) backs off as before."""
    from click.testing import CliRunner
    from prometheus_client import REGISTRY

    from service.cli.main import cli
    from service.errors import ArchiveUnavailable
    from workers import jobs

    rt = Runtime(load(warn=None, redis_url=redis_url, archive_url=str(tmp_path), rematch_s=0,
                      retain_s=0))  # fmt: skip
    monkeypatch.setattr(jobs, "_runtime", rt)
    gids = []
    for _ in range(2):
        g = rt.seating.create("speed", None, "bot:easy", "").body
        rt.acting.submit(g["id"], 0, domain.Resign(), rt.reading.load(g["id"]).state.version)
        gids.append(g["id"])
    bad, down = gids
    seed = rt.store.game_record(bad).seed.hex()
    rt.store.r.hdel(f"spit:{{g:{bad}}}:meta", "seed")  # a record that stays corrupt
    real_put = rt.archive.put

    def unreachable(key, data):
        raise ArchiveUnavailable("the archive does not answer")

    monkeypatch.setattr(rt.archive, "put", unreachable)
    assert jobs.archive_game(down) == "failed"  # the archive down: again later, backing off
    assert rt.schedule.status([archive_slot(down)])[0][1][1] == 1
    assert rt.schedule.archive_failure(down) is None
    monkeypatch.setattr(rt.archive, "put", real_put)

    caplog.set_level("ERROR", logger="workers.jobs")
    for _run in range(2):  # (a duplicate of the job changes nothing)
        rt.schedule.arm_archive(bad, time.time() * 1000)
        rt.schedule.r.zrem(DUE, archive_slot(bad))  # claimed, as by the ticker
        assert jobs.archive_game(bad) == "unarchivable"
        assert rt.schedule.status([archive_slot(bad)]) == [(None, None)]
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and bad in errors[0] and "KeyError: 'seed'" in errors[0]
    failed = rt.schedule.archive_failure(bad)
    assert failed["why"] == "KeyError: 'seed'" and failed["at"] <= time.time() * 1000
    assert rt.store.game_record(bad) is not None  # still in Redis, whole
    rt.schedule.r.zrem(DUE, archive_slot(down))  # its job lost: the sweeper's to re-arm
    rt.schedule.r.hdel(PLAN, archive_slot(down))
    assert set(rt.schedule.archive_failures()) == {bad}
    assert {bad, down} <= set(Sweeper(rt).finished_games())  # both in the finished lobby
    sweeper = Sweeper(rt, stall_s=2.0, clock=lambda: time.time() + 3600)
    sweeper.sweep()  # (its first pass looks at the archives)
    assert rt.schedule.status([archive_slot(down)])[0][0] is not None  # re-armed
    assert rt.schedule.status([archive_slot(bad)]) == [(None, None)]  # left alone
    assert REGISTRY.get_sample_value("spitlog_archive_failed_games") == 1.0

    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_ARCHIVE_URL": str(tmp_path),
           "SPITLOG_REMATCH_S": "0", "SPITLOG_RETAIN_S": "0"}  # fmt: skip
    listed = CliRunner().invoke(cli, ["admin", "failed"], env=env)
    assert listed.exit_code == 0 and f"{bad}  " in listed.output
    assert "KeyError: 'seed'" in listed.output
    refused = CliRunner().invoke(cli, ["admin", "archive", bad], env=env)
    assert refused.exit_code == 1 and "stays in Redis" in refused.output
    rt.store.r.hset(f"spit:{{g:{bad}}}:meta", "seed", seed)  # the operator fixes it
    done = CliRunner().invoke(cli, ["admin", "archive", bad], env=env)
    assert done.exit_code == 0 and f"{bad}: archived" in done.output, done.output
    assert rt.schedule.archive_failure(bad) is None
    assert rt.schedule.status([archive_slot(bad)])[0][0] is not None  # on its way again
    rt.schedule.r.zrem(DUE, archive_slot(bad))
    assert jobs.archive_game(bad) == "deleted" and rt.store.game_record(bad) is None
    sweeper.sweep_archives(time.time() + 3600)
    assert REGISTRY.get_sample_value("spitlog_archive_failed_games") == 0.0
