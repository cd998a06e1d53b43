"""The Python client's ``LiveGame`` (clients/python/spitlog_sdk/live.py) on the API of
this process (httpx's WSGI transport on the Flask app, whose streams end after 0.3 s):
a view kept current from the stream of views with no read of the game, reconnection and
resumption by ``Last-Event-ID``, a ``429``'s ``Retry-After`` waited out, actions with
their own idempotency keys and ``If-Match``, and the rules' refusal as ``RuleRefused``
with its rule's ID."""

import sys
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))  # this checkout's client first

from spitlog_client.models import (  # noqa: E402
    CreateGame,
    CreateGameGame,
    SpeedPlayAction,
    SpeedReadyAction,
    SpeedResignAction,
    SpeedState,
)
from spitlog_sdk import (  # noqa: E402
    ApiError,
    LiveGame,
    RetryPolicy,
    RuleRefused,
    Spitlog,
    VersionMoved,
)

BASE = "http://spitlog.test"


class Recorder(httpx.BaseTransport):
    """The app's WSGI transport, recording each request; ``cut`` streams of views are
    cut (a dropped connection) after their first message."""

    def __init__(self, app, cut: int = 0, first: list | None = None):
        self.inner = httpx.WSGITransport(app=app)
        self.sent: list[httpx.Request] = []
        self.cut = cut
        self.first = first or []  # answers given before the app's: (status, headers)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        if self.first and request.url.path.endswith("/events"):
            status, headers = self.first.pop(0)
            body = {"type": "/docs#problem-rate", "title": "T", "status": status, "detail": "d"}
            return httpx.Response(status, headers=headers, json=body)
        response = self.inner.handle_request(request)
        if self.cut and request.url.params.get("views") == "true":
            self.cut -= 1
            return httpx.Response(response.status_code, headers=response.headers,
                                  stream=Cut(response.stream))  # fmt: skip
        return response

    def streams(self) -> list[httpx.Request]:
        return [r for r in self.sent if r.url.path.endswith("/events")]

    def reads(self) -> list[httpx.Request]:
        return [r for r in self.sent if r.method == "GET" and r.url.path.count("/") == 3]


class Cut(httpx.SyncByteStream):
    """A stream that drops after its first message."""

    def __init__(self, inner):
        self.inner = inner

    def __iter__(self):
        seen = b""
        for chunk in self.inner:
            yield chunk
            seen += chunk
            if b"event: view" in seen:
                raise httpx.RemoteProtocolError("the connection dropped")


def seats(app, transport):
    api = Spitlog(BASE, transport=transport)
    created = api.create_game(CreateGame(game=CreateGameGame.SPEED))
    seated = api.join(created.id)
    return created.id, api.seat(created.token), api.seat(seated.token)


def test_a_live_game_keeps_each_view_from_the_stream_and_never_reads_the_game(app):
    transport = Recorder(app)
    gid, me, other = seats(app, transport)
    live, got = LiveGame(other, gid), []
    for state in live:
        got.append(state.version)
        assert isinstance(state, SpeedState) and state.you == 1
        if state.version == 3:
            me.act(gid, SpeedReadyAction())  # the other seat: its events come live
        elif state.version == 4:
            live.act(SpeedReadyAction())
        elif state.status == "running":
            live.act(SpeedResignAction())
    assert got == sorted(set(got)) and got[0] == 3  # each view once, newest last
    assert live.state is not None and live.state.status == "finished"
    assert live.state.to_dict() == other.get_game(gid).to_dict()
    assert transport.reads()[-1].url.path == f"/v1/games/{gid}"  # the line above, alone:
    assert len(transport.reads()) == 1  # the live game itself never read the game
    assert all(r.url.params["views"] == "true" for r in transport.streams())


def test_a_dropped_stream_is_resumed_from_last_event_id_with_nothing_lost_or_repeated(app):
    transport = Recorder(app, cut=3)
    gid, me, other = seats(app, transport)
    slept: list[float] = []
    live, got = LiveGame(other, gid, sleep=slept.append), []
    me.act(gid, SpeedReadyAction())  # version 4 before the stream opens
    for state in live:
        got.append(state.version)
        if state.status == "running" and len(got) < 6:
            # ready while a round waits; else resign (a deal may leave a stalemate at once)
            live.act(SpeedReadyAction() if state.phase == "ready" else SpeedResignAction())
    assert got == sorted(set(got)) and live.state is not None and live.over
    resumed = [r.headers.get("Last-Event-ID") for r in transport.streams()]
    assert resumed[0] is None and resumed[1] == "4"  # cut after the first view (id 4)
    # after each drop, the server's hint (retry: 2000), then a stream resumed from the last id
    assert len(slept) >= 2 and slept == [2.0] * len(slept)
    assert all(last is not None for last in resumed[1:])
    assert got[-1] == live.version and live.state is not None and live.state.status == "finished"


def test_a_429_or_503_on_the_stream_is_waited_out_after_its_retry_after(app):
    slept: list[float] = []
    for policy in (RetryPolicy(sleep=slept.append), RetryPolicy(max_retries=0)):
        # the transport's retries wait them out, or else the live game itself does
        transport = Recorder(app, first=[(429, {"Retry-After": "3"}),
                                         (503, {"Retry-After": "1"})])  # fmt: skip
        api = Spitlog(BASE, transport=transport, retry=policy)
        created = api.create_game(CreateGame(game=CreateGameGame.SPEED))
        api.join(created.id)
        live = LiveGame(api.seat(created.token), created.id, sleep=slept.append)
        assert next(iter(live)).version == 3 and slept == [3.0, 1.0]
        assert len(transport.streams()) == 3
        slept.clear()
    transport.first = [(429, {"Retry-After": "600"})]  # longer than it waits: the caller's
    with pytest.raises(ApiError) as too_long:
        next(iter(LiveGame(api, created.id, sleep=slept.append)))
    assert too_long.value.status == 429 and too_long.value.retry_after == 600 and not slept


def test_actions_carry_their_own_idempotency_key_and_if_match(app):
    transport = Recorder(app)
    gid, me, other = seats(app, transport)
    live = LiveGame(me, gid)
    live.act(SpeedReadyAction(), expected_version=3)
    with pytest.raises(VersionMoved) as moved:
        LiveGame(other, gid).act(SpeedReadyAction(), expected_version=3)
    assert moved.value.status == 412
    posts = [r for r in transport.sent if r.url.path.endswith("/actions")]
    assert [r.headers["If-Match"] for r in posts] == ['"3"', '"3"']
    keys = [r.headers["Idempotency-Key"] for r in posts]
    assert len(set(keys)) == 2 and all(len(k) == 36 for k in keys)
    assert live.version == 4 and live.state is not None  # the answer's view kept


def test_Q3_a_refused_action_is_a_rule_refused_naming_the_rule(app):
    transport = Recorder(app)
    gid, me, other = seats(app, transport)
    me.act(gid, SpeedReadyAction())
    live = LiveGame(other, gid)
    live.act(SpeedReadyAction())
    view = other.get_game(gid)
    assert isinstance(view, SpeedState)
    hand = set(view.players[1].hand or [])
    outside = next(c for r in "A23456789" for c in (r + "C", r + "D") if c not in hand)
    with pytest.raises(RuleRefused) as refused:
        live.act(SpeedPlayAction(card=outside, to=0))
    assert refused.value.status == 422 and refused.value.rule == "Q-3"
