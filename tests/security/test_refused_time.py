"""RULES T-4: time in which the service refused a seat's requests (a 503: its game too busy
to take them; a 429 of a limit the seat did not exceed: its address's, shared with others)
does not count against the seat. The pipeline remembers each such window (per game and
token); the deadline job pushes the seat's T-4 back by the time refused since its last
action."""

import time

import pytest

import domain
from domain.audit import verify
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
    their T-4 (20 s) long due. Seat 0 was refused by the service for 10 s since T: its
    T-4 is pushed back by as much, and only seat 1 is forfeited."""
    clock = MovableClock()
    rt = Runtime(load(warn=None, redis_url=redis_url), clock=clock)
    rt.schedule.r.flushall()
    jobs._runtime = rt
    t = time.time() - 100
    clock.at = t
    g = rt.seating.create("spit", {"idle_forfeit_s": 20, "ready_grace_s": 600}, "human", "").body
    gid, tok0 = g["id"], g["token"]
    rt.joining.join(gid, "")
    state = rt.reading.load(gid).state
    assert state.phase == "ready" and state.can_act == (True, True)
    rt.deadlines.refused(gid, tok0, t, t + 10)
    clock.at = None
    outcome = jobs._fire(rt, gid, 0)
    assert outcome[0] == "fired" and outcome[1] == "T-4"
    final = rt.reading.load(gid).state
    assert (final.result, final.winner) == ("T-4", 0)  # seat 1 forfeited, seat 0 excused
    # and without the window, seat 0 would have gone first (its deadline sorts first)
    clock.at = t
    g2 = rt.seating.create("spit", {"idle_forfeit_s": 20, "ready_grace_s": 600}, "human", "").body
    rt.joining.join(g2["id"], "")
    clock.at = None
    assert jobs._fire(rt, g2["id"], 0)[1] == "T-4"
    assert rt.reading.load(g2["id"]).state.winner == 1


def test_an_excused_deadline_is_armed_again_at_its_new_time(redis_url):
    clock = MovableClock()
    rt = Runtime(load(warn=None, redis_url=redis_url), clock=clock)
    rt.schedule.r.flushall()
    jobs._runtime = rt
    t = time.time() - 21  # their T-4 (20 s) due 1 s ago
    clock.at = t
    g = rt.seating.create("spit", {"idle_forfeit_s": 20, "ready_grace_s": 600}, "human", "").body
    gid, tok0 = g["id"], g["token"]
    tok1 = rt.joining.join(gid, "").body["token"]
    for tok in (tok0, tok1):
        rt.deadlines.refused(gid, tok, t + 15, t + 60)  # both refused from T + 15 s on
    clock.at = None
    now = time.time()
    claimed, _next = rt.schedule.claim((now + 0.01) * 1000)  # as the ticker hands the job on
    assert [d.slot for d in claimed] == [deadline_slot(gid)]
    before = time.time()
    outcome = jobs._fire(rt, gid, 0)
    after = time.time()
    assert outcome[0] == "excused" and rt.reading.load(gid).state.status == "running"
    # the time refused so far (T + 15 s to when the job looked, less than their 20 s)
    # pushes the deadline back: armed at T + 20 s + that, 5 s after the job looked
    ((due, _plan),) = rt.schedule.status([deadline_slot(gid)])
    # (a due time is a whole millisecond, rounded up: 2 ms either side)
    assert due is not None and (before + 5) * 1000 - 2 <= due <= (after + 5) * 1000 + 2
    # the sweeper pushes T-4 back the same way (Deadlines.due): the slot is not lost, and it
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
    before = time.time()
    r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok0))
    after = time.time()
    retry = int(r.headers["Retry-After"])
    assert r.status_code == 429 and retry > 10
    assert services.reading.load(gid).version == game.version  # it changed nothing
    # one window, from the request's start (kept to the ms) to its refusal + Retry-After
    ((start, end),) = services.store.refused_windows(gid, token_hash(tok0), 0.0)
    assert before - 0.001 <= start <= after
    assert start + retry - 0.001 <= end <= after + retry
    # all of it excused: 10 s of it are, 10 s after it began
    assert services.deadlines.excused(game, 0, start + 10) == pytest.approx(10.0, abs=1e-6)
    assert services.deadlines.excused(game, 1, start + 10) == 0.0

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


def test_T4_a_seat_that_floods_its_own_address_is_not_excused(redis_client):
    """RULES T-4 excuses a 429 of a limit the seat did not exceed. A seat that sends more
    than its address may, by itself, exceeded it: polling its own game hard until the
    address refuses it (under its own seat bucket: the reserve and the seat's burst let
    it past the address's), it has no time excused."""
    app = create_app(app_settings(rate_requests=0.01, rate_requests_burst=12, rate_seat=100,
                                  rate_seat_burst=100, rate_seat_reserve=3),
                     redis_client=redis_client)  # fmt: skip
    services = app.extensions["spitlog"]
    client = app.test_client()
    gid, tok0, _tok1 = new_game(client)
    game = services.reading.load(gid)
    for _ in range(40):  # the seat alone, reading its game
        r = client.get(f"/v1/games/{gid}", headers=bearer(tok0))
        if r.status_code == 429:
            break
    else:
        raise AssertionError("the address's bucket never refused the seat")
    assert "requests from this address" in r.get_json()["detail"]  # the address's, not its own
    assert "of this seat" not in r.get_json()["detail"]
    assert services.deadlines.excused(game, 0, time.time() + 60) == 0.0


def test_T4_a_seat_within_its_share_is_excused_and_over_it_is_not(redis_client):
    """RULES T-4: a spectator of the seats' address (a shared NAT, or a player's own second
    connection) fills the address's bucket to its burst; past it only the seats' reserve
    (3) is left, and each seat's share of it is the reserve at the address's rate. Seat 1
    uses the reserve up itself: its refusal is its own doing, not excused. Seat 0, refused
    for what seat 1 took, did not exceed the limit: excused. Seat 0 going on, each request
    refused, past its own share (every request counts, admitted or not): its next
    refusals are its own."""
    app = create_app(app_settings(rate_requests=0.01, rate_requests_burst=12,
                                  rate_seat_reserve=3),
                     redis_client=redis_client)  # fmt: skip
    services = app.extensions["spitlog"]
    client = app.test_client()
    gid, tok0, tok1 = new_game(client)
    game = services.reading.load(gid)
    for _ in range(20):  # the spectator
        if client.get(f"/v1/games/{gid}").status_code == 429:
            break
    else:
        raise AssertionError("the address's bucket never refused")
    one, zero = {"headers": bearer(tok1)}, {"headers": bearer(tok0)}
    assert [client.get(f"/v1/games/{gid}", **one).status_code for _ in range(4)] == [
        200, 200, 200, 429]  # fmt: skip
    assert services.deadlines.excused(game, 1, time.time() + 5) == 0.0  # the reserve: its own
    assert client.get(f"/v1/games/{gid}", **zero).status_code == 429
    assert services.deadlines.excused(game, 0, time.time() + 5) > 0  # within its share
    for _ in range(3):  # its share is the reserve, 3: it sends 4 in all
        assert client.get(f"/v1/games/{gid}", **zero).status_code == 429
    redis_client.delete(f"spit:{{g:{gid}}}:refused")  # the windows so far, forgotten
    assert services.deadlines.excused(game, 0, time.time() + 5) == 0.0
    assert client.get(f"/v1/games/{gid}", **zero).status_code == 429
    assert services.deadlines.excused(game, 0, time.time() + 5) == 0.0  # over its share


def test_T6_a_seat_excused_for_idle_forfeit_s_has_the_game_aborted(redis_url):
    """RULES T-4, T-6: the time the service refused a seat is excused, but not without
    end: once a seat has been refused for ``idle_forfeit_s`` since its own last action,
    the game stalled through the service, and the deadline job aborts it under T-6 (by
    the service, saying whose requests were refused), for a person's seat as for a
    hosted bot's. Refused for less, its T-4 is pushed back instead, as before."""
    clock = MovableClock()
    rt = Runtime(load(warn=None, redis_url=redis_url), clock=clock)
    rt.schedule.r.flushall()
    jobs._runtime = rt
    t = time.time() - 100
    clock.at = t
    g = rt.seating.create("spit", {"idle_forfeit_s": 2, "ready_grace_s": 600}, "human", "").body
    gid, tok0 = g["id"], g["token"]
    tok1 = rt.joining.join(gid, "").body["token"]
    rt.deadlines.refused(gid, tok1, t, t + 1)  # seat 1: 1 s of its 2 excused
    rt.deadlines.refused(gid, tok0, t, t + 2)  # seat 0: its whole clock
    clock.at = None
    game = rt.reading.load(gid)
    d, _at = rt.deadlines.due(game, time.time())
    assert (d.rule, d.seat) == ("T-6", 0)
    outcome = jobs._fire(rt, gid, 0)
    assert outcome[:2] == ("fired", "T-6")
    final = rt.reading.load(gid).state
    assert (final.status, final.result, final.winner, final.aborted_by) == (
        "aborted", "T-6", None, "service")  # fmt: skip
    assert final.aborted_why == ("the service refused seat 0's requests (a 503, or a 429 of "
                                 "a limit the seat did not exceed) for 2 s since its last "
                                 "action")  # fmt: skip
    events = [e for _v, e in rt.reading.entries(rt.reading.load(gid))]
    assert events[-2] == {"type": "deadline_expired", "at": events[-1]["at"], "rule": "T-6",
                          "seat": 0}  # fmt: skip
    log = [domain.event_from_dict(e) for e in events]
    assert verify(log, rt.reading.load(gid).seed).ok  # the audit holds
    # refused for less than their clocks (1 s and 1.5 s of 2 s), the seats' T-4s are
    # pushed back by that much, and the first to run out forfeits, as before
    clock.at = t
    g2 = rt.seating.create("spit", {"idle_forfeit_s": 2, "ready_grace_s": 600}, "human", "").body
    tok1 = rt.joining.join(g2["id"], "").body["token"]
    rt.deadlines.refused(g2["id"], g2["token"], t, t + 1)
    rt.deadlines.refused(g2["id"], tok1, t, t + 1.5)
    clock.at = None
    assert jobs._fire(rt, g2["id"], 0)[:2] == ("fired", "T-4")
    assert rt.reading.load(g2["id"]).state.winner == 1


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
