"""The schedule's scripts and the sweeper on a real redis-server (no worker processes):
arming is monotonic per game, a due decision is claimed by one ticker only, a game
over leaves no slot, and the sweeper re-arms exactly what a crash lost."""

import threading
import time

import pytest

import domain
from workers.runtime import Runtime
from workers.schedule import DUE, PLAN, Schedule, all_slots, bot_slot, deadline_slot
from workers.settings import from_env
from workers.ticker import Sweeper

pytestmark = pytest.mark.redis


@pytest.fixture
def rt(redis_url, redis_client):  # redis_client: flushed for each test
    return Runtime(from_env({"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BOT_PACE": "1"}))


def test_arming_is_monotonic_per_game(rt):
    s = rt.schedule
    slot = bot_slot("g_1", 0)
    assert s.arm("g_1", 5, [(slot, 1000.0, 0)])
    assert not s.arm("g_1", 4, [(slot, 500.0, 0)])  # a hook from an older append, late
    assert s.status([slot]) == [(1000.0, (5, 0, 0))]
    assert s.arm("g_1", 5, [(slot, 1200.0, 1)])  # the same version again (a re-arm)
    assert s.arm("g_1", 6, [], [slot])  # the next state has no such decision
    assert s.status([slot]) == [(None, None)]


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
    g = rt.games.create("spit", {"ready_grace_s": 5}, "bot:hard", "", seat0="bot:easy")
    state = rt.games.load(g["id"]).state
    slots = {bot_slot(g["id"], 0), bot_slot(g["id"], 1), deadline_slot(g["id"], "T-2", None)}
    slots |= {deadline_slot(g["id"], "T-4", s) for s in (0, 1)}
    status = dict(zip(all_slots(g["id"]), rt.schedule.status(all_slots(g["id"])), strict=True))
    assert {k for k, (due, _p) in status.items() if due is not None} == slots
    assert all(plan[0] == state.version for k, (_d, plan) in status.items() if k in slots)
    # a bot reacts after its level's reaction time (hard: 0.2 s at least), T-2 at 5 s
    assert t0 * 1000 + 200 < status[bot_slot(g["id"], 1)][0] < t0 * 1000 + 5000
    assert status[deadline_slot(g["id"], "T-2", None)][0] == pytest.approx(
        (state.phase_since + 5) * 1000, abs=1
    )
    rt.games.submit(g["id"], 0, domain.Resign(), state.version)
    assert rt.schedule.status(all_slots(g["id"])) == [(None, None)] * len(all_slots(g["id"]))


class Clock:
    def __init__(self):
        self.t = time.time()

    def __call__(self):
        return self.t


def test_the_sweeper_rearms_what_a_crash_lost_and_nothing_else(rt):
    clock = Clock()
    sweeper = Sweeper(rt, stall_s=2.0, clock=clock)
    g = rt.games.create("speed", None, "bot:hard", "", seat0="bot:hard")
    gid = g["id"]
    version = rt.games.load(gid).state.version
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
    g = rt.games.create("spit", None, "bot:medium", "", seat0="bot:medium")
    rt.schedule.r.delete(DUE, PLAN)  # as if the queue Redis lost it, or a crash before the hook
    sweeper.sweep()
    clock.t += 2.5
    assert sweeper.sweep() >= 2
    assert rt.schedule.status([bot_slot(g["id"], 1)])[0][0] is not None
