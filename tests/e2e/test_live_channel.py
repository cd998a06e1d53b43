"""The seat channel (``GET /v1/games/{id}/live``) on the real process tree: `spitlog serve`
(gunicorn, gevent workers) on the session's real redis-server, over real WebSockets.

Seats play whole games on their channels alone (no read of the game: each decides on the
view it is pushed), every viewer gets every event once, in order; an ``act`` answers as
``POST /actions`` does (the same problem, rule ID, 412, idempotency shared with it); a
resume by ``?after`` loses and repeats nothing; a ticket is single use, expires, and is
kept by its hash alone. `spitlog dev` (werkzeug's threaded server) serves the channel
too."""

import pytest
import redis
import requests

from tests.support.live import Viewer, open_channel, play_over_channels, ticket, until
from tests.support.processes import free_port, start, stop, wait_ready


def _game(base: str, **options) -> tuple[str, str, str]:
    g = requests.post(f"{base}/v1/games", json={"game": "spit", "options": options}).json()
    t1 = requests.post(f"{base}/v1/games/{g['id']}/seats", json={}).json()["token"]
    return g["id"], g["token"], t1


def _post(base, gid, token, body, **headers):
    return requests.post(f"{base}/v1/games/{gid}/actions", json=body,
                         headers={"Authorization": f"Bearer {token}", **headers})  # fmt: skip


def _without_request_id(problem: dict) -> dict:
    return {k: v for k, v in problem.items() if k != "request_id"}


def test_seats_play_a_whole_game_on_their_channels_and_every_viewer_gets_each_event_once(
    served,
):
    gid, t0, t1 = _game(served, max_rounds=2)
    seats = [Viewer(served, gid, t0, resume=True), Viewer(served, gid, t1, resume=True)]
    spectator = Viewer(served, gid, resume=True)
    assert [s.wait(lambda v: v.view is not None) for s in (*seats, spectator)] == [True] * 3
    first = seats[0].messages[0]
    assert first["op"] == "hello" and first["seat"] == 0 and seats[1].messages[0]["seat"] == 1
    assert spectator.messages[0]["seat"] is None
    start_version = first["version"]

    acked = play_over_channels(seats, seed=7)

    final = requests.get(f"{served}/v1/games/{gid}").json()
    assert final["status"] in ("finished", "aborted") and acked > 10
    for viewer in (*seats, spectator):
        assert viewer.closed() == 1000, (viewer.code, viewer.reason)
        assert viewer.versions() == list(range(start_version + 1, final["version"] + 1))
        assert viewer.view["status"] == final["status"]
        assert viewer.version == final["version"]


def test_an_act_answers_as_post_actions_does(served):
    """The same refusals (rule IDs, 412, 401 for a spectator) and one idempotency: a key
    used on the channel answers the same over POST, appending nothing more."""
    gid, t0, t1 = _game(served)
    seat = Viewer(served, gid, t0)
    watcher = Viewer(served, gid)
    assert seat.wait(lambda v: v.view is not None)
    version = seat.version

    refusals = [
        {"type": "slap", "pile": 0}, {"type": "spit"}, {"type": "turn_up", "stockpile": 4},
        {"type": "play", "from": 0, "to": 1}, {"type": "nonsense"}, ["not", "an", "object"],
    ]  # fmt: skip
    compared = 0
    for n, body in enumerate(refusals):
        r = _post(served, gid, t0, body)
        if r.status_code == 201:
            continue
        seat.send({"op": "act", "id": f"r{n}", "action": body})
        reply = seat.reply(f"r{n}")
        assert reply["op"] == "problem" and reply["status"] == r.status_code
        assert _without_request_id(reply["problem"]) == _without_request_id(r.json())
        compared += 1
    assert compared >= 3
    assert any("rule" in m["problem"] for m in seat.messages if m["op"] == "problem")

    version = requests.get(f"{served}/v1/games/{gid}").json()["version"]
    seat.send({"op": "act", "id": "old", "action": {"type": "ready"},
               "expected_version": version - 1})  # fmt: skip
    stale = seat.reply("old")
    assert stale["status"] == 412 and stale["problem"]["version"] == version

    watcher.send({"op": "act", "id": "w", "action": {"type": "ready"}})
    assert watcher.reply("w")["status"] == _post(served, gid, "", {"type": "ready"}).status_code

    seat.send({"op": "act", "id": "k1", "action": {"type": "ready"}, "idempotency_key": "key-1"})
    first = seat.reply("k1")
    assert first["op"] == "result" and first["status"] == 201 and "replayed" not in first
    seat.send({"op": "act", "id": "k2", "action": {"type": "ready"}, "idempotency_key": "key-1"})
    again = seat.reply("k2")
    assert again["replayed"] is True and again["body"] == first["body"]
    over_http = _post(served, gid, t0, {"type": "ready"}, **{"Idempotency-Key": "key-1"})
    assert over_http.headers.get("Idempotent-Replayed") == "true"
    assert over_http.json() == first["body"]
    assert requests.get(f"{served}/v1/games/{gid}").json()["version"] == first["body"]["version"]

    seat.send({"op": "ping", "id": "p"})
    assert seat.reply("p") == {"op": "pong", "id": "p"}
    seat.send({"op": "dance", "id": "d"})
    assert seat.reply("d")["problem"]["errors"] == {"op": ['one of "act", "ping"']}
    seat.ws.send("not json")
    assert seat.wait(lambda v: any(m.get("id") is None and m["op"] == "problem"
                                   for m in v.messages))  # fmt: skip
    seat.close()
    watcher.close()


def test_a_resume_after_a_version_loses_and_repeats_nothing(served):
    gid, t0, t1 = _game(served)
    for token in (t0, t1):
        assert _post(served, gid, token, {"type": "ready"}).status_code == 201
    now = requests.get(f"{served}/v1/games/{gid}").json()["version"]
    for after in (0, 2, now):
        v = Viewer(served, gid, after=after)
        assert v.wait(lambda v, after=after: v.version == now and len(v.versions()) == now - after)
        hello = v.messages[0]
        assert hello["op"] == "hello" and hello["version"] == now
        assert v.versions() == list(range(after + 1, now + 1))
        v.close()


def test_a_ticket_is_single_use_expires_and_is_kept_by_its_hash_alone(served, redis_url):
    gid, t0, _t1 = _game(served)
    r = redis.Redis.from_url(redis_url)
    given = ticket(served, gid, t0)
    key = next(k for k in r.scan_iter(f"spit:{{g:{gid}}}:ticket:*"))
    assert given["ticket"].encode() not in key and r.get(key) != t0.encode()
    assert 0 < r.pttl(key) <= 30_000
    assert given["protocols"] == ["spitlog.v1", "spitlog.ticket." + given["ticket"]]

    with open_channel(served, gid, protocols=given["protocols"]) as ws:
        assert ws.subprotocol == "spitlog.v1"
        assert '"seat":0' in ws.recv(timeout=30)
    with open_channel(served, gid, protocols=given["protocols"]) as ws:  # used
        assert _close_code(ws) == 1008 and "ticket" in ws.protocol.close_rcvd.reason
    with open_channel(served, gid, protocols=["spitlog.v1", "spitlog.ticket.made-up"]) as ws:
        assert _close_code(ws) == 1008
    expiring = ticket(served, gid, t0)
    for k in r.scan_iter(f"spit:{{g:{gid}}}:ticket:*"):
        r.pexpire(k, 1)
    assert until(lambda: not list(r.scan_iter(f"spit:{{g:{gid}}}:ticket:*")))
    with open_channel(served, gid, protocols=expiring["protocols"]) as ws:
        assert _close_code(ws) == 1008
    no_token = requests.post(f"{served}/v1/games/{gid}/tickets")
    assert no_token.status_code == 401
    assert no_token.headers["Content-Type"] == "application/problem+json"


def _close_code(ws) -> int:
    from websockets.exceptions import ConnectionClosed

    try:
        while True:
            ws.recv(timeout=30)
    except ConnectionClosed:
        pass
    return ws.protocol.close_rcvd.code if ws.protocol.close_rcvd is not None else 1006


def test_spitlog_dev_serves_the_channel(redis_url):
    """werkzeug's threaded server (``spitlog dev``) hands its socket over too."""
    port = free_port()
    proc = start(["dev"], {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}"})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc)
        gid, t0, t1 = _game(base)
        seat = Viewer(base, gid, t0)
        watcher = Viewer(base, gid)
        assert seat.wait(lambda v: v.view is not None) and watcher.wait(
            lambda v: v.view is not None
        )
        seat.send({"op": "act", "id": "a", "action": {"type": "ready"}})
        assert seat.reply("a")["status"] == 201
        assert watcher.wait(lambda v: v.messages and v.versions() == [v.messages[0]["version"] + 1])
        seat.close()
        watcher.close()
        assert seat.code is not None and watcher.code is not None
    except RuntimeError:
        pytest.fail(stop(proc))
    finally:
        stop(proc)
