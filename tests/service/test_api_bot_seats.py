"""Creating games with bots in seats: ``seat0`` puts a bot at seat 0, so bot
against bot is one request; the creator then watches, with no seat and no token."""

from tests.support.api import bearer


def test_a_bot_against_bot_game_starts_at_once_and_the_creator_watches(client):
    r = client.post("/v1/games", json={"game": "spit", "seat0": "bot:hard", "opponent": "bot:easy"})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["seat"] is None and body["token"] is None
    assert body["state"]["status"] == "running" and body["state"]["you"] is None
    assert [p["kind"] for p in body["state"]["players"]] == ["bot:hard", "bot:easy"]
    lobby = client.get("/v1/games?status=running").get_json()["games"]
    assert [p["kind"] for p in lobby[0]["players"]] == ["bot:hard", "bot:easy"]
    # nobody can take a seat or act for the bots
    assert client.post(f"/v1/games/{body['id']}/seats", json={}).status_code == 409
    r = client.post(f"/v1/games/{body['id']}/actions", json={"type": "ready"},
                    headers=bearer("not-a-token"))  # fmt: skip
    assert r.status_code == 401


def test_a_bot_at_seat_0_waits_for_a_human_to_join(client):
    r = client.post("/v1/games", json={"game": "speed", "seat0": "bot:medium"})
    assert r.status_code == 201
    gid = r.get_json()["id"]
    assert r.get_json()["state"]["status"] == "waiting"
    joined = client.post(f"/v1/games/{gid}/seats", json={}).get_json()
    assert joined["seat"] == 1 and joined["state"]["status"] == "running"


def test_seat0_must_be_a_known_kind(client):
    r = client.post("/v1/games", json={"game": "spit", "seat0": "bot:godlike"})
    assert r.status_code == 400
    assert "seat0" in r.get_json()["errors"]
