"""The one request pipeline (service/http/pipeline.py): the hot routes (an action, a read) are
matched in front of Flask's dispatch (``app.Front``) and every other request is routed
by Flask, and both run ``Pipeline.run``. Parity: the same requests sent through the front
(``client``) and straight to Flask's dispatch (``flask_client``) get the same answers."""

import random

import fakeredis
import flask
import pytest
from werkzeug.test import Client

from service.http.app import Front, MetricsListener, create_app
from tests.support.api import app_settings, bearer, new_game, pick, scrape
from tests.support.fakes import SeededEntropy

NOW = 1_800_000_000.0


@pytest.fixture
def app(monkeypatch):
    """An app whose games are dealt alike: one server seed, one clock. Two games made
    the same way are the same game under two ids."""
    redis_client = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    return create_app(app_settings(), redis_client=redis_client, clock=lambda: NOW,
                      entropy=SeededEntropy(seed=b"\x07" * 32))  # fmt: skip


def _front(app) -> Front:
    """The app's ``Front`` (under the metrics listener's middleware, when it has one)."""
    wsgi = app.wsgi_app
    return wsgi.app if isinstance(wsgi, MetricsListener) else wsgi


@pytest.fixture
def flask_calls(app):
    """The requests that reached Flask's own dispatch."""
    front = _front(app)
    calls = []
    inner = front.app

    def counted(environ, start_response):
        calls.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
        return inner(environ, start_response)

    front.app = counted
    return calls


@pytest.fixture
def flask_client(app):
    """Requests straight to Flask's dispatch, past the front."""
    return Client(_front(app).app, flask.Response)


def same(a, b, ids=()):
    """Two answers alike: status, headers (the server's Date aside) and body, with the
    games' ids (``ids``: pairs) and the requests' ids read as one."""

    def norm(r):
        text = r.get_data(as_text=True).replace(r.headers["X-Request-Id"], "RID")
        for x, y in ids:
            text = text.replace(y, x)
        headers = sorted((k, v) for k, v in r.headers.items() if k not in ("Date", "X-Request-Id"))
        return r.status_code, headers, text

    assert norm(a) == norm(b)


def test_an_action_and_a_read_do_not_reach_flask_and_other_routes_do(client, flask_calls):
    gid, tok0, _tok1 = new_game(client)
    flask_calls.clear()
    view = client.get(f"/v1/games/{gid}", headers=bearer(tok0)).get_json()
    r = client.post(f"/v1/games/{gid}/actions", json=pick(view, random.Random(1)),
                    headers=bearer(tok0))  # fmt: skip
    assert r.status_code == 201
    client.post(f"/v1/games/{gid}/actions", data=b"not json", headers=bearer(tok0))
    client.get(f"/v1/games/{gid}/states/1", headers=bearer(tok0))
    client.head(f"/v1/games/{gid}", headers=bearer(tok0))  # Flask answers HEAD
    assert flask_calls == [("GET", f"/v1/games/{gid}/states/1"), ("HEAD", f"/v1/games/{gid}")]


@pytest.mark.parametrize(
    "headers",
    [{}, {"If-None-Match": '"3"'}, {"If-None-Match": 'W/"3", "9"'}, {"If-None-Match": '"2"'},
     {"Authorization": "Bearer not-a-token"}, {"Authorization": "Basic eDp5"}],
)  # fmt: skip
def test_a_read_is_answered_alike_both_ways(client, flask_client, flask_calls, headers):
    gid, tok0, _tok1 = new_game(client)
    h = {**bearer(tok0), **headers}
    for path in (f"/v1/games/{gid}", f"/v1/games/{gid}?x=1", "/v1/games/g_00000000000000ff"):
        flask_calls.clear()
        fast = client.get(path, headers=h)
        assert flask_calls == []
        same(fast, flask_client.get(path, headers=h))


@pytest.mark.parametrize(
    "what, headers, data",
    [
        ("If-Match", {"If-Match": '"1"'}, None),
        ("not JSON", {"Content-Type": "text/plain"}, b'{"type": "ready"}'),
        ("no token", {"Authorization": ""}, None),
        ("a token without Bearer", {"Authorization": "TOKEN"}, None),
        ("a long Idempotency-Key", {"Idempotency-Key": "k" * 256}, None),
        ("not strict JSON", {}, b'{"type": NaN}'),
        ("a key twice", {}, b'{"type": "ready", "type": "resign"}'),
        ("not an object", {}, b'["ready"]'),
        ("nested", {}, b'{"type": "play", "from": [1]}'),
        ("no rule reads it", {}, b'{"type": "fly"}'),
        ("an unknown field", {}, b'{"type": "ready", "x": 1}'),
        ("an unknown query parameter", {}, None),
    ],
)
def test_every_kind_of_request_is_answered_alike_both_ways(
    client, flask_client, flask_calls, what, headers, data
):
    gid, tok0, _tok1 = new_game(client)
    h = {**bearer(tok0), "Content-Type": "application/json", **headers}
    if h["Authorization"] == "TOKEN":
        h["Authorization"] = tok0
    h = {k: v for k, v in h.items() if v}
    body = data if data is not None else b'{"type": "ready"}'
    path = f"/v1/games/{gid}/actions" + ("?x=1" if "query" in what else "")
    flask_calls.clear()
    r = client.post(path, data=body, headers=h)
    assert flask_calls == [], what
    same(r, flask_client.post(path, data=body, headers=h))
    assert r.status_code in (400, 401, 412, 415, 422), (what, r.get_json())


@pytest.mark.parametrize(
    "environ",
    [
        {"CONTENT_TYPE": "application/json\xa0"},
        {"CONTENT_TYPE": "\x85application/json"},
        {"CONTENT_LENGTH": "\xb2"},  # a digit to str.isdigit(), not to int()
        {"CONTENT_LENGTH": "+17"},
        {"CONTENT_LENGTH": "99999"},  # past max_content_length
    ],
)
def test_odd_headers_are_answered_alike_both_ways(client, flask_client, environ):
    gid, tok0, _tok1 = new_game(client)
    kw = {"data": b'{"type": "ready"}', "headers": bearer(tok0), "environ_overrides": environ}
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    r = client.post(f"/v1/games/{gid}/actions", content_type="application/json", **kw)
    assert r.status_code in (400, 413, 415), r.get_json()
    same(r, flask_client.post(f"/v1/games/{gid}/actions", content_type="application/json", **kw))
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version


def test_a_chunked_body_is_read_whole_both_ways(client, flask_client):
    gid, tok0, _tok1 = new_game(client)
    h = {**bearer(tok0), "Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    fast = client.post(f"/v1/games/{gid}/actions", data=b'{"type": "ready"}', headers=h)
    assert fast.status_code == 201
    slow = flask_client.post(f"/v1/games/{gid}/actions", data=b'{"type": "ready"}', headers=h)
    assert slow.status_code == 422 and slow.get_json()["rule"] == "D-4"  # already ready


@pytest.mark.parametrize("way", ["front", "flask"])
def test_an_answer_to_a_body_not_read_whole_closes_the_connection(client, flask_client, way):
    """The answer to a request whose body was not read to its end (refused before or
    while it was read, or a body no stage reads) says ``Connection: close``: the server
    cannot tell where the next request would start. Any other keeps the connection."""
    c = client if way == "front" else flask_client
    gid, tok0, _tok1 = new_game(client)
    url, h = f"/v1/games/{gid}/actions", {**bearer(tok0), "Content-Type": "application/json"}
    unread = [
        c.post(url, data=b"x" * 20_000, headers=h),  # 413 on its Content-Length
        c.post(url, data=b"x" * 20_000, headers={**h, "Transfer-Encoding": "chunked"}),  # 413
        # a length that is none (400); a body that ends before its length (400)
        c.post(url, data=b'{"type": "ready"}', headers=h,
               environ_overrides={"CONTENT_LENGTH": "1" * 17}),
        c.post(url, data=b'{"type": "re', headers=h, environ_overrides={"CONTENT_LENGTH": "30"}),
        c.get(f"/v1/games/{gid}", data=b"{}", headers=h),  # a GET's body: never read
    ]  # fmt: skip
    assert [r.status_code for r in unread] == [413, 413, 400, 400, 200]
    for r in unread:
        assert r.headers.get("Connection") == "close", r.headers
    whole = [
        c.post(url, data=b'{"type": "ready"}', headers=h),  # 201
        c.post(url, data=b'{"type": ', headers=h),  # read whole, not JSON: 400
        c.post(url, data=b"{}", headers={**bearer(tok0), "Content-Type": "text/plain"}),  # 415
        c.get(f"/v1/games/{gid}"),
    ]
    assert [r.status_code for r in whole] == [201, 400, 415, 200]
    for r in whole:
        assert "Connection" not in r.headers, r.headers


def test_refusals_and_errors_are_answered_as_flask_answers_them(client, flask_client, flask_calls):
    gid, tok0, tok1 = new_game(client)
    other, other_tok, _ = new_game(client)
    ended, ended_tok, _ = new_game(client)
    assert client.post(f"/v1/games/{ended}/actions", json={"type": "resign"},
                       headers=bearer(ended_tok)).status_code == 201  # fmt: skip
    cases = [
        (gid, {"type": "play", "from": 4, "to": 1}, bearer(tok0)),  # illegal now (P-1)
        (gid, {"type": "ready"}, bearer("not-a-token")),  # 401
        (gid, {"type": "ready"}, {"Authorization": "Basic eDp5"}),  # 401: not a bearer
        (gid, {"type": "ready"}, bearer(other_tok)),  # 403: another game's
        ("g_00000000000000ff", {"type": "ready"}, bearer(tok0)),  # 404
        (ended, {"type": "ready"}, bearer(ended_tok)),  # 409: over
    ]
    flask_calls.clear()
    for path_id, body, h in cases:
        path = f"/v1/games/{path_id}/actions"
        fast = client.post(path, json=body, headers=h)
        same(fast, flask_client.post(path, json=body, headers=h))
        assert fast.status_code in (401, 403, 404, 409, 422), fast.get_json()
    assert flask_calls == []  # every one went through the front


def test_an_action_is_answered_as_flask_answers_it(client, flask_client):
    """Two games dealt alike; the same moves, one game by each path."""
    a, a0, a1 = new_game(client)
    b, b0, b1 = new_game(client)
    ids = [(a, b), (a0, b0), (a1, b1)]
    rng = random.Random(5)
    acted = 0
    for step in range(40):
        seat = step % 2
        tok_a, tok_b = (a0, b0) if seat == 0 else (a1, b1)
        va = client.get(f"/v1/games/{a}", headers=bearer(tok_a))
        same(va, client.get(f"/v1/games/{b}", headers=bearer(tok_b)), ids)
        action = pick(va.get_json(), rng)
        if action is None:
            continue
        key = {"Idempotency-Key": f"k{step}"} if step % 3 == 0 else {}
        fast = client.post(f"/v1/games/{a}/actions", json=action, headers={**bearer(tok_a), **key})
        slow = flask_client.post(f"/v1/games/{b}/actions", json=action,
                                 headers={**bearer(tok_b), **key})  # fmt: skip
        same(fast, slow, ids)
        acted += fast.status_code == 201
        if key:  # a retry: the first answer again, both ways
            again = client.post(f"/v1/games/{a}/actions", json=action,
                                headers={**bearer(tok_a), **key})  # fmt: skip
            assert again.headers["Idempotent-Replayed"] == "true"
            same(again, flask_client.post(f"/v1/games/{b}/actions", json=action,
                                          headers={**bearer(tok_b), **key}), ids)  # fmt: skip
            other = {"type": "resign"}  # the same key, another body: 422 both ways
            same(client.post(f"/v1/games/{a}/actions", json=other,
                             headers={**bearer(tok_a), **key}),
                 flask_client.post(f"/v1/games/{b}/actions", json=other,
                                   headers={**bearer(tok_b), **key}), ids)  # fmt: skip
    assert acted >= 10


def test_both_ways_are_counted_in_the_metrics(client, flask_client):
    gid, tok0, _tok1 = new_game(client)
    for c in (client, flask_client):
        c.post(f"/v1/games/{gid}/actions", json={"type": "play", "from": 4, "to": 1},
               headers=bearer(tok0))  # fmt: skip
    text = scrape(client).get_data(as_text=True)
    line = 'spitlog_http_requests_total{method="POST",route="/v1/games/{game_id}/actions"'
    assert f'{line},status="422"}} 2.0' in text


def test_the_front_keeps_the_rate_limits():
    app = create_app(app_settings(rate_actions=1, rate_actions_burst=1),
                     redis_client=fakeredis.FakeRedis(server=fakeredis.FakeServer()))  # fmt: skip
    client = app.test_client()
    gid, tok0, _tok1 = new_game(client)
    body = {"type": "play", "from": 4, "to": 1}
    first = client.post(f"/v1/games/{gid}/actions", json=body, headers=bearer(tok0))
    second = client.post(f"/v1/games/{gid}/actions", json=body, headers=bearer(tok0))
    assert first.status_code == 422 and second.status_code == 429
    assert int(second.headers["Retry-After"]) >= 1


def test_flask_has_no_request_hooks_to_skip(app):
    """The front skips Flask's dispatch only: nothing of the app's hangs there (every stage
    is the pipeline's), so it skips nothing of ours."""
    hooks = [app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs,
             app.url_value_preprocessors, app.url_default_functions]  # fmt: skip
    assert all(not h for h in hooks) and not app.teardown_appcontext_funcs


def test_every_request_shares_one_empty_session_that_refuses_writes(app):
    with app.test_request_context("/healthz"):
        first = flask.session._get_current_object()
        assert not first
        with pytest.raises(RuntimeError):
            flask.session["x"] = 1
    with app.test_request_context("/healthz"):
        assert flask.session._get_current_object() is first


def test_answers_set_no_cookie(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and "Set-Cookie" not in r.headers
