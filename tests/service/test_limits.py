"""Limits (OWASP API4): rate limits per token and per address (429 with
Retry-After), the caps on open streams per token and per address, the body size limit
(413), the game's gate and the page caps. The limits run on the Redis the app is given
(fakeredis here), on a clock the tests move, which fakeredis keeps too (``clock``: a
bucket's key expires by it, not by the time a test takes); TEST_SETTINGS turns them off
for every other test."""

import io
import random
import secrets
import threading
import types
from collections import Counter

import fakeredis._socket._base as fakeredis_commands
import pytest

from service import config
from service.errors import Busy, RateLimited
from service.http.app import create_app
from service.limits import GameGate
from tests.support.api import app_settings, bearer, new_game, pick, scrape

PROBLEM = "application/problem+json"
LIMIT_KEYS = ("rate_actions", "rate_actions_burst", "rate_requests", "rate_requests_burst",
              "rate_games", "rate_games_burst", "rate_seat", "rate_seat_burst",
              "rate_seat_reserve", "rate_auth_failures", "rate_auth_failures_burst",
              "streams_per_client", "streams_per_address", "trusted_proxies")  # fmt: skip
ILLEGAL = {"type": "slap", "pile": 0}  # well formed, refused by the rules (no slap now): 422


class Clock:
    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


CLOCK = Clock()


@pytest.fixture(autouse=True)
def clock(monkeypatch) -> Clock:
    """The test's clock, which fakeredis reads too (the time it stamps on each command,
    by which keys expire): a key set to expire when its bucket is full again lives as
    long on the clock the limits read, however long the machine takes between two
    requests."""
    CLOCK.t = 1_000_000.0
    monkeypatch.setattr(fakeredis_commands, "time", types.SimpleNamespace(time=CLOCK))
    return CLOCK


def limited_app(redis_client, **limits):
    """An app with the limits given (the others off) on the clock the test moves."""
    app = create_app(app_settings(**limits), redis_client=redis_client)
    app.extensions["spitlog"].limits.clock = CLOCK
    return app, CLOCK


def at(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def act(client, gid, token, body=ILLEGAL, **kw):
    return client.post(f"/v1/games/{gid}/actions", json=body, headers=bearer(token), **kw)


def version(redis_client, gid) -> int:
    return redis_client.xlen(f"spit:{{g:{gid}}}:log")


def assert_429(r) -> dict:
    assert r.status_code == 429, r.get_data(as_text=True)
    assert r.mimetype == PROBLEM
    body = r.get_json()
    assert body["type"].endswith("#problem-rate-limited") and body["status"] == 429
    assert int(r.headers["Retry-After"]) >= 1
    return body


# ---------------------------------------------------------------- rates


def test_a_burst_of_actions_from_one_token_gets_429_and_other_tokens_do_not(redis_client):
    app, clock = limited_app(redis_client, rate_actions=1, rate_actions_burst=3)
    client = app.test_client()
    gid, tok0, tok1 = new_game(client)
    other, tok2, _ = new_game(client)
    v = version(redis_client, gid)
    for _ in range(3):  # the burst
        assert act(client, gid, tok0).status_code == 422
    r = act(client, gid, tok0, {"type": "resign"})  # would change the game: refused first
    assert_429(r)
    assert r.headers["Retry-After"] == "1"  # one action a second
    assert version(redis_client, gid) == v  # a refused request did nothing
    # the other seat, another game's token and the limited token's reads go on
    assert act(client, gid, tok1).status_code == 422
    assert act(client, other, tok2).status_code == 422
    assert client.get(f"/v1/games/{gid}", headers=bearer(tok0)).status_code == 200
    # refusals do not use up the bucket: after Retry-After the token gets in
    for _ in range(5):
        assert_429(act(client, gid, tok0))
    clock.t += 1.0
    assert act(client, gid, tok0).status_code == 422
    assert_429(act(client, gid, tok0))


def test_a_burst_of_requests_from_one_address_gets_429_and_other_addresses_do_not(redis_client):
    app, clock = limited_app(redis_client, rate_requests=2, rate_requests_burst=5)
    client = app.test_client()
    for _ in range(5):
        assert client.get("/v1/games", **at("10.0.0.1")).status_code == 200
    assert_429(client.get("/v1/games", **at("10.0.0.1")))
    assert_429(client.post("/v1/games", json={"game": "spit"}, **at("10.0.0.1")))
    assert_429(client.get("/v1/nothing-here", **at("10.0.0.1")))
    assert client.get("/v1/games", **at("10.0.0.2")).status_code == 200
    for probe in ("/healthz", "/readyz"):  # never limited
        assert client.get(probe, **at("10.0.0.1")).status_code == 200
    assert 'spitlog_limited_total{limit="requests"} 3.0' in scrape(client, **at("10.0.0.1")).text
    clock.t += 0.5  # two a second: one more after half a second
    assert client.get("/v1/games", **at("10.0.0.1")).status_code == 200
    assert_429(client.get("/v1/games", **at("10.0.0.1")))


def test_game_creation_has_its_own_bucket_per_address(redis_client):
    app, clock = limited_app(redis_client, rate_games=0.5, rate_games_burst=2,
                             rate_requests=100, rate_requests_burst=100)  # fmt: skip
    client = app.test_client()
    lobby = redis_client.zcard
    created = [client.post("/v1/games", json={"game": "spit"}, **at("10.0.0.3")) for _ in range(2)]
    assert [r.status_code for r in created] == [201, 201]
    games = lobby("spit:lobby:open")
    body = assert_429(client.post("/v1/games", json={"game": "speed"}, **at("10.0.0.3")))
    assert body["detail"] and lobby("spit:lobby:open") == games  # refused: nothing created
    r = client.post("/v1/games", json={"game": "speed"}, **at("10.0.0.3"))
    assert r.headers["Retry-After"] == "2"  # one game every two seconds
    # the address's other requests go on (joining and acting create nothing), and so
    # does another address's creation
    gid = created[0].get_json()["id"]
    assert client.post(f"/v1/games/{gid}/seats", json={}, **at("10.0.0.3")).status_code == 201
    assert client.get("/v1/games", **at("10.0.0.3")).status_code == 200
    assert client.post("/v1/games", json={"game": "spit"}, **at("10.0.0.4")).status_code == 201
    assert 'spitlog_limited_total{limit="games"} 2.0' in scrape(client).text
    clock.t += 2.0
    assert client.post("/v1/games", json={"game": "spit"}, **at("10.0.0.3")).status_code == 201


def test_an_action_counts_against_its_address_and_its_token(redis_client):
    app, _clock = limited_app(redis_client, rate_actions=100, rate_actions_burst=100,
                              rate_requests=1, rate_requests_burst=4)  # fmt: skip
    client = app.test_client()
    gid, tok0, _tok1 = new_game(client, **{})  # two requests from 127.0.0.1
    assert act(client, gid, tok0).status_code == 422
    assert act(client, gid, tok0).status_code == 422
    assert_429(act(client, gid, tok0))  # the address's bucket is empty, the token's is not
    assert act(client, gid, tok0, **at("10.0.0.9")).status_code == 422


def test_a_refused_request_charges_no_bucket(redis_client):
    app, _clock = limited_app(redis_client, rate_actions=1, rate_actions_burst=1,
                              rate_requests=1, rate_requests_burst=4)  # fmt: skip
    client = app.test_client()
    created = client.post("/v1/games", json={"game": "spit"}, **at("10.0.0.7")).get_json()
    gid, tok0 = created["id"], created["token"]
    assert act(client, gid, tok0, **at("10.0.0.7")).status_code == 422
    for _ in range(3):  # the token's bucket is empty: refused, the address's not charged
        assert_429(act(client, gid, tok0, **at("10.0.0.7")))
    assert client.get("/v1/games", **at("10.0.0.7")).status_code == 200  # its 3rd of 4
    assert client.get("/v1/games", **at("10.0.0.7")).status_code == 200
    assert_429(client.get("/v1/games", **at("10.0.0.7")))


def counting(redis_client) -> list:
    """The commands the app sends from now on (their names), by its client."""
    sent = []
    real = redis_client.execute_command

    def execute_command(*args, **kw):
        sent.append(args[0])
        return real(*args, **kw)

    redis_client.execute_command = execute_command
    return sent


def test_a_game_request_pays_its_buckets_in_its_games_script(redis_client):
    """On a single Redis an action on a current cache is one call, its append, which
    charges both buckets first; a read is one call, its load; both say where the client
    stands, and a refused one did nothing (the append's script stopped at the charge)."""
    app, _clock = limited_app(redis_client, rate_actions=1, rate_actions_burst=2,
                              rate_requests=100, rate_requests_burst=100)  # fmt: skip
    client = app.test_client()
    warm, wtok, _ = new_game(client, **{})  # the scripts loaded (another address's)
    client.get(f"/v1/games/{warm}", headers=bearer(wtok), **at("10.0.0.99"))
    act(client, warm, wtok, {"type": "ready"}, **at("10.0.0.99"))
    gid, tok0, _tok1 = new_game(client)
    sent = counting(redis_client)
    r = client.get(f"/v1/games/{gid}", headers=bearer(tok0))
    assert r.status_code == 200 and sent == ["EVALSHA"]
    assert r.headers["RateLimit"] == '"requests";r=95;t=1'  # two games made, and this
    sent.clear()
    r = act(client, gid, tok0, {"type": "ready"})
    assert r.status_code == 201 and sent == ["EVALSHA"]
    assert r.headers["RateLimit"] == '"requests";r=94;t=1, "actions";r=1;t=1'
    assert act(client, gid, tok0).status_code == 422  # the token's second
    v = version(redis_client, gid)
    sent.clear()
    assert_429(act(client, gid, tok0, {"type": "resign"}))  # legal: up to its append
    assert sent == ["EVALSHA"] and version(redis_client, gid) == v
    keys = sorted(k.decode()[:10] for k in redis_client.keys("spit:rl:*"))
    # two addresses, two tokens (each seat's actions, and its share of its address)
    assert keys == ["spit:rl:a:"] * 2 + ["spit:rl:o:"] * 2 + ["spit:rl:t:"] * 2


def test_a_request_its_handler_refuses_before_any_script_is_charged_after(redis_client):
    """A malformed action (a 400 decided on the cached state, no script run) is charged
    by a call of its own after its handler; once the bucket is empty its 429 comes
    first, as for any other request."""
    app, _clock = limited_app(redis_client, rate_requests=1, rate_requests_burst=4)
    client = app.test_client()
    gid, tok0, _tok1 = new_game(client)  # two of the address's four
    client.get(f"/v1/games/{gid}", headers=bearer(tok0))  # the cache is current: three
    sent = counting(redis_client)
    r = act(client, gid, tok0, {"type": "fly"})
    assert r.status_code == 400 and sent == ["EVALSHA"]  # the charge alone
    assert r.headers["RateLimit"].startswith('"requests";r=0;')
    assert_429(act(client, gid, tok0, {"type": "fly"}))
    assert_429(act(client, gid, tok0, {"type": "ready"}))


def test_a_request_over_its_limits_never_queues_at_a_busy_gate(redis_client):
    """A game request whose buckets its game's script would charge pays them by a call of
    its own before it would wait for a place at its game's gate: one over its limits is
    a 429 at once and never holds the players' places (it used to queue, then 503)."""
    app, _clock = limited_app(redis_client, rate_requests=1, rate_requests_burst=4,
                              game_concurrency=1, game_gate_wait_s=0.05)  # fmt: skip
    client = app.test_client()
    gid, tok0, _tok1 = new_game(client)  # two of the address's four
    gate = app.extensions["spitlog"].gate
    waited = []
    real_wait = gate._wait
    gate._wait = lambda game_id: (waited.append(game_id), real_wait(game_id))
    assert gate.acquire(gid)  # a request of the game in progress
    try:
        for left in (1, 0):  # charged, then queued: 503 (telling where the client stands)
            r = client.get(f"/v1/games/{gid}", headers=bearer(tok0))
            assert r.status_code == 503 and r.headers["RateLimit"].startswith(
                f'"requests";r={left};'
            )
        assert waited == [gid, gid]
        assert_429(client.get(f"/v1/games/{gid}", headers=bearer(tok0)))
        assert waited == [gid, gid]  # refused without queueing
    finally:
        gate.release(gid)


def test_an_append_sent_again_after_its_answer_was_lost_is_not_answered_429(redis_client):
    """redis-py sends a script again when its answer is lost (a reset connection): the
    append's charge comes after its checks, so the second run finds the first one's
    record and answers it without charging; the replayed answer is charged after (the
    bucket's last action is gone by then) but never replaced by a 429 for a move that
    is in the log (it was: the second run's charge refused it)."""
    app, _clock = limited_app(redis_client, rate_actions=1, rate_actions_burst=1,
                              rate_requests=100, rate_requests_burst=100)  # fmt: skip
    client = app.test_client()
    gid, tok0, _tok1 = new_game(client)
    client.get(f"/v1/games/{gid}", headers=bearer(tok0))  # the cache is current
    store = app.extensions["spitlog"].store
    real = redis_client.execute_command

    def lost_once(*args, **kw):
        if args[:2] == ("EVALSHA", store._append_charging.sha):
            real(*args, **kw)  # ran, its answer lost on the way
        return real(*args, **kw)

    redis_client.execute_command = lost_once
    v = version(redis_client, gid)
    keyed = {**bearer(tok0), "Idempotency-Key": "k-1"}
    r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=keyed)
    redis_client.execute_command = real
    assert r.status_code == 201, r.get_json()
    assert version(redis_client, gid) == v + 1  # once in the log
    assert '"actions";r=0;' in r.headers["RateLimit"]
    assert act(client, gid, tok0).status_code == 429  # and the bucket is empty indeed


def test_the_address_is_the_peer_unless_proxies_are_trusted(app):
    limits = app.extensions["spitlog"].limits
    xff = {"X-Forwarded-For": "6.6.6.6, 1.2.3.4"}

    def address(proxies, remote="10.0.0.1", headers=xff):
        limits.proxies = proxies
        environ = {"REMOTE_ADDR": remote}
        if "X-Forwarded-For" in headers:
            environ["HTTP_X_FORWARDED_FOR"] = headers["X-Forwarded-For"]
        return limits.address(environ)

    assert address(0) == "10.0.0.1"  # without a proxy, a client cannot pick its address
    assert address(1) == "1.2.3.4"  # what our proxy saw
    assert address(2) == "6.6.6.6"
    assert address(3) == "10.0.0.1"  # fewer hops than proxies: the header is not trusted
    assert address(0, "2001:db8:1:2:3:4:5:6") == address(0, "2001:db8:1:2:ffff::1")
    assert address(0, "2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert address(0, "2001:db8:1:3::1") != address(0, "2001:db8:1:2::1")
    assert address(0, "::ffff:10.1.2.3") == "10.1.2.3"
    assert address(1, headers={"X-Forwarded-For": "not an address"}) == "not an address"


@pytest.mark.slow
def test_the_default_limits_never_stop_a_fast_bot(redis_client):
    """Both seats of a game played from one address at 10 actions a second each, with a
    read before every action (40 requests a second), for a minute: never a 429. And a
    burst of the default size goes through at once."""
    defaults = {k: config.Settings.model_fields[k].default for k in LIMIT_KEYS}
    assert all(defaults[k] > 0 for k in ("rate_actions", "rate_requests", "rate_seat"))
    app, clock = limited_app(redis_client, **defaults)
    client = app.test_client()
    gid, tok0, tok1 = new_game(client)
    statuses = set()
    for step in range(1200):
        clock.t += 0.05
        tok = (tok0, tok1)[step % 2]
        view = client.get(f"/v1/games/{gid}", headers=bearer(tok)).get_json()
        acts = [a for a in view["legal_actions"] if a["type"] != "resign"] or [ILLEGAL]
        statuses.add(act(client, gid, tok, acts[step % len(acts)]).status_code)
        if view["status"] != "running":
            gid, tok0, tok1 = new_game(client)
    assert 429 not in statuses and 201 in statuses
    clock.t += 10
    burst = [act(client, gid, tok0).status_code for _ in range(defaults["rate_actions_burst"])]
    assert 429 not in burst


def test_limit_keys_expire_once_their_bucket_is_full_again(redis_client):
    app, _clock = limited_app(redis_client, rate_actions=2, rate_actions_burst=2,
                              rate_requests=10, rate_requests_burst=20)  # fmt: skip
    app.extensions["spitlog"].limits.clock = None  # the Redis server's clock
    client = app.test_client()
    gid, tok0, _ = new_game(client)
    act(client, gid, tok0)
    keys = redis_client.keys("spit:rl:*")
    assert len(keys) == 3  # the address's, the seat's actions, the seat's share
    assert all(0 < redis_client.pttl(k) <= 2000 for k in keys)


# ---------------------------------------------------------------- failed authentications


def random_key() -> str:
    return "spk_" + secrets.token_urlsafe(32)


def looked_up(obj, name: str) -> list:
    """The arguments of every call of ``obj.name`` from now on (a credential's lookup)."""
    calls = []
    real = getattr(obj, name)

    def spy(*args):
        calls.append(args)
        return real(*args)

    setattr(obj, name, spy)
    return calls


@pytest.mark.slow
def test_failed_authentications_turn_into_429_before_the_key_is_looked_up(redis_client):
    """600 random ``X-Api-Key`` values from one address at once: the failed
    authentications' burst is answered 401 (each key looked up once), every other 429
    problem+json with Retry-After, none looked up. A correct key from another address
    is unaffected; from the failing address it waits like any key (it would have to be
    looked up). One more failure is admitted once the bucket refills."""
    app, clock = limited_app(redis_client, rate_requests=1000, rate_requests_burst=1000,
                             rate_auth_failures=0.5, rate_auth_failures_burst=5)  # fmt: skip
    services = app.extensions["spitlog"]
    _app, key = services.apps.create("tester")
    lookups = looked_up(services.apps.store, "app_by_hash")
    client = app.test_client()

    def lobby(key: str, address: str):
        return client.get("/v1/games", headers={"X-Api-Key": key}, **at(address))

    statuses = [lobby(random_key(), "10.1.0.1").status_code for _ in range(600)]
    assert statuses == [401] * 5 + [429] * 595
    assert len(lookups) == 5
    body = assert_429(lobby(random_key(), "10.1.0.1"))
    assert body["detail"] == "over the rate limit of failed authentications from this address"
    assert lobby(key, "10.1.0.2").status_code == 200  # another address: unaffected
    assert_429(lobby(key, "10.1.0.1"))  # the failing address's: refused before its lookup
    assert len(lookups) == 6
    assert lobby("not a key", "10.1.0.2").status_code == 401  # malformed: a failure too
    assert 'spitlog_limited_total{limit="auth"} 597.0' in scrape(client).text
    clock.t += 2.0  # one failure every two seconds
    assert lobby(random_key(), "10.1.0.1").status_code == 401
    assert_429(lobby(random_key(), "10.1.0.1"))
    assert lobby(key, "10.1.0.3").status_code == 200


def test_tokens_that_hold_no_seat_are_failed_authentications(redis_client):
    """An unknown token (401), another game's (403) and a malformed header (401), on a
    game's reads and actions alike, count against their address's failed
    authentications; past its burst they are 429 without the token's lookup. The
    seats' own tokens need no lookup and go on from that address, and so do its
    spectators and another address's failures."""
    app, _clock = limited_app(redis_client, rate_requests=1000, rate_requests_burst=1000,
                              rate_auth_failures=0.5, rate_auth_failures_burst=4)  # fmt: skip
    client = app.test_client()
    gid, tok0, tok1 = new_game(client)
    _other, other_tok, _ = new_game(client)
    lookups = looked_up(app.extensions["spitlog"].store, "token_owner")
    attacker = "10.2.0.1"

    def read(token: str | None, address: str = attacker):
        headers = bearer(token) if token else {}
        return client.get(f"/v1/games/{gid}", headers=headers, **at(address))

    assert read(secrets.token_urlsafe(32)).status_code == 401
    assert read(other_tok).status_code == 403
    assert act(client, gid, secrets.token_urlsafe(32), **at(attacker)).status_code == 401
    malformed = {"Authorization": "Token abc"}
    assert client.get(f"/v1/games/{gid}", headers=malformed, **at(attacker)).status_code == 401
    assert len(lookups) == 3  # the malformed one needs none
    for token in (secrets.token_urlsafe(32), other_tok, secrets.token_urlsafe(32)):
        assert_429(read(token))
        assert_429(act(client, gid, token, **at(attacker)))
    assert_429(client.get(f"/v1/games/{gid}", headers=malformed, **at(attacker)))
    assert len(lookups) == 3
    assert read(tok0).status_code == 200
    assert act(client, gid, tok1, **at(attacker)).status_code == 422
    assert read(None).status_code == 200
    assert read(secrets.token_urlsafe(32), "10.2.0.2").status_code == 401


def test_a_token_that_holds_no_seat_is_charged_to_its_address(redis_client):
    """Random tokens buy no bucket of their own: each is charged to its address's request
    bucket, without the seats' reserve (and makes no seat's bucket); the seats' own
    requests go on from that address within their reserve."""
    app, _clock = limited_app(redis_client, rate_requests=1, rate_requests_burst=5,
                              rate_seat=10, rate_seat_burst=20, rate_seat_reserve=10)  # fmt: skip
    client = app.test_client()
    gid, tok0, _tok1 = new_game(client)
    url = f"/v1/games/{gid}"
    statuses = [client.get(url, headers=bearer(secrets.token_urlsafe(32)), **at("10.3.0.1"))
                .status_code for _ in range(8)]  # fmt: skip
    assert statuses == [401] * 5 + [429] * 3
    body = assert_429(client.get(url, **at("10.3.0.1")))  # a spectator of that address too
    assert body["detail"] == "over the rate limit of requests from this address"
    assert redis_client.keys("spit:rl:p:*") == []
    assert client.get(url, headers=bearer(tok0), **at("10.3.0.1")).status_code == 200
    assert len(redis_client.keys("spit:rl:p:*")) == 1


# ---------------------------------------------------------------- seats


def test_a_seats_requests_are_charged_to_the_seat_in_its_games_script(redis_client):
    """A seat's action on a current cache is still one call, its append, which finds the
    token's seat in the game's meta and charges the seat's buckets and its address's
    with the reserve; a refusal names the bucket that refused (``RateLimited.limits``:
    the seat's own here) and does nothing."""
    app, _clock = limited_app(redis_client, rate_requests=100, rate_requests_burst=100,
                              rate_seat=1, rate_seat_burst=3, rate_seat_reserve=50,
                              rate_actions=100, rate_actions_burst=100)  # fmt: skip
    services = app.extensions["spitlog"]
    client = app.test_client()
    warm, wtok, _ = new_game(client)  # the scripts loaded
    client.get(f"/v1/games/{warm}", headers=bearer(wtok), **at("10.0.0.99"))
    act(client, warm, wtok, {"type": "ready"}, **at("10.0.0.99"))
    gid, tok0, tok1 = new_game(client)
    assert client.get(f"/v1/games/{gid}", headers=bearer(tok0)).status_code == 200
    sent = counting(redis_client)
    r = act(client, gid, tok0, {"type": "ready"})
    assert r.status_code == 201 and sent == ["EVALSHA"]
    assert r.headers["RateLimit"] == '"seat";r=1;t=2, "requests";r=144;t=1, "actions";r=99;t=1'
    assert r.headers["RateLimit-Policy"].startswith('"seat";q=3;w=3, "requests";q=150;w=2')
    assert act(client, gid, tok0).status_code == 422  # the seat's third
    v = version(redis_client, gid)
    sent.clear()
    body = assert_429(act(client, gid, tok0, {"type": "resign"}))
    assert body["detail"] == "over the rate limit of requests of this seat"
    assert sent == ["EVALSHA"] and version(redis_client, gid) == v
    assert act(client, gid, tok1, {"type": "ready"}).status_code == 201  # the other seat's own
    limits, store = services.limits, services.store
    with pytest.raises(RateLimited) as refused:
        limits.settle(limits.bill(["requests"], "127.0.0.1", tok0, game_meta=store.meta_key(gid)))
    assert refused.value.limits == ("seat",)


@pytest.mark.slow
def test_T4_a_flood_from_the_seats_own_address_leaves_them_their_pace(redis_client):
    """RULES T-4: a spectator floods a Speed game's reads from the address its two players
    share (a NAT), at 2.4 times the address's rate, while both seats read and act at a
    person's pace (four times a second each), for 15 s of the game's clock. The
    flooder gets 429s; the seats get none, every action lands, and the game's T-4
    (5 s here) never falls due: the deadline job, run at each step, finds none to fire."""
    app = create_app(app_settings(rate_requests=40, rate_requests_burst=80, rate_seat=40,
                                  rate_seat_burst=80, rate_seat_reserve=40, rate_actions=20,
                                  rate_actions_burst=40),
                     redis_client=redis_client, clock=CLOCK)  # fmt: skip
    services = app.extensions["spitlog"]
    services.limits.clock = CLOCK
    client = app.test_client()
    options = {"idle_forfeit_s": 5, "target_score": 10_000, "max_rounds": 10_000}
    gid, tok0, tok1 = new_game(client, "speed", options=options)
    url = f"/v1/games/{gid}"
    flooded, seats, acted = Counter(), Counter(), 0
    rng = random.Random(7)
    for _step in range(60):  # 15 s: a step every 0.25 s
        CLOCK.t += 0.25
        for tok in (tok0, tok1):
            for _ in range(12):  # 96 requests a second in all
                flooded[client.get(url).status_code] += 1
            view = client.get(url, headers=bearer(tok))
            seats[view.status_code] += 1
            action = pick(view.get_json(), rng) if view.status_code == 200 else None
            if action is not None:
                r = act(client, gid, tok, action)
                seats[r.status_code] += 1
                acted += r.status_code == 201
        game = services.reading.load(gid)
        due = services.deadlines.due(game, CLOCK.t)
        assert due is None or due[1] > CLOCK.t or due[0].rule != "T-4", (due, seats)
        if game.state.over:
            break
    assert flooded[429] > flooded[200] > 0
    assert set(seats) <= {200, 201} and acted > 60, seats
    assert not services.reading.load(gid).state.over


# ---------------------------------------------------------------- streams


def sse(client, gid, token=None, **kw):
    headers = {"Accept": "text/event-stream", **(bearer(token) if token else {})}
    return client.get(f"/v1/games/{gid}/events", headers=headers, buffered=False, **kw)


def test_open_streams_are_capped_per_token(redis_client):
    app, _clock = limited_app(redis_client, streams_per_client=2, sse_max_s=30)
    client = app.test_client()
    gid, tok0, tok1 = new_game(client)
    held = [sse(client, gid, tok0), sse(client, gid, tok0)]
    assert [r.status_code for r in held] == [200, 200]
    body = assert_429(sse(client, gid, tok0))
    assert "streams" in body["detail"]
    # a long-poll holds a stream too; a plain read does not
    v = version(redis_client, gid)
    assert_429(client.get(f"/v1/games/{gid}/events?after={v}&wait=0.1", headers=bearer(tok0)))
    assert client.get(f"/v1/games/{gid}/events", headers=bearer(tok0)).status_code == 200
    # the other seat has its own
    other = sse(client, gid, tok1)
    assert other.status_code == 200
    # closing a stream frees its slot
    held.pop().close()
    again = sse(client, gid, tok0)
    assert again.status_code == 200
    for r in (*held, other, again):
        r.close()
    assert redis_client.keys("spit:rl:s:*") == []  # every slot freed: the sets are gone


def test_streams_are_capped_per_address_with_or_without_tokens(redis_client):
    app, _clock = limited_app(redis_client, streams_per_client=5, streams_per_address=2,
                              sse_max_s=30)  # fmt: skip
    client = app.test_client()
    gid, tok0, tok1 = new_game(client)
    other, tok2, _ = new_game(client)
    first = sse(client, gid, **at("10.0.0.1"))
    second = sse(client, other, tok2, **at("10.0.0.1"))
    assert (first.status_code, second.status_code) == (200, 200)
    # the address holds two: a third is refused, whatever token it shows
    for token in (None, tok0, tok1):
        body = assert_429(sse(client, gid, token, **at("10.0.0.1")))
        assert "per address" in body["detail"]
    third = sse(client, gid, tok0, **at("10.0.0.2"))  # another address has its own
    assert third.status_code == 200
    first.close()
    again = sse(client, gid, tok1, **at("10.0.0.1"))
    assert again.status_code == 200
    for r in (second, third, again):
        r.close()
    v = version(redis_client, gid)  # a long-poll that ends frees its slot itself
    for _ in range(3):
        r = client.get(f"/v1/games/{gid}/events?after={v}&wait=0.05", **at("10.0.0.1"))
        assert r.status_code == 200
    assert redis_client.keys("spit:rl:s:*") == []


def test_a_stream_slot_left_by_a_dead_process_frees_itself(redis_client):
    app, clock = limited_app(redis_client, streams_per_client=1, sse_max_s=30)
    client = app.test_client()
    gid, tok0, _ = new_game(client)
    assert sse(client, gid, tok0).status_code == 200  # never closed: as if the process died
    assert_429(sse(client, gid, tok0))
    clock.t += 30 + 31  # its longest life and the slack
    r = sse(client, gid, tok0)
    assert r.status_code == 200
    r.close()


# ---------------------------------------------------------------- the gate of a game


def test_a_game_lets_a_few_requests_in_at_once_and_the_rest_wait_their_turn():
    gate = GameGate(2, wait_s=0.05)
    a, b = "g_00000000000000aa", "g_00000000000000bb"
    inside, done = threading.Barrier(3), threading.Event()

    def hold():  # a request of game a, in progress until done
        assert gate.acquire(a)
        inside.wait()
        done.wait(5)
        gate.release(a)

    holders = [threading.Thread(target=hold) for _ in range(2)]
    for t in holders:
        t.start()
    inside.wait()
    with pytest.raises(Busy) as e:  # a third of the same game waited, then 503
        gate.acquire(a)
    assert e.value.retry_after_s == 1  # (answered with Retry-After: 1)
    assert gate.acquire(b)  # another game goes straight in
    gate.release(b)
    done.set()
    for t in holders:
        t.join(5)
    assert gate.acquire(a)  # their places were given back
    gate.release(a)
    assert gate._busy == {} and gate._waiting == {}  # nothing kept for games no request is in
    assert GameGate(0).acquire(a) is False  # off


def test_the_gate_is_on_by_default(client):
    assert config.Settings.model_fields["game_concurrency"].default > 0
    gid, tok0, _ = new_game(client)
    assert act(client, gid, tok0).status_code == 422


# ---------------------------------------------------------------- body size and pages


@pytest.mark.parametrize("path", ["/v1/games", "/v1/games/{gid}/seats", "/v1/games/{gid}/actions"])
def test_every_body_is_capped_413(client, path):
    gid, tok0, _ = new_game(client, join=False)
    big = b'{"client_seed": "' + b"x" * 20_000 + b'"}'
    url = path.format(gid=gid)
    for kw in (
        {"data": big},
        # no Content-Length: the body is cut at the limit as it is read
        {
            "input_stream": io.BytesIO(big),
            "headers": {"Transfer-Encoding": "chunked"},
            "environ_overrides": {"wsgi.input_terminated": True},
        },  # as gunicorn sets it
    ):
        headers = {**bearer(tok0), **kw.pop("headers", {})}
        r = client.post(url, content_type="application/json", headers=headers, **kw)
        assert r.status_code == 413, r.get_data(as_text=True)
        assert r.mimetype == PROBLEM and r.get_json()["type"].endswith("#problem-too-large")


def test_pages_are_capped(redis_client):
    app = create_app(app_settings(lobby_page_max=2), redis_client=redis_client)
    client = app.test_client()
    for _ in range(3):
        gid, _tok0, _ = new_game(client, join=False)
    page = client.get("/v1/games?status=open&limit=100").get_json()
    assert len(page["games"]) == 2 and page["next"]
    for url in (f"/v1/games/{gid}/events?limit=1001", "/v1/games?limit=101",
                f"/v1/games/{gid}/events?wait=61"):  # fmt: skip
        r = client.get(url)
        assert r.status_code == 400 and r.get_json()["errors"], url
    assert len(client.get(f"/v1/games/{gid}/events?limit=1000").get_json()["events"]) == 1
