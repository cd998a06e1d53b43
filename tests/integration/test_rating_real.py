"""Ratings for real: rated games finish while slow RQ workers (tests/support/slow_worker.py:
a pause before a rating is applied and before its outcome is written to the game) kill
themselves at named points of the rating (``TEST_KILL_AT``: twice about to apply a
rating, ``rate.apply``; twice with it applied and its outcome not yet on the game,
``rate.annotate``), and on top are SIGKILLed again and again, most often while they run
a finished game's job (rate, then archive); the scheduler's sweeper re-arms what the
kills lost. Every game must be rated exactly once before it leaves Redis."""

import json
import random
import threading
import time
from collections import defaultdict

import pytest
import redis

from domain.ratings import Rating
from service.archive.directory import DirectoryArchive
from service.http.app import create_app
from tests.support.api import app_settings, bearer, move_each
from tests.support.keys import keys_naming
from tests.support.workers_procs import Procs, killed_at, wait_for_workers
from workers.schedule import Schedule, Scheduler

pytestmark = pytest.mark.redis

PLAYERS = ("ann", "ben", "cat", "dan", "eve", "fay")
ENV = {"SPITLOG_BOT_PACE": "0.05", "SPITLOG_STALL_S": "1.0", "SPITLOG_SWEEP_S": "0.2",
       "SPITLOG_RETAIN_S": "0.5", "SPITLOG_REMATCH_S": "0.5",
       "SPITLOG_WORKER_LOG_LEVEL": "WARNING"}  # fmt: skip


# Each player starts established (as after games before these, counted as none here): a
# player is rated only against an established opponent (docs/decisions/0036).
SEEDED = {"rating": 1500.0, "rd": 60.0, "vol": 0.06}


def seed(svc, key) -> None:
    store = svc.profiles.players
    app = svc.apps.authenticate(key["X-Api-Key"])
    for pid in PLAYERS:
        pkey = f"{app.id}:{pid}"
        store.touch_player(pkey, pid.title(), 0)
        [(guard, _r)] = store.read_for_rating("g_none", "spit", [pkey])[1]
        new = {**SEEDED, "games": 0, "wins": 0, "losses": 0, "draws": 0}
        assert store.apply_rating(f"g_seed_{pid}", "spit", "{}", [(pkey, guard, new, True)])[
            0] == "ok"  # fmt: skip


def wait_until(condition, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"{what}: not in {timeout} s")
        time.sleep(0.05)


def chain(outcomes: list[dict], pkey: str) -> Rating:
    """A player's ratings applied one game after another, each game's ``before`` the
    previous one's ``after``, from the established rating each player starts with
    (``SEEDED``): the rating at the end of the chain. A game applied twice, or on a stale
    rating, breaks it."""
    now = dict(SEEDED)
    left = list(outcomes)
    while left:
        step = next((o for o in left if o["before"] == now), None)
        assert step is not None, f"{pkey}: no game was rated from {now}: {left}"
        left.remove(step)
        now = step["after"]
    return Rating(now["rating"], now["rd"], now["vol"])


def play_one(client, svc, key, rng, n: int) -> tuple[str, list[str]]:
    """A rated game of two players (of a player and a hosted level, one game in four),
    each seat moved once, then resigned by one of them: (its id, its players)."""
    a, b = rng.sample(PLAYERS, 2)
    body = {"game": "spit", "rated": True, "player": {"id": a, "name": a.title()}}
    if n % 4 == 3:  # against a hosted level: only the player is rated
        body["opponent"] = rng.choice(("bot:easy", "bot:hard"))
    g = client.post("/v1/games", json=body, headers=key).get_json()
    tokens, who = [g["token"]], [a]
    if "opponent" not in body:
        seat = {"player": {"id": b, "name": b.title()}}
        j = client.post(f"/v1/games/{g['id']}/seats", headers=key, json=seat).get_json()
        tokens.append(j["token"])
        who.append(b)
    # both seats make a move first (a hosted level's, the workers' own): resigned before
    # that, a rated game is aborted, not rated (docs/decisions/0027)
    seats = (tokens[0], tokens[1] if len(tokens) > 1 else "workers")
    assert not move_each(client, svc, g["id"], seats, rng_seed=n).over
    loser = rng.randrange(len(tokens))
    resign = client.post(f"/v1/games/{g['id']}/actions", json={"type": "resign"},
                         headers=bearer(tokens[loser]))  # fmt: skip
    assert resign.status_code == 201
    return g["id"], who


@pytest.mark.timeout(900)  # its own waits name what failed
def test_rated_games_are_rated_exactly_once_through_kill_9s(redis_url, tmp_path, request):
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    archive = DirectoryArchive(tmp_path / "archive")
    kill_dir = tmp_path / "kills"
    kill_dir.mkdir()
    forced = {"rate.apply": 2, "rate.annotate": 2}
    env = {**ENV, "SPITLOG_REDIS_URL": redis_url, "SPITLOG_ARCHIVE_URL": str(tmp_path / "archive"),
           "TEST_KILL_AT": ",".join(f"{p}={n}" for p, n in forced.items()),
           "TEST_KILL_DIR": str(kill_dir)}  # fmt: skip
    procs = Procs(env, tmp_path / "procs")
    request.addfinalizer(procs.stop)  # whatever fails below
    workers = ["k0", "k1", "k2"]
    for name in workers:
        procs.start(name, "slow-worker")
    procs.start("scheduler", "scheduler")
    wait_for_workers(redis_url, len(workers))
    app = create_app(app_settings(redis_url=redis_url), archive=archive,
                     scheduler=Scheduler(Schedule(r), pace=0.05))  # fmt: skip
    client, svc = app.test_client(), app.extensions["spitlog"]
    key = {"X-Api-Key": svc.apps.create("acme")[1]}
    seed(svc, key)
    rng = random.Random(16)
    played: list[tuple[str, list[str]]] = []  # (game, its players)
    stop = threading.Event()
    kills = {"arc|": 0, "": 0}
    done, failed = [0], []  # kills made; what ended the chaos early

    def chaos():
        try:
            while not stop.is_set() or done[0] < 16:
                time.sleep(rng.uniform(0.1, 0.4))
                aim = "arc|" if done[0] % 3 else ""
                kills[aim] += procs.kill_a_worker(redis_url, workers, 0.4, rng, aim)
                done[0] += 1
                if done[0] > 40:
                    return
        except BaseException as e:  # noqa: BLE001 - reported below
            failed.append(e)

    killer = threading.Thread(target=chaos, daemon=True)  # never holds the session up
    with procs.reviving(workers):  # those killed at a forced point start again
        killer.start()
        try:
            for n in range(24):
                played.append(play_one(client, svc, key, rng, n))
                time.sleep(rng.uniform(0.05, 0.3))
        finally:
            stop.set()
            killer.join(600)
        assert not killer.is_alive(), "the chaos did not stop"
        assert not failed and done[0] >= 16, (done[0], failed)
        for gid, _who in played:  # rated, archived, and gone from Redis, once the sweeper
            wait_until(lambda g=gid: not keys_naming(r, g), 180, f"{gid} out of Redis")
    # every forced kill happened: ratings died about to be applied, and applied with their
    # outcome not yet on their game (each game is rated once all the same: below)
    assert {p: killed_at(kill_dir, p) for p in forced} == forced
    outcomes = defaultdict(list)
    for gid, who in played:
        record = archive.read(gid).record
        assert "rating" in record and record["rated"] == "1", gid
        seats = json.loads(record["rating"])["seats"]
        for seat, pid in enumerate(who):
            outcomes[pid].append(seats[seat])
    counts = defaultdict(int)
    for _gid, who in played:
        for pid in who:
            counts[pid] += 1
    for pid in PLAYERS:
        page = client.get(f"/v1/players/{pid}", headers=key)
        if pid not in counts:
            continue
        got = page.get_json()["ratings"]["spit"]
        assert got["games"] == counts[pid], pid  # every game once: none lost, none twice
        assert got["wins"] + got["losses"] + got["draws"] == counts[pid]
        end = chain(outcomes[pid], pid)
        assert round(end.rating) == got["rating"] and round(end.rd, 1) == got["rd"]
        listed = client.get(f"/v1/players/{pid}/games?limit=100", headers=key).get_json()
        assert len(listed["games"]) == counts[pid]  # from the archive now
    board = client.get("/v1/leaderboard?game=spit&limit=100").get_json()["players"]
    board = [p for p in board if p["id"] in counts]  # (seeded, and no game since: listed)
    established = [
        pid
        for pid in counts
        if not client.get(f"/v1/players/{pid}", headers=key).get_json()["ratings"]["spit"][
            "provisional"
        ]
    ]
    assert sorted(p["id"] for p in board) == sorted(established)  # provisional ones are not
    assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
    print(
        f"\n{len(played)} rated games, {sum(kills.values())} kills that found a job "
        f"({kills['arc|']} of a finished game's job): each rated once"
    )
