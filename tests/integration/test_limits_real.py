"""The limits (service/limits.py) on a real redis-server, on its clock (``TIME`` inside
the scripts): a burst is refused with Retry-After and admitted again once it passed,
two API processes share one bucket, an SSE stream's slot frees when it closes, failed
authentications turn into 429s and a flood from the seats' own address leaves them be."""

import secrets
import time

from service.http.app import create_app
from tests.support.api import app_settings, bearer, new_game

# an action every 5 s, 3 at once: the burst's four requests come well within one refill
INTERVAL_S = 5
LIMITS = {"rate_actions": 1 / INTERVAL_S, "rate_actions_burst": 3, "rate_requests": 0,
          "streams_per_client": 1}  # fmt: skip


def test_the_buckets_hold_across_processes_on_the_servers_clock(redis_url, redis_client):
    one, two = (create_app(app_settings(**LIMITS, redis_url=redis_url)) for _ in range(2))
    c1, c2 = one.test_client(), two.test_client()
    gid, tok0, _ = new_game(c1)
    url = f"/v1/games/{gid}/actions"
    body = {"type": "slap", "pile": 0}  # refused by the rules: 422, and counted
    codes = [c.post(url, json=body, headers=bearer(tok0)).status_code for c in (c1, c2, c1)]
    assert codes == [422, 422, 422]
    r = c2.post(url, json=body, headers=bearer(tok0))  # the other process: the same bucket
    assert r.status_code == 429, r.get_json()
    retry = int(r.headers["Retry-After"])  # whole seconds until the bucket admits one
    assert 1 <= retry <= INTERVAL_S
    time.sleep(retry)  # the servers' clock moving is the subject: once it passed, one more
    assert c2.post(url, json=body, headers=bearer(tok0)).status_code == 422
    # a bucket's key lasts no longer than the bucket takes to fill up again
    burst_ms = LIMITS["rate_actions_burst"] * INTERVAL_S * 1000
    assert all(0 < redis_client.pttl(k) <= burst_ms for k in redis_client.keys("spit:rl:*"))


def test_a_stream_slot_frees_when_the_stream_closes(redis_url, redis_client):
    app = create_app(app_settings(**LIMITS, redis_url=redis_url, sse_max_s=30))
    client = app.test_client()
    gid, tok0, _ = new_game(client)
    headers = {"Accept": "text/event-stream", **bearer(tok0)}
    url = f"/v1/games/{gid}/events"
    first = client.get(url, headers=headers, buffered=False)
    assert first.status_code == 200
    assert client.get(url, headers=headers, buffered=False).status_code == 429
    (key,) = redis_client.keys("spit:rl:s:*")
    assert 30_000 < redis_client.pttl(key) <= 60_000  # it would end by itself
    first.close()
    assert redis_client.keys("spit:rl:s:*") == []
    again = client.get(url, headers=headers, buffered=False)
    assert again.status_code == 200
    again.close()


def test_failed_authentications_and_a_flood_from_the_seats_address(redis_url, redis_client):
    """The server's Lua and clock (the buckets refill too slowly to matter here): random
    app keys from one address are 401 for the failures' burst, then 429 without a lookup,
    while a correct key from another address gets in; a spectator's flood from the
    seats' address is refused at the address's burst, while the seats' reads and actions
    go on, each charged (seat, address, actions) in its game's one script."""
    settings = app_settings(redis_url=redis_url, rate_requests=0.01, rate_requests_burst=20,
                            rate_seat=100, rate_seat_burst=100, rate_seat_reserve=20,
                            rate_actions=100, rate_actions_burst=100, rate_auth_failures=0.001,
                            rate_auth_failures_burst=3)  # fmt: skip
    app = create_app(settings)
    services = app.extensions["spitlog"]
    client = app.test_client()
    _app, key = services.apps.create("tester")

    def at(address):
        return {"environ_base": {"REMOTE_ADDR": address}}

    keys = [client.get("/v1/games", headers={"X-Api-Key": "spk_" + secrets.token_urlsafe(32)},
                       **at("10.9.0.1")).status_code for _ in range(8)]  # fmt: skip
    assert keys == [401, 401, 401, 429, 429, 429, 429, 429]
    assert client.get("/v1/games", headers={"X-Api-Key": key}, **at("10.9.0.2")).status_code == 200

    gid, tok0, tok1 = new_game(client)
    url = f"/v1/games/{gid}"
    flood = [client.get(url, **at("10.9.0.3")).status_code for _ in range(25)]
    assert flood == [200] * 20 + [429] * 5
    for tok in (tok0, tok1):
        r = client.get(url, headers=bearer(tok), **at("10.9.0.3"))
        assert r.status_code == 200 and '"seat";r=99;' in r.headers["RateLimit"]
        r = client.post(f"{url}/actions", json={"type": "ready"}, headers=bearer(tok),
                        **at("10.9.0.3"))  # fmt: skip
        assert r.status_code == 201, r.get_json()
    assert client.get(url, **at("10.9.0.3")).status_code == 429
