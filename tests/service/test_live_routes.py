"""The seat channel's HTTP side in the app itself (Flask's test client, fakeredis): a
ticket is a seat's (401 without a token, 403 for another game's), kept by its hash, the
token sealed under it; the channel's path refuses a request that is not a WebSocket (426),
and a server that cannot hand its connection over (501), in problem+json."""

from service.http import channel
from tests.support.api import bearer, new_game, problem_of


def test_a_ticket_is_a_seats_and_the_store_keeps_its_hash_and_the_sealed_token(
    client, redis_client
):
    gid, t0, _t1 = new_game(client)
    r = client.post(f"/v1/games/{gid}/tickets", headers=bearer(t0))
    assert r.status_code == 201 and r.headers["Cache-Control"] == "no-store"
    body = r.get_json()
    assert body["protocols"] == ["spitlog.v1", "spitlog.ticket." + body["ticket"]]
    (key,) = redis_client.keys(f"spit:{{g:{gid}}}:ticket:*")
    assert body["ticket"].encode() not in key
    sealed = redis_client.get(key)
    assert t0.encode() not in sealed and channel.unseal(sealed, body["ticket"]) == t0
    assert 0 < redis_client.pttl(key) <= channel.TICKET_TTL_S * 1000
    problem_of(client.post(f"/v1/games/{gid}/tickets"), 401)
    other, o0, _o1 = new_game(client)
    problem_of(client.post(f"/v1/games/{gid}/tickets", headers=bearer(o0)), 403)
    problem_of(client.post("/v1/games/g_0000000000000000/tickets", headers=bearer(t0)), 404)


def test_the_channel_refuses_what_is_not_a_websocket_it_can_take(client):
    gid, _t0, _t1 = new_game(client)
    plain = problem_of(client.get(f"/v1/games/{gid}/live"), 426)
    assert plain["type"] == "/docs#problem-upgrade-required"
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
               "Sec-WebSocket-Protocol": "spitlog.v1"}  # fmt: skip
    problem_of(client.get(f"/v1/games/{gid}/live", headers=upgrade), 501)
    bad = problem_of(client.get(f"/v1/games/{gid}/live", headers={**upgrade,
                                "Sec-WebSocket-Key": "short"}), 400)  # fmt: skip
    assert "Sec-WebSocket-Key" in bad["errors"]
    problem_of(client.get(f"/v1/games/{gid}/live?after=-1", headers=upgrade), 400)
    problem_of(client.get("/v1/games/g_0000000000000000/live", headers=upgrade), 404)
