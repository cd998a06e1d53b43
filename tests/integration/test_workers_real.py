"""Bots and timeouts with real RQ workers (``spitlog worker``) and the scheduler
(``spitlog scheduler``) as subprocesses, on a real redis-server; the API in process.

Bots react at a twentieth of their real pace (``SPITLOG_BOT_PACE``) and the sweeper
looks every 0.2 s for games unmoved for 1 s, so whole games fit in seconds.
"""

import json
import random
import re
import threading
import time
from collections import Counter, defaultdict

import pytest
import redis

import domain
from service.http.app import create_app
from tests.support.api import app_settings, bearer, pick, undecorated
from tests.support.workers_procs import Procs, killed_at, wait_for_workers
from workers.schedule import Schedule, Scheduler

pytestmark = pytest.mark.redis

PACE = 0.05
ENV = {
    "SPITLOG_BOT_PACE": str(PACE),
    "SPITLOG_TRACE": "1",
    "SPITLOG_STALL_S": "1.0",
    "SPITLOG_SWEEP_S": "0.2",
    "SPITLOG_WORKER_LOG_LEVEL": "WARNING",
}
OVER = ("finished", "aborted")
REARMED = re.compile(r"re-arming .* of (\S+) at version (\d+)")  # the sweeper's log line


@pytest.fixture(scope="module")
def url(redis_url):
    redis.Redis.from_url(redis_url).flushall()  # once: the processes below live across tests
    return redis_url


@pytest.fixture(scope="module")
def procs(url, tmp_path_factory):
    p = Procs({**ENV, "SPITLOG_REDIS_URL": url}, tmp_path_factory.mktemp("workers"))
    try:
        for i in range(2):
            p.start(f"w{i}")
        p.start("scheduler", "scheduler")
        wait_for_workers(url, 2)
        yield p
    finally:
        p.stop()


@pytest.fixture(scope="module")
def schedule(url):
    return Schedule(redis.Redis.from_url(url))


@pytest.fixture(scope="module")
def scheduler(schedule):
    return Scheduler(schedule, pace=PACE)


@pytest.fixture(scope="module")
def app(url, procs, scheduler):
    return create_app(app_settings(redis_url=url), scheduler=scheduler)


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


def full_log(app, gid) -> list[dict]:
    """The log unredacted, as the store holds it (the API shows it only once over)."""
    entries = app.extensions["spitlog"].store.read_after(gid, 0)
    return [{"version": v, **d} for v, d in entries]


def create(client, **body) -> dict:
    r = client.post("/v1/games", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def wait_over(client, game_ids, timeout: float) -> dict[str, dict]:
    """The final spectator views of the games, once every one is over."""
    end = time.monotonic() + timeout
    views = {}
    while time.monotonic() < end:
        for gid in game_ids:
            if gid not in views:
                v = client.get(f"/v1/games/{gid}").get_json()
                if v["status"] in OVER:
                    views[gid] = v
        if len(views) == len(game_ids):
            return views
        time.sleep(0.1)
    stuck = {g: client.get(f"/v1/games/{g}").get_json() for g in game_ids if g not in views}
    pytest.fail(
        "games did not finish: "
        + ", ".join(f"{g} v{v['version']} {v['phase']}" for g, v in stuck.items())
    )


def wait_until(condition, timeout: float) -> None:
    """Until ``condition()`` holds (looked at every 20 ms); fails after ``timeout``."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            pytest.fail("it did not happen in time")
        time.sleep(0.02)


def events(client, gid) -> list[dict]:
    out, after = [], 0
    while True:
        body = client.get(f"/v1/games/{gid}/events?after={after}&limit=1000").get_json()
        out += body["events"]
        if not body["events"]:
            return out
        after = body["events"][-1]["version"]


def appends(log: list[dict]) -> list[tuple[int, list[dict]]]:
    """The log cut into appends: (version before, events). The events of one decision
    share their time stamp (the service's clock, read once per decision)."""
    out = []
    for e in log:
        if out and out[-1][1][0]["at"] == e["at"]:
            out[-1][1].append(e)
        else:
            out.append((e["version"] - 1, [e]))
    return out


def replayed(log) -> domain.State:
    return domain.replay(
        domain.event_from_dict({k: v for k, v in e.items() if k != "version"}) for e in log
    )


def check_replays(client, gid, log) -> None:
    """The log, replayed by the domain, is the state the service serves."""
    mine = json.loads(json.dumps(domain.view(replayed(log), None)))
    assert mine == undecorated(client.get(f"/v1/games/{gid}").get_json())
    assert client.get(f"/v1/games/{gid}/audit").get_json()["verified"] is True


def bot_runs(schedule, game_ids) -> dict[tuple, list[dict]]:
    """The traced bot jobs of the games, by decision (game, seat, version)."""
    runs = defaultdict(list)
    for t in schedule.read_trace():
        if t["kind"] == "bot" and t["game"] in game_ids:
            runs[(t["game"], int(t["seat"]), int(t["version"]))].append(t)
    return runs


def check_acted_once(client, schedule, game_ids) -> Counter:
    """No bot decision was applied twice: per (game, seat, version) at most one traced
    run appended, and every bot action in the log started at a distinct version."""
    runs = bot_runs(schedule, game_ids)
    acted = Counter(k for k, ts in runs.items() for t in ts if t["outcome"] == "acted")
    assert max(acted.values(), default=0) <= 1, [k for k, n in acted.items() if n > 1]
    for gid in game_ids:
        first = {v: evs[0] for v, evs in appends(events(client, gid))}
        for (g, seat, v), _n in acted.items():
            if g == gid:  # the append made at that version is this bot's own action
                assert first[v].get("seat") == seat and first[v].get("by") is None, first[v]
    return Counter(len(ts) for ts in runs.values())


# ---------------------------------------------------------------- bots


def test_bot_against_bot_plays_to_the_end_with_no_human(client, schedule):
    games = [
        create(client, game="spit", seat0="bot:hard", opponent="bot:medium"),
        create(client, game="speed", seat0="bot:easy", opponent="bot:random"),
    ]
    assert all(g["seat"] is None and g["token"] is None for g in games)
    ids = [g["id"] for g in games]
    views = wait_over(client, ids, timeout=90)
    for gid, v in views.items():
        assert v["status"] == "finished", v["result"]
        assert v["result"] not in ("T-4", "T-5")  # the bots played it out
        check_replays(client, gid, events(client, gid))
    check_acted_once(client, schedule, set(ids))


def human_plays(client, gid, token, seat, rng, timeout: float) -> dict:
    """The test as a human: a random legal action every 10-40 ms, over HTTP."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = client.get(f"/v1/games/{gid}", headers=bearer(token)).get_json()
        if v["status"] in OVER:
            return v
        action = pick(v, rng)
        if action is not None:
            r = client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(token))
            # 422: the bot got there first; 409: the bot's move (or a timeout) ended the game
            # between our read and our action; the loop's next read returns the final view
            assert r.status_code in (201, 409, 422), r.get_json()
            if r.status_code == 409:
                assert r.get_json()["type"].endswith("game-over"), r.get_json()
        time.sleep(rng.uniform(0.01, 0.04))
    pytest.fail(f"the game {gid} against the bot did not finish")


@pytest.mark.parametrize(
    "level,game",
    [("random", "speed"), ("easy", "speed"), ("medium", "speed"), ("hard", "spit")],
)
def test_a_human_finishes_a_game_against_each_bot_level(client, level, game):
    g = create(client, game=game, opponent=f"bot:{level}", options={"max_rounds": 8})
    v = human_plays(client, g["id"], g["token"], 0, random.Random(level), timeout=60)
    assert v["status"] == "finished"
    log = events(client, g["id"])
    bot_events = [e for e in log if e.get("seat") == 1 and e.get("by") is None]
    assert bot_events, "the bot never acted"
    check_replays(client, g["id"], log)


# ---------------------------------------------------------------- timeouts


def two_humans(client, game="spit", **options):
    r = client.post("/v1/games", json={"game": game, "options": options})
    g = r.get_json()
    j = client.post(f"/v1/games/{g['id']}/seats", json={}).get_json()
    return g["id"], (g["token"], j["token"])


def view(client, gid, token):
    return client.get(f"/v1/games/{gid}", headers=bearer(token)).get_json()


def act(client, gid, token, action):
    return client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(token))


def stuck_game(app, scheduler, **options) -> tuple[str, tuple[str, str]]:
    """A game of two humans dealt a stalemate (tests/unit/positions.py: nobody can play on
    the two 8s), both ready and spitting now: its log appended to the store and its
    deadlines armed as an append through the service arms them."""
    import dataclasses
    import secrets

    from service.records import GameRecord, Seat
    from service.tokens import token_hash
    from tests.unit.positions import spit_stuck

    services = app.extensions["spitlog"]
    gid, now = "g_" + secrets.token_hex(8), time.time()
    events = [dataclasses.replace(e, at=now) for e in spit_stuck(**options)]
    events[0] = dataclasses.replace(events[0], game_id=gid)
    tokens = (secrets.token_urlsafe(32), secrets.token_urlsafe(32))
    seed = bytes(range(32))
    hashes = (token_hash(tokens[0]), token_hash(tokens[1]))
    record = GameRecord(
        game="spit", seed=seed, commitment=domain.commitment(seed), created_ms=int(now * 1000),
        seats=(Seat("human", hashes[0]), Seat("human", hashes[1])), status="running",
    )  # fmt: skip
    store = services.store
    store.append(gid, 0, [domain.event_to_dict(e) for e in events], record=record)
    store.index(gid, status="running", created_ms=int(now * 1000),
                tokens={0: hashes[0], 1: hashes[1]})  # fmt: skip
    state = domain.replay(events)
    assert state.stalemate and state.can_act == (True, True)
    scheduler.on_appended(gid, state)
    return gid, tokens


def test_a_silent_human_is_called_for_in_a_stalemate_after_T1(app, client, scheduler):
    """T-1 (S-2): in a stalemate, the seat that does not call is called for after
    ``spit_grace_s``, not before; the other seat's own call stands. (How soon after its
    due a deadline fires is ``bench/bench_workers.py``'s figure: its ``precision`` part.)

    The grace (3 s) leaves the test's own call, two requests in process, far more time
    than it needs to come first."""
    grace = 3.0
    gid, tokens = stuck_game(app, scheduler, spit_grace_s=grace, idle_forfeit_s=60,
                             slap_grace_s=60)  # fmt: skip
    v = view(client, gid, tokens[0])
    assert v["phase"] == "stalemate"
    silent = 1
    assert act(client, gid, tokens[0], {"type": "spit"}).status_code == 201
    wait_until(lambda: any(e["type"] == "deadline_expired" for e in full_log(app, gid)), 120)
    log = full_log(app, gid)
    after = log[v["version"] :]
    # One firing per stalemate: it calls for the silent seat and turns the spit cards in
    # the same append; a stalemate that remains is a new one, with a T-1 of its own.
    first = next(evs for _v, evs in appends(after) if evs[0]["type"] == "deadline_expired")
    assert first[0]["rule"] == "T-1"
    assert [e["type"] for e in first[:3]] == [
        "deadline_expired", "spit_called", "spit_cards_turned",
    ]  # fmt: skip
    assert (first[1]["seat"], first[1]["by"]) == (silent, "T-1")
    expired = [e for e in after if e["type"] == "deadline_expired"]
    for e in expired:  # each T-1 firing was due: a stalemate of its own, passed its grace
        assert replayed(log[: e["version"] - 1]).phase_since + grace <= e["at"]
    stalemate_since = replayed(log[: v["version"]]).phase_since
    assert stalemate_since + grace <= expired[0]["at"]  # the first one: not before its grace


def test_an_idle_human_forfeits_after_T4(app, client):
    """T-4: seat 1 does nothing after getting ready while seat 0 plays on: seat 1 loses
    by forfeit ``idle_forfeit_s`` after its last action, not before. (How soon after its
    due it fires is ``bench/bench_workers.py``'s figure.)

    Seat 0 acts every 0.2 s until the game is over: its own idle time stays far below
    the 4 s (seat 1's ran since before seat 0's ready), and 4 s of its actions are too
    few to play the game out first."""
    gid, tokens = two_humans(
        client, idle_forfeit_s=4.0, spit_grace_s=0.3, slap_grace_s=0.3, ready_grace_s=0.5
    )
    assert act(client, gid, tokens[1], {"type": "ready"}).status_code == 201
    assert act(client, gid, tokens[0], {"type": "ready"}).status_code == 201
    rng = random.Random(3)
    end = time.monotonic() + 120
    while (v := view(client, gid, tokens[0]))["status"] not in OVER:
        assert time.monotonic() < end, "the game did not end"
        action = pick(v, rng)
        if action is not None:
            act(client, gid, tokens[0], action)
        time.sleep(0.2)
    assert v["status"] == "finished"
    assert (v["result"], v["winner"]) == ("T-4", 0)
    log = events(client, gid)
    ended = log[-1]
    assert ended["type"] == "game_ended"
    expired = [e for e in log if e["type"] == "deadline_expired" and e["rule"] == "T-4"]
    assert [e["seat"] for e in expired] == [1]
    # T-4's clock: 4 s in all with a legal action since seat 1's last action
    before = replayed(log[: expired[0]["version"] - 1])
    due = next(d.at for d in domain.deadlines(before) if d.rule == "T-4" and d.seat == 1)
    assert due <= ended["at"]


# ---------------------------------------------------------------- crashes


@pytest.mark.timeout(900)  # its own waits name what failed
def test_workers_killed_again_and_again_every_game_still_finishes(
    client, schedule, procs, url, tmp_path
):
    """Chaos: worker processes are killed mid-job while bots play; every game still
    finishes, no bot decision is applied twice, and every log replays to the state served.

    The workers are slow (slow_worker.py: a few ms before each decision and between an
    append and the hook that arms what follows) and kill themselves at named points
    (``TEST_KILL_AT``): three times about to make a bot's decision (``bot.decide``), three
    times with an action appended and the decisions that follow it not yet armed
    (``bot.hook``). Those come first, in five games of bots whose graces are long (60 s),
    where nothing but a bot's decision moves the game: each ``bot.hook`` kill leaves its
    game with nothing armed at its version, and only the sweeper arms it again. On top,
    at least 22 SIGKILLs from outside every 0.1-0.3 s (of a worker RQ shows busy, when one
    can be seen within 0.3 s) and two of the scheduler, through the end. Once the forced
    kills are done, two games seat a human who never acts (short graces): their deadlines
    (made ready, called for, forfeit by T-4) fire through the random kills, each once (the
    replay re-judges every one)."""
    workers = [f"c{i}" for i in range(4)]
    kill_dir = tmp_path / "kills"
    kill_dir.mkdir()
    forced = {"bot.decide": 3, "bot.hook": 3}
    plain_env = dict(procs.env)
    procs.env.update(TEST_KILL_AT=",".join(f"{p}={n}" for p, n in forced.items()),
                     TEST_KILL_DIR=str(kill_dir))  # fmt: skip
    for name in ("w0", "w1"):
        procs.kill(name)
    for name in workers:
        procs.start(name, "slow-worker")
    rng = random.Random(11)
    stop = threading.Event()
    kills = [0]

    def chaos():
        while kills[0] < 22 or (not stop.is_set() and kills[0] < 50):  # more while games run
            time.sleep(rng.uniform(0.1, 0.3))
            procs.kill_a_worker(url, workers, 0.3, rng)
            kills[0] += 1
            if kills[0] in (7, 15):  # the ticker too: claims in flight are lost with it
                procs.restart("scheduler", "scheduler")

    long = {"spit_grace_s": 60, "slap_grace_s": 60, "ready_grace_s": 60}
    # T-4 well above the sweeper's recovery of a lost decision (a stall, 1 s): the bot's
    # jobs killed twice in a row must not abort the game (T-6) before the silent human's
    # T-4
    silent = {"ready_grace_s": 0.5, "spit_grace_s": 0.5, "idle_forfeit_s": 6.0}
    killer = threading.Thread(target=chaos)
    try:
        with procs.reviving(workers):  # those killed at a forced point start again
            killer.start()
            try:
                games = [
                    create(client, game="spit", seat0="bot:hard", opponent="bot:hard",
                           options={"stockpiles": 4, "max_rounds": 4, **long}),
                    *(create(client, game="speed", seat0="bot:hard", opponent=f"bot:{lvl}",
                             options=long)
                      for lvl in ("hard", "medium", "easy", "random")),
                ]  # fmt: skip
                bots = {g["id"] for g in games}
                wait_until(lambda: {p: killed_at(kill_dir, p) for p in forced} == forced, 300)
                humans = [create(client, game=game, opponent="bot:medium", options=silent)["id"]
                          for game in ("spit", "speed")]  # fmt: skip
                ids = [*bots, *humans]
                views = wait_over(client, ids, timeout=300)
            finally:
                stop.set()
                killer.join(600)
        assert not killer.is_alive(), "the chaos did not stop"
    finally:
        for name in workers:  # (nothing revives them now, and the chaos is over)
            procs.kill(name)
        procs.env.clear()
        procs.env.update(plain_env)
        for name in ("w0", "w1"):
            procs.start(name)
    assert kills[0] >= 22
    for gid, v in views.items():
        if gid in humans:
            # the silent seat never plays, so it cannot win by play: the bot won (by T-4, or
            # by playing out first), or, its decisions killed again and again for 6 s in
            # all, the bot's own clock ran out first: then the game is aborted under T-6,
            # the bot never forfeited (the deal and the kills decide): either way by the
            # game's own deadlines, through the kills
            ended = (v["status"], v["winner"]) == ("finished", 1)
            assert ended or (v["status"], v["result"]) == ("aborted", "T-6"), (gid, v)
        else:
            assert v["status"] == "finished" and v["result"] not in ("T-4", "T-5"), (gid, v)
        check_replays(client, gid, events(client, gid))
    runs = check_acted_once(client, schedule, set(ids))
    assert sum(runs.values()) > 100  # decisions traced (a killed job leaves no trace)
    # every forced kill happened (the claims: one a kill); each ``bot.hook`` kill left a
    # game of bots at a version with nothing armed, which the sweeper armed again: a
    # distinct (game, version) re-armed for each at the least
    assert {p: killed_at(kill_dir, p) for p in forced} == forced
    rearmed = {(g, int(v)) for g, v in REARMED.findall(procs.log("scheduler")) if g in bots}
    assert len(rearmed) >= forced["bot.hook"], rearmed
