"""Contracts with the frameworks where spitlog overrides what they do (issue 13).

``workers.worker.BotWorker`` overrides three methods of RQ's ``Worker`` (pyproject.toml
pins RQ below the next minor version): each test here fails when RQ changes what the
override relies on, so that a new RQ is taken only once they pass on it.
``service.http.app._NoSessions`` implements Flask's documented ``SessionInterface``
(tests/service/test_pipeline.py checks it).
"""

import inspect

import fakeredis
import pytest
from rq import Queue, SimpleWorker, Worker
from rq.serializers import JSONSerializer

from workers.worker import HEARTBEAT_EVERY_S, BotWorker


def _params(f) -> list[str]:
    return list(inspect.signature(f).parameters)


@pytest.mark.parametrize("method, params", [
    ("heartbeat", ["self", "timeout", "pipeline"]),
    ("set_state", ["self", "state", "pipeline"]),
    ("_set_ip_address", ["self", "connection"]),
])  # fmt: skip
def test_the_overridden_methods_of_rq_keep_their_signatures(method, params):
    assert _params(getattr(Worker, method)) == params
    assert _params(getattr(BotWorker, method)) == params
    assert getattr(BotWorker, method) is not getattr(SimpleWorker, method)


def noop() -> str:
    return "done"


def test_rq_still_calls_them_as_the_overrides_expect(monkeypatch):
    """A burst of jobs on fakeredis: RQ sets the worker's state and beats its heart through
    the overridden methods, and the overrides send each at most as often as they say."""
    conn = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    q = Queue("contract", connection=conn, serializer=JSONSerializer)
    for _ in range(5):
        q.enqueue("tests.service.test_contracts.noop")
    calls = {"heartbeat": [], "set_state": [], "ip": 0}
    base = next(c for c in BotWorker.__mro__[1:] if "heartbeat" in vars(c))  # RQ's own
    real_beat, real_state = base.heartbeat, base.set_state

    def beat(self, timeout=None, pipeline=None):
        calls["heartbeat"].append((timeout, pipeline is not None))
        return real_beat(self, timeout, pipeline)

    def state(self, st, pipeline=None):
        calls["set_state"].append(st)
        return real_state(self, st, pipeline)

    def ip(self, connection):
        calls["ip"] += 1
        self.ip_address = "x"

    asked = []  # every heartbeat RQ asks of the worker, before the override filters them
    override = BotWorker.heartbeat

    def spy(self, timeout=None, pipeline=None):
        asked.append((timeout, pipeline is not None))
        return override(self, timeout, pipeline)

    monkeypatch.setattr(BotWorker, "heartbeat", spy)
    monkeypatch.setattr(base, "heartbeat", beat)
    monkeypatch.setattr(base, "set_state", state)
    monkeypatch.setattr(base, "_set_ip_address", ip)
    w = BotWorker([q], connection=conn, serializer=JSONSerializer)
    w.work(burst=True, with_scheduler=False)
    assert q.count == 0 and calls["ip"] == 1
    assert calls["set_state"], "RQ no longer sets the state through set_state"
    # the override forwards a state only when it changes
    assert all(a != b for a, b in zip(calls["set_state"], calls["set_state"][1:], strict=False))
    # five jobs well within HEARTBEAT_EVERY_S: at most one plain beat gets through to RQ
    assert HEARTBEAT_EVERY_S >= 1.0
    assert len([c for c in asked if c == (None, False)]) >= 5, asked  # RQ beats every job
    assert len([c for c in calls["heartbeat"] if c == (None, False)]) <= 1
