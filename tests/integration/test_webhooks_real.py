"""Webhooks for real: a real HTTP receiver on loopback that fails its first
deliveries and checks every signature, real RQ workers and the scheduler as subprocesses
on the session's redis-server, the API in process. Deliveries arrive in order, at least
once, retried with backoff; a receiver that hangs blocks neither the game nor a worker
beyond its timeout. What arrives is what openapi.yaml's ``webhooks`` say."""

import http.server
import json
import threading
import time
from pathlib import Path

import jsonschema_rs
import pytest
import redis
import yaml

from service import webhooks
from service.http.app import create_app
from tests.support.api import act, app_settings, bearer, new_game, play_to_the_end
from tests.support.workers_procs import Procs, wait_for_workers
from workers.schedule import Schedule, Scheduler

pytestmark = pytest.mark.redis
ROOT = Path(__file__).resolve().parents[2]

ENV = {"SPITLOG_WEBHOOK_ALLOW_PRIVATE": "1", "SPITLOG_WEBHOOK_TIMEOUT_S": "1",
       "SPITLOG_STALL_S": "1.0", "SPITLOG_SWEEP_S": "0.2", "SPITLOG_TRACE": "1",
       "SPITLOG_WORKER_LOG_LEVEL": "WARNING"}  # fmt: skip


class Receiver:
    """An HTTP server that answers 500 to its first ``fail`` requests (and, with
    ``hang``, sleeps that long before answering the first one), then 200; it keeps every
    request it got and whether its signature checked out under ``secrets[path]``."""

    def __init__(self, fail: int = 0, hang: float = 0.0):
        self.fail, self.hang = fail, hang
        self.got: list[dict] = []
        self.secrets: dict[str, str] = {}
        self.lock = threading.Lock()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with outer.lock:
                    n = len(outer.got)
                    secret = outer.secrets.get(self.path, "")
                    outer.got.append({
                        "at": time.time(), "path": self.path, "body": json.loads(body),
                        "signed": webhooks.verify(secret, self.headers["Spitlog-Signature"],
                                                  body, time.time()),
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                    })  # fmt: skip
                if n == 0 and outer.hang:
                    time.sleep(outer.hang)
                self.send_response(500 if n < outer.fail else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self):
        self.httpd.shutdown()


@pytest.fixture
def run(redis_url, tmp_path):
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    procs = Procs({**ENV, "SPITLOG_REDIS_URL": redis_url}, tmp_path)
    try:
        for name in ("w0", "w1"):
            procs.start(name)
        procs.start("scheduler", "scheduler")
        wait_for_workers(redis_url, 2)
        app = create_app(app_settings(redis_url=redis_url, webhook_allow_private=True),
                         scheduler=Scheduler(Schedule(r)))  # fmt: skip
        yield app.test_client(), procs
    finally:
        procs.stop()


def wait_until(condition, timeout: float, what: str):
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"{what}: not within {timeout} s")
        time.sleep(0.05)


def test_notifications_arrive_in_order_signed_and_retried(run):
    client, _procs = run
    receiver = Receiver(fail=2)
    try:
        made = client.post("/v1/games", json={"game": "spit", "options": {"max_rounds": 1},
                           "webhook": {"url": receiver.url + "/spit"}}).get_json()  # fmt: skip
        receiver.secrets["/spit"] = made["webhook"]["secret"]
        gid, t0 = made["id"], made["token"]
        t1 = client.post(f"/v1/games/{gid}/seats", json={}).get_json()["token"]
        play_to_the_end(client, gid, t0, t1)

        def done():
            return any(g["body"]["type"] == "game.finished" for g in receiver.got)

        wait_until(done, 30, "game.finished delivered")
    finally:
        receiver.close()
    got = receiver.got
    assert all(g["signed"] for g in got)
    ids = [g["body"]["id"] for g in got]
    assert ids[0] == ids[1] == ids[2]  # failed twice, then taken: the same notification
    # backed off 1 s, then 2 s (the lower bounds; the upper ones only say "not stuck")
    assert 0.8 < got[1]["at"] - got[0]["at"] < 30 and 1.6 < got[2]["at"] - got[1]["at"] < 30
    firsts = list(dict.fromkeys(ids))  # each once, in the order of the log
    assert [i.split("_")[-2] for i in firsts] == sorted([i.split("_")[-2] for i in firsts],
                                                        key=int)  # fmt: skip
    kinds = [next(g["body"]["type"] for g in got if g["body"]["id"] == i) for i in firsts]
    assert kinds == ["seat.joined", "game.started", "game.finished"]
    log = client.get(f"/v1/games/{gid}/webhooks", headers=bearer(t0)).get_json()
    assert [x.get("status") for x in log["deliveries"]][:3] == [500, 500, 200]
    assert log["pending"] is False


def test_a_hanging_receiver_blocks_neither_the_game_nor_the_workers(run):
    client, procs = run
    receiver = Receiver(hang=8.0)  # far past SPITLOG_WEBHOOK_TIMEOUT_S (1 s)
    try:
        made = client.post("/v1/games", json={"game": "speed", "opponent": "bot:easy",
                           "webhook": {"url": receiver.url + "/h"}}).get_json()  # fmt: skip
        receiver.secrets["/h"] = made["webhook"]["secret"]
        gid, tok = made["id"], made["token"]
        t = time.monotonic()
        for _ in range(5):  # the game answers while the receiver hangs
            assert client.get(f"/v1/games/{gid}", headers=bearer(tok)).status_code == 200
        assert time.monotonic() - t < 6.0  # not held by the receiver's 8 s
        # the bot keeps playing (a worker is free): it readies up and the game deals
        other, o0, o1 = new_game(client, "speed")
        act(client, other, o0, {"type": "ready"})
        wait_until(lambda: len(receiver.got) >= 2, 30, "the timed-out notification again")
    finally:
        receiver.close()
    first, second = receiver.got[0], receiver.got[1]
    assert first["body"]["id"] == second["body"]["id"]  # timed out: tried again
    # after the 1 s timeout and a 1 s backoff (the upper bound only says "not stuck")
    assert 1.5 < second["at"] - first["at"] < 30
    log = client.get(f"/v1/games/{gid}/webhooks", headers=bearer(tok)).get_json()
    assert "no answer within 1 s" in log["deliveries"][0]["error"]
    del o1, procs


def test_what_a_receiver_gets_is_what_openapi_yaml_says(run):
    """Every notification of a game played to its end with `events: "all"` (each type, every
    event of the log among them), as the receiver got it: its body validates against its
    type's entry of openapi.yaml's `webhooks` (Draft 2020-12, refs resolved in the document,
    formats checked), and so do the headers that entry names."""
    client, _procs = run
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    receiver = Receiver()
    try:
        hook = {"url": receiver.url + "/all", "events": "all"}
        made = client.post("/v1/games", json={"game": "spit", "options": {"max_rounds": 1},
                                              "webhook": hook}).get_json()  # fmt: skip
        receiver.secrets["/all"] = made["webhook"]["secret"]
        gid, t0 = made["id"], made["token"]
        t1 = client.post(f"/v1/games/{gid}/seats", json={}).get_json()["token"]
        play_to_the_end(client, gid, t0, t1)

        def done():
            return sum(g["body"]["type"] == "game.finished" for g in receiver.got) == 1

        wait_until(done, 60, "game.finished delivered")
    finally:
        receiver.close()
    kinds = {g["body"]["type"] for g in receiver.got}
    assert kinds == set(webhooks.KINDS) == set(spec["webhooks"]), kinds
    checks = {}
    for kind, entry in spec["webhooks"].items():
        op = entry["post"]
        body = op["requestBody"]["content"]["application/json"]["schema"]
        headers = {p["name"].lower(): p for p in op["parameters"] if p["in"] == "header"}
        checks[kind] = (
            jsonschema_rs.Draft202012Validator({**body, "components": spec["components"]},
                                               validate_formats=True),
            {name: (p["required"], jsonschema_rs.Draft202012Validator(p["schema"]))
             for name, p in headers.items()},
        )  # fmt: skip
    assert {"spitlog-signature", "spitlog-event-id"} <= set(checks["game.finished"][1])
    for got in receiver.got:
        body_check, header_checks = checks[got["body"]["type"]]
        errors = list(body_check.iter_errors(got["body"]))
        assert not errors, (got["body"], errors[0].message, list(errors[0].instance_path))
        for name, (required, check) in header_checks.items():
            assert name in got["headers"] or not required, (name, got["headers"])
            assert check.is_valid(got["headers"][name]), (name, got["headers"][name])
        assert got["headers"]["spitlog-event-id"] == got["body"]["id"] and got["signed"]
    events = [g["body"]["data"]["type"] for g in receiver.got if g["body"]["type"] == "game.event"]
    assert events[0] == "game_created" and events[-1] == "game_ended", events
