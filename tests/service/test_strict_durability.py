"""Strict durability without a Redis: what the store sends after a write (``WAITAOF`` or
``WAIT``, on the write's own connection), what it makes of the reply, and what the API
answers for a write its replicas did not confirm (a 503, and a keyed retry answered
only once they hold it). tests/integration/test_durability.py shows the same on real
redis-server processes across a failover; the ``redis+sentinel://`` URL's settings are
here too."""

import fakeredis
import pytest
import redis

from service import config
from service.http.app import create_app
from service.store.redis import RedisStore
from tests.support.api import act, app_settings, bearer, problem_of

# ---------------------------------------------------------------- the wait


class _Script:
    def __init__(self, text):
        self.script, self.sha = text, f"sha-{len(text)}"


class _Pipe:
    def __init__(self, server):
        self.server, self.sent = server, []

    def execute_command(self, *args):
        self.sent.append(args)

    def incr(self, key):
        self.sent.append(("INCR", key))

    def execute(self, raise_on_error=True):
        self.server.pipelines.append(self.sent)
        return [self.server.reply(c) for c in self.sent]


class Waits:
    """A stand-in Redis client: answers ``EVALSHA`` as an append that went in at version
    3, ``WAITAOF``/``WAIT`` as told, and records what it was sent, alone and in
    pipelines (one round trip, one connection)."""

    def __init__(self, *, probe, waited):
        self.probe, self.waited = probe, waited
        self.alone, self.pipelines = [], []

    def register_script(self, text):
        return _Script(text)

    def reply(self, command):
        if command[0] == "EVALSHA":
            return [b"ok", 3]
        if command[0] == "INCR":
            return 1
        return self.waited

    def execute_command(self, *args):
        self.alone.append(args)
        if args[0] == "WAITAOF":
            if isinstance(self.probe, Exception):
                raise self.probe
            return self.probe
        return self.reply(args)

    def pipeline(self, transaction=True):
        assert transaction is False
        return _Pipe(self)


NO_WAITAOF = redis.ResponseError("unknown command 'WAITAOF', with args beginning with: ")
AOF_OFF = redis.ResponseError(
    "WAITAOF cannot be used when numlocal is set but appendonly is disabled."
)


def _store(client, **kw):
    return RedisStore(client, durability="strict", wait_s=0.25, **kw)


@pytest.mark.parametrize("waited, confirmed", [([1, 1], True), ([1, 0], False), ([0, 1], False)])
def test_strict_asks_waitaof_for_the_local_aof_and_a_replica_in_the_appends_round_trip(
    waited, confirmed
):
    """Redis 7.2+ with AOF on: ``WAITAOF 1 1`` right behind the append's script, in one
    pipeline (so on its connection: WAITAOF waits for its own connection's writes); the
    append is confirmed only if both the local AOF and a replica's have it."""
    r = Waits(probe=[1, 0], waited=waited)
    got = _store(r, replicas=1).append("g1", 2, [{"type": "x"}])
    assert (got.version, got.confirmed) == (3, confirmed)
    (sent,) = r.pipelines
    assert sent[0][0] == "EVALSHA" and sent[1] == ("WAITAOF", 1, 1, 250)


@pytest.mark.parametrize("waited, confirmed", [(1, True), (2, True), (0, False)])
def test_strict_asks_wait_where_there_is_no_waitaof(waited, confirmed):
    """Redis < 7.2 (no WAITAOF): ``WAIT 1`` behind the script (the local AOF is then
    ``appendfsync always``'s to keep)."""
    r = Waits(probe=NO_WAITAOF, waited=waited)
    got = _store(r, replicas=1).append("g1", 2, [{"type": "x"}])
    assert got.confirmed is confirmed
    assert r.pipelines[0][1] == ("WAIT", 1, 250)


def test_strict_asks_wait_where_aof_is_off():
    r = Waits(probe=AOF_OFF, waited=1)
    assert _store(r, replicas=1).append("g1", 2, [{"type": "x"}]).confirmed
    assert r.pipelines[0][1] == ("WAIT", 1, 250)


def test_strict_with_no_replicas_and_no_waitaof_sends_the_script_alone():
    r = Waits(probe=NO_WAITAOF, waited=None)
    store = _store(r, replicas=0)
    for _ in range(2):
        assert store.append("g1", 2, [{"type": "x"}]).confirmed
    assert r.pipelines == []
    assert [c[0] for c in r.alone] == ["WAITAOF", "EVALSHA", "EVALSHA"]  # asked once


def test_a_refused_wait_confirms_nothing_and_is_found_out_again():
    """A new primary that runs otherwise (AOF off, an older version) refuses the wait the
    old one took: the append is not confirmed, and the next one asks which wait to send."""
    r = Waits(probe=[1, 0], waited=AOF_OFF)
    store = _store(r, replicas=1)
    assert not store.append("g1", 2, [{"type": "x"}]).confirmed
    r.probe, r.waited = AOF_OFF, 1
    assert store.append("g1", 2, [{"type": "x"}]).confirmed
    assert r.pipelines[1][1] == ("WAIT", 1, 250)


def test_confirm_writes_then_waits_in_one_round_trip():
    """``confirm`` (before an answer made again from a record): a write of its own, then
    the wait, on one connection: WAIT waits for what that connection wrote, and a write
    made now comes after every write already read."""
    r = Waits(probe=NO_WAITAOF, waited=0)
    store = _store(r, replicas=1)
    assert store.confirm() is False
    r.waited = 1
    assert store.confirm() is True
    assert r.pipelines[-1] == [("INCR", "spit:confirms"), ("WAIT", 1, 250)]


def test_default_durability_never_waits():
    r = Waits(probe=[1, 0], waited=0)
    store = RedisStore(r, replicas=1)
    assert store.append("g1", 2, [{"type": "x"}]).confirmed
    assert store.confirm() is True
    assert [c[0] for c in r.alone] == ["EVALSHA"] and r.pipelines == []


# ---------------------------------------------------------------- the answers


@pytest.fixture
def confirmed(monkeypatch):
    """Whether the store's replicas confirm the writes (a switch for the test), on the
    fakeredis app: ``_waited`` runs the script and answers the switch's value."""
    state = {"ok": True}
    monkeypatch.setattr(RedisStore, "_waited", lambda self, *a: (self._script(*a), state["ok"]))
    monkeypatch.setattr(RedisStore, "confirm", lambda self: state["ok"])
    return state


def _games(store) -> int:
    return sum(len(store.lobby(s, None, 100)[0]) for s in ("open", "running", "finished"))


def test_an_unconfirmed_write_is_a_503_and_its_keyed_retry_answers_once_confirmed(confirmed):
    app = create_app(app_settings(durability="strict"), redis_client=fakeredis.FakeRedis())
    client = app.test_client()
    store = app.extensions["spitlog"].store

    confirmed["ok"] = False
    create = {"Idempotency-Key": "create-0123456789abcdef"}
    for _try in range(2):  # made once; the retry finds it, unconfirmed still
        r = client.post("/v1/games", json={"game": "spit"}, headers=create)
        body = problem_of(r, 503)
        assert r.headers["Retry-After"] == "1" and "Idempotency-Key" in body["detail"]
    assert _games(store) == 1
    confirmed["ok"] = True
    r = client.post("/v1/games", json={"game": "spit"}, headers=create)
    assert r.status_code == 201 and r.headers["Idempotent-Replayed"] == "true"
    gid, t0 = r.get_json()["id"], r.get_json()["token"]
    assert _games(store) == 1

    confirmed["ok"] = False
    join = {"Idempotency-Key": "join-0123456789abcdef"}
    problem_of(client.post(f"/v1/games/{gid}/seats", json={}, headers=join), 503)
    problem_of(client.post(f"/v1/games/{gid}/seats", json={}, headers=join), 503)
    confirmed["ok"] = True
    r = client.post(f"/v1/games/{gid}/seats", json={}, headers=join)
    assert r.status_code == 201 and r.headers["Idempotent-Replayed"] == "true"
    t1 = r.get_json()["token"]

    for tok in (t0, t1):
        assert act(client, gid, tok, {"type": "ready"}).status_code == 201
    version = store.version(gid)
    confirmed["ok"] = False
    key = {"Idempotency-Key": "act-0123456789abcdef"}
    tok, move = next(  # a seat with a move (a play, or both seats' spit in a stalemate)
        (tok, a)
        for tok in (t0, t1)
        for a in client.get(f"/v1/games/{gid}", headers=bearer(tok)).get_json()["legal_actions"]
        if a["type"] != "resign"
    )
    for _try in range(2):
        problem_of(act(client, gid, tok, move, **key), 503)
    written = store.version(gid)
    assert written > version  # in the log once, not answered
    confirmed["ok"] = True
    r = act(client, gid, tok, move, **key)
    assert r.status_code == 201 and r.headers["Idempotent-Replayed"] == "true"
    assert r.get_json()["version"] == written == store.version(gid)


# ---------------------------------------------------------------- the settings


def test_a_sentinel_url_names_the_sentinels_the_master_and_the_database():
    found = config.sentinel_url(
        "redis+sentinel://u:p%40ss@10.0.0.1:26380,[::1],s3/main/2?sentinel_password=x"
    )
    assert found.sentinels == (("10.0.0.1", 26380), ("::1", 26379), ("s3", 26379))
    assert (found.service, found.db, found.username, found.password) == ("main", 2, "u", "p@ss")
    assert found.sentinel_password == "x"
    assert config.sentinel_url("redis://h:6379/0") is None


@pytest.mark.parametrize(
    "url, says",
    [
        ("redis+sentinel://h:26379", "names its master"),
        ("redis+sentinel://h:26379/m/zero", "not a number"),
        ("redis+sentinel://h:99999/m", "host[:port]"),
        ("redis+sentinel://h/m?password=x", "unknown parameter"),
    ],
)
def test_a_bad_sentinel_url_is_a_settings_error_naming_the_variable(monkeypatch, url, says):
    monkeypatch.setenv("SPITLOG_REDIS_URL", url)
    with pytest.raises(config.SettingsError, match="SPITLOG_REDIS_URL") as e:
        config.load(warn=None)
    assert says in str(e.value)


def test_strict_waits_for_one_replica_behind_sentinels_and_none_otherwise():
    sentinel = "redis+sentinel://h:26379/m"
    assert config.load(warn=None, redis_url=sentinel).replicas == 1
    assert config.load(warn=None, redis_url="redis://h:6379/0").replicas == 0
    assert config.load(warn=None, redis_url=sentinel, durability_replicas=2).replicas == 2


def test_strict_create_and_join_require_an_idempotency_key_and_take_nothing_without(confirmed):
    """Strict durability: a create or a join without an Idempotency-Key is a 400 naming
    the header, before anything is made (no game, no seat, no count of a rated pair):
    answered 503, it could never give its seat's token. Default durability needs none."""
    strict = create_app(app_settings(durability="strict"), redis_client=fakeredis.FakeRedis())
    client = strict.test_client()
    store = strict.extensions["spitlog"].store
    r = client.post("/v1/games", json={"game": "spit"})
    assert "Idempotency-Key" in problem_of(r, 400)["errors"]
    assert _games(store) == 0
    key = {"Idempotency-Key": "create-0123456789abcdef"}
    gid = client.post("/v1/games", json={"game": "spit"}, headers=key).get_json()["id"]
    r = client.post(f"/v1/games/{gid}/seats", json={})
    assert "Idempotency-Key" in problem_of(r, 400)["errors"]
    assert store.game_record(gid).seats[1].kind is None  # the seat is free still
    default = create_app(app_settings(), redis_client=fakeredis.FakeRedis()).test_client()
    assert default.post("/v1/games", json={"game": "spit"}).status_code == 201
