"""RULES T-4: time in which the service refused a seat's requests (a 503: its game too busy
to take them; a 429 of a limit the seat did not exceed: its address's, shared with others)
does not count against the seat. The pipeline remembers each such window (per game and
token); the deadline job pushes the seat's T-4 back by the time refused since its last
action."""

import time

import pytest

from service.config import load
from service.errors import Busy, RateLimited
from service.http.app import create_app
from service.http.pipeline import excused
from service.tokens import token_hash
from tests.support.api import app_settings, bearer, new_game
from tests.support.fakes import MovableClock
from workers import jobs
from workers.runtime import Runtime
from workers.schedule import deadline_slot
from workers.sweeper import Sweeper


def test_a_503_to_a_seat_is_remembered_as_time_the_seat_could_not_act(redis_client):
    app = create_app(app_settings(game_concurrency=1, game_gate_wait_s=0.2),
                     redis_client=redis_client)  # fmt: skip
    services = app.extensions["spitlog"]
    client = app.test_client()
    gid, tok0, tok1 = new_game(client)
    game = services.reading.load(gid)
    assert services.deadlines.excused(game, 0, time.time()) == 0.0
    assert services.gate.acquire(gid)  # the game's only place, held: the next request waits
    try:
        t0 = time.time()
        r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok0))
        assert r.status_code == 503 and r.headers["Retry-After"] == "1"
    finally:
        services.gate.release(gid)
    excused = services.deadlines.excused(game, 0, time.time() + 10)
    assert 1.15 <= excused <= time.time() - t0 + 1.0 + 0.1  # its wait and its Retry-After
    assert services.deadlines.excused(game, 1, time.time() + 10) == 0.0  # the other seat's own
    # a 503 to a request without a seat's token, or another game's, is no one's
    r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer("x"))
    assert r.status_code == 401


def test_T4_does_not_count_the_time_the_service_refused_the_seat(redis_url):
    """Both seats idle since T, waiting to get ready (an action each may take: T-4 runs),
    their T-4 (2 s) long due. Seat 0 was refused by the service from T until now and on:
    only seat 1 is forfeited."""
    clock = MovableClock()
    rt = Runtime(load(warn=None, redis_url=redis_url), clock=clock)
    rt.schedule.r.flushall()
    jobs._runtime = rt
    t = time.time() - 100
    clock.at = t
    g = rt.seating.create("spit", {"idle_forfeit_s": 2, "ready_grace_s": 60}, "human", "").body
    gid, tok0 = g["id"], g["token"]
    rt.joining.join(gid, "")
    state = rt.reading.load(gid).state
    assert state.phase == "ready" and state.can_act == (True, True)
    rt.deadlines.refused(gid, tok0, t, time.time() + 60)
    clock.at = None
    outcome = jobs._fire(rt, gid, 0)
    assert outcome[0] == "fired" and outcome[1] == "T-4"
    final = rt.reading.load(gid).state
    assert (final.result, final.winner) == ("T-4", 0)  # seat 1 forfeited, seat 0 excused
    # and without the window, seat 0 would have gone first (its deadline sorts first)
    clock.at = t
    g2 = rt.seating.create("spit", {"idle_forfeit_s": 2, "ready_grace_s": 60}, "human", "").body
    rt.joining.join(g2["id"], "")
    clock.at = None
    assert jobs._fire(rt, g2["id"], 0)[1] == "T-4"
    assert rt.reading.load(g2["id"]).state.winner == 1


def test_an_excused_deadline_is_armed_again_at_its_new_time(redis_url):
    clock = MovableClock()
    rt = Runtime(load(warn=None, redis_url=redis_url), clock=clock)
    rt.schedule.r.flushall()
    jobs._runtime = rt
    t = time.time() - 1.5
    clock.at = t
    g = rt.seating.create("spit", {"idle_forfeit_s": 1, "ready_grace_s": 60}, "human", "").body
    gid, tok0 = g["id"], g["token"]
    tok1 = rt.joining.join(gid, "").body["token"]
    for tok in (tok0, tok1):
        rt.deadlines.refused(gid, tok, t, t + 5)  # both refused from T, for 5 s
    clock.at = None
    now = time.time()
    claimed, _next = rt.schedule.claim((now + 0.01) * 1000)  # as the ticker hands the job on
    assert [d.slot for d in claimed] == [deadline_slot(gid)]
    outcome = jobs._fire(rt, gid, 0)
    assert outcome[0] == "excused" and rt.reading.load(gid).state.status == "running"
    # the time refused so far (T to now) pushes the deadline back: armed at T + 1 s + that
    ((due, _plan),) = rt.schedule.status([deadline_slot(gid)])
    assert due is not None and abs(due - (t + 1 + (now - t)) * 1000) < 100
    # the sweeper pushes T-4 back the same way (Games.due): the slot is not lost, and it
    # is not armed again sooner (only for the job to push it back once more)
    assert Sweeper(rt).check_deadline(gid, time.time()) == 0
    assert rt.schedule.status([deadline_slot(gid)])[0][0] == due


def test_T4_excuses_a_429_of_the_address_a_seat_shares_not_one_of_its_own(redis_client):
    """RULES T-4: a seat refused by a limit it did not exceed (its address's requests,
    emptied by a spectator flooding from the same address: a shared NAT) has that time
    excused, like a 503's; refused by its own action rate, it has not."""
    app = create_app(app_settings(rate_requests=0.01, rate_requests_burst=12),
                     redis_client=redis_client)  # fmt: skip
    services = app.extensions["spitlog"]
    client = app.test_client()
    gid, tok0, _tok1 = new_game(client)  # two requests of the address's twelve
    game = services.reading.load(gid)
    for _ in range(20):  # a spectator of the same address, until the address is refused
        if client.get(f"/v1/games/{gid}").status_code == 429:
            break
    else:
        raise AssertionError("the address's bucket never refused")
    t0 = time.time()
    r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok0))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 10
    assert services.reading.load(gid).version == game.version  # it changed nothing
    excused = services.deadlines.excused(game, 0, t0 + 10)
    assert 9.5 <= excused <= 10.0  # refused from its request on, past now + 10 s
    assert services.deadlines.excused(game, 1, t0 + 10) == 0.0

    # the seat's own action rate: its 429 is its own doing, nothing is excused
    own = create_app(app_settings(rate_actions=0.01, rate_actions_burst=1),
                     redis_client=redis_client)  # fmt: skip
    client = own.test_client()
    gid, tok0, _tok1 = new_game(client)
    game = own.extensions["spitlog"].reading.load(gid)
    ready = {"type": "ready"}
    assert (
        client.post(f"/v1/games/{gid}/actions", json=ready, headers=bearer(tok0)).status_code == 201
    )
    r = client.post(f"/v1/games/{gid}/actions", json={"type": "resign"}, headers=bearer(tok0))
    assert r.status_code == 429
    assert own.extensions["spitlog"].deadlines.excused(game, 0, time.time() + 10) == 0.0


def test_which_refusals_T4_excuses_read_from_the_error():
    """A 503, or a 429 whose refusing limits are all the address's (shared with others);
    not a 429 of the seat's own bucket, of a limit it does not name, or of one not known
    to be shared; no other status."""
    cases = [
        (Busy(), 503, True),
        (RateLimited(limits=("requests",)), 429, True),
        (RateLimited(limits=("streams",)), 429, True),
        (RateLimited(limits=("requests", "games")), 429, True),
        (RateLimited(limits=("actions",)), 429, False),
        (RateLimited(limits=("requests", "actions")), 429, False),
        (RateLimited(limits=("token streams",)), 429, False),
        (RateLimited(limits=("seat",)), 429, False),  # a limit of the seat's own
        (RateLimited(limits=("auth",)), 429, False),  # failed authentications: not shared
        (RateLimited(), 429, False),  # which one refused is not said: the seat's
        (ValueError("not a refusal"), 429, False),
        (RateLimited(limits=("requests",)), 400, False),
    ]
    assert [excused(exc, status) for exc, status, _ok in cases] == [ok for *_c, ok in cases]


def test_a_429_names_the_bucket_that_refused(redis_client):
    """``RateLimited.limits``: the limits that refused."""
    from service.limits.rates import Limits

    limits = Limits(redis_client, actions_per_s=0.01, actions_burst=1, requests_per_s=0.001,
                    requests_burst=2)  # fmt: skip
    redis_client.delete("spit:rl:a:10.9.8.7", f"spit:rl:t:{token_hash('tok')}")
    limits.settle(limits.bill(["requests", "actions"], "10.9.8.7", "tok"))
    with pytest.raises(RateLimited) as info:
        limits.settle(limits.bill(["actions"], "10.9.8.7", "tok"))
    assert info.value.limits == ("actions",)
    limits.settle(limits.bill(["requests"], "10.9.8.7", None))
    with pytest.raises(RateLimited) as info:
        limits.settle(limits.bill(["requests", "actions"], "10.9.8.7", "tok"))
    assert sorted(info.value.limits) == ["actions", "requests"]
