"""Seeks and rematches against the real redis-server: the
pairing and the rematch scripts under real concurrency (threads on the use cases, each
with its own connections, as API processes are), and a crash between a pairing and its
game."""

import random
import threading
import time
from collections import Counter, defaultdict

import pytest
import redis

from domain import speed
from service.assembly import GameCases
from service.ports import ms_now
from service.rematch import Rematches
from service.seeks import Seeks
from service.store.players import PlayerStore
from service.store.redis import RedisStore
from service.store.seeks import DUE, MAKING, SeekStore
from service.tokens import token_hash

pytestmark = pytest.mark.redis

OPTIONS = ({}, {"max_rounds": 3})
RANGES = (None, [1400, 1600], [1000, 2000], [0, 1000])  # the last pairs with no 1500

NEAREST_1500 = "bot:" + min(speed.BOT_RATINGS, key=lambda lv: abs(speed.BOT_RATINGS[lv] - 1500))


def use_cases(url: str):
    client = redis.Redis.from_url(url, max_connections=64)
    store, players = RedisStore(client), PlayerStore(client)
    cases = GameCases.build(store, players=players)
    return cases, Seeks(cases.seating, SeekStore(client), players, None, max_s=300)


def rematches(cases: GameCases) -> Rematches:
    return Rematches(cases.reading, cases.tokens, cases.seating, cases.pairs,
                     cases.store, clock=ms_now)  # fmt: skip


def test_1000_concurrent_seeks_are_each_paired_exactly_once_or_expired(redis_client, redis_url):
    """1,000 seeks from 16 threads (two games, two option sets, four rating ranges, a bot
    fallback for a third of them), while a 17th thread plays the scheduler (each seek's
    fallback or expiry when due); then every seek is paired once or expired, every game
    has its seeks' tokens at their seats, and nothing is left in the pool."""
    n, threads = 1000, 16
    rng = random.Random(16)
    specs = [
        {"game": rng.choice(("spit", "speed")), "options": rng.choice(OPTIONS),
         "rating_range": rng.choice(RANGES),
         "bot_fallback_s": rng.uniform(0.05, 0.6) if rng.random() < 1 / 3 else None,
         "expires_s": 2.0}
        for _ in range(n)
    ]  # fmt: skip
    posted: list[dict] = []
    lock = threading.Lock()
    done = threading.Event()
    errors: list[BaseException] = []

    def post(part):
        _games, seeks = use_cases(redis_url)
        try:
            for spec in part:
                out = seeks.post(spec["game"], spec["options"], rating_range=spec["rating_range"],
                                 bot_fallback_s=spec["bot_fallback_s"],
                                 expires_s=spec["expires_s"])  # fmt: skip
                with lock:
                    posted.append({**spec, **out})
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    def scheduler():
        _games, seeks = use_cases(redis_url)
        while not done.is_set() or seeks.store.overdue(int(time.time() * 1000)):
            for sid in seeks.store.overdue(int(time.time() * 1000)):
                seeks.due(sid)
            time.sleep(0.01)

    ticker = threading.Thread(target=scheduler)
    ticker.start()
    workers = [threading.Thread(target=post, args=(specs[i::threads],)) for i in range(threads)]
    t0 = time.monotonic()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    posting = time.monotonic() - t0
    time.sleep(2.2)  # every seek past its expiry
    done.set()
    ticker.join(300)
    assert not ticker.is_alive(), "the scheduler's thread did not finish"
    assert not errors, errors[:3]
    assert len(posted) == n

    games, seeks = use_cases(redis_url)
    final = {p["id"]: seeks.store.get(p["id"]) for p in posted}
    by_status = Counter(s.status for s in final.values())
    assert set(by_status) <= {"paired", "expired"}, by_status
    in_game = defaultdict(list)
    for sid, s in final.items():
        if s.status == "paired":
            in_game[s.game_id].append((sid, s.seat, s.opponent))
    spec = {p["id"]: p for p in posted}
    vs_bot = 0
    for gid, seats in in_game.items():
        record = games.store.game_record(gid)
        assert record is not None, f"{gid}: paired, and no game"
        if len(seats) == 1:  # a bot fallback
            ((sid, seat, opp),) = seats
            assert seat == 0 and opp.startswith("bot:") and record.seats[1].kind == opp
            assert record.seats[0].token_hash == final[sid].token_hash
            vs_bot += 1
            continue
        assert sorted(seat for _s, seat, _o in seats) == [0, 1], (gid, seats)
        (a, _sa, oa), (b, _sb, ob) = sorted(seats, key=lambda x: x[1])
        assert (oa, ob) == (b, a)  # each names the other
        assert list(record.token_hashes) == [final[a].token_hash, final[b].token_hash]
        sa, sb = spec[a], spec[b]
        assert (sa["game"], sa["options"]) == (sb["game"], sb["options"]) == (
            record.game, {k: v for k, v in sa["options"].items()})  # fmt: skip
        for mine, theirs in ((final[a], final[b]), (final[b], final[a])):
            assert mine.low <= theirs.rating <= mine.high
    # no seek in two games: every seek's token sits at one seat of one game only
    records = [games.store.game_record(gid) for gid in in_game]
    seated = Counter(h for r in records for h in r.token_hashes if h)
    assert max(seated.values()) == 1
    assert sum(len(s) for s in in_game.values()) == by_status["paired"]
    never = [sid for sid in final if spec[sid]["rating_range"] == [0, 1000]]
    assert all(final[s].status == "expired" or final[s].opponent.startswith("bot:")
               for s in never)  # fmt: skip
    r = redis_client
    assert [k for k in r.scan_iter("spit:{sk}:pool:*") if r.zcard(k)] == []
    assert r.zcard(DUE) == 0 and r.zcard(MAKING) == 0
    pairs = len(in_game) - vs_bot
    print(
        f"\n1,000 seeks posted in {posting:.1f} s from {threads} threads: "
        f"{by_status['paired']} paired ({pairs} games of two seeks, {vs_bot} against a "
        f"bot), {by_status['expired']} expired, none lost, none twice"
    )


def test_a_pairing_whose_process_died_before_its_game_is_finished_once(redis_client, redis_url):
    games, seeks = use_cases(redis_url)
    real = seeks._settle
    seeks._settle = lambda sid: (_ for _ in ()).throw(ConnectionError("killed"))  # the crash
    a = seeks.post("spit", {})
    with pytest.raises(ConnectionError):
        seeks.post("spit", {})
    seeks._settle = real
    (pairing,) = seeks.store.making(int(time.time() * 1000) + 1)
    gid = pairing.game_id
    assert games.store.game_record(gid) is None  # paired, the game not made
    # the sweeper and a reader at once: one game
    others = [use_cases(redis_url)[1] for _ in range(4)]
    ts = [threading.Thread(target=o.settle_stale, args=(int(time.time() * 1000) + 1,))
          for o in others[:2]] + [threading.Thread(target=o.read, args=(a["id"], a["token"]))
                                  for o in others[2:]]  # fmt: skip
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    got = seeks.read(a["id"], a["token"])
    assert (got["status"], got["game_id"], got["seat"]) == ("paired", gid, 0)
    assert games.reading.load(gid).record.seats[0].token_hash == token_hash(a["token"])
    assert games.store.version(gid) == games.reading.load(gid).version
    assert seeks.store.making(int(time.time() * 1000) + 1) == []


def test_both_seats_asking_for_a_rematch_at_the_same_instant_make_one_game(redis_client, redis_url):
    games, _seeks = use_cases(redis_url)
    played = []
    for _ in range(40):
        g = games.seating.create("speed", None, "human", "").body
        j = games.joining.join(g["id"], "").body
        games.acting.act(g["id"], j["token"], {"type": "resign"})
        played.append((g["id"], g["token"], j["token"]))
    answers = defaultdict(list)

    def ask(gid, token, barrier):
        mine = rematches(use_cases(redis_url)[0])
        barrier.wait()
        answers[gid].append(mine.ask(gid, token))

    for gid, t0, t1 in played:
        barrier = threading.Barrier(2)
        ts = [threading.Thread(target=ask, args=(gid, t, barrier)) for t in (t0, t1)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    made = Counter()
    for gid, t0, t1 in played:
        codes = sorted(code for code, _body in answers[gid])
        assert codes in ([201, 202], [201, 201]), codes
        named = {body["game"] for code, body in answers[gid] if code == 201}
        assert len(named) == 1
        new = named.pop()
        made[new] += 1
        assert games.store.game_record(gid).rematch.game == new
        assert games.reading.load(new).record.rematch_of == gid
        for token, seat in ((t0, 1), (t1, 0)):
            mine = rematches(games).read(gid, token)
            assert games.tokens.seat(games.reading.load(new), mine["token"]) == seat
    assert len(made) == len(played)
    rows, _ = games.store.lobby("running", None, 100)
    assert len(rows) == len(played)  # one new game each, nothing more


def _until(condition, timeout: float = 60) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def test_bot_fallbacks_are_fired_by_the_workers_and_lost_ones_by_the_sweeper(
    redis_client, redis_url, tmp_path
):
    """With real RQ workers and the scheduler: a seek's fallback fires from its schedule
    slot (``seek|<id>``) with no reader waiting; a seek whose slot was never armed (its
    process died right after storing it) is found overdue by the sweeper and falls back
    all the same; then the hosted bot plays its game.

    The two are told apart: first the scheduler runs with a stall of 600 s, so that its
    sweeper re-arms nothing here: the armed seek is paired (by its slot: nothing else
    could), the lost one stays open. Then the scheduler starts again with a stall of 1 s:
    its sweeper says it re-armed the lost seek, and that one is paired."""
    from service.http.app import create_app
    from tests.support.api import app_settings, bearer
    from tests.support.workers_procs import Procs, wait_for_workers
    from workers.schedule import Schedule, Scheduler

    procs = Procs({"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BOT_PACE": "0.05",
                   "SPITLOG_STALL_S": "600", "SPITLOG_SWEEP_S": "0.2"}, tmp_path)  # fmt: skip
    procs.start("w0")
    procs.start("scheduler", "scheduler")
    try:
        wait_for_workers(redis_url, 1)
        app = create_app(app_settings(redis_url=redis_url),
                         scheduler=Scheduler(Schedule(redis_client), pace=0.05))  # fmt: skip
        client = app.test_client()
        armed = client.post("/v1/seeks", json={"game": "speed", "bot_fallback_s": 0.3}).get_json()
        _games, unarmed_seeks = use_cases(redis_url)  # no scheduler: nothing armed
        lost = unarmed_seeks.post("speed", {"side_piles": 5}, bot_fallback_s=0.2)  # not a pair
        store = unarmed_seeks.store

        def paired(seek) -> bool:
            return store.get(seek["id"]).status == "paired"

        assert _until(lambda: paired(armed)), store.get(armed["id"])  # from its slot
        assert store.get(lost["id"]).status == "open"  # nothing armed it
        assert "re-armed" not in procs.log("scheduler")
        procs.env["SPITLOG_STALL_S"] = "1.0"
        procs.restart("scheduler", "scheduler")
        assert _until(lambda: paired(lost)), store.get(lost["id"])
        assert "re-armed 1 seeks" in procs.log("scheduler")  # the sweeper's doing
        for s in (armed, lost):
            got = store.get(s["id"])
            # the level whose calibrated rating is nearest a newcomer's 1500 (RULES aside:
            # domain.speed.BOT_RATINGS)
            assert (got.status, got.opponent) == ("paired", NEAREST_1500), got
            h = bearer(s["token"])
            view = client.get(f"/v1/games/{got.game_id}", headers=h).get_json()
            assert view["you"] == 0 and view["players"][1]["kind"] == NEAREST_1500
            client.post(f"/v1/games/{got.game_id}/actions", json={"type": "ready"}, headers=h)

        def dealt() -> bool:  # the hosted bot readies and the deal is turned up
            v = client.get(f"/v1/games/{store.get(lost['id']).game_id}").get_json()
            return v["phase"] not in ("ready", "waiting")

        assert _until(dealt)
        assert store.overdue(int(time.time() * 1000)) == []
    finally:
        procs.stop()


def _seek_app(redis_client, **settings):
    from service.http.app import create_app
    from tests.support.api import app_settings

    return create_app(app_settings(longpoll_max_s=60, **settings), redis_client=redis_client)


def test_a_seek_long_poll_wakes_on_the_live_hub_when_its_seek_is_paired(redis_client):
    """A long-poll of an open seek waits on the live hub (its watch of the seek confirmed,
    its version read) and answers the pairing that a compatible seek makes meanwhile: the
    change the pairing's scripts publish on the seek's channel wakes it."""
    from tests.support.api import bearer

    app = _seek_app(redis_client)
    client = app.test_client()
    hub = app.extensions["spitlog"].hub
    a = client.post("/v1/seeks", json={"game": "spit"}).get_json()
    got = {}
    poll = threading.Thread(target=lambda: got.update(answer=client.get(
        f"/v1/seeks/{a['id']}?wait=60", headers=bearer(a["token"]))), daemon=True)  # fmt: skip
    poll.start()
    end = time.monotonic() + 10
    while not ((w := hub._watches.get("seek:" + a["id"])) and w.waiters and w.version == 0):
        assert time.monotonic() < end, "the long-poll does not wait on the hub"
        time.sleep(0.005)
    b = app.test_client().post("/v1/seeks", json={"game": "spit"}).get_json()
    assert b["status"] == "paired"
    poll.join(30)
    answer = got["answer"]
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert (body["status"], body["game_id"], body["seat"]) == ("paired", b["game_id"], 0)
    assert hub._watches["seek:" + a["id"]].version == 2  # making, then paired
    hub.close()


def test_idle_seek_long_polls_cost_redis_a_few_commands_each_however_long_they_wait(
    redis_client,
):
    """20 long-polls of open seeks that nothing changes, each waiting 3 s: Redis counts
    (``INFO commandstats``, the commands of scripts included) two reads of each seek (one
    before its wait, one after) and, for everything the long-poll does (its stream slots
    taken and given back, the hub's subscription and version read), at most 40 commands
    a long-poll, none of them while it waits. A loop that read each seek every 50 ms read
    it 60 times in those 3 s."""
    from tests.support.api import bearer

    n, wait = 20, 3
    app = _seek_app(redis_client, streams_per_address=64, streams_per_client=32)
    client = app.test_client()
    seeks = [client.post("/v1/seeks", json={"game": "spit", "rating_range": [0, 1000]})
             .get_json() for _ in range(n)]  # fmt: skip
    answers = []

    def poll(seek):
        r = app.test_client().get(f"/v1/seeks/{seek['id']}?wait={wait}",
                                  headers=bearer(seek["token"]))  # fmt: skip
        answers.append(r)

    redis_client.config_resetstat()
    threads = [threading.Thread(target=poll, args=(s,)) for s in seeks]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    calls = {k.removeprefix("cmdstat_"): v["calls"]
             for k, v in redis_client.info("commandstats").items()}  # fmt: skip
    calls = {k: v for k, v in calls.items() if k not in ("info", "config|resetstat")}
    assert len(answers) == n and {r.get_json()["status"] for r in answers} == {"open"}
    assert calls.get("hgetall", 0) <= 2 * n, calls
    assert calls.get("ssubscribe", 0) <= n and calls.get("hget", 0) <= n, calls
    assert sum(calls.values()) <= 40 * n, calls
    app.extensions["spitlog"].hub.close()
