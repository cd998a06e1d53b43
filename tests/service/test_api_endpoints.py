"""Every endpoint of API.md through the Flask test client, on fakeredis."""

import json
import threading
import time

import pytest

import domain
from service.http.app import create_app
from tests.support.api import (
    act,
    app_settings,
    bearer,
    new_game,
    play_to_the_end,
    problem_of,
    scrape,
    undecorated,
)

PROBLEM = "application/problem+json"


def xlen(redis_client, gid) -> int:
    return redis_client.xlen(f"spit:{{g:{gid}}}:log")


# ---------------------------------------------------------------- create and join


def test_create_answers_seat_0_token_commitment_and_view(client, redis_client):
    r = client.post("/v1/games", json={"game": "spit", "client_seed": "mine"})
    assert r.status_code == 201
    body = r.get_json()
    assert set(body) == {"id", "seat", "token", "commitment", "state"}
    assert r.headers["Location"] == f"/v1/games/{body['id']}"
    assert r.headers["ETag"] == '"1"'
    assert body["seat"] == 0 and body["state"]["you"] == 0
    assert body["state"]["status"] == "waiting"
    assert len(body["token"]) >= 43  # 256 bits, url-safe base64
    assert len(body["commitment"]) == 64
    # the token is stored only as its hash; the seed only in the meta, never in a view
    dump = b"".join(
        json.dumps([str(k), str(redis_client.dump(k))]).encode() for k in redis_client.keys("*")
    )
    assert body["token"].encode() not in dump
    seed = redis_client.hget(f"spit:{{g:{body['id']}}}:meta", "seed").decode()
    assert seed not in r.get_data(as_text=True)
    assert domain.commitment(bytes.fromhex(seed)) == body["commitment"]


def test_create_against_a_bot_starts_the_game(client):
    r = client.post("/v1/games", json={"game": "speed", "opponent": "bot:easy"})
    assert r.status_code == 201
    state = r.get_json()["state"]
    assert state["status"] == "running" and state["players"][1]["kind"] == "bot:easy"
    assert len(state["players"][0]["hand"]) == 5 and "hand" not in state["players"][1]


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "game"),
        ({"game": "chess"}, "game"),
        ({"game": "spit", "colour": "red"}, "colour"),
        ({"game": "spit", "options": {"stockpiles": 3}}, "options.stockpiles"),
        ({"game": "spit", "options": {"stockpiles": "5"}}, "options.stockpiles"),
        ({"game": "spit", "options": {"side_piles": 5}}, "options.side_piles"),
        ({"game": "spit", "options": {"frobnicate": 1}}, "options.frobnicate"),
        ({"game": "spit", "options": {"alternate_colors": "yes"}}, "options.alternate_colors"),
        ({"game": "spit", "opponent": "bot:godlike"}, "opponent"),
        ({"game": "spit", "client_seed": 7}, "client_seed"),
    ],
)
def test_create_refuses_bad_bodies_with_400_naming_the_field(client, body, field):
    assert field in problem_of(client.post("/v1/games", json=body), 400)["errors"]


def test_create_refuses_what_is_not_json(client):
    problem_of(client.post("/v1/games", data="game=spit"), 415)
    problem_of(client.post("/v1/games"), 415)
    r = client.post("/v1/games", data="{nope", content_type="application/json")
    assert "_body" in problem_of(r, 400)["errors"]
    r = client.post("/v1/games", data="[1, 2]", content_type="application/json")
    problem_of(r, 400)


def test_a_body_too_large_is_413(client):
    big = json.dumps({"game": "spit", "client_seed": "x" * 20_000})
    problem_of(client.post("/v1/games", data=big, content_type="application/json"), 413)


def test_join_takes_seat_1_and_deals(client):
    gid, _t0, _t1 = new_game(client, join=False)
    r = client.post(f"/v1/games/{gid}/seats", json={"client_seed": "theirs"})
    assert r.status_code == 201
    body = r.get_json()
    assert body["seat"] == 1 and body["state"]["you"] == 1 and body["state"]["phase"] == "ready"
    assert r.headers["ETag"] == f'"{body["state"]["version"]}"'
    r = client.post(f"/v1/games/{gid}/seats")  # no body at all is fine too
    assert problem_of(r, 409)["version"] == body["state"]["version"]


def test_join_with_a_seat_of_the_game_is_409(client):
    gid, t0, _ = new_game(client, join=False)
    problem_of(client.post(f"/v1/games/{gid}/seats", headers=bearer(t0)), 409)


def test_join_a_finished_game_is_409(client):
    gid, t0, _ = new_game(client, join=False)
    assert act(client, gid, t0, {"type": "resign"}).status_code == 201
    assert problem_of(client.post(f"/v1/games/{gid}/seats"), 409)["type"].endswith("game-over")


# ---------------------------------------------------------------- views


def test_view_carries_an_etag_and_answers_304_while_unchanged(client):
    gid, t0, t1 = new_game(client)
    r = client.get(f"/v1/games/{gid}", headers=bearer(t0))
    assert r.status_code == 200 and r.headers["ETag"] == '"3"'
    assert "Authorization" in r.headers["Vary"]
    r = client.get(f"/v1/games/{gid}", headers={**bearer(t0), "If-None-Match": '"3"'})
    assert r.status_code == 304 and r.headers["ETag"] == '"3"' and r.data == b""
    act(client, gid, t1, {"type": "ready"})
    r = client.get(f"/v1/games/{gid}", headers={**bearer(t0), "If-None-Match": '"3"'})
    assert r.status_code == 200 and r.headers["ETag"] == '"4"'


def test_a_spectator_sees_the_common_view(client):
    gid, _t0, _t1 = new_game(client)
    view = client.get(f"/v1/games/{gid}").get_json()
    assert view["you"] is None and view["legal_actions"] == []
    assert sum(p["cards"] for p in view["players"]) == 52


def test_an_unknown_game_is_404(client):
    body = problem_of(client.get("/v1/games/g_0123456789abcdef"), 404)
    assert "version" not in body
    problem_of(client.get("/v1/games/not-an-id"), 404)


def test_flask_errors_are_problems_too(client):
    problem_of(client.get("/nowhere"), 404)
    r = client.delete("/v1/games")
    problem_of(r, 405)
    assert "POST" in r.headers["Allow"]


# ---------------------------------------------------------------- actions


def test_actions_append_and_answer_the_redacted_events_and_the_view(client, redis_client):
    gid, t0, t1 = new_game(client)
    r = act(client, gid, t0, {"type": "ready"})
    assert r.status_code == 201 and r.headers["ETag"] == '"4"'
    body = r.get_json()
    assert body["version"] == 4 and [e["version"] for e in body["events"]] == [4]
    r = act(client, gid, t1, {"type": "ready"})
    body = r.get_json()
    assert [e["type"] for e in body["events"]] == ["player_ready", "spit_cards_turned"]
    assert body["state"]["phase"] in ("playing", "stalemate") and body["state"]["you"] == 1
    assert xlen(redis_client, gid) == 6


def test_an_illegal_action_is_422_with_its_rule_and_appends_nothing(client, redis_client):
    gid, t0, _t1 = new_game(client)
    body = problem_of(act(client, gid, t0, {"type": "play", "from": 0, "to": 0}), 422)
    assert body["rule"] == "D-4" and body["version"] == 3
    assert xlen(redis_client, gid) == 3


def test_a_malformed_action_is_400_naming_the_field(client):
    gid, t0, _t1 = new_game(client)
    assert "to" in problem_of(act(client, gid, t0, {"type": "play", "from": 0}), 400)["errors"]
    assert "x" in problem_of(act(client, gid, t0, {"type": "ready", "x": 1}), 400)["errors"]
    assert "from" in problem_of(act(client, gid, t0, {"type": "play", "from": 9, "to": 0}),
                                400)["errors"]  # fmt: skip
    body = problem_of(act(client, gid, t0, {"type": "draw"}), 400)  # a Speed action in Spit
    assert "type" in body["errors"]
    problem_of(client.post(f"/v1/games/{gid}/actions", data="ready", headers=bearer(t0)), 415)


def test_acting_on_a_finished_game_is_409(client):
    gid, t0, t1 = new_game(client)
    act(client, gid, t0, {"type": "resign"})
    assert problem_of(act(client, gid, t1, {"type": "ready"}), 409)["type"].endswith("game-over")


def test_if_match_acts_only_at_that_version(client, redis_client):
    gid, t0, _t1 = new_game(client)
    body = problem_of(act(client, gid, t0, {"type": "ready"}, **{"If-Match": '"2"'}), 412)
    assert body["version"] == 3 and xlen(redis_client, gid) == 3
    problem_of(act(client, gid, t0, {"type": "ready"}, **{"If-Match": 'W/"3"'}), 412)
    assert act(client, gid, t0, {"type": "ready"}, **{"If-Match": '"3"'}).status_code == 201
    assert act(client, gid, t0, {"type": "resign"}, **{"If-Match": "*"}).status_code == 201


def test_if_match_sees_through_a_stale_cache(redis_client):
    """Two processes (two apps, two caches): If-Match is judged on the store's version."""
    a = create_app(app_settings(), redis_client=redis_client).test_client()
    b = create_app(app_settings(), redis_client=redis_client).test_client()
    gid, t0, t1 = new_game(a)
    a.get(f"/v1/games/{gid}")
    assert act(b, gid, t1, {"type": "ready"}).status_code == 201  # a's cache is now stale
    assert act(a, gid, t0, {"type": "ready"}, **{"If-Match": '"4"'}).status_code == 201
    assert (
        problem_of(act(b, gid, t1, {"type": "resign"}, **{"If-Match": '"4"'}), 412)["version"] == 6
    )


def test_an_action_decided_on_a_stale_cache_is_judged_again(redis_client):
    a = create_app(app_settings(), redis_client=redis_client).test_client()
    b = create_app(app_settings(), redis_client=redis_client).test_client()
    gid, t0, t1 = new_game(a)
    a.get(f"/v1/games/{gid}")  # a caches version 3
    assert act(b, gid, t0, {"type": "ready"}).status_code == 201
    # on a's stale state seat 0 is not ready yet; on the log's, it is: 422, nothing appended
    assert problem_of(act(a, gid, t0, {"type": "ready"}), 422)["rule"] == "D-4"
    assert act(a, gid, t1, {"type": "ready"}).status_code == 201
    assert redis_client.xlen(f"spit:{{g:{gid}}}:log") == 6


def test_same_idempotency_key_three_times_appends_once_and_answers_the_same(client, redis_client):
    gid, t0, _t1 = new_game(client)
    answers = [act(client, gid, t0, {"type": "ready"}, **{"Idempotency-Key": "k-1"})
               for _ in range(3)]  # fmt: skip
    assert [r.status_code for r in answers] == [201, 201, 201]
    assert answers[0].get_json() == answers[1].get_json() == answers[2].get_json()
    assert [r.headers.get("Idempotent-Replayed") for r in answers] == [None, "true", "true"]
    assert xlen(redis_client, gid) == 4


def test_same_idempotency_key_concurrently_appends_once(redis_client):
    apps = [create_app(app_settings(), redis_client=redis_client) for _ in range(2)]
    gid, t0, _t1 = new_game(apps[0].test_client())
    barrier = threading.Barrier(6)
    answers = []

    def go(i):
        c = apps[i % 2].test_client()
        barrier.wait()
        answers.append(act(c, gid, t0, {"type": "ready"}, **{"Idempotency-Key": "same"}))

    threads = [threading.Thread(target=go, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {r.status_code for r in answers} == {201}
    assert len({json.dumps(r.get_json(), sort_keys=True) for r in answers}) == 1
    assert redis_client.xlen(f"spit:{{g:{gid}}}:log") == 4


def test_same_idempotency_key_with_another_body_is_422(client, redis_client):
    gid, t0, _t1 = new_game(client)
    act(client, gid, t0, {"type": "ready"}, **{"Idempotency-Key": "k"})
    body = problem_of(act(client, gid, t0, {"type": "resign"}, **{"Idempotency-Key": "k"}), 422)
    assert body["type"].endswith("idempotency-key-reused")
    assert xlen(redis_client, gid) == 4


def test_idempotency_keys_are_scoped_to_the_seat(client, redis_client):
    gid, t0, t1 = new_game(client)
    assert act(client, gid, t0, {"type": "ready"}, **{"Idempotency-Key": "k"}).status_code == 201
    assert act(client, gid, t1, {"type": "ready"}, **{"Idempotency-Key": "k"}).status_code == 201
    assert xlen(redis_client, gid) == 6


def test_a_refusal_is_the_first_answer_too(client, redis_client):
    gid, t0, _t1 = new_game(client)
    first = act(client, gid, t0, {"type": "slap", "pile": 0}, **{"Idempotency-Key": "s"})
    again = act(client, gid, t0, {"type": "slap", "pile": 0}, **{"Idempotency-Key": "s"})
    one, two = problem_of(first, 422), problem_of(again, 422)
    assert one.pop("request_id") != two.pop("request_id")  # each request its own id
    assert one == two and again.headers["Idempotent-Replayed"] == "true"


def test_a_hook_failure_after_an_append_does_not_fail_the_action(redis_client):
    class Broken:
        def on_appended(self, game_id, state, before=None, *, rated=False):
            raise RuntimeError("scheduler down")

    client = create_app(app_settings(), redis_client=redis_client, scheduler=Broken()).test_client()
    r = client.post("/v1/games", json={"game": "spit"})
    assert r.status_code == 201


def test_the_scheduler_hears_of_every_append(redis_client):
    heard = []

    class Recorder:
        def on_appended(self, game_id, state, before=None, *, rated=False):
            heard.append((game_id, state.version, before and before.version))

    app = create_app(app_settings(), redis_client=redis_client, scheduler=Recorder())
    client = app.test_client()
    gid, t0, _t1 = new_game(client)
    act(client, gid, t0, {"type": "ready"})
    act(client, gid, t0, {"type": "ready"})  # refused: not heard
    # with the state each append was decided on (none for the new game)
    assert heard == [(gid, 1, None), (gid, 3, 1), (gid, 4, 3)]


def test_an_unexpected_error_is_a_500_problem_and_leaves_the_log_whole(
    client, redis_client, monkeypatch
):
    gid, t0, _t1 = new_game(client)

    def boom(*a, **k):
        raise RuntimeError("a bug")

    monkeypatch.setattr(domain, "run", boom)
    body = problem_of(act(client, gid, t0, {"type": "ready"}), 500)
    assert "a bug" not in body["detail"]
    assert xlen(redis_client, gid) == 3


def test_an_unreachable_store_is_503(redis_client):
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    dead = redis.Redis(port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    client = create_app(app_settings(), redis_client=dead).test_client()
    assert problem_of(client.get("/v1/games/g_0123456789abcdef"), 503)
    problem_of(client.get("/readyz"), 503)
    assert client.get("/healthz").status_code == 200


# ---------------------------------------------------------------- events, live


def test_events_are_the_log_after_a_version(client):
    gid, t0, t1 = new_game(client)
    act(client, gid, t0, {"type": "ready"})
    r = client.get(f"/v1/games/{gid}/events", headers=bearer(t1))
    body = r.get_json()
    assert body["version"] == 4 and body["status"] == "running"
    assert [e["version"] for e in body["events"]] == [1, 2, 3, 4]
    assert [e["type"] for e in body["events"]][:3] == ["game_created", "seat_taken", "spit_dealt"]
    r = client.get(f"/v1/games/{gid}/events?after=2&limit=1")
    assert [e["version"] for e in r.get_json()["events"]] == [3]
    assert client.get(f"/v1/games/{gid}/events?after=9").get_json()["events"] == []
    problem_of(client.get(f"/v1/games/{gid}/events?limit=0"), 400)
    problem_of(client.get(f"/v1/games/{gid}/events?after=-1"), 400)


def ready_later(client, gid, token, delay: float) -> threading.Timer:
    t = threading.Timer(delay, lambda: act(client, gid, token, {"type": "ready"}))
    t.start()
    return t


def test_a_long_poll_returns_as_soon_as_an_event_lands(client):
    gid, t0, _t1 = new_game(client)
    later = ready_later(client, gid, t0, 0.3)
    t = time.monotonic()
    body = client.get(f"/v1/games/{gid}/events?after=3&wait=5").get_json()
    later.join()
    assert 0.2 < time.monotonic() - t < 2
    assert [e["version"] for e in body["events"]] == [4] and body["version"] == 4


def test_a_long_poll_with_nothing_new_answers_empty_after_the_wait(client):
    gid, _t0, _t1 = new_game(client)
    t = time.monotonic()
    body = client.get(f"/v1/games/{gid}/events?after=3&wait=0.3").get_json()
    assert time.monotonic() - t >= 0.25 and body["events"] == [] and body["version"] == 3


def sse(client, gid, headers=None, after=None):
    q = "" if after is None else f"?after={after}"
    r = client.get(f"/v1/games/{gid}/events{q}",
                   headers={"Accept": "text/event-stream", **(headers or {})})  # fmt: skip
    return r, r.get_data(as_text=True)


def parse_sse(text: str) -> list[tuple[int, dict]]:
    out = []
    for block in text.split("\n\n"):
        lines = dict(ln.split(": ", 1) for ln in block.splitlines() if ln and ": " in ln)
        if "id" in lines:
            out.append((int(lines["id"]), json.loads(lines["data"])))
    return out


def test_sse_sends_the_log_then_live_events_and_resumes_from_last_event_id(client):
    gid, t0, t1 = new_game(client)
    r, text = sse(client, gid, bearer(t1))
    assert r.mimetype == "text/event-stream" and r.headers["Cache-Control"] == "private, no-cache"
    assert [v for v, _e in parse_sse(text)] == [1, 2, 3]
    later = ready_later(client, gid, t0, 0.1)
    _r, text = sse(client, gid, {**bearer(t1), "Last-Event-ID": "3"})
    later.join()
    assert [(v, e["type"]) for v, e in parse_sse(text)] == [(4, "player_ready")]
    _r, text = sse(client, gid, after=2)
    assert [v for v, _e in parse_sse(text)][:2] == [3, 4]


def test_sse_ends_with_the_game_and_then_answers_204(client):
    gid, t0, _t1 = new_game(client)
    act(client, gid, t0, {"type": "resign"})
    _r, text = sse(client, gid, after=3)
    assert [e["type"] for _v, e in parse_sse(text)] == ["player_resigned", "game_ended"]
    r, _text = sse(client, gid, {"Last-Event-ID": "5"})
    assert r.status_code == 204


def test_a_stream_counts_in_the_metrics(client):
    gid, _t0, _t1 = new_game(client)
    sse(client, gid)
    text = scrape(client).get_data(as_text=True)
    assert "spitlog_sse_streams_open 0.0" in text


# ---------------------------------------------------------------- states, audit, lobby


def test_states_at_a_version_are_the_callers_view_then_everything(redis_client):
    client = create_app(app_settings(snapshot_every=7), redis_client=redis_client).test_client()
    gid, t0, t1 = new_game(client, options={"max_rounds": 1})
    for tok in (t0, t1):
        act(client, gid, tok, {"type": "ready"})
    r = client.get(f"/v1/games/{gid}/states/3", headers=bearer(t1))
    assert r.status_code == 200 and r.headers["ETag"] == '"6"'
    s3 = r.get_json()
    assert s3["version"] == 3 and s3["you"] == 1 and s3["phase"] == "ready"
    assert isinstance(s3["players"][0]["spit_cards"], int)  # hidden during the game
    problem_of(client.get(f"/v1/games/{gid}/states/0"), 404)
    assert problem_of(client.get(f"/v1/games/{gid}/states/7"), 404)["version"] == 6
    end = play_to_the_end(client, gid, t0, t1)
    # after the end, every version in full, through snapshots (every 7) and the log
    fresh = create_app(app_settings(snapshot_every=7), redis_client=redis_client)
    events = [domain.event_from_dict({k: v for k, v in e.items() if k != "version"})
              for e in fresh.test_client().get(
                  f"/v1/games/{gid}/events?limit=1000").get_json()["events"]]  # fmt: skip
    for v in (3, 7, 8, 20, end["version"]):
        full = fresh.test_client().get(f"/v1/games/{gid}/states/{v}").get_json()
        assert undecorated(full) == domain.full_state(domain.replay(events[:v]), None)
        assert isinstance(full["players"][0]["spit_cards"], list)


def test_the_audit_is_409_while_running_then_verifies_every_deal(client, redis_client):
    gid, t0, t1 = new_game(client, options={"max_rounds": 2}, client_seed="c0")
    assert problem_of(client.get(f"/v1/games/{gid}/audit"), 409)["version"] == 3
    play_to_the_end(client, gid, t0, t1)
    audit = client.get(f"/v1/games/{gid}/audit").get_json()
    assert audit["verified"] and audit["commitment_verified"]
    assert len(audit["deals"]) >= 2 and all(d["verified"] for d in audit["deals"])
    assert audit["client_seeds"][0] == "c0"
    assert domain.commitment(bytes.fromhex(audit["server_seed"])) == audit["commitment"]
    dealt = next(e for e in audit["events"] if e["type"] == "spit_dealt")
    assert isinstance(dealt["spit_cards"][0], list)  # in full
    # a seed that was not the committed one fails the audit
    redis_client.hset(f"spit:{{g:{gid}}}:meta", "seed", "00" * 32)
    other = create_app(app_settings(), redis_client=redis_client).test_client()
    audit = other.get(f"/v1/games/{gid}/audit").get_json()
    assert not audit["verified"] and not audit["commitment_verified"]
    assert not any(d["verified"] for d in audit["deals"])


def test_a_speed_audit_verifies_the_deal(client):
    r = client.post("/v1/games", json={"game": "speed", "opponent": "bot:easy"})
    g = r.get_json()
    act(client, g["id"], g["token"], {"type": "resign"})
    audit = client.get(f"/v1/games/{g['id']}/audit").get_json()
    assert audit["verified"] and [d["type"] for d in audit["deals"]] == ["speed_dealt"]


def test_the_lobby_lists_games_by_status_newest_first_in_pages(redis_client):
    ticks = iter(range(10_000))  # a clock that moves a millisecond at each reading
    clock = lambda: 1e9 + next(ticks) / 1000  # noqa: E731
    app = create_app(app_settings(), redis_client=redis_client, clock=clock)
    client = app.test_client()
    ids = [new_game(client, join=False)[0] for _ in range(3)]
    running, t0, _ = new_game(client)
    r = client.get("/v1/games?status=open&limit=2")
    body = r.get_json()
    assert [g["id"] for g in body["games"]] == ids[::-1][:2] and body["next"]
    assert body["games"][0]["players"] == [
        {"seat": 0, "kind": "human", "name": None, "player": None},
        {"seat": 1, "kind": None, "name": None, "player": None},
    ]  # anonymous seats (tests/service/test_players.py: an app's players)
    r = client.get(f"/v1/games?status=open&limit=2&cursor={body['next']}")
    assert [g["id"] for g in r.get_json()["games"]] == [ids[0]] and r.get_json()["next"] is None
    listed = client.get("/v1/games?status=running").get_json()["games"]
    assert [g["id"] for g in listed] == [running] and "winner" not in listed[0]
    act(client, running, t0, {"type": "resign"})
    finished = client.get("/v1/games?status=finished").get_json()["games"]
    assert [(g["id"], g["status"]) for g in finished] == [(running, "finished")]
    assert finished[0]["winner"] == 1  # E-5: seat 0 resigned, seat 1 won
    assert client.get("/v1/games").get_json()["games"][0]["id"] == ids[-1]  # default: open
    problem_of(client.get("/v1/games?status=lost"), 400)
    problem_of(client.get("/v1/games?limit=101"), 400)


# ---------------------------------------------------------------- operations and docs


def test_health_readiness_and_metrics(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json() == {"status": "ready"}
    gid, t0, _t1 = new_game(client)
    act(client, gid, t0, {"type": "ready"})
    act(client, gid, t0, {"type": "ready"})
    r = scrape(client)
    assert r.status_code == 200 and r.mimetype == "text/plain"
    text = r.get_data(as_text=True)
    for line in (
        'spitlog_http_requests_total{method="POST",route="/v1/games",status="201"} 1.0',
        'spitlog_actions_total{game="spit",outcome="appended"} 1.0',
        'spitlog_actions_total{game="spit",outcome="refused"} 1.0',
        "spitlog_append_retries_total 0.0",
        "spitlog_http_request_duration_seconds_bucket",
    ):
        assert line in text


def test_metrics_are_answered_on_their_own_listener_only(redis_client):
    """``GET /metrics`` is answered on ``SPITLOG_METRICS_BIND``'s port and nowhere else:
    the API's listener answers it 404 like any path it does not have (counted against the
    address's rate like one), and the metrics' listener answers nothing but it. Without
    the setting no listener answers it."""
    from tests.support.api import METRICS_PORT, on_port

    client = create_app(app_settings(), redis_client=redis_client).test_client()
    public = client.get("/metrics")
    assert problem_of(public, 404)["type"].endswith("problem-not-found")
    assert "spitlog_" not in public.get_data(as_text=True)
    assert problem_of(client.get("/metrics", **on_port(8000)), 404)
    assert "/metrics" not in client.get("/openapi.yaml").get_data(as_text=True)
    scraped = client.get("/metrics", **on_port(METRICS_PORT))
    assert scraped.status_code == 200 and "spitlog_http_requests_total" in scraped.text
    for path in ("/healthz", "/v1/games", "/metrics/x"):
        problem_of(client.get(path, **on_port(METRICS_PORT)), 404)
    problem_of(client.post("/metrics", **on_port(METRICS_PORT)), 404)
    unset = create_app(app_settings(metrics_bind=None), redis_client=redis_client)
    problem_of(unset.test_client().get("/metrics", **on_port(METRICS_PORT)), 404)


def test_the_metrics_listener_is_host_port_apart_from_the_apis():
    from service.config import SettingsError, load

    for bad in ("9100", "unix:/run/m.sock", "0.0.0.0:0", "0.0.0.0:70000", "host:"):
        with pytest.raises(SettingsError, match="host:port"):
            load(warn=None, metrics_bind=bad)
    with pytest.raises(SettingsError, match="port of its own"):
        load(warn=None, bind="0.0.0.0:8000", metrics_bind="127.0.0.1:8000")
    assert load(warn=None, metrics_bind="[::]:9100").metrics_bind == "[::]:9100"


def test_the_docs_page_is_readable_and_fetches_nothing_from_elsewhere(client):
    r = client.get("/docs")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    for path in ("/v1/games/{game_id}/actions", "/v1/games/{game_id}/audit", "/readyz"):
        assert path in page
    assert 'id="problem-illegal-action"' in page
    assert "<script" not in page and "http://" not in page and "https://" not in page
