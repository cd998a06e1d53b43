"""The export over HTTP, the archive and the retention, on fakeredis and a
directory archive: an archived game answers every endpoint with the bytes it answered
before; nothing leaves Redis before its archived copy is checked; a corrupt object is a
502 naming the game."""

import hashlib
import json

import fakeredis
import pytest

import domain
from domain.export import from_ndjson, parse_notation
from service.archive import games as games_archive
from service.archive.directory import DirectoryArchive
from service.archive.games import GameArchive
from service.archiving import ArchiveConflict, ArchiveCorrupt, Archiver
from service.errors import ArchiveUnavailable
from service.http.app import create_app
from service.records import IdemKey, KeptAnswer
from service.rematch import Rematches
from service.store.redis import RedisStore
from tests.support.api import act, app_settings, bearer, new_game, play_to_the_end, problem_of
from tests.support.keys import keys_naming


@pytest.fixture
def archive(tmp_path):
    return DirectoryArchive(tmp_path / "archive")


@pytest.fixture
def r():
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


def make_app(r, archive, **settings):
    return create_app(app_settings(**settings), redis_client=r, archive=archive)


def finished_game(client, seed=1, **options):
    gid, t0, t1 = new_game(client, options={"max_rounds": 1, **options}, client_seed="c")
    play_to_the_end(client, gid, t0, t1, rng_seed=seed)
    return gid, t0, t1


# ---------------------------------------------------------------- the export


def test_the_export_is_negotiated_and_409_while_the_game_runs(r, archive):
    client = make_app(r, archive).test_client()
    gid, t0, t1 = new_game(client, options={"max_rounds": 1})
    body = problem_of(client.get(f"/v1/games/{gid}/export"), 409)
    assert body["type"].endswith("game-running") and body["version"] == 3
    play_to_the_end(client, gid, t0, t1)

    r1 = client.get(f"/v1/games/{gid}/export")  # no Accept: the NDJSON log
    assert r1.status_code == 200 and r1.mimetype == "application/x-ndjson"
    assert r1.headers["Content-Disposition"] == f'attachment; filename="{gid}.ndjson"'
    header, events = from_ndjson(r1.get_data(as_text=True))
    assert header["format"] == "spitlog-log/1" and header["game_id"] == gid
    assert domain.audit.verify(events, bytes.fromhex(header["server_seed"])).ok
    assert client.get(f"/v1/games/{gid}/export", headers={"Accept": "*/*"}).data == r1.data

    r2 = client.get(f"/v1/games/{gid}/export", headers={"Accept": "text/plain"})
    assert r2.mimetype == "text/plain" and r2.headers["Content-Disposition"].endswith('.txt"')
    tags, events2 = parse_notation(r2.get_data(as_text=True))
    assert events2 == events and tags["Id"] == gid
    pref = {"Accept": "text/plain;q=0.4, application/x-ndjson;q=0.9"}
    assert client.get(f"/v1/games/{gid}/export", headers=pref).data == r1.data

    bad = problem_of(client.get(f"/v1/games/{gid}/export", headers={"Accept": "text/html"}), 406)
    assert "application/x-ndjson" in bad["detail"]
    # the bytes never change: a strong validator per representation
    assert r1.headers["ETag"] != r2.headers["ETag"] and "Accept" in r1.headers["Vary"]
    again = client.get(f"/v1/games/{gid}/export", headers={"If-None-Match": r1.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    other = client.get(f"/v1/games/{gid}/export", headers={"If-None-Match": r2.headers["ETag"]})
    assert other.status_code == 200
    # a token of the game, of another game, or none: the same bytes (the game is over)
    assert client.get(f"/v1/games/{gid}/export", headers=bearer(t0)).data == r1.data
    problem_of(client.get("/v1/games/g_0123456789abcdef/export"), 404)


# ---------------------------------------------------------------- the archive's objects


def test_a_packed_game_reads_back_and_names_its_month(r, archive):
    client = make_app(r, archive).test_client()
    gid, _t0, _t1 = finished_game(client)
    store = RedisStore(r)
    packed = games_archive.pack(gid, store.game_record(gid), store.read_after(gid, 0))
    ended = packed.record["ended"] / 1000
    ym = games_archive.month(ended)
    assert list(packed.objects) == [f"games/{ym}/{gid}.ndjson.zst", f"games/{ym}/{gid}.json",
                                    f"ids/{gid}"]  # fmt: skip
    assert packed.record["audit"]["ok"] and packed.record["version"] == store.version(gid)
    assert packed.record["export"]["sha256"] == hashlib.sha256(packed.ndjson).hexdigest()
    # the same log packs to the same bytes: a second run writes nothing new
    again = games_archive.pack(gid, store.game_record(gid), store.read_after(gid, 0))
    assert again.objects == packed.objects
    for key, data in packed.objects.items():
        archive.put(key, data)
    got = archive.read(gid)
    assert got.ndjson == packed.ndjson and got.record == packed.record
    assert archive.read("g_0123456789abcdef") is None
    assert games_archive.month(0) == "1970/01" and games_archive.month(1_764_547_199) == "2025/11"


def test_an_object_already_there_is_never_overwritten(r, archive):
    client = make_app(r, archive).test_client()
    gid, _t0, _t1 = finished_game(client)
    store = RedisStore(r)
    packed = games_archive.pack(gid, store.game_record(gid), store.read_after(gid, 0))
    ekey, rkey, _p = packed.objects
    archive.put(rkey, b'{"format": "something else"}')
    with pytest.raises(ArchiveConflict):
        Archiver(store, archive, retain_s=0).step(gid)
    assert archive.get(rkey) == b'{"format": "something else"}'  # left as it was
    assert store.game_record(gid).archived is None  # and the game stays in Redis, unmarked
    # an export compressed otherwise (another zstd version) but of the same content is
    # the same object: kept, not rewritten
    other = games_archive.zstandard.ZstdCompressor(level=3).compress(packed.ndjson)
    archive.put(ekey, other)
    archive.put(rkey, packed.objects[rkey])
    assert Archiver(store, archive, retain_s=0).step(gid)[0] == "archived"
    assert archive.get(ekey) == other


# ---------------------------------------------------------------- retention


def test_nothing_leaves_redis_before_the_retention_then_every_key_does(r, archive):
    clock = [1_000_000.0]
    client = make_app(r, archive).test_client()
    gid, t0, t1 = finished_game(client)
    act(client, gid, t0, {"type": "resign"}, **{"Idempotency-Key": "k1"})  # a record too
    other, o0, _o1 = new_game(client)  # a game that runs on beside it
    store = RedisStore(r)
    before = keys_naming(r, gid)
    assert {f"spit:{{g:{gid}}}:log", f"spit:{{g:{gid}}}:meta", "spit:lobby:finished"} <= set(before)
    archiver = Archiver(store, archive, retain_s=60, clock=lambda: clock[0])
    assert archiver.step(gid) == ("archived", clock[0] + 60)
    assert keys_naming(r, gid) == before  # archived, still all there
    assert archiver.step(gid) == ("retained", clock[0] + 60)
    assert archiver.step(other)[0] == "running"
    clock[0] += 60
    assert archiver.step(gid) == ("deleted", None)
    assert keys_naming(r, gid) == []
    assert archiver.step(gid) == ("gone", None)
    assert client.get(f"/v1/games/{other}", headers=bearer(o0)).status_code == 200


def test_a_finished_game_is_archived_once_its_rematch_is_settled_and_keeps_it(r, archive):
    """The archive job waits out the rematch asks (``rematch_s`` after the end), closes the
    game to a late one, and archives the rematch with it: once the game has left Redis its
    views still link the new game, and a seat's token still finds its new seat."""
    clock = [1_800_000_000.0]
    client = create_app(app_settings(rematch_s=60), redis_client=r, archive=archive,
                        clock=lambda: clock[0]).test_client()  # fmt: skip
    gid, t0, t1 = new_game(client)
    assert act(client, gid, t1, {"type": "resign"}).status_code == 201
    ended = clock[0]
    archiver = Archiver(RedisStore(r), archive, retain_s=0, clock=lambda: clock[0], rematch_s=60)
    assert archiver.step(gid) == ("waiting", ended + 65)  # 5 s of grace for the clocks
    assert list(archive.keys("")) == []  # nothing written while a rematch may come
    clock[0] += 30
    assert client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0)).status_code == 202
    made = client.post(f"/v1/games/{gid}/rematch", headers=bearer(t1)).get_json()
    new = made["game"]
    clock[0] = ended + 65
    assert archiver.step(gid) == ("archived", ended + 65)
    record = archive.read(gid).record
    assert record["rematch"] == {"asked_ms": [int((ended + 30) * 1000)] * 2, "game": new}
    before = client.get(f"/v1/games/{gid}").get_json()["rematch"]
    mine_before = client.get(f"/v1/games/{gid}/rematch", headers=bearer(t0)).get_json()
    assert archiver.step(gid) == ("deleted", None)
    assert keys_naming(r, gid) == []
    # read from the archive: the same rematch in the view; the new seat and game, no token
    assert client.get(f"/v1/games/{gid}").get_json()["rematch"] == before
    mine = client.get(f"/v1/games/{gid}/rematch", headers=bearer(t0)).get_json()
    assert mine == {k: v for k, v in mine_before.items() if k != "token"}
    assert (mine["status"], mine["game"], mine["seat"], mine["state"]["you"]) == ("made", new, 1, 1)
    problem_of(client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0)), 409)


def test_a_rematch_ask_after_the_archive_closed_the_game_is_a_409(r, archive):
    """Closed for the archive (a job, or ``spitlog admin archive`` early): an ask is
    refused even inside its time, so the archived record of the rematch stays true."""
    clock = [1_800_000_000.0]
    client = create_app(app_settings(rematch_s=60), redis_client=r, archive=archive,
                        clock=lambda: clock[0]).test_client()  # fmt: skip
    gid, t0, t1 = new_game(client)
    assert act(client, gid, t1, {"type": "resign"}).status_code == 201
    archiver = Archiver(RedisStore(r), archive, retain_s=60, clock=lambda: clock[0], rematch_s=60)
    assert archiver.archive_now(gid) == "archived"  # early, by hand
    body = problem_of(client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0)), 409)
    assert body["type"].endswith("rematch-expired") and "closed" in body["detail"]
    assert "rematch" not in archive.read(gid).record
    offer = client.get(f"/v1/games/{gid}/rematch", headers=bearer(t1)).get_json()
    assert (offer["status"], offer["asked"]) == ("expired", [False, False])


def test_an_ask_landing_as_the_asks_close_is_archived_and_a_named_game_is_made(r, archive):
    """The meta is read again once the asks are closed (an ask may land just before the
    close; the API's clock may run a little behind the worker's: the grace); a new game
    named by an ask whose maker died is made before the old game is archived."""
    clock = [1_800_000_000.0]
    client = create_app(app_settings(rematch_s=60), redis_client=r, archive=archive,
                        clock=lambda: clock[0]).test_client()  # fmt: skip
    svc = client.application.extensions["spitlog"]
    store = RedisStore(r)
    gid, t0, t1 = new_game(client)
    assert act(client, gid, t1, {"type": "resign"}).status_code == 201
    ended = clock[0]

    class AskFirst(RedisStore):  # one seat's ask reaches Redis right before the close
        def close_rematch(self, game_id):
            clock[0] = ended + 59.9  # the API's clock, behind the worker's
            assert client.post(f"/v1/games/{gid}/rematch", headers=bearer(t0)).status_code == 202
            super().close_rematch(game_id)

    late = [ended + 65]
    archiver = Archiver(AskFirst(r), archive, retain_s=60, clock=lambda: late[0], rematch_s=60)
    assert archiver.step(gid)[0] == "archived"
    asked_ms = int((ended + 59.9) * 1000)
    assert archive.read(gid).record["rematch"] == {"asked_ms": [asked_ms, None],
                                                             "game": None}  # fmt: skip
    problem_of(client.post(f"/v1/games/{gid}/rematch", headers=bearer(t1)), 409)

    # both asked, the new game named; the process making it died before it did
    other, _o0, _o1 = new_game(client)
    assert act(client, other, _o1, {"type": "resign"}).status_code == 201
    ms = int(clock[0] * 1000)
    for seat in (0, 1):
        got = store.rematch(other, seat, ms, ms + 60_000, "g_00000000000000aa", (False, False))
    assert got == ("made", "g_00000000000000aa")
    settle = Rematches(
        svc.reading,
        svc.tokens,
        svc.seating,
        svc.joining.pairs,
        svc.store,
        clock=svc.seating.clock,
        rematch_s=60,
    ).settle
    late[0] = clock[0] + 65
    archiver = Archiver(store, archive, retain_s=0, clock=lambda: late[0], rematch_s=60,
                        settle=settle)  # fmt: skip
    assert archiver.step(other)[0] == "archived"
    assert archiver.step(other)[0] == "deleted"
    view = client.get("/v1/games/g_00000000000000aa").get_json()
    assert view["rematch_of"] == other
    assert client.get(f"/v1/games/{other}").get_json()["rematch"]["game"] == "g_00000000000000aa"
    # a record whose rematch is not the shape written: corrupt, a 502 naming it
    rkey = archive.read(other).record["export"]["key"].replace(".ndjson.zst", ".json")
    raw = json.loads(archive.get(rkey))
    with pytest.raises(ArchiveCorrupt):
        games_archive.parse_record(rkey, json.dumps({**raw, "rematch": ["x"]}).encode())


def test_a_create_key_replayed_from_an_archived_game_is_a_409(r, archive):
    """The first answer of a create's Idempotency-Key holds the seat's token, derived from
    the game's secret, which the archive does not keep. The key's record goes with the
    game, so a retry after the delete is a new create; one that found the record just
    before the delete reads the game from the archive: a 409 that says so, not a 500."""
    client = make_app(r, archive).test_client()
    body = {"game": "spit", "options": {"max_rounds": 1}}
    first = client.post("/v1/games", json=body, headers={"Idempotency-Key": "create-0123456789"})
    assert first.status_code == 201
    g = first.get_json()
    t1 = client.post(f"/v1/games/{g['id']}/seats", json={}).get_json()["token"]
    assert act(client, g["id"], t1, {"type": "resign"}).status_code == 201
    archiver = Archiver(RedisStore(r), archive, retain_s=0)
    assert [archiver.step(g["id"])[0] for _ in range(2)] == ["archived", "deleted"]
    svc = client.application.extensions["spitlog"]
    archived = svc.reading.load(g["id"])
    assert archived.log is not None  # read from the archive
    with pytest.raises(domain.GameOver, match="left Redis for the archive"):
        svc.seating._created_again((g["id"], "fp", 0), "fp", "create-0123456789")
    again = client.post("/v1/games", json=body, headers={"Idempotency-Key": "create-0123456789"})
    assert again.status_code == 201 and again.get_json()["id"] != g["id"]


def test_a_copy_spoilt_during_the_retention_stops_the_delete(r, archive):
    client = make_app(r, archive).test_client()
    gid, _t0, _t1 = finished_game(client)
    store = RedisStore(r)
    clock = [1_000_000.0]
    archiver = Archiver(store, archive, retain_s=10, clock=lambda: clock[0])
    archiver.step(gid)
    (ekey,) = [k for k in archive.keys("games/") if k.endswith(".zst")]
    archive.put(ekey, archive.get(ekey)[:-7])  # truncated meanwhile
    clock[0] += 10
    with pytest.raises(ArchiveCorrupt) as e:
        archiver.step(gid)
    assert e.value.key == ekey
    assert store.version(gid) > 0 and store.game_record(gid) is not None  # nothing deleted


def test_an_unreachable_archive_leaves_the_game_in_redis(r):
    class Down(GameArchive):  # an object store that does not answer
        url = "s3://nowhere/"

        def put(self, key, data):
            raise ArchiveUnavailable("connection refused")

        def get(self, key):
            raise ArchiveUnavailable("connection refused")

        def keys(self, prefix=""):
            raise ArchiveUnavailable("connection refused")

    client = make_app(r, Down()).test_client()
    gid, t0, _t1 = finished_game(client)
    before = keys_naming(r, gid)
    with pytest.raises(ArchiveUnavailable):
        Archiver(RedisStore(r), Down(), retain_s=0).step(gid)
    assert keys_naming(r, gid) == before and RedisStore(r).game_record(gid).archived is None
    # the API reads it from Redis all the while; an unknown game is a 503 to retry, not a
    # 404: the archive might hold it
    assert client.get(f"/v1/games/{gid}", headers=bearer(t0)).status_code == 200
    lost = client.get("/v1/games/g_0123456789abcdef")
    assert problem_of(lost, 503) and lost.headers["Retry-After"]


# ---------------------------------------------------------------- reading archived games


def _snapshot(client, gid, tokens, other_token) -> dict:
    """Every read endpoint's answer (status, the headers that matter, bytes)."""
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    calls = []
    for tok in (*tokens, None, "not-a-token"):
        h = bearer(tok) if tok else {}
        calls += [(f"/v1/games/{gid}", h), (f"/v1/games/{gid}/audit", h)]
        calls += [
            (f"/v1/games/{gid}/events?after={a}&limit={n}", h)
            for a, n in ((0, 1000), (0, 7), (5, 3), (version - 2, 100), (version, 10))
        ]
        calls += [(f"/v1/games/{gid}/states/{v}", h) for v in range(1, version + 1)]
        calls += [(f"/v1/games/{gid}/export", {**h, "Accept": a})
                  for a in ("application/x-ndjson", "text/plain", "text/html")]  # fmt: skip
    calls += [(f"/v1/games/{gid}/states/{version + 1}", {}), (f"/v1/games/{gid}/states/0", {})]
    calls += [(f"/v1/games/{gid}", {"If-None-Match": f'"{version}"'})]
    calls += [
        (f"/v1/games/{gid}/events", {"Accept": "text/event-stream"}),
        (f"/v1/games/{gid}/events", {"Accept": "text/event-stream", "Last-Event-ID": "4"}),
    ]
    out = {}
    for path, headers in calls:
        resp = client.get(path, headers={**headers, "X-Request-Id": "same-id"})
        kept = {k: resp.headers.get(k) for k in ("Content-Type", "ETag", "Cache-Control",
                                                 "Vary", "Content-Disposition")}  # fmt: skip
        out[(path, json.dumps(headers, sort_keys=True))] = (resp.status_code, kept, resp.data)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game", ["spit", "speed"])
def test_every_endpoint_answers_the_same_bytes_once_the_game_is_archived(r, archive, game):
    client = make_app(r, archive, snapshot_every=7).test_client()
    gid, t0, t1 = new_game(client, game, options={"max_rounds": 1} if game == "spit" else {})
    play_to_the_end(client, gid, t0, t1, rng_seed=3)
    before = _snapshot(client, gid, (t0, t1), None)
    before_version = client.get(f"/v1/games/{gid}").get_json()["version"]
    assert Archiver(RedisStore(r), archive, retain_s=0).step(gid)[0] == "archived"
    assert Archiver(RedisStore(r), archive, retain_s=0).step(gid)[0] == "deleted"
    assert keys_naming(r, gid) == []
    revalidate = (f"/v1/games/{gid}", json.dumps({"If-None-Match": f'"{before_version}"'}))
    plain = (f"/v1/games/{gid}", json.dumps({}))
    assert before[revalidate][0] == 304
    for fresh in (client, make_app(r, archive, snapshot_every=7).test_client()):
        after = _snapshot(fresh, gid, (t0, t1), None)
        assert after.keys() == before.keys()
        for call, answer in before.items():
            if call == revalidate:  # the archive's copy holds no rematch: never a 304 (0017)
                assert after[call] == after[plain] == before[plain], call
                continue
            assert after[call] == answer, call
    # and it stays a finished game: acting or joining is refused as before, and a keyed
    # action brings no key of it back into Redis (its refusal is the same at every retry)
    problem_of(act(client, gid, t0, {"type": "resign"}), 409)
    for _ in range(2):
        problem_of(act(client, gid, t0, {"type": "resign"}, **{"Idempotency-Key": "k2"}), 409)
    problem_of(client.post(f"/v1/games/{gid}/seats", json={}), 409)
    # nor a 503 to a seat (RULES T-4's refused windows: a running game's only)
    client.application.extensions["spitlog"].deadlines.refused(gid, t0, 1.0, 2.0)
    assert keys_naming(r, gid) == []
    # and a refusal's record racing the delete (the game loaded from Redis just before)
    # writes nothing either
    refusal = KeptAnswer("0" * 16, refusal="over", version=1, detail="")
    assert RedisStore(r).record(gid, IdemKey(0, "k3"), refusal) is None
    assert keys_naming(r, gid) == []


def test_a_game_deleted_between_its_load_and_its_read_is_read_from_the_archive(r, archive):
    app = make_app(r, archive)
    client = app.test_client()
    gid, t0, _t1 = finished_game(client)
    svc = app.extensions["spitlog"]
    held = svc.reading.load(gid)  # as Redis has it: a request that loaded it just before...
    expected = svc.reading.entries(held, 2, 5)
    Archiver(RedisStore(r), archive, retain_s=0).step(gid)
    Archiver(RedisStore(r), archive, retain_s=0).step(gid)  # ... the retention deleted it
    assert held.log is None and svc.reading.entries(held, 2, 5) == expected
    assert svc.reading.entries(held) == list(svc.reading.load(gid).log)


@pytest.mark.parametrize("spoil", ["truncate", "flip", "record", "missing"])
def test_a_corrupt_archived_game_is_a_502_naming_it(r, archive, spoil):
    client = make_app(r, archive).test_client()
    gid, t0, _t1 = finished_game(client)
    Archiver(RedisStore(r), archive, retain_s=0).step(gid)
    Archiver(RedisStore(r), archive, retain_s=0).step(gid)
    (ekey,) = [k for k in archive.keys("games/") if k.endswith(".zst")]
    rkey = ekey.replace(".ndjson.zst", ".json")
    data = archive.get(ekey)
    if spoil == "truncate":
        archive.put(ekey, data[: len(data) // 2])
    elif spoil == "flip":
        archive.put(ekey, data[:40] + bytes([data[40] ^ 1]) + data[41:])
    elif spoil == "record":
        archive.put(rkey, archive.get(rkey)[:-3])
    else:
        (archive.root / ekey).unlink()
    fresh = make_app(r, archive).test_client()
    for path in ("", "/events", "/audit", "/export", "/states/1"):
        body = problem_of(fresh.get(f"/v1/games/{gid}{path}", headers=bearer(t0)), 502)
        assert gid in body["detail"] and body["type"].endswith("archive-unreadable")


def test_a_late_archive_job_does_not_bring_a_deleted_game_back(r, archive):
    client = make_app(r, archive).test_client()
    gid, _t0, _t1 = finished_game(client)
    store = RedisStore(r)
    version = store.version(gid)
    Archiver(store, archive, retain_s=0).step(gid)
    Archiver(store, archive, retain_s=0).step(gid)
    store.mark_archived(gid, version, 1, 0)  # a job that looked before the delete
    assert keys_naming(r, gid) == []
