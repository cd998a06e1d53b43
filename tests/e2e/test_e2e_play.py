"""A whole game over HTTP against `spitlog serve` (gunicorn + gevent on a real Redis),
watched live over SSE by a spectator; and `spitlog dev` answering on its own."""

import json
import random
import signal
import threading

import requests

from tests.support.processes import free_port, start, stop, wait_ready


def auth(token):
    return {"Authorization": f"Bearer {token}"}


END_EVENTS = ("game_ended", "game_aborted")


def watch(base, gid, out, streams, done):
    """A spectator's SSE stream, read until the game's end: the server closes a stream
    after ``SPITLOG_SSE_MAX_S`` (tests/e2e/conftest.py), and the spectator reconnects
    with the ``Last-Event-ID`` it has, as ``EventSource`` does, until its last event
    ends the game (or the server answers 204: the game is over and it has every event).
    ``streams`` counts the streams it opened; ``done`` set: the test is over (it failed),
    and the watcher stops at its next stream instead of reading what later tests do."""
    last = None
    while not (out and out[-1]["type"] in END_EVENTS) and not done.is_set():
        headers = {"Accept": "text/event-stream"}
        if last is not None:
            headers["Last-Event-ID"] = last
        with requests.get(f"{base}/v1/games/{gid}/events", stream=True, timeout=60,
                          headers=headers) as r:  # fmt: skip
            streams.append(r.status_code)
            if r.status_code == 204 or done.is_set():
                return
            assert r.status_code == 200, r.text
            for line in r.iter_lines(decode_unicode=True):
                if line and line.startswith("id: "):
                    last = line[4:]
                elif line and line.startswith("data: "):
                    out.append(json.loads(line[6:]))


def test_a_whole_game_over_http_with_a_live_spectator(served_with_metrics):
    base, metrics_url = served_with_metrics
    s0, s1 = requests.Session(), requests.Session()
    r = s0.post(f"{base}/v1/games", json={"game": "spit", "options": {"max_rounds": 3}})
    assert r.status_code == 201
    gid, t0 = r.json()["id"], r.json()["token"]
    r = s1.post(f"{base}/v1/games/{gid}/seats", json={"client_seed": "e2e"})
    assert r.status_code == 201
    t1 = r.json()["token"]
    seen: list = []
    streams: list = []
    done = threading.Event()
    watcher = threading.Thread(target=watch, args=(base, gid, seen, streams, done), daemon=True)
    watcher.start()
    try:
        play_and_check(base, metrics_url, gid, (s0, s1), (t0, t1), watcher, seen, streams)
    finally:
        done.set()


def play_and_check(base, metrics_url, gid, sessions, tokens, watcher, seen, streams):

    rng = random.Random(7)
    view = None
    for step in range(5000):
        seat = step % 2
        view = sessions[seat].get(f"{base}/v1/games/{gid}", headers=auth(tokens[seat])).json()
        if view["status"] != "running":
            break
        acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
        if acts:
            r = sessions[seat].post(f"{base}/v1/games/{gid}/actions", json=rng.choice(acts),
                                    headers=auth(tokens[seat]))  # fmt: skip
            assert r.status_code in (201, 422), r.text
    assert view["status"] == "finished", view
    watcher.join(120)
    assert not watcher.is_alive(), f"the stream did not end with the game ({streams})"
    assert [e["version"] for e in seen] == list(range(1, view["version"] + 1))
    assert seen[-1]["type"] == "game_ended"

    audit = requests.get(f"{base}/v1/games/{gid}/audit").json()
    assert audit["verified"] and len(audit["deals"]) == view["round"] >= 1  # a deal a round
    assert [e["version"] for e in audit["events"]] == [e["version"] for e in seen]
    # once over, everything is public, and the past states show every card
    full = requests.get(f"{base}/v1/games/{gid}/states/3").json()
    assert isinstance(full["players"][0]["spit_cards"], list)
    lobby = requests.get(f"{base}/v1/games?status=finished").json()
    assert gid in [g["id"] for g in lobby["games"]]
    metrics = requests.get(metrics_url).text
    assert "spitlog_http_requests_total" in metrics


def test_spitlog_dev_serves_on_its_embedded_redis():
    port = free_port()
    proc = start(["dev", "--bind", f"127.0.0.1:{port}"], {"SPITLOG_REDIS_URL": ""})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc)
        r = requests.post(f"{base}/v1/games", json={"game": "speed"})
        assert r.status_code == 201
        assert requests.get(f"{base}/docs").status_code == 200
    finally:
        output = stop(proc, signal.SIGINT)
    assert proc.returncode == 0, output
    assert f"API on {base}" in output and "embedded" in output
