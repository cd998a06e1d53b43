"""The integration kit's HTTP conventions: request ids, the rate-limit fields,
CORS, and Idempotency-Key on create and join."""

import threading

import fakeredis
import pytest

from service.archive.directory import DirectoryArchive
from service.archiving import Archiver
from service.http.app import create_app
from service.store.redis import RedisStore
from tests.support.api import act, app_settings, bearer, new_game, play_to_the_end, problem_of
from tests.support.keys import keys_naming

KEY = "5f0c6e0a-2b7e-4d0e-9a51-0d9e4c1b7a11"


@pytest.fixture
def r():
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


# ---------------------------------------------------------------- request ids


def test_every_answer_carries_a_request_id_and_every_problem_says_it(client):
    gid, tok0, _ = new_game(client)
    mine = client.get(f"/v1/games/{gid}", headers={"X-Request-Id": "trace-7:a.b_c"})
    assert mine.headers["X-Request-Id"] == "trace-7:a.b_c"
    made = client.get(f"/v1/games/{gid}").headers["X-Request-Id"]
    assert made.startswith("req_") and made != client.get("/healthz").headers["X-Request-Id"]
    for bad in ("two words", "x" * 129, "é"):
        rid = client.get("/healthz", headers={"X-Request-Id": bad}).headers["X-Request-Id"]
        assert rid.startswith("req_")  # replaced, not refused
    cases = [
        client.get("/v1/games/g_0123456789abcdef", headers={"X-Request-Id": "p1"}),  # 404
        client.delete(f"/v1/games/{gid}", headers={"X-Request-Id": "p2"}),  # 405
        client.get("/nowhere", headers={"X-Request-Id": "p3"}),  # unmatched
        act(client, gid, tok0, {"type": "fly"}, **{"X-Request-Id": "p4"}),  # 400
        client.get(
            f"/v1/games/{gid}/events", headers={"Accept": "text/event-stream", "X-Request-Id": "p5"}
        ),  # fmt: skip
    ]
    for n, resp in enumerate(cases, 1):
        assert resp.headers["X-Request-Id"] == f"p{n}"
        if resp.mimetype == "application/problem+json":
            assert resp.get_json()["request_id"] == f"p{n}"


# ---------------------------------------------------------------- rate-limit fields


def test_rated_answers_say_where_the_client_stands(redis_client):
    s = app_settings(rate_requests=10, rate_requests_burst=3, rate_actions=5,
                     rate_actions_burst=2, rate_games=1, rate_games_burst=5)  # fmt: skip
    client = create_app(s, redis_client=redis_client).test_client()
    first = client.post("/v1/games", json={"game": "spit"})
    assert first.headers["RateLimit-Policy"] == '"requests";q=3;w=1, "games";q=5;w=5'
    assert first.headers["RateLimit"] == '"requests";r=2;t=1, "games";r=4;t=1'
    gid, tok = first.get_json()["id"], first.get_json()["token"]
    again = client.get(f"/v1/games/{gid}", headers=bearer(tok))
    assert again.headers["RateLimit"].startswith('"requests";r=1;')
    assert client.get("/healthz").headers.get("RateLimit") is None  # probes never count
    client.get(f"/v1/games/{gid}")
    refused = client.get(f"/v1/games/{gid}")
    body = problem_of(refused, 429)
    assert refused.headers["RateLimit"] == '"requests";r=0;t=1'
    assert refused.headers["Retry-After"] == "1" and body["request_id"]
    assert refused.headers["RateLimit-Policy"] == '"requests";q=3;w=1'


def test_no_rate_fields_when_the_limits_are_off(client):
    assert "RateLimit" not in client.post("/v1/games", json={"game": "spit"}).headers


# ---------------------------------------------------------------- CORS

APP = "https://app.example"


def test_cors_answers_only_the_origins_it_allows(redis_client):
    client = create_app(app_settings(cors_origins=f"{APP}, http://localhost:3000"),
                        redis_client=redis_client).test_client()  # fmt: skip
    gid, tok0, _ = new_game(client)
    wanted = "authorization, content-type, idempotency-key"
    pre = client.options(f"/v1/games/{gid}/actions", headers={
        "Origin": APP, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": wanted})  # fmt: skip
    assert pre.status_code == 204 and pre.data == b""
    assert pre.headers["Access-Control-Allow-Origin"] == APP
    assert pre.headers["Access-Control-Allow-Methods"] == "POST"
    allowed = {h.strip().lower() for h in pre.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "if-match",
            "last-event-id", "x-request-id"} <= allowed  # fmt: skip
    on_game = client.options(f"/v1/games/{gid}", headers={
        "Origin": "http://localhost:3000", "Access-Control-Request-Method": "GET"})  # fmt: skip
    assert on_game.headers["Access-Control-Allow-Methods"] == "GET"
    # another origin, a method the path does not take, no preflight at all: not allowed
    for headers, path in (
        ({"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, "/actions"),
        ({"Origin": APP, "Access-Control-Request-Method": "DELETE"}, ""),
        ({"Origin": APP}, "/actions"),
    ):
        resp = client.options(f"/v1/games/{gid}{path}", headers=headers)
        assert resp.status_code == 405 and "Access-Control-Allow-Methods" not in resp.headers
        if "evil" in headers["Origin"]:
            assert "Access-Control-Allow-Origin" not in resp.headers
    got = client.get(f"/v1/games/{gid}", headers={"Origin": APP, **bearer(tok0)})
    assert got.headers["Access-Control-Allow-Origin"] == APP
    exposed = {h.strip() for h in got.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Location", "Retry-After", "Idempotent-Replayed", "RateLimit",
            "RateLimit-Policy", "X-Request-Id"} <= exposed  # fmt: skip
    assert "Origin" in got.headers["Vary"]
    evil = client.get(f"/v1/games/{gid}", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in evil.headers and "Origin" in evil.headers["Vary"]
    problem = client.get("/v1/games/g_0123456789abcdef", headers={"Origin": APP})
    assert problem.headers["Access-Control-Allow-Origin"] == APP  # errors readable too


def test_cors_preflights_of_seeks_and_players_match_their_ids(redis_client):
    """The preflight table is made from the routes' paths with their ids' converters: a
    seek's id and a player's id match (once, a bare parameter matched digits only)."""
    client = create_app(app_settings(cors_origins=APP), redis_client=redis_client).test_client()
    for path, method in (("/v1/seeks/s_0123456789abcdef", "DELETE"),
                         ("/v1/players/alice/games", "GET"),
                         ("/v1/players/a_0123456789ab:alice", "GET")):  # fmt: skip
        pre = client.options(path, headers={"Origin": APP,
                                            "Access-Control-Request-Method": method})  # fmt: skip
        assert pre.status_code == 204, path
        assert method in pre.headers["Access-Control-Allow-Methods"].split(", "), path


def test_no_cors_unless_configured(client):
    gid, _t, _ = new_game(client)
    pre = client.options(f"/v1/games/{gid}/actions", headers={
        "Origin": APP, "Access-Control-Request-Method": "POST"})  # fmt: skip
    assert pre.status_code == 405 and "Access-Control-Allow-Origin" not in pre.headers
    assert "Vary" not in client.get("/healthz", headers={"Origin": APP}).headers


def test_a_bad_origin_setting_names_itself():
    from service.config import SettingsError, load

    with pytest.raises(SettingsError, match="cors_origins"):
        load(warn=None, cors_origins="https://app.example/path")


# ---------------------------------------------------------------- keyed create and join


def create(client, key=KEY, **body):
    return client.post("/v1/games", json={"game": "spit", **body},
                       headers={"Idempotency-Key": key} if key else {})  # fmt: skip


def test_a_create_retried_with_its_key_gets_the_same_game_and_token(client, redis_client):
    first = create(client, opponent="bot:easy", client_seed="s")
    again = create(client, opponent="bot:easy", client_seed="s")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert again.data == first.data  # the same game, token and state, byte for byte
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["ETag"] == first.headers["ETag"]
    g = first.get_json()
    assert client.get(f"/v1/games/{g['id']}", headers=bearer(g["token"])).status_code == 200
    assert len(redis_client.keys("spit:{g:*}:meta")) == 1  # one game
    other = create(client, opponent="bot:hard", client_seed="s")  # another body
    assert problem_of(other, 422)["type"].endswith("idempotency-key-reused")
    fresh = create(client, key=KEY[::-1], opponent="bot:easy", client_seed="s")
    assert fresh.get_json()["id"] != g["id"]  # another key, another game


def test_a_create_key_is_long_and_secret(client, redis_client):
    body = problem_of(create(client, key="short"), 400)
    assert "Idempotency-Key" in body["errors"]
    g = create(client).get_json()
    stored = " ".join(str(redis_client.dump(k)) for k in redis_client.scan_iter("*"))
    assert KEY not in stored and g["token"] not in stored  # neither kept in the clear


def test_a_create_still_in_flight_is_a_409_to_its_retry(client, redis_client, monkeypatch):
    svc = client.application.extensions["spitlog"]
    entered, go = threading.Event(), threading.Event()
    real = svc.seating._create

    def slow(*args):
        entered.set()
        go.wait(5)
        return real(*args)

    monkeypatch.setattr(svc.seating, "_create", slow)
    first = {}
    t = threading.Thread(target=lambda: first.setdefault("r", create(client)))
    t.start()
    entered.wait(5)
    monkeypatch.setattr(svc.seating, "_create", real)
    during = create(client)
    go.set()
    t.join(5)
    assert problem_of(during, 409)["type"].endswith("idempotency-key-in-use")
    assert during.headers["Retry-After"] == "1"
    assert create(client).data == first["r"].data


def test_a_create_that_failed_frees_its_key(client, monkeypatch):
    svc = client.application.extensions["spitlog"]

    def broken(*args):
        raise RuntimeError("the store went away")

    monkeypatch.setattr(svc.seating, "_create", broken)
    assert create(client).status_code == 500
    monkeypatch.undo()
    assert (
        create(client).status_code == 201
        and "Idempotent-Replayed" not in create(client, key=KEY[::-1]).headers
    )


def test_a_join_retried_with_its_key_gets_the_same_seat_and_token(client):
    gid, t0, _ = new_game(client, join=False)
    h = {"Idempotency-Key": KEY}
    first = client.post(f"/v1/games/{gid}/seats", json={"client_seed": "j"}, headers=h)
    act(client, gid, t0, {"type": "ready"})  # the game moves on meanwhile
    again = client.post(f"/v1/games/{gid}/seats", json={"client_seed": "j"}, headers=h)
    assert first.status_code == again.status_code == 201
    assert again.data == first.data and again.headers["Idempotent-Replayed"] == "true"
    tok1 = first.get_json()["token"]
    assert client.get(f"/v1/games/{gid}", headers=bearer(tok1)).get_json()["you"] == 1
    other = client.post(f"/v1/games/{gid}/seats", json={"client_seed": "x"}, headers=h)
    assert problem_of(other, 422)["type"].endswith("idempotency-key-reused")
    late = client.post(f"/v1/games/{gid}/seats", json={},
                       headers={"Idempotency-Key": KEY[::-1]})  # fmt: skip
    assert problem_of(late, 409)["type"].endswith("seat-unavailable")


def test_keyed_create_and_join_leave_nothing_after_the_retention(r, tmp_path):
    archive = DirectoryArchive(tmp_path)
    client = create_app(app_settings(), redis_client=r, archive=archive).test_client()
    g = create(client, options={"max_rounds": 1}).get_json()
    j = client.post(f"/v1/games/{g['id']}/seats", json={},
                    headers={"Idempotency-Key": KEY[::-1]}).get_json()  # fmt: skip
    play_to_the_end(client, g["id"], g["token"], j["token"])
    assert keys_naming(r, g["id"])
    for _step in range(2):
        Archiver(RedisStore(r), archive, retain_s=0).step(g["id"])
    assert keys_naming(r, g["id"]) == []
    assert archive.read(g["id"]) is not None
    # after the retention the key is free: a retry is a new game (the records went with it)
    assert create(client, options={"max_rounds": 1}).get_json()["id"] != g["id"]


def test_a_create_that_failed_after_its_game_was_made_keeps_its_key(client, redis_client,
                                                                    monkeypatch):  # fmt: skip
    store = client.application.extensions["spitlog"].store

    def index_down(*args, **kwargs):
        raise RuntimeError("the lobby's Redis went away")

    monkeypatch.setattr(store, "index", index_down)
    assert create(client).status_code == 500  # the game was made; its answer was lost
    monkeypatch.undo()
    again = create(client)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert len(redis_client.keys("spit:{g:*}:meta")) == 1  # still one game


def test_a_refused_request_reports_every_bucket_as_it_stands(redis_client):
    s = app_settings(rate_requests=1, rate_requests_burst=10, rate_games=1, rate_games_burst=1)
    client = create_app(s, redis_client=redis_client).test_client()
    assert client.post("/v1/games", json={"game": "spit"}).status_code == 201
    refused = client.post("/v1/games", json={"game": "spit"})  # the games bucket is empty
    assert refused.status_code == 429
    assert refused.headers["RateLimit"].startswith('"requests";r=9;')  # not charged


# ---------------------------------------------------------------- keys are their callers'


def test_a_create_key_is_its_apps_another_app_sending_it_gets_a_game_of_its_own(client, r):
    """App B sending app A's key and body gets its own game and token, never A's (keys
    are scoped per caller, as Stripe's per account); A's retry still answers A's."""
    svc = client.application.extensions["spitlog"]
    a = {"X-Api-Key": svc.apps.create("a")[1], "Idempotency-Key": KEY}
    b = {"X-Api-Key": svc.apps.create("b")[1], "Idempotency-Key": KEY}
    body = {"game": "spit", "opponent": "bot:easy", "player": {"id": "p1", "name": "P"}}
    first = client.post("/v1/games", json=body, headers=a)
    theirs = client.post("/v1/games", json=body, headers=b)
    assert first.status_code == theirs.status_code == 201
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.get_json()["id"] != first.get_json()["id"]
    assert theirs.get_json()["token"] != first.get_json()["token"]
    again = client.post("/v1/games", json=body, headers=a)
    assert again.headers["Idempotent-Replayed"] == "true" and again.data == first.data
    assert client.post("/v1/games", json=body, headers=b).data == theirs.data


def test_without_an_app_a_create_key_is_its_addresss(client):
    here, there = {"REMOTE_ADDR": "192.0.2.1"}, {"REMOTE_ADDR": "198.51.100.7"}
    first = client.post("/v1/games", json={"game": "spit"}, headers={"Idempotency-Key": KEY},
                        environ_base=here)  # fmt: skip
    elsewhere = client.post("/v1/games", json={"game": "spit"},
                            headers={"Idempotency-Key": KEY}, environ_base=there)  # fmt: skip
    assert elsewhere.status_code == 201 and "Idempotent-Replayed" not in elsewhere.headers
    assert elsewhere.get_json()["id"] != first.get_json()["id"]
    again = client.post("/v1/games", json={"game": "spit"}, headers={"Idempotency-Key": KEY},
                        environ_base=here)  # fmt: skip
    assert again.headers["Idempotent-Replayed"] == "true" and again.data == first.data


def test_a_join_key_answers_only_the_caller_that_took_the_seat(client):
    """Another caller with the first joiner's key and body does not get its seat's token:
    the key is another key for it, and the seat is taken (409)."""
    gid, _t0, _ = new_game(client, join=False)
    h = {"Idempotency-Key": KEY}
    here, there = {"REMOTE_ADDR": "192.0.2.1"}, {"REMOTE_ADDR": "198.51.100.7"}
    first = client.post(f"/v1/games/{gid}/seats", json={}, headers=h, environ_base=here)
    assert first.status_code == 201
    stolen = client.post(f"/v1/games/{gid}/seats", json={}, headers=h, environ_base=there)
    assert problem_of(stolen, 409)["type"].endswith("seat-unavailable")
    assert first.get_json()["token"] not in stolen.get_data(as_text=True)
    again = client.post(f"/v1/games/{gid}/seats", json={}, headers=h, environ_base=here)
    assert again.headers["Idempotent-Replayed"] == "true" and again.data == first.data


@pytest.mark.parametrize("key", ["a" * 16, "a" * 255, "ab" * 8, "0000000000000001",
                                 "aaaaaaaaaaaaabcd", "k" * 15, "x" * 256])  # fmt: skip
def test_a_create_or_join_key_too_plain_to_be_unique_is_a_400_naming_the_rule(client, r, key):
    """A create's or a join's key gives a token back: 16-255 characters with at least 24
    bits by the count of their characters (``idempotency.KEY_RULE``); a run of one
    character is refused, and nothing is made."""
    from service.idempotency import KEY_RULE

    gid, _t0, _ = new_game(client, join=False)
    store = client.application.extensions["spitlog"].store
    before = sorted(store.r.keys("*"))
    h = {"Idempotency-Key": key}
    for got in (client.post("/v1/games", json={"game": "spit"}, headers=h),
                client.post(f"/v1/games/{gid}/seats", json={}, headers=h)):  # fmt: skip
        assert problem_of(got, 400)["errors"] == {"Idempotency-Key": [KEY_RULE]}
    assert sorted(store.r.keys("*")) == before


def test_keys_that_pass_the_rule_uuids_ulids_hex(client):
    """Such as the clients and bots make (a UUID v4), a ULID, 64 random bits as hex or
    base64url."""
    keys = ["9b2f7c1e-4a8d-4f3b-b6e2-0c5d8a1f7e34", "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            "3f9a0c7be2d41586", "Zk3_pQ9xV-m2Lr8tYc1WbA", "abcdefghijklmnop"]  # fmt: skip
    for key in keys:
        got = client.post("/v1/games", json={"game": "spit"}, headers={"Idempotency-Key": key})
        assert got.status_code == 201, (key, got.get_json())
    gid, t0, _ = new_game(client)  # an action's key is its seat's: short is fine
    assert act(client, gid, t0, {"type": "ready"}, **{"Idempotency-Key": "1"}).status_code == 201
