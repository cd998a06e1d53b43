"""What a hostile or careless request gets: one reader of credentials (for the seat and
for the limits alike), headers that keep per-seat answers out of shared caches, and a
problem+json that names what is wrong for every malformed request, changing nothing."""

import pytest

from service.http.app import create_app
from tests.support.api import app_settings, bearer, new_game, scrape

PROBLEM = "application/problem+json"


def problem(r, status: int) -> dict:
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True))
    assert r.mimetype == PROBLEM
    return r.get_json()


def version(client, gid) -> int:
    return client.get(f"/v1/games/{gid}").get_json()["version"]


# ---------------------------------------------------------------- credentials


@pytest.mark.parametrize("header", [
    "{t}",  # the token alone: it was taken as the seat's, and the limiter did not see it
    "Bearer  {t}",  # two spaces
    "Bearer",
    "Bearer ",
    "Basic {t}",
    "Bearer {t} extra",
    "Bearer {t}!",
    "Token {t}",
    "",
])  # fmt: skip
def test_an_authorization_header_not_of_the_bearer_form_is_401_everywhere(client, header):
    gid, tok0, _ = new_game(client)
    v = version(client, gid)
    h = {"Authorization": header.format(t=tok0)}
    for r in (
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=h),
        client.get(f"/v1/games/{gid}", headers=h),
        client.get(f"/v1/games/{gid}/events", headers=h),
        client.get(f"/v1/games/{gid}/states/1", headers=h),
        client.post(f"/v1/games/{gid}/seats", json={}, headers=h),
    ):
        body = problem(r, 401)
        assert "Bearer" in body["detail"] and r.headers["WWW-Authenticate"].startswith("Bearer")
    assert version(client, gid) == v


def test_the_scheme_is_case_insensitive(client):
    gid, tok0, _ = new_game(client)
    for scheme in ("bearer", "BEARER", "BeArEr"):
        r = client.get(f"/v1/games/{gid}", headers={"Authorization": f"{scheme} {tok0}"})
        assert r.status_code == 200 and r.get_json()["you"] == 0


def test_the_limits_see_the_token_the_seat_is_judged_by(redis_client):
    """One reader for both: every form the seat accepts is charged to the token's bucket,
    and no other form reaches the game at all."""
    app = create_app(app_settings(rate_actions=1, rate_actions_burst=1), redis_client=redis_client)
    client = app.test_client()
    gid, tok0, _ = new_game(client)
    body = {"type": "slap", "pile": 0}  # refused by the rules (422) and counted
    first = client.post(f"/v1/games/{gid}/actions", json=body, headers=bearer(tok0))
    assert first.status_code == 422
    again = client.post(f"/v1/games/{gid}/actions", json=body,
                        headers={"Authorization": f"bearer {tok0}"})  # fmt: skip
    assert again.status_code == 429  # the same bucket
    bare = client.post(f"/v1/games/{gid}/actions", json=body, headers={"Authorization": tok0})
    assert bare.status_code == 401  # never past the credentials


# ---------------------------------------------------------------- headers


def test_every_answer_says_nosniff(client):
    gid, tok0, tok1 = new_game(client)
    answers = [
        client.get("/"), client.get("/static/app.js"), client.get("/docs"),
        client.get("/openapi.yaml"), client.get("/healthz"), client.get("/readyz"),
        client.get("/metrics"), scrape(client), client.get("/v1/games"),
        client.get(f"/v1/games/{gid}"),
        client.get("/v1/nothing"), client.delete("/v1/games"),
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok0)),
        client.post(f"/v1/games/{gid}/actions", data=b"{", headers=bearer(tok1),
                    content_type="application/json"),
        client.get(f"/v1/games/{gid}/events"), client.get(f"/v1/games/{gid}/audit"),
    ]  # fmt: skip
    for r in answers:
        assert r.headers.get("X-Content-Type-Options") == "nosniff", r.request.path


def test_per_seat_answers_are_private_and_vary_by_authorization(client):
    gid, tok0, _ = new_game(client)
    v = version(client, gid)
    h = bearer(tok0)
    stream = client.get(f"/v1/games/{gid}/events", headers={**h, "Accept": "text/event-stream"},
                        buffered=False)  # fmt: skip
    answers = [
        client.get(f"/v1/games/{gid}", headers=h),
        client.get(f"/v1/games/{gid}/states/1", headers=h),
        client.get(f"/v1/games/{gid}/events", headers=h),
        client.get(f"/v1/games/{gid}/events?after={v}&wait=0.05", headers=h),  # long-poll
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=h),
        stream,
    ]
    for r in answers:
        assert "private" in r.headers["Cache-Control"], r.request.path
        assert "Authorization" in r.headers["Vary"], r.request.path
    stream.close()


def test_answers_that_carry_a_token_are_not_stored(client):
    created = client.post("/v1/games", json={"game": "spit"})
    joined = client.post(f"/v1/games/{created.get_json()['id']}/seats", json={})
    for r in (created, joined):
        assert r.status_code == 201 and r.get_json()["token"]
        assert r.headers["Cache-Control"] == "no-store"


def test_the_pages_have_a_content_security_policy_without_inline_script(client):
    docs = client.get("/docs").headers["Content-Security-Policy"]
    assert "default-src 'none'" in docs and "script" not in docs
    page = client.get("/")
    csp = dict(part.strip().split(" ", 1) for part in
               page.headers["Content-Security-Policy"].split(";"))  # fmt: skip
    assert "'unsafe-inline'" not in csp["script-src"]
    text = page.get_data(as_text=True)
    assert "<script>" not in text and '<script src="/static/app.js">' in text
    assert client.get("/static/app.js").mimetype == "text/javascript"


# ---------------------------------------------------------------- edges


@pytest.mark.parametrize("path", [
    "/v1/games?status=open&afer=3", "/v1/games/{gid}?x=1", "/v1/games/{gid}/events?aftr=0",
    "/v1/games/{gid}/states/1?full=1", "/v1/games/{gid}/audit?seed=1", "/healthz?x",
])  # fmt: skip
def test_an_unknown_query_parameter_is_400_naming_it(client, path):
    gid, _tok0, _ = new_game(client)
    url = path.format(gid=gid)
    name = url.rsplit("?", 1)[1].split("&")[-1].split("=")[0]
    body = problem(client.get(url), 400)
    assert body["errors"] == {name: ["unknown query parameter"]}


def test_a_query_parameter_given_twice_is_400(client):
    body = problem(client.get("/v1/games?limit=1&limit=2"), 400)
    assert body["errors"] == {"limit": ["given more than once"]}


@pytest.mark.parametrize("path, raw", [
    ("/v1/games", b'{"game": "spit", "game": "speed"}'),
    ("/v1/games", b'{"game": "spit", "options": {"stockpiles": 4, "stockpiles": 5}}'),
    ("/v1/games/{gid}/seats", b'{"client_seed": "a", "client_seed": "b"}'),
    ("/v1/games/{gid}/actions", b'{"type": "ready", "type": "resign"}'),
    ("/v1/games/{gid}/actions", b'{"type": "resign", "\\u0074ype": "ready"}'),
])  # fmt: skip
def test_a_json_object_with_a_key_twice_is_400(client, path, raw):
    gid, tok0, _ = new_game(client, join=False)
    v = version(client, gid)
    r = client.post(path.format(gid=gid), data=raw, content_type="application/json",
                    headers=bearer(tok0))  # fmt: skip
    assert "repeats a key" in problem(r, 400)["errors"]["_body"][0]
    assert version(client, gid) == v


def test_routing_answers_problems_not_html(client):
    assert problem(client.get("/v1/nothing"), 404)["type"].endswith("#problem-not-found")
    r = client.delete("/v1/games")
    assert problem(r, 405)["type"].endswith("#problem-method-not-allowed")
    assert "GET" in r.headers["Allow"]
    for path in ("//v1/games", "/v1//games", "/v1/games/"):  # no redirect to another path
        r = client.get(path)
        assert r.status_code in (200, 404) and r.status_code != 308, path
        if r.status_code == 404:
            assert r.mimetype == PROBLEM
    assert problem(client.get("/v1/games/not-a-game-id"), 404)


# ---------------------------------------------------------------- found in review


def test_a_snapshot_of_an_older_format_is_replaced_by_the_log(redis_client):
    app = create_app(app_settings(snapshot_every=3), redis_client=redis_client)
    client = app.test_client()
    gid, tok0, tok1 = new_game(client)
    for tok in (tok0, tok1):
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
    key = f"spit:{{g:{gid}}}:snap"
    import json

    from service.store import snapshots

    for field, raw in redis_client.hgetall(key).items():  # every snapshot: an older format
        snap = snapshots.loads(raw)
        snap["format"] = 1
        redis_client.hset(key, field, json.dumps(snap))
    fresh = create_app(app_settings(snapshot_every=3), redis_client=redis_client).test_client()
    r = fresh.get(f"/v1/games/{gid}", headers=bearer(tok0))
    assert r.status_code == 200 and r.get_json()["version"] == version(client, gid)
    assert fresh.get(f"/v1/games/{gid}/states/4").status_code == 200


def test_a_query_of_many_parameters_is_refused_cheaply(client):
    qs = "&".join(["a"] * 2000)
    body = problem(client.get(f"/healthz?{qs}"), 400)
    assert "_query" in body["errors"] or "a" in body["errors"]
    body = problem(client.get("/v1/games?" + "&".join(f"p{i}=1" for i in range(40))), 400)
    assert body["errors"] == {"_query": ["at most 16 parameters"]}


def test_a_wait_after_the_end_of_the_log_breaks_no_other_wait(app, client):
    gid, tok0, _ = new_game(client)
    v = version(client, gid)
    import time

    r = client.get(f"/v1/games/{gid}/events?after=999999&wait=0.2")
    assert r.status_code == 200 and r.get_json()["events"] == []
    t = time.monotonic()
    r = client.get(f"/v1/games/{gid}/events?after={v}&wait=0.3")
    assert r.get_json()["events"] == [] and time.monotonic() - t >= 0.25  # it waited


@pytest.mark.parametrize("headers", [
    {"If-Match": '"' + "9" * 5000 + '"'},
    {"If-Match": '""'},  # an empty tag (werkzeug parses it as None: was a 500)
    {"Last-Event-ID": "9" * 5000, "Accept": "text/event-stream"},
])  # fmt: skip
def test_huge_numbers_in_headers_are_no_versions(client, headers):
    gid, tok0, _ = new_game(client)
    if "If-Match" in headers:
        r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"},
                        headers={**bearer(tok0), **headers})  # fmt: skip
        assert problem(r, 412)
    else:
        r = client.get(f"/v1/games/{gid}/events", headers={**bearer(tok0), **headers},
                       buffered=False)  # fmt: skip
        assert r.status_code == 200
        r.close()


def test_a_content_length_of_many_digits_is_400(client):
    r = client.post("/v1/games", data=b'{"game": "spit"}', content_type="application/json",
                    environ_overrides={"CONTENT_LENGTH": "9" * 40})  # fmt: skip
    assert problem(r, 400)["errors"] == {"Content-Length": ["must be a number of bytes"]}


def test_options_is_a_problem_too(client):
    r = client.options("/v1/games")
    assert problem(r, 405)["type"].endswith("#problem-method-not-allowed")
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_odd_methods_share_one_metrics_label(client):
    for m in ("FOO", "BAR", "BAZ"):
        client.open("/nowhere", method=m)
    text = scrape(client).get_data(as_text=True)
    assert 'method="OTHER",route="<unmatched>"' in text and 'method="FOO"' not in text


def test_a_503_to_a_token_that_is_no_seat_is_remembered_for_no_one(redis_client):
    app = create_app(app_settings(game_concurrency=1, game_gate_wait_s=0.05),
                     redis_client=redis_client)  # fmt: skip
    services, client = app.extensions["spitlog"], app.test_client()
    gid, _tok0, _ = new_game(client)
    assert services.gate.acquire(gid)
    try:
        for token in ("x" * 43, "y" * 43):
            r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"},
                            headers=bearer(token))  # fmt: skip
            assert r.status_code == 503
    finally:
        services.gate.release(gid)
    assert redis_client.zcard(f"spit:{{g:{gid}}}:refused") == 0
