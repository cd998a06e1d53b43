"""Contracts with the frameworks where spitlog overrides what they do, or relies on what
they do.

``workers.worker.BotWorker`` overrides three methods of RQ's ``Worker`` (pyproject.toml
pins RQ below the next minor version): each test here fails when RQ changes what the
override relies on, so that a new RQ is taken only once they pass on it.
``service.http.app._NoSessions`` implements Flask's documented ``SessionInterface``
(tests/service/test_pipeline.py checks it). ``service.store.connect.Connection``
overrides redis-py's ``Connection.can_read`` (pyproject.toml pins redis-py below its
next major version): the tests at the end fail when redis-py stops asking it at
checkout, or when the override's answer differs from redis-py's own.
``service.telemetry`` checks the OTLP exporter's headers variable with patterns of its
own (no private name of the SDK imported): the tests at the very end fail when the
exporter starts dropping what the check takes, or taking what it refuses.
"""

import inspect
import socket
import time

import fakeredis
import pytest
import redis
from hypothesis import given, settings
from hypothesis import strategies as st
from rq import Queue, SimpleWorker, Worker
from rq.serializers import JSONSerializer

from service.store.connect import Connection
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


# ---------------------------------------------------------------- redis-py


@pytest.mark.redis
@pytest.mark.parametrize("pool_class", [redis.ConnectionPool, redis.BlockingConnectionPool])
def test_redis_py_asks_can_read_of_every_connection_it_hands_out(redis_url, pool_class):
    """The override is consulted: a pool's checkout asks ``can_read()`` (no timeout)."""
    asked = []

    class Counting(Connection):
        def can_read(self, timeout: float = 0) -> bool:
            asked.append(timeout)
            return super().can_read(timeout)

    pool = pool_class.from_url(redis_url, connection_class=Counting)
    r = redis.Redis(connection_pool=pool)
    for _ in range(3):
        assert r.ping()
    assert asked == [0, 0, 0]
    pool.disconnect()


@pytest.mark.redis
def test_the_connections_can_read_answers_as_redis_pys_own(redis_url):
    """Idle: False; a reply waiting on the socket: True; the server gone: redis-py's own
    verdict (the error it raises, or True) for both."""
    ours, theirs = (redis.Redis.from_url(redis_url, connection_class=c).connection_pool
                    .get_connection() for c in (Connection, redis.Connection))  # fmt: skip
    for conn in (ours, theirs):
        assert conn.can_read() is False
        conn.send_command("PING")
        deadline = time.monotonic() + 5
        while not redis.Connection.can_read(conn) and time.monotonic() < deadline:
            time.sleep(0.001)
    assert Connection.can_read(ours) is True and redis.Connection.can_read(theirs) is True
    assert ours.read_response() == theirs.read_response() == b"PONG"
    assert ours.can_read() is False
    admin = redis.Redis.from_url(redis_url)
    verdicts = []
    for conn in (ours, theirs):
        conn.send_command("CLIENT", "ID")
        admin.client_kill_filter(_id=conn.read_response())
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                got = conn.can_read()
            except redis.ConnectionError:
                got = "ConnectionError"
            if got is not False:
                break
            time.sleep(0.001)
        verdicts.append(got)
    assert verdicts[0] == verdicts[1] != False  # noqa: E712 - False is the wrong answer


@pytest.mark.redis
def test_a_reply_already_in_the_parser_reads_as_pending_for_both(redis_url):
    """Two replies arrive at once; one is read: the other waits in hiredis's buffer, not
    on the socket, and both connections say there is something to read."""
    conns = [redis.Redis.from_url(redis_url, connection_class=c).connection_pool
             .get_connection() for c in (Connection, redis.Connection)]  # fmt: skip
    for conn in conns:
        conn.send_packed_command(conn.pack_commands([("PING",), ("ECHO", "stale")]))
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # both replies on the socket, then both read
            time.sleep(0.01)
            if conn._sock.recv(64, socket.MSG_PEEK).endswith(b"stale\r\n"):
                break
        assert conn.read_response() == b"PONG"
    assert [c.can_read() for c in conns] == [True, True]
    assert [c.read_response() for c in conns] == [b"stale", b"stale"]


# What the OTLP exporter drops: ``service.telemetry`` refuses at start the headers
# variable's entries that the exporter would drop with a warning (its own patterns, so
# that no private name of the SDK is imported). Header-like strings over the characters
# that matter (separators, quotes, spaces, tabs, escapes, non-ASCII).
HEADER_CHARS = 'aZ9-_.~!%=,; \t"\\/:()@é\x7f'
HEADER_CASES = [
    "api-key=abc%20def, x-team=games,", "a=b", "a = b ", "a=b c", "a=", "=b", "a", "a b=c",
    'a="b"', "a=b;c", "a=b\\c", "a=é", "a=b,,c=d", "  ", "\t", ",", "a=b, ", "a:b=c",
    "a=b=c", "a=\x7f",
]  # fmt: skip


def _exporter_drops(value: str) -> bool:
    """Whether the OTLP exporter, built with ``value`` as its headers variable, warns
    that it drops an entry (its public constructor, reading the variable as it does)."""
    import logging
    import os

    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    said: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = said.append
    root = logging.getLogger("opentelemetry")
    root.addHandler(handler)
    old = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_HEADERS")
    os.environ["OTEL_EXPORTER_OTLP_TRACES_HEADERS"] = value
    try:
        OTLPSpanExporter().shutdown()
    finally:
        root.removeHandler(handler)
        if old is None:
            del os.environ["OTEL_EXPORTER_OTLP_TRACES_HEADERS"]
        else:
            os.environ["OTEL_EXPORTER_OTLP_TRACES_HEADERS"] = old
    return any("Header" in r.getMessage() for r in said)


def _we_refuse(value: str) -> bool:
    import os

    from service import telemetry
    from service.config import SettingsError

    os.environ["OTEL_EXPORTER_OTLP_TRACES_HEADERS"] = value
    try:
        telemetry._pairs("OTEL_EXPORTER_OTLP_TRACES_HEADERS", headers=True)
    except SettingsError:
        return True
    finally:
        del os.environ["OTEL_EXPORTER_OTLP_TRACES_HEADERS"]
    return False


@pytest.mark.parametrize("value", HEADER_CASES)
def test_the_otlp_headers_check_refuses_what_the_exporter_drops(value):
    assert _we_refuse(value) == _exporter_drops(value), value


_PART = st.text(alphabet=HEADER_CHARS, max_size=5)
HEADER_VALUES = st.one_of(
    st.text(alphabet=HEADER_CHARS, max_size=12),  # anything
    st.lists(st.tuples(_PART, _PART), min_size=1, max_size=3).map(  # key=value, ...
        lambda pairs: ",".join(f"{k}={v}" for k, v in pairs)
    ),
)


@settings(derandomize=True, max_examples=400, deadline=None)
@given(HEADER_VALUES)
def test_the_otlp_headers_check_agrees_with_the_exporter_on_any_value(value):
    assert _we_refuse(value) == _exporter_drops(value), value
