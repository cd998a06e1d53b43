"""Signed webhooks: which targets are refused, the signature, and delivery in
order with retries, on fakeredis with a sender that records (the real receiver, workers
and scheduler: tests/integration/test_webhooks_real.py)."""

import json
from pathlib import Path

import fakeredis
import jsonschema_rs
import pytest
import yaml

import domain
from service import webhooks
from service.deliveries import Deliverer
from service.http import schemas
from service.http.app import create_app
from tests.support.api import act, app_settings, bearer, new_game, play_to_the_end, problem_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def r():
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


class Recorder:
    """A target: answers ``statuses`` in turn (then 200), keeps what it got."""

    def __init__(self, *statuses):
        self.statuses = list(statuses)
        self.got: list[tuple[dict, dict]] = []

    def lookup(self, host, port):
        return [host]  # (every target here is an address)

    def post(self, url, host, addresses, body, headers, timeout_s):
        self.got.append((json.loads(body), headers, body))
        if self.statuses:
            status = self.statuses.pop(0)
            if isinstance(status, Exception):
                raise status
            return status
        return 200


class Clock:
    def __init__(self, t=1_000_000.0):
        self.t = t

    def __call__(self):
        return self.t


def setup(r, allow_private=True, **settings):
    app = create_app(app_settings(webhook_allow_private=allow_private, **settings),
                     redis_client=r)  # fmt: skip
    return app, app.test_client(), app.extensions["spitlog"]


def deliverer(svc, sender, clock=None, **kw):
    return Deliverer(svc.reading, svc.store, sender, allow_private=True,
                              clock=clock or Clock(), **kw)  # fmt: skip


# ---------------------------------------------------------------- targets


@pytest.mark.parametrize("url, why", [
    ("http://hooks.example.com/x", "https"),
    ("https://127.0.0.1/x", "private or reserved"),
    ("https://localhost:8443/x", "private or reserved"),
    ("https://10.1.2.3/x", "private or reserved"),
    ("https://169.254.169.254/latest/meta-data", "private or reserved"),
    ("https://[::1]/x", "private or reserved"),
    ("https://user:pw@example.com/x", "credentials"),
    ("https://no-such-host.invalid/x", "does not resolve"),
    ("https://example.com/" + "x" * 2100, "2048"),
    ("ftp://example.com/x", "https"),
])  # fmt: skip
def test_a_refused_target_is_a_400_naming_the_field(r, url, why):
    _app, client, _games = setup(r, allow_private=False)
    resp = client.post("/v1/games", json={"game": "spit", "webhook": {"url": url}})
    body = problem_of(resp, 400)
    assert list(body["errors"]) == ["webhook.url"] and why in body["errors"]["webhook.url"][0]
    assert r.keys("spit:{g:*") == []  # nothing made


def test_a_webhook_is_answered_with_its_secret_once(r):
    _app, client, _games = setup(r)
    made = client.post("/v1/games", json={"game": "spit", "webhook": {
        "url": "http://127.0.0.1:9/hook", "events": "all"}})  # fmt: skip
    hook = made.get_json()["webhook"]
    assert hook["url"] == "http://127.0.0.1:9/hook" and hook["events"] == "all"
    assert hook["secret"].startswith("whsec_") and len(hook["secret"]) > 40
    gid = made.get_json()["id"]
    view = client.get(f"/v1/games/{gid}", headers=bearer(made.get_json()["token"]))
    assert hook["secret"] not in view.get_data(as_text=True)
    plain = client.post("/v1/games", json={"game": "spit"}).get_json()
    assert "webhook" not in plain


def test_the_signature_is_stripes_scheme():
    body = b'{"id":"evt_1"}'
    header = webhooks.sign("whsec_k", 1_700_000_000, body)
    t, v1 = header.split(",")
    import hashlib
    import hmac

    expected = hmac.new(b"whsec_k", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert t == "t=1700000000" and v1 == f"v1={expected}"
    assert webhooks.verify("whsec_k", header, body, now=1_700_000_100)
    assert not webhooks.verify("whsec_k", header, body + b" ", now=1_700_000_100)
    assert not webhooks.verify("whsec_other", header, body, now=1_700_000_100)
    assert not webhooks.verify("whsec_k", header, body, now=1_700_000_400)  # too old
    assert not webhooks.verify("whsec_k", "garbage", body, now=1_700_000_000)


# ---------------------------------------------------------------- delivery


def test_lifecycle_notifications_go_in_order_signed_each_once(r):
    _app, client, svc = setup(r)
    body = {"game": "spit", "options": {"max_rounds": 1},
            "webhook": {"url": "http://127.0.0.1:9/h"}}  # fmt: skip
    made = client.post("/v1/games", json=body).get_json()
    gid, t0, secret = made["id"], made["token"], made["webhook"]["secret"]
    t1 = client.post(f"/v1/games/{gid}/seats", json={}).get_json()["token"]
    play_to_the_end(client, gid, t0, t1)
    target = Recorder()
    d = deliverer(svc, target)
    assert d.step(gid) == ("done", None)
    kinds = [b["type"] for b, _h, _raw in target.got]
    assert kinds == ["seat.joined", "game.started", "game.finished"]
    for body, headers, raw in target.got:
        assert webhooks.verify(secret, headers["Spitlog-Signature"], raw, now=d.clock())
        assert headers["Spitlog-Event-Id"] == body["id"] and body["game_id"] == gid
    finished = target.got[-1][0]
    view = client.get(f"/v1/games/{gid}").get_json()
    assert finished["data"] == {"status": view["status"], "winner": view["winner"],
                                "result": view["result"]}  # fmt: skip
    assert d.step(gid) == ("done", None) and len(target.got) == 3  # nothing twice
    log = client.get(f"/v1/games/{gid}/webhooks", headers=bearer(t0)).get_json()
    assert [x["type"] for x in log["deliveries"]] == kinds and log["pending"] is False
    assert all(x["status"] == 200 for x in log["deliveries"])
    problem_of(client.get(f"/v1/games/{gid}/webhooks", headers=bearer(t1)), 403)
    problem_of(client.get(f"/v1/games/{gid}/webhooks"), 401)


def test_a_failing_target_is_retried_with_backoff_and_holds_the_later_ones(r):
    _app, client, svc = setup(r)
    made = client.post("/v1/games", json={"game": "spit", "webhook": {
        "url": "http://127.0.0.1:9/h"}}).get_json()  # fmt: skip
    gid, t0 = made["id"], made["token"]
    t1 = client.post(f"/v1/games/{gid}/seats", json={}).get_json()["token"]
    act(client, gid, t0, {"type": "resign"})  # joined, started, finished: three to go
    clock = Clock()
    target = Recorder(500, OSError("connection refused"), 503)
    d = deliverer(svc, target, clock)
    outcome, again = d.step(gid)
    assert outcome == "retry" and again == clock.t + 1  # 1 s, then 2, then 4
    assert [b["type"] for b, _h, _r in target.got] == ["seat.joined"]  # the others wait
    assert d.step(gid) == ("retry", clock.t + 1) and len(target.got) == 1  # not before its time
    clock.t += 1
    assert d.step(gid) == ("retry", clock.t + 2)
    clock.t += 2
    assert d.step(gid) == ("retry", clock.t + 4)
    clock.t += 4
    assert d.step(gid) == ("done", None)
    ids = [b["id"] for b, _h, _r in target.got]
    assert ids[:4] == [ids[0]] * 4  # the same notification, the same id, four tries
    assert [b["type"] for b, _h, _r in target.got[3:]] == ["seat.joined", "game.started",
                                                          "game.finished"]  # fmt: skip
    assert target.got[0][2] == target.got[3][2]  # the same bytes at every try
    log = client.get(f"/v1/games/{gid}/webhooks", headers=bearer(t0)).get_json()["deliveries"]
    assert [x.get("status") for x in log[:4]] == [500, None, 503, 200]
    assert "connection refused" in log[1]["error"]
    del t1


def test_a_notification_failing_past_the_retry_window_is_given_up(r):
    _app, client, svc = setup(r)
    made = client.post("/v1/games", json={"game": "spit", "webhook": {
        "url": "http://127.0.0.1:9/h"}}).get_json()  # fmt: skip
    gid = made["id"]
    client.post(f"/v1/games/{gid}/seats", json={})
    clock = Clock()
    target = Recorder(*[500] * 50)
    d = deliverer(svc, target, clock, retry_s=10)
    for _ in range(50):
        outcome, again = d.step(gid)
        if outcome == "done":
            break
        clock.t = again
    log = client.get(f"/v1/games/{gid}/webhooks", headers=bearer(made["token"])).get_json()
    given_up = [x for x in log["deliveries"] if x.get("outcome") == "given up"]
    assert given_up and given_up[0]["id"].endswith("_0")
    assert target.got[-1][0]["type"] == "game.started"  # the next one went on


def test_every_event_mode_shows_what_a_spectator_sees(r):
    _app, client, svc = setup(r)
    made = client.post("/v1/games", json={"game": "spit", "webhook": {
        "url": "http://127.0.0.1:9/h", "events": "all"}}).get_json()  # fmt: skip
    gid, t0 = made["id"], made["token"]
    t1 = client.post(f"/v1/games/{gid}/seats", json={}).get_json()["token"]
    for tok in (t0, t1):
        act(client, gid, tok, {"type": "ready"})
    target = Recorder()
    deliverer(svc, target).step(gid)
    events = [b["data"] for b, _h, _r in target.got if b["type"] == "game.event"]
    spectator = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    assert events == spectator  # redacted as the public log is, while the game runs
    dealt = next(e for e in events if e["type"] == "spit_dealt")
    full = domain.event_to_dict(
        domain.event_from_dict({k: v for k, v in app_log(svc, gid)[dealt["version"] - 1].items()})
    )
    assert dealt != {"version": dealt["version"], **full}  # the deal's cards were hidden


def app_log(svc, gid):
    return [d for _v, d in svc.reading.entries(svc.reading.load(gid))]


def test_the_deployment_target_gets_every_game(r):
    _app, client, svc = setup(r, webhook_url="http://127.0.0.1:9/all",
                                webhook_secret="whsec_deploy")  # fmt: skip
    gid, _t0, _t1 = new_game(client)
    target = Recorder()
    deployment = webhooks.Target("d", "http://127.0.0.1:9/all", "whsec_deploy", False)
    deliverer(svc, target, deployment=deployment).step(gid)
    assert [b["type"] for b, _h, _r in target.got] == ["seat.joined", "game.started"]
    assert webhooks.verify("whsec_deploy", target.got[0][1]["Spitlog-Signature"],
                           target.got[0][2], now=Clock()())  # fmt: skip


def test_the_retention_waits_for_undelivered_notifications(r, tmp_path):
    from service.archive.directory import DirectoryArchive
    from service.archiving import Archiver
    from tests.support.keys import keys_naming

    _app, client, svc = setup(r)
    made = client.post("/v1/games", json={"game": "spit", "webhook": {
        "url": "http://127.0.0.1:9/h"}}).get_json()  # fmt: skip
    gid = made["id"]
    client.post(f"/v1/games/{gid}/seats", json={})
    act(client, gid, made["token"], {"type": "resign"})
    clock = Clock()
    d = deliverer(svc, Recorder(500), clock)
    d.step(gid)  # the first notification failed: all three wait
    archiver = Archiver(svc.store, DirectoryArchive(tmp_path), 0, clock=clock, hold=d.pending)
    assert archiver.step(gid)[0] == "archived"
    assert archiver.step(gid) == ("held", clock.t + Archiver.HOLD_S)
    clock.t += 5
    assert d.step(gid) == ("done", None)
    assert archiver.step(gid)[0] == "deleted" and keys_naming(r, gid) == []


# ---------------------------------------------------------------- review findings


def _resigned(client, events="lifecycle"):
    made = client.post("/v1/games", json={"game": "spit", "webhook": {
        "url": "http://127.0.0.1:9/h", "events": events}}).get_json()  # fmt: skip
    gid = made["id"]
    t1 = client.post(f"/v1/games/{gid}/seats", json={}).get_json()["token"]
    for tok in (made["token"], t1):
        act(client, gid, tok, {"type": "ready"})
    act(client, gid, made["token"], {"type": "resign"})
    return gid, made["token"]


def test_two_delivery_jobs_of_one_game_never_run_at_once(r):
    import threading

    _app, client, svc = setup(r)
    gid, _t0 = _resigned(client, "all")
    inside, go = threading.Event(), threading.Event()

    class Slow(Recorder):
        def post(self, *args):
            if not inside.is_set():
                inside.set()
                go.wait(5)
            return super().post(*args)

    target = Slow()
    first = threading.Thread(target=lambda: deliverer(svc, target).step(gid))
    first.start()
    inside.wait(5)
    assert deliverer(svc, target).step(gid)[0] == "busy"  # the other job holds the game
    go.set()
    first.join(5)
    ids = [b["id"] for b, _h, _r in target.got]
    assert len(ids) == len(set(ids))  # nothing twice
    assert svc.store.hooks(gid, "g").version > svc.reading.load(gid).version  # all delivered


def test_a_try_is_counted_before_it_is_made(r):
    """A job killed during a try (a receiver that hangs past RQ's job timeout) has still
    counted it: the next job waits its backoff, and gives up in time."""
    _app, client, svc = setup(r)
    gid, _t0 = _resigned(client)
    clock = Clock()

    class Killed(Recorder):
        def post(self, *args):
            super().post(*args)
            raise KeyboardInterrupt  # what RQ's timeout does to a job: not an OSError

    with pytest.raises(KeyboardInterrupt):
        deliverer(svc, Killed(), clock).step(gid)
    cursor = svc.store.hooks(gid, "g")
    assert cursor.tries == 1 and cursor.next_at > clock.t
    assert deliverer(svc, Recorder(), clock).step(gid)[0] == "retry"  # not before its time
    svc.store.unlock(gid, "hooks", "")  # (the killed job's lock: it expires)


def test_any_error_of_a_target_is_a_failed_try(r):
    _app, client, svc = setup(r)
    gid, t0 = _resigned(client)
    target = Recorder(UnicodeEncodeError("latin-1", "é", 0, 1, "Host header"))
    assert deliverer(svc, target).step(gid)[0] == "retry"
    log = client.get(f"/v1/games/{gid}/webhooks", headers=bearer(t0)).get_json()
    assert "UnicodeEncodeError" in log["deliveries"][0]["error"]


def test_a_dead_target_is_given_up_once_not_for_every_notification(r):
    _app, client, svc = setup(r)
    gid, _t0 = _resigned(client, "all")
    clock = Clock()
    target = Recorder(*[503] * 10_000)
    d = deliverer(svc, target, clock, retry_s=60)
    for _ in range(500):
        outcome, again = d.step(gid)
        if outcome == "done":
            break
        clock.t = max(again, clock.t + 0.001)
    notes = len({b["id"] for b, _h, _r in target.got})
    assert outcome == "done" and notes > 10
    # a minute of backoff for the first (1+2+4+...: 7 tries), then one try each
    assert len(target.got) <= 7 + notes and clock.t - 1_000_000 < 120


def test_a_delivery_job_after_the_retention_sends_nothing_again(r, tmp_path):
    from service.archive.directory import DirectoryArchive
    from service.archiving import Archiver
    from tests.support.keys import keys_naming

    app = create_app(app_settings(webhook_allow_private=True), redis_client=r,
                     archive=DirectoryArchive(tmp_path))  # fmt: skip
    client, svc = app.test_client(), app.extensions["spitlog"]
    gid, _t0 = _resigned(client)
    target = Recorder()
    deliverer(svc, target).step(gid)
    sent = len(target.got)
    for _ in range(2):
        Archiver(svc.store, DirectoryArchive(tmp_path), 0).step(gid)
    assert keys_naming(r, gid) == []
    assert deliverer(svc, target).step(gid) == ("done", None)
    assert len(target.got) == sent and keys_naming(r, gid) == []


@pytest.mark.parametrize("address", ["64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "::7f00:1",
                                     "2002:a00:1::1", "::ffff:10.0.0.1"])  # fmt: skip
def test_ipv6_addresses_that_carry_a_private_ipv4_one_are_refused(address):
    with pytest.raises(webhooks.WebhookRefused, match="private or reserved"):
        webhooks.resolve("https://hooks.example.com/x", False, lambda host, port: [address])


def test_a_host_is_used_in_its_ascii_form():
    seen = []
    host, port, addresses = webhooks.resolve(
        "https://bücher.example/x", False, lambda host, port: seen.append(host) or ["93.184.215.14"]
    )
    assert host == seen[0] == "xn--bcher-kva.example" and addresses == ["93.184.215.14"]


def test_openapi_yaml_types_every_notification_an_aborted_game_sends(r):
    """openapi.yaml's `webhooks` has an entry per notification type, and the notifications
    of a game aborted before it began (E-5: `game.finished` with no winner) validate against
    them, body and headers (a played game's, through a real receiver:
    tests/integration/test_webhooks_real.py)."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert set(spec["webhooks"]) == set(webhooks.KINDS) == set(schemas.NOTIFICATIONS)
    _app, client, games = setup(r)
    made = client.post("/v1/games", json={"game": "speed", "webhook": {
        "url": "http://127.0.0.1:9/h", "events": "all"}}).get_json()  # fmt: skip
    act(client, made["id"], made["token"], {"type": "resign"})
    target = Recorder()
    deliverer(games, target).step(made["id"])
    assert [b["type"] for b, _h, _raw in target.got][-1] == "game.finished"
    assert target.got[-1][0]["data"] == {"status": "aborted", "winner": None, "result": "E-5"}
    for body, headers, _raw in target.got:
        op = spec["webhooks"][body["type"]]["post"]
        schema = op["requestBody"]["content"]["application/json"]["schema"]
        jsonschema_rs.validate({**schema, "components": spec["components"]}, body)
        for p in op["parameters"]:
            jsonschema_rs.validate(p["schema"], headers[p["name"]])
