"""Live updates on a real Redis: many waiters on one game share one subscription, an
append wakes every one of them, for long-polls and SSE alike, with what it appended (no
read of the log), and a Pub/Sub connection lost and made again loses nothing."""

import contextlib
import threading
import time

from service.http.app import create_app
from tests.support.api import app_settings, bearer, new_game, stream_ids, streaming, watched


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
        body = c.get(f"/v1/games/{gid}/events?after=3&wait=60").get_json()
        answers.append((time.monotonic() - t, [e["version"] for e in body["events"]]))

    threads = [threading.Thread(target=poll) for _ in range(20)]
    for t in threads:
        t.start()
    hub = app.extensions["spitlog"].hub
    waiting_on(hub, gid, 20)
    assert hub.watching == 1
    client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
    for t in threads:
        t.join(90)
    assert len(answers) == 20
    # woken by the append, not answered at the end of the wait (60 s)
    assert all(events == [4] and took < 30 for took, events in answers), answers


def test_an_sse_stream_gets_each_append_live(redis_url):
    app = create_app(app_settings(redis_url=redis_url, sse_max_s=60))
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
            if got:
                r.close()
                return

    t = threading.Thread(target=listen)
    t.start()
    waiting_on(app.extensions["spitlog"].hub, gid, 1)
    sent = time.monotonic()
    client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
    t.join(60)
    assert [line for _t, line in got] == ["id: 4"]
    assert got[0][0] - sent < 30  # woken by the append, not at the stream's end (60 s)


def test_strict_durability_acts_on_a_redis_without_waitaof(redis_url, caplog):
    """Redis < 7.2 has no WAITAOF: strict mode with no replica to wait for then relies on
    `appendfsync always`, says so once in the log, and acts as usual."""
    app = create_app(app_settings(redis_url=redis_url, durability="strict"))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    for tok in (t0, t1):
        r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
        assert r.status_code == 201
    store = app.extensions["spitlog"].store
    version = tuple(int(x) for x in store.r.info("server")["redis_version"].split(".")[:2])
    assert store._wait == (("WAITAOF", 1, 0) if version >= (7, 2) else ())


def test_the_streams_of_a_game_take_each_append_from_its_message(redis_url):
    """Five streams of one game: each append reaches every one of them, and they take it
    from the message that woke them (the append's own SPUBLISH): none reads the log again
    from Redis, and the game's version is read once, when its subscription began."""
    app = create_app(app_settings(redis_url=redis_url, sse_max_s=60))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    got: list[list[str]] = [[] for _ in range(5)]

    hub = app.extensions["spitlog"].hub
    r = app.extensions["spitlog"].store.r
    r.config_resetstat()
    threads = [threading.Thread(target=stream_ids, args=(app, gid, t1, got[i]),
                                kwargs={"until": "id: 6"}) for i in range(5)]  # fmt: skip
    for t in threads:
        t.start()
    waiting_on(hub, gid, 5)
    while hub._watches[gid].version < 3:  # its subscription confirmed, its version read
        time.sleep(0.005)
    for n, tok in ((1, t0), (3, t1)):  # both ready: the second append deals too
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
        end = time.monotonic() + 30
        while any(len(g) < n for g in got) and time.monotonic() < end:
            time.sleep(0.005)
    for t in threads:
        t.join(30)
    assert got == [["id: 4", "id: 5", "id: 6"]] * 5
    stats = r.info("commandstats")
    assert "cmdstat_xread" not in stats
    # each stream read the log once, at its start (Last-Event-ID 3: nothing yet)
    assert stats["cmdstat_xrange"]["calls"] <= 5
    assert stats["cmdstat_ssubscribe"]["calls"] == 1 and stats["cmdstat_spublish"]["calls"] == 2
    assert stats["cmdstat_xlen"]["calls"] >= 1


def test_a_lost_pubsub_connection_loses_no_append(redis_url):
    """The hub's Pub/Sub connection killed under a waiting stream: what is appended while
    it is away reaches the stream once it is back (the version read after the
    resubscription, the entries from the log)."""
    app = create_app(app_settings(redis_url=redis_url, sse_max_s=6))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    t, got = streaming(app, gid, t1, until="id: 6")
    hub = app.extensions["spitlog"].hub
    watched(hub, gid)
    r = app.extensions["spitlog"].store.r
    for n, tok in ((1, t0), (3, t1)):
        assert r.client_kill_filter(_type="pubsub") >= 1  # the hub's connection, gone
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
        end = time.monotonic() + 5
        while len(got) < n and time.monotonic() < end:
            time.sleep(0.01)
    t.join(5)
    assert got == ["id: 4", "id: 5", "id: 6"]


def test_a_reader_that_died_is_made_anew_and_its_game_still_streams(redis_url, monkeypatch):
    """A link's reader thread ends by an error nothing catches (here: while it connects
    again after its connection was killed): the chores find it dead, make the link anew,
    and the waiting stream gets the next append, instead of waiting out its stream."""
    app = create_app(app_settings(redis_url=redis_url, sse_max_s=8))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    t, got = streaming(app, gid, t1, until="id: 6")
    hub = app.extensions["spitlog"].hub
    watched(hub, gid)
    store = app.extensions["spitlog"].store
    real, calls = store.live_connect, []

    class Escaped(BaseException):
        pass

    def connect_once_fails(*a, **kw):
        calls.append(1)
        if len(calls) == 1:
            raise Escaped("a reader's death")
        return real(*a, **kw)

    monkeypatch.setattr(store, "live_connect", connect_once_fails)
    monkeypatch.setattr(threading, "excepthook", lambda args: None)  # its traceback: expected
    first = hub._links[None]
    assert store.r.client_kill_filter(_type="pubsub") >= 1
    first.thread.join(5)
    assert not first.thread.is_alive() and calls == [1]
    end = time.monotonic() + 5
    while (hub._links.get(None) is first or hub._watches[gid].version < 3 or hub._pending) and (
        time.monotonic() < end
    ):
        time.sleep(0.01)
    time.sleep(0.2)  # its subscription confirmed
    for tok in (t0, t1):  # 4, then 5 and 6: none twice
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
    t.join(5)
    links, chores = list(hub._links.values()), hub._chores_thread
    hub.close()  # and nothing of the hub runs on
    for thread in [link.thread for link in links] + [chores]:
        thread.join(3)
        assert not thread.is_alive(), thread.name
    assert got == ["id: 4", "id: 5", "id: 6"] and len(calls) >= 2


def test_a_watch_nobody_waits_on_leaves_and_the_hub_says_only_what_it_holds(redis_url):
    """The hub's entries: from the message of each append, one after the other; nothing
    for a mark before what it kept, or once its version is past what it holds. A game
    nobody waits on for ``linger_s`` is unsubscribed, and a connection with no game left
    ends, its reader with it."""
    from service.store.live import KEEP, Hub

    app = create_app(app_settings(redis_url=redis_url))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    store = app.extensions["spitlog"].store
    hub = Hub(store, linger_s=0.3, check_s=0.1)
    assert hub.since(gid, 3) is None  # no watch: read the store
    assert hub.wait(gid, 2, 2.0)  # its version is read once subscribed: 3 > 2
    link = hub._links[None]
    assert not hub.wait(gid, 3, 0.05)
    assert hub.since(gid, 3) is None  # it holds no entry yet
    for tok in (t0, t1):
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
    assert hub.wait(gid, 5, 2.0)
    assert [v for v, _e in hub.since(gid, 3)] == [4, 5, 6]
    assert [v for v, _e in hub.since(gid, 5)] == [6]
    assert hub.since(gid, 6) == []
    assert hub.since(gid, 2) is None  # before what it kept: read the store
    channel = store.live_channel(gid)
    assert store.r.execute_command("PUBSUB", "SHARDNUMSUB", channel)[1] == 1
    end = time.monotonic() + 3
    while hub.watching and time.monotonic() < end:
        time.sleep(0.05)
    assert hub.watching == 0
    assert hub._links == {}  # its connection's link ended with its last watch ...
    link.thread.join(3)
    assert not link.thread.is_alive()  # ... and its reader with it
    while store.r.execute_command("PUBSUB", "SHARDNUMSUB", channel)[1] and time.monotonic() < end:
        time.sleep(0.05)
    assert store.r.execute_command("PUBSUB", "SHARDNUMSUB", channel)[1] == 0
    assert KEEP >= 8


def test_a_message_it_cannot_read_leaves_the_hub_as_it_was(redis_url):
    """Something else published on a game's live channel: the hub logs it and goes on
    with the next append, on the same connection."""
    app = create_app(app_settings(redis_url=redis_url))
    client = app.test_client()
    gid, t0, _t1 = new_game(client)
    store = app.extensions["spitlog"].store
    hub = app.extensions["spitlog"].hub
    assert hub.wait(gid, 2, 2.0)  # subscribed, its version read (3)
    conn = hub._links[None].conn
    store.r.execute_command("SPUBLISH", store.live_channel(gid), b"not an append")
    client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
    assert hub.wait(gid, 3, 2.0)
    assert [v for v, _e in hub.since(gid, 3)] == [4]
    assert hub._links[None].conn is conn  # not made anew


def test_a_redis_without_shard_pubsub_streams_by_reading_the_store(tmp_path):
    """A server whose SSUBSCRIBE is refused (Redis < 7.0 has none; here renamed away):
    appends still succeed (their SPUBLISH by pcall), and a stream polls the log."""
    from tests.support.redis_server import start_redis, stop_redis

    proc, port = start_redis(str(tmp_path), "--rename-command", "SSUBSCRIBE", "")
    try:
        app = create_app(app_settings(redis_url=f"redis://127.0.0.1:{port}/0", sse_max_s=4))
        client = app.test_client()
        gid, t0, t1 = new_game(client)
        got: list[str] = []

        t = threading.Thread(target=stream_ids, args=(app, gid, t1, got),
                             kwargs={"until": "id: 4"})  # fmt: skip
        t.start()
        hub = app.extensions["spitlog"].hub
        end = time.monotonic() + 5
        while not hub.polling and time.monotonic() < end:
            time.sleep(0.01)
        assert hub.polling
        r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
        assert r.status_code == 201
        t.join(5)
        assert got == ["id: 4"]
    finally:
        stop_redis(proc)


def test_an_acl_user_without_the_channels_streams_by_reading_the_store(tmp_path, caplog):
    """The service's ACL user may run every command on every key but has no Pub/Sub
    channel (Redis 7's default for a new user): SSUBSCRIBE is refused with NOPERM, the
    appends' SPUBLISH too (by pcall, the append stands). The hub turns to polling and says
    why, once; a stream already waiting reads the log at once, and gets the next append
    in a poll's time, not at the end of its stream."""
    import redis

    from tests.support.redis_server import start_redis, stop_redis

    proc, port = start_redis(str(tmp_path))
    app = None
    try:
        redis.Redis(port=port).execute_command(
            "ACL", "SETUSER", "app", "on", ">pw", "~*", "+@all", "resetchannels"
        )
        url = f"redis://app:pw@127.0.0.1:{port}/0"
        app = create_app(app_settings(redis_url=url, sse_max_s=20, longpoll_max_s=5))
        client = app.test_client()
        gid, t0, t1 = new_game(client)
        t, got = streaming(app, gid, t1, until="id: 4")
        hub = app.extensions["spitlog"].hub
        end = time.monotonic() + 5
        while not hub.polling and time.monotonic() < end:
            time.sleep(0.01)
        assert hub.polling
        began = time.monotonic()
        r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
        assert r.status_code == 201
        t.join(5)
        # in a poll's time (0.25 s), not at the stream's end (20 s)
        assert got == ["id: 4"] and time.monotonic() - began < 15
        said = [m for m in caplog.messages if "poll the store" in m]
        assert len(said) == 1 and "NoPermissionError" in said[0] and "&spit:" in said[0], said
        # a long-poll waits for the log to move (its version read each poll), not a poll
        began = time.monotonic()
        body = client.get(f"/v1/games/{gid}/events?after=4&wait=2", headers=bearer(t1))
        assert body.get_json()["events"] == [] and time.monotonic() - began > 1.8
    finally:
        if app is not None:
            app.extensions["spitlog"].hub.close()
        stop_redis(proc)


def test_a_busy_redis_refusing_a_subscription_is_subscribed_again_not_polled(tmp_path, monkeypatch):
    """A subscription refused for a passing reason (``BUSY``: a script over the busy
    threshold) makes the connection anew and subscribes again once Redis answers; the
    process does not turn to polling, and the wait gets the next append.

    The script runs until the test has seen the hub write the game's ``SSUBSCRIBE`` (a
    command Redis refuses while it is busy) and read a ``BUSY`` refusal after it, and is
    killed then (``SCRIPT KILL``): the refusal is made whatever the machine's pace."""
    import redis

    from service.store import live
    from tests.support.redis_server import start_redis, stop_redis

    proc, port = start_redis(str(tmp_path), "--busy-reply-threshold", "50")
    app = None
    try:
        app = create_app(app_settings(redis_url=f"redis://127.0.0.1:{port}/0", sse_max_s=10))
        client = app.test_client()
        (a, _ta0, ta1), (b, tb0, _tb1) = new_game(client), new_game(client)
        hub = app.extensions["spitlog"].hub
        streaming(app, a, ta1)
        waiting_on(hub, a, 1)  # the link is up
        channel = hub.store.live_channel(b)
        written, refused = [], []  # when b's SSUBSCRIBE was written; when BUSY came back
        send, on_refused = live._send, hub._refused

        def sending(conn, name, channels):
            channels = list(channels)
            send(conn, name, channels)
            if name == "SSUBSCRIBE" and channel in channels:
                written.append(time.monotonic())

        def refusing(link, e):
            if "busy" in str(e).lower():
                refused.append(time.monotonic())
            on_refused(link, e)

        monkeypatch.setattr(live, "_send", sending)
        hub._refused = refusing
        spin = ("local t0 = redis.call('TIME') local s = t0[1] * 1000000 + t0[2] "
                "while true do local t = redis.call('TIME') "
                "if t[1] * 1000000 + t[2] - s > tonumber(ARGV[1]) then break end end "
                "return 1")  # fmt: skip

        def run_script():  # 120 s at the most: killed once the refusal is seen
            with contextlib.suppress(redis.ResponseError):
                redis.Redis(port=port).eval(spin, 0, 120_000_000)

        busy = threading.Thread(target=run_script, daemon=True)
        busy.start()
        probe, end = redis.Redis(port=port), time.monotonic() + 60
        while time.monotonic() < end:  # until the script runs: commands refused with BUSY
            try:
                probe.ping()
            except redis.RedisError as e:
                assert "busy" in str(e).lower(), e
                break
            time.sleep(0.01)
        else:
            raise AssertionError("the script never made Redis busy")
        woke: list[bool] = []
        w = threading.Thread(target=lambda: woke.append(hub.wait(b, 3, 120)), daemon=True)
        w.start()  # its SSUBSCRIBE, refused
        end = time.monotonic() + 60
        while not (written and refused and refused[-1] > written[0]):
            assert time.monotonic() < end, ("no SSUBSCRIBE refused", written, refused)
            time.sleep(0.01)
        probe.script_kill()
        busy.join(60)
        assert not busy.is_alive(), "the script was not killed"
        end = time.monotonic() + 60
        while time.monotonic() < end and (hub._watches[b].version < 3 or hub._pending):
            time.sleep(0.01)
        assert hub._watches[b].version == 3 and not hub.polling
        r = client.post(f"/v1/games/{b}/actions", json={"type": "ready"}, headers=bearer(tb0))
        assert r.status_code == 201
        w.join(120)
        assert woke == [True]
    finally:
        if app is not None:
            app.extensions["spitlog"].hub.close()
        stop_redis(proc)


def test_views_streams_and_reads_of_a_version_share_one_view_per_viewer(redis_url):
    """Twelve streams with views (four per viewer: seat 0, seat 1, a spectator) and reads
    of the same versions: each version's view is rendered once per viewer, however many
    streams wake for it at once."""
    app = create_app(app_settings(redis_url=redis_url, sse_max_s=60))
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    services = app.extensions["spitlog"]
    renders = services.metrics.view_renders
    kinds = {"seat0": t0, "seat1": t1, "spectator": None}
    before = {k: renders.labels(k)._value.get() for k in kinds}
    got = {(k, i): [] for k in kinds for i in range(4)}

    def listen(kind, into):
        token = kinds[kind]
        r = app.test_client().get(
            f"/v1/games/{gid}/events?views=true",
            headers={"Accept": "application/x-ndjson", **(bearer(token) if token else {})},
            buffered=False,
        )  # fmt: skip
        try:
            for chunk in r.response:
                into.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
                if '"type":"view","version":4' in "".join(into):
                    return
        finally:
            r.close()

    threads = [threading.Thread(target=listen, args=(k, into), daemon=True)
               for (k, _i), into in got.items()]  # fmt: skip
    for t in threads:
        t.start()
    waiting_on(services.hub, gid, len(threads), timeout=30)
    client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
    for t in threads:
        t.join(60)
    assert all('"type":"view","version":4' in "".join(into) for into in got.values())
    for token in kinds.values():
        for _ in range(3):
            r = client.get(f"/v1/games/{gid}", headers=bearer(token) if token else {})
            assert r.get_json()["version"] == 4
    # version 3 (each stream's first view) and version 4: once each, per viewer
    assert {k: renders.labels(k)._value.get() - before[k] for k in kinds} == {
        "seat0": 2, "seat1": 2, "spectator": 2}  # fmt: skip

    def lines(into):  # keep-alives (empty lines) left out: when they come is the clock's
        return [ln for ln in "".join(into).split("\n") if ln]

    views = {k: lines(got[(k, 0)]) for k in kinds}
    assert len({tuple(v) for v in views.values()}) == 3  # each viewer its own view
    assert all(lines(got[(k, i)]) == views[k] for k in kinds for i in range(4))
