"""The one route table (``service.http.table``): Flask's URL map, the fast front and CORS
all read it, so they agree on every route, and a route added to the table is known to
all three with nothing else changed."""

import fakeredis
import pytest

from service.http.app import MetricsListener, create_app
from service.http.pipeline import Route, json_answer
from service.http.table import CONVERTERS, TABLE
from tests.support.api import app_settings

ORIGIN = "https://app.example"
SAMPLES = {"gid": "g_0123456789abcdef", "sid": "s_0123456789abcdef", "pid": "p1",
           "int": "3", "": "x"}  # fmt: skip


def _path(rule: str) -> tuple[str, dict]:
    """A path of ``rule`` and the parameters a handler gets from it."""
    import re

    args = {}

    def fill(m):
        kind = m.group(1) or ""
        args[m.group(2)] = CONVERTERS[kind][1](SAMPLES[kind])
        return SAMPLES[kind]

    return re.sub(r"<(?:(\w+):)?(\w+)>", fill, rule), args


def _app(table=TABLE, **kw):
    redis_client = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    return create_app(app_settings(cors_origins=ORIGIN), redis_client=redis_client, table=table,
                      **kw)  # fmt: skip


def _front(app):
    wsgi = app.wsgi_app
    return wsgi.app if isinstance(wsgi, MetricsListener) else wsgi


def _no_head(methods) -> set[str]:
    return {m for m in methods if m != "HEAD"}  # werkzeug adds HEAD beside each GET


def test_every_route_is_one_route_to_flask_the_front_and_cors():
    app = _app()
    urls = app.url_map.bind("localhost")
    front = _front(app)
    assert front.table is TABLE and app.extensions["spitlog"].cors.table is TABLE
    assert {r.endpoint for r in app.url_map.iter_rules()} == {r.name for r in TABLE.routes}
    for route in TABLE.routes:
        path, args = _path(route.path)
        assert urls.match(path, method=route.method) == (route.name, args), route.name
        if route.hot:
            assert front.table.match_hot(route.method, path) == (route, args), route.name
        assert _no_head(urls.allowed_methods(path)) == _no_head(TABLE.methods(path)), path


@pytest.mark.parametrize("path", ["/v1/games/nope", "/v1/games/g_0123456789abcdef/states/x",
                                  "/v1/seeks/g_0123456789abcdef"])  # fmt: skip
def test_a_path_of_no_route_is_no_route_to_any_of_them(path):
    app = _app()
    assert app.url_map.bind("localhost").allowed_methods(path) == []
    assert TABLE.methods(path) == []
    assert all(TABLE.match_hot(m, path) is None for m in ("GET", "POST", "PUT", "DELETE"))


def _probe(call):
    return json_answer({"probe": call.args["n"]})


PROBE = Route("probe", "PUT", "/v1/probe/<int:n>", _probe, hot=True)


def test_a_route_added_to_the_table_is_known_to_flask_the_front_and_cors():
    table = TABLE.plus(PROBE)
    app = _app(table)
    front = _front(app)
    inner, reached_flask = front.app, []

    def counted(environ, start_response):
        reached_flask.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    front.app = counted
    client = app.test_client()

    r = client.put("/v1/probe/7")
    assert (r.status_code, r.get_json()) == (200, {"probe": 7})
    assert reached_flask == []  # the front served it
    assert app.url_map.bind("localhost").match("/v1/probe/7", method="PUT") == ("probe", {"n": 7})
    r = client.options("/v1/probe/7", headers={"Origin": ORIGIN,
                                               "Access-Control-Request-Method": "PUT"})  # fmt: skip
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Methods"] == "PUT"

    # the same app without it: none of them knows the path
    plain = _app().test_client()
    assert plain.put("/v1/probe/7").status_code == 404
    r = plain.options("/v1/probe/7", headers={"Origin": ORIGIN,
                                              "Access-Control-Request-Method": "PUT"})  # fmt: skip
    assert "Access-Control-Allow-Methods" not in r.headers


def test_two_routes_of_one_name_are_refused():
    with pytest.raises(ValueError, match="probe"):
        TABLE.plus(PROBE, PROBE)
