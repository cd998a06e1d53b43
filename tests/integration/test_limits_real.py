"""The limits (service/limits.py) on a real redis-server, on its clock (``TIME`` inside
the scripts): a burst is refused with Retry-After and admitted again once it passed,
two API processes share one bucket, and an SSE stream's slot frees when it closes."""

import time

from service.http.app import create_app
from tests.support.api import app_settings, bearer, new_game

LIMITS = {"rate_actions": 10, "rate_actions_burst": 3, "rate_requests": 0, "streams_per_client": 1}


def test_the_buckets_hold_across_processes_on_the_servers_clock(redis_url, redis_client):
    one, two = (create_app(app_settings(**LIMITS, redis_url=redis_url)) for _ in range(2))
    c1, c2 = one.test_client(), two.test_client()
    gid, tok0, _ = new_game(c1)
    url = f"/v1/games/{gid}/actions"
    body = {"type": "slap", "pile": 0}  # refused by the rules: 422, and counted
    codes = [c.post(url, json=body, headers=bearer(tok0)).status_code for c in (c1, c2, c1)]
    assert codes == [422, 422, 422]
    r = c2.post(url, json=body, headers=bearer(tok0))  # the other process: the same bucket
    assert r.status_code == 429 and r.headers["Retry-After"] == "1"
    time.sleep(0.15)  # the servers' clock moving is the subject: ten a second, one more
    assert c2.post(url, json=body, headers=bearer(tok0)).status_code == 422
    assert all(0 < redis_client.pttl(k) <= 1000 for k in redis_client.keys("spit:rl:*"))


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
