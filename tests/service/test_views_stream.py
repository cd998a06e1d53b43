"""The events stream with the viewer's views in it (``?views=true``), as SSE and NDJSON:
the current view first, then each batch of events and the view it leads to, resumable by
``Last-Event-ID`` or ``after``; the stream without ``views`` unchanged; the views the
process's ``ViewCache`` made once per game, version and viewer."""

import json
import threading
import time

import orjson
import pytest

from domain import State
from service.cache import Game
from service.http.app import create_app
from service.http.views import ViewCache
from service.records import GameRecord, Rematch
from tests.support.api import act, app_settings, bearer, new_game, problem_of

SSE = {"Accept": "text/event-stream"}
NDJSON = {"Accept": "application/x-ndjson"}


def sse_messages(text: str) -> list[dict]:
    """Each SSE message of ``text`` as {field: value}; comments and retry hints left out."""
    out = []
    for block in text.split("\n\n"):
        fields = dict(ln.split(": ", 1) for ln in block.splitlines()
                      if ln and not ln.startswith(":") and ": " in ln)  # fmt: skip
        if "data" in fields:
            out.append(fields)
    return out


def sse_kinds(text: str) -> list[tuple]:
    """(kind, id or None, version in data) of each message."""
    out = []
    for m in sse_messages(text):
        data = json.loads(m["data"])
        out.append((m.get("event", "event"), m.get("id"), data["version"]))
    return out


def ndjson_lines(text: str) -> list[dict]:
    return [json.loads(ln) for ln in text.split("\n") if ln]


def read_until(app, path: str, headers: dict, done, into: list) -> None:
    """Read the stream at ``path`` chunk by chunk into ``into`` until ``done(text)``."""
    r = app.test_client().get(path, headers=headers, buffered=False)
    try:
        for chunk in r.response:
            into.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
            if done("".join(into)):
                return
    finally:
        r.close()


def started(got: list, timeout: float = 30.0) -> None:
    """Until the stream read into ``got`` sent its first view: it then reads the log."""
    end = time.monotonic() + timeout
    while "view" not in "".join(got):
        assert time.monotonic() < end, "the stream sent no first view"
        time.sleep(0.005)


def view_of(client, gid: str, token: str | None) -> dict:
    return client.get(f"/v1/games/{gid}", headers=bearer(token) if token else {}).get_json()


def test_the_stream_without_views_is_the_log_as_sse_byte_for_byte(client):
    gid, t0, t1 = new_game(client)
    act(client, gid, t0, {"type": "ready"})
    page = client.get(f"/v1/games/{gid}/events", headers=bearer(t1)).get_json()["events"]
    r = client.get(f"/v1/games/{gid}/events", headers={**SSE, **bearer(t1)})
    body = r.get_data().replace(b": keep-alive\n\n", b"")
    expected = b"retry: 2000\n\n" + b"".join(
        b"id: %d\ndata: %s\n\n" % (e["version"], orjson.dumps(e)) for e in page
    )
    assert body == expected
    assert r.headers["Content-Type"] == "text/event-stream; charset=utf-8"


@pytest.mark.parametrize("token_of", [0, 1, None])
def test_a_views_stream_starts_with_the_viewers_view_of_now(client, token_of):
    gid, t0, t1 = new_game(client)
    token = {0: t0, 1: t1, None: None}[token_of]
    auth = bearer(token) if token else {}
    text = client.get(f"/v1/games/{gid}/events?views=true", headers={**SSE, **auth}).get_data(
        as_text=True
    )
    (first,) = sse_messages(text)  # no past event: a stream of views starts at now
    assert first["event"] == "view" and first["id"] == "3"
    data = json.loads(first["data"])
    assert data == {"version": 3, "state": view_of(client, gid, token)}
    assert data["state"]["you"] == token_of


@pytest.fixture
def live(redis_client):
    """An app whose streams last (a test reads them until what it waits for came)."""
    return create_app(app_settings(sse_max_s=60), redis_client=redis_client)


def test_a_views_stream_sends_each_event_then_the_view_it_leads_to(live):
    app, client = live, live.test_client()
    gid, t0, t1 = new_game(client)
    got: list = []
    reader = threading.Thread(target=read_until, args=(
        app, f"/v1/games/{gid}/events?views=true", {**SSE, **bearer(t1)},
        lambda text: '"version":4,"state"' in text, got))  # fmt: skip
    reader.start()
    started(got)
    act(client, gid, t0, {"type": "ready"})
    reader.join(60)
    text = "".join(got)
    assert sse_kinds(text) == [("view", "3", 3), ("event", "4", 4), ("view", "4", 4)]
    last = json.loads(sse_messages(text)[-1]["data"])
    assert last["state"] == view_of(client, gid, t1) and last["state"]["players"][0]["ready"]


def test_a_views_stream_resumes_from_last_event_id_or_after_with_nothing_lost(client):
    gid, t0, t1 = new_game(client)
    act(client, gid, t0, {"type": "ready"})
    act(client, gid, t1, {"type": "ready"})
    for how in ({"Last-Event-ID": "3"}, {}):
        q = "" if how else "&after=3"
        text = client.get(f"/v1/games/{gid}/events?views=true{q}",
                          headers={**SSE, **bearer(t1), **how}).get_data(as_text=True)  # fmt: skip
        kinds = sse_kinds(text)
        # the view of now first, without an id (events before it are still to come), then
        # the events it had not seen, and no second view of the same version
        assert kinds[0] == ("view", None, kinds[-1][2])
        assert [k for k in kinds[1:]] == [("event", str(v), v) for v in range(4, kinds[0][2] + 1)]


def test_an_ndjson_stream_is_a_json_object_a_line(app, client, live):
    gid, t0, t1 = new_game(client)
    act(client, gid, t0, {"type": "ready"})
    page = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    r = client.get(f"/v1/games/{gid}/events?after=0", headers=NDJSON)
    assert r.status_code == 200 and r.mimetype == "application/x-ndjson"
    lines = ndjson_lines(r.get_data(as_text=True))
    assert lines == [{"type": "event", "version": e["version"], "event": e} for e in page]
    assert "\n\n" in r.get_data(as_text=True)  # an empty line keeps it alive (0.1 s here)
    r = client.get(f"/v1/games/{gid}/events?views=1&after=3", headers={**NDJSON, **bearer(t1)})
    lines = ndjson_lines(r.get_data(as_text=True))
    assert [(x["type"], x["version"]) for x in lines] == [("view", 4), ("event", 4)]
    assert lines[0]["state"] == view_of(client, gid, t1)
    assert lines[1]["event"] == page[-1]
    # live: after a batch, its view
    got: list = []
    reader = threading.Thread(target=read_until, args=(
        live, f"/v1/games/{gid}/events?views=true", {**NDJSON, **bearer(t0)},
        lambda text: text.count('"type":"view"') >= 2, got))  # fmt: skip
    reader.start()
    started(got)
    act(client, gid, t1, {"type": "ready"})  # both ready: a deal follows in the same batch
    reader.join(60)
    lines = ndjson_lines("".join(got))
    now = view_of(client, gid, t0)
    assert [(x["type"], x["version"]) for x in lines] == [
        ("view", 4), *[("event", v) for v in range(5, now["version"] + 1)],
        ("view", now["version"])]  # fmt: skip
    assert lines[-1]["state"] == now


def test_a_views_stream_ends_with_the_game_and_its_final_view_then_204(client):
    gid, t0, t1 = new_game(client)
    act(client, gid, t0, {"type": "resign"})
    text = client.get(f"/v1/games/{gid}/events?views=true&after=3",
                      headers={**SSE, **bearer(t1)}).get_data(as_text=True)  # fmt: skip
    kinds = sse_kinds(text)
    assert kinds == [("view", None, 5), ("event", "4", 4), ("event", "5", 5)]
    assert json.loads(sse_messages(text)[0]["data"])["state"]["status"] == "finished"
    r = client.get(f"/v1/games/{gid}/events?views=true",
                   headers={**SSE, **bearer(t1), "Last-Event-ID": "5"})  # fmt: skip
    assert r.status_code == 204
    # a stream of views opened after the end: the final view, and the stream ends
    text = client.get(f"/v1/games/{gid}/events?views=true", headers=SSE).get_data(as_text=True)
    assert sse_kinds(text) == [("view", "5", 5)]


def test_a_stream_that_sees_the_end_live_sends_the_final_view(live):
    app, client = live, live.test_client()
    gid, t0, t1 = new_game(client)
    got: list = []
    reader = threading.Thread(target=read_until, args=(
        app, f"/v1/games/{gid}/events?views=true", {**NDJSON, **bearer(t1)},
        lambda text: False, got))  # fmt: skip  # to its end: the game's
    reader.start()
    started(got)
    act(client, gid, t0, {"type": "resign"})
    reader.join(60)
    assert not reader.is_alive()
    lines = ndjson_lines("".join(got))
    assert [(x["type"], x["version"]) for x in lines] == [
        ("view", 3), ("event", 4), ("event", 5), ("view", 5)]  # fmt: skip
    assert lines[-1]["state"] == view_of(client, gid, t1)


def test_views_is_a_boolean_or_a_400_naming_it(client):
    gid, _t0, _t1 = new_game(client)
    r = client.get(f"/v1/games/{gid}/events?views=maybe", headers=SSE)
    assert "views" in problem_of(r, 400)["errors"]


def test_views_of_one_version_are_rendered_once_per_viewer_and_shared_with_reads(redis_client):
    app = create_app(app_settings(), redis_client=redis_client)
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    renders = app.extensions["spitlog"].metrics.view_renders

    def count(viewer):
        return renders.labels(viewer)._value.get()

    before = {v: count(v) for v in ("seat0", "seat1", "spectator")}
    for _ in range(3):
        for token in (t0, t1, None):
            auth = bearer(token) if token else {}
            client.get(f"/v1/games/{gid}/events?views=true", headers={**SSE, **auth})
            client.get(f"/v1/games/{gid}/events?views=true", headers={**NDJSON, **auth})
            view_of(client, gid, token)
    assert {v: count(v) - before[v] for v in before} == {"seat0": 1, "seat1": 1, "spectator": 1}


# ---------------------------------------------------------------- the cache


class FakeReading:
    def __init__(self):
        self.made = []

    def view(self, game, seat):
        self.made.append((game.id, game.version, seat))
        return {"seat": seat, "asked": game.record.rematch.asked_ms, "version": game.version}


ASKED = GameRecord("spit", rematch=Rematch((1, None)))


def at(version: int, record=None, gid="g_1") -> Game:
    return Game(gid, State(version=version), record or GameRecord("spit"))


def test_the_view_cache_makes_a_view_once_per_version_record_and_seat():
    views, games = ViewCache(), FakeReading()
    first = views.json(games, at(3), 0)
    assert views.json(games, at(3), 0) is first  # another read of the version
    assert views.peek("g_1", 3, 0) is first and views.peek("g_1", 3, 1) is None
    views.json(games, at(3), 1)
    views.json(games, at(3), None)
    assert views.json(games, at(3, ASKED), 0) != first  # the record moved (after the end)
    views.json(games, at(4, ASKED), 0)  # a new version
    assert views.peek("g_1", 3, 0) is None  # a game keeps its latest version only
    views.json(games, at(3, ASKED), 1)  # an older version: made, not kept
    assert views.peek("g_1", 4, 0) is not None and views.peek("g_1", 3, 1) is None
    assert games.made == [("g_1", 3, 0), ("g_1", 3, 1), ("g_1", 3, None), ("g_1", 3, 0),
                          ("g_1", 4, 0), ("g_1", 3, 1)]  # fmt: skip


def test_the_view_cache_holds_at_most_its_size_of_games_least_recent_out():
    views, games = ViewCache(size=2), FakeReading()
    for gid in ("g_1", "g_2"):
        views.json(games, at(1, gid=gid), 0)
    views.json(games, at(1, gid="g_1"), 0)  # g_1 used again: g_2 is the least recent
    views.json(games, at(1, gid="g_3"), 0)
    assert views.peek("g_2", 1, 0) is None
    assert views.peek("g_1", 1, 0) is not None and views.peek("g_3", 1, 0) is not None


@pytest.mark.parametrize("views", [False, True])
def test_a_stream_opened_on_a_waiting_game_names_the_player_who_takes_the_seat(live, views):
    """The ``seat_taken`` a stream sends names the seat's player as the log read after it
    does (the stream was opened before the record knew them), and a views stream's view
    after it shows them."""
    app, client = live, live.test_client()
    gid, t0, _t1 = new_game(client, join=False)
    got: list = []
    path = f"/v1/games/{gid}/events?after=0" + ("&views=true" if views else "")
    reader = threading.Thread(target=read_until, args=(
        app, path, {**NDJSON, **bearer(t0)},
        lambda text: '"seat_taken"' in text and (not views or text.count('"view"') >= 2),
        got))  # fmt: skip
    reader.start()
    end = time.monotonic() + 30
    while '"game_created"' not in "".join(got):  # the stream is open, the seat not taken
        assert time.monotonic() < end, "the stream sent nothing"
        time.sleep(0.005)
    r = client.post(f"/v1/games/{gid}/seats", json={"kind": "bot", "name": "Robo 9000"})
    assert r.status_code == 201, r.get_json()
    reader.join(60)
    lines = ndjson_lines("".join(got))
    taken = [x["event"] for x in lines if x["type"] == "event"
             and x["event"]["type"] == "seat_taken"]  # fmt: skip
    logged = [e for e in client.get(f"/v1/games/{gid}/events", headers=bearer(t0)).get_json()[
        "events"] if e["type"] == "seat_taken"]  # fmt: skip
    assert taken == logged and taken[0]["name"] == "Robo 9000"
    if views:
        view = [x for x in lines if x["type"] == "view"][-1]["state"]
        assert view["players"][1]["name"] == "Robo 9000"
