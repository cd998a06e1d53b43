"""Live updates on a real Redis: many waiters on one game share one watcher, and an
append wakes every one of them, for long-polls and SSE alike."""

import threading
import time

from service.http.app import create_app
from tests.support.api import app_settings, bearer, new_game


def waiting_on(hub, gid: str, n: int, timeout: float = 5) -> None:
    """Until ``n`` streams wait on the hub for ``gid``."""
    end = time.monotonic() + timeout
    while (w := hub._watches.get(gid)) is None or w.waiters < n:
        assert time.monotonic() < end, "the streams did not get to wait"
        time.sleep(0.005)


def test_one_append_wakes_every_long_poll_of_the_game(redis_url):
    app = create_app(app_settings(redis_url=redis_url, longpoll_max_s=5))
    client = app.test_client()
    gid, t0, _t1 = new_game(client)
    answers = []

    def poll():
        c = app.test_client()
        t = time.monotonic()
        body = c.get(f"/v1/games/{gid}/events?after=3&wait=5").get_json()
        answers.append((time.monotonic() - t, [e["version"] for e in body["events"]]))

    threads = [threading.Thread(target=poll) for _ in range(20)]
    for t in threads:
        t.start()
    hub = app.extensions["spitlog"].hub
    waiting_on(hub, gid, 20)
    assert hub.watching == 1
    client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
    for t in threads:
        t.join(10)
    assert len(answers) == 20
    assert all(events == [4] and took < 3 for took, events in answers), answers


def test_an_sse_stream_gets_each_append_live(redis_url):
    app = create_app(app_settings(redis_url=redis_url, sse_max_s=1.5))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    got = []

    def listen():
        r = app.test_client().get(
            f"/v1/games/{gid}/events", headers={**bearer(t1), "Accept": "text/event-stream",
                                                "Last-Event-ID": "3"},
            buffered=False,
        )  # fmt: skip
        for chunk in r.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            got.extend((time.monotonic(), line) for line in text.splitlines()
                       if line.startswith("id: "))  # fmt: skip

    t = threading.Thread(target=listen)
    t.start()
    waiting_on(app.extensions["spitlog"].hub, gid, 1)
    sent = time.monotonic()
    client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
    t.join(5)
    assert [line for _t, line in got] == ["id: 4"]
    assert got[0][0] - sent < 0.5


def test_strict_durability_acts_on_a_redis_without_waitaof(redis_url, caplog):
    """Redis < 7.2 has no WAITAOF: strict mode then relies on `appendfsync always`, says
    so once in the log, and acts as usual."""
    app = create_app(app_settings(redis_url=redis_url, durability="strict"))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    for tok in (t0, t1):
        r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
        assert r.status_code == 201
    store = app.extensions["spitlog"].store
    version = tuple(int(x) for x in store.r.info("server")["redis_version"].split(".")[:2])
    assert store._waitaof is (version >= (7, 2))


def test_the_streams_of_a_game_take_each_append_from_its_watcher(redis_url):
    """Five streams of one game: each append reaches every one of them, and they take it
    from the watcher that woke them (its ``XREAD``), none reads it again from Redis."""
    app = create_app(app_settings(redis_url=redis_url, sse_max_s=1.5))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    got: list[list[str]] = [[] for _ in range(5)]

    def listen(i):
        r = app.test_client().get(
            f"/v1/games/{gid}/events", headers={**bearer(t1), "Accept": "text/event-stream",
                                                "Last-Event-ID": "3"},
            buffered=False,
        )  # fmt: skip
        for chunk in r.response:
            text = chunk.decode() if isinstance(chunk, bytes) else chunk
            got[i].extend(line for line in text.splitlines() if line.startswith("id: "))

    threads = [threading.Thread(target=listen, args=(i,)) for i in range(5)]
    for t in threads:
        t.start()
    hub = app.extensions["spitlog"].hub
    waiting_on(hub, gid, 5)
    r = app.extensions["spitlog"].store.r
    r.config_resetstat()
    for n, tok in ((1, t0), (3, t1)):  # both ready: the second append deals too
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
        end = time.monotonic() + 3
        while any(len(g) < n for g in got) and time.monotonic() < end:
            time.sleep(0.005)
    for t in threads:
        t.join(5)
    assert got == [["id: 4", "id: 5", "id: 6"]] * 5
    stats = r.info("commandstats")
    assert "cmdstat_xrange" not in stats and stats["cmdstat_xread"]["calls"] <= 4


def test_the_hub_tells_only_what_its_watcher_holds_from_end_to_end():
    from service.store.live import KEEP, Hub

    class Store:
        def __init__(self):
            self.replies = [[(v, {"type": "x"}) for v in range(4, 8)], [(8, {"type": "x"})]]

        def wait_after(self, game_id, after, timeout_s):
            time.sleep(0.01)
            return self.replies.pop(0) if self.replies else []

    hub = Hub(Store(), block_s=0.01, linger_s=0.5)
    assert hub.since("g", 3) is None  # no watcher: read the store
    assert hub.wait("g", 3, 1.0)
    deadline = time.monotonic() + 2
    while hub._watches["g"].version < 8 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert [v for v, _e in hub.since("g", 3)] == [4, 5, 6, 7, 8]
    assert [v for v, _e in hub.since("g", 6)] == [7, 8]
    assert hub.since("g", 8) == []
    assert hub.since("g", 2) is None  # before what it kept: read the store
    assert KEEP >= 8
