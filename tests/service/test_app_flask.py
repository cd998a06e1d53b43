"""What ``service.app.App`` leaves out of Flask, and that leaving it out is safe."""

import flask
import pytest

from service.app import _no_async_views


def test_an_async_view_is_refused_at_startup(app):
    """App skips Flask's ensure_sync, so a coroutine view would answer a coroutine."""

    async def later():
        return "no"

    app.add_url_rule("/later", view_func=later)
    with pytest.raises(TypeError, match="later"):
        _no_async_views(app)


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
