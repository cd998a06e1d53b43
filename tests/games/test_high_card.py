"""High Card (tests/games/high_card.py), a game the engine and the service have never heard
of, registered from the tests alone, played through the HTTP API end to end on the Flask
test client and fakeredis: create, join, act (and a refusal with its rule ID), the event
stream, past states, the lobby, the audit, both exports, and the spec that lists it."""

import json
import sys
import textwrap

import pytest
import yaml

from domain import RULES, registry
from domain.audit import verify
from domain.export import from_ndjson, parse_notation
from service.http.app import create_app
from tests.games import high_card
from tests.support.api import act, app_settings, bearer, new_game
from tests.support.cards import cards_in

PROBLEM = "application/problem+json"


@pytest.fixture
def registered():
    registry.register(high_card)
    yield high_card
    registry.unregister(high_card.NAME)


@pytest.fixture
def client(registered, redis_client):
    return create_app(app_settings(), redis_client=redis_client).test_client()


def sse(client, gid, token=None, after=0):
    headers = {"Accept": "text/event-stream", **(bearer(token) if token else {})}
    text = client.get(f"/v1/games/{gid}/events?after={after}", headers=headers).get_data(True)
    out = []
    for block in text.split("\n\n"):
        lines = dict(ln.split(": ", 1) for ln in block.splitlines() if ": " in ln)
        if "id" in lines:
            out.append(json.loads(lines["data"]))
    return out


def view(client, gid, token=None):
    return client.get(f"/v1/games/{gid}", headers=bearer(token) if token else {}).get_json()


def test_HC_a_game_of_high_card_plays_through_the_api_end_to_end(client):
    gid, t0, t1 = new_game(client, "high_card", options={"cards_each": 3}, client_seed="a")
    state = view(client, gid, t0)
    assert (state["game"], state["status"], state["phase"]) == ("high_card", "running", "ready")
    assert state["options"]["cards_each"] == 3
    assert [p["pile"] for p in state["players"]] == [3, 3] and state["legal_actions"] == [
        {"type": "ready"}, {"type": "resign"}]  # fmt: skip
    # HC-2: nothing is flipped before both are ready
    r = act(client, gid, t0, {"type": "flip"})
    assert r.status_code == 422 and r.mimetype == PROBLEM and r.get_json()["rule"] == "HC-2"
    for tok in (t0, t1):
        assert act(client, gid, tok, {"type": "ready"}).status_code == 201
    r = act(client, gid, t0, {"type": "flip"})
    assert r.status_code == 201 and [e["type"] for e in r.get_json()["events"]] == ["card_flipped"]
    # HC-3: once a trick
    r = act(client, gid, t0, {"type": "flip"})
    body = r.get_json()
    assert r.status_code == 422 and r.mimetype == PROBLEM and body["rule"] == "HC-3", body
    assert view(client, gid)["version"] == body["version"]  # it changed nothing
    r = act(client, gid, t0, {"type": "flip", "card": "AS"})  # a field it does not take
    assert r.status_code == 400 and "card" in r.get_json()["errors"]
    # H-1: no one is shown a card of the piles while the game runs, its owner included
    running = view(client, gid)["version"]
    for tok in (t0, t1, None):
        events = sse(client, gid, tok)
        dealt = next(e for e in events if e["type"] == "high_card_dealt")
        assert dealt["piles"] == [3, 3]
        flipped = {e["card"] for e in events if e["type"] == "card_flipped"}
        assert cards_in(view(client, gid, tok)) <= flipped
        past = client.get(f"/v1/games/{gid}/states/{running}", headers=bearer(tok) if tok else {})
        assert past.status_code == 200 and cards_in(past.get_json()) <= flipped
    # the rest of the game: each seat flips until the piles are empty (HC-4, HC-5)
    for _trick in range(3):
        for tok in (t1, t0):
            if any(a["type"] == "flip" for a in view(client, gid, tok)["legal_actions"]):
                assert act(client, gid, tok, {"type": "flip"}).status_code == 201
    end = view(client, gid)
    assert end["status"] == "finished" and end["result"] == "HC-5"
    assert sum(p["points"] for p in end["players"]) <= 3
    events = sse(client, gid)
    assert [e["type"] for e in events].count("trick_taken") == 3
    assert events[-1]["type"] == "game_ended"
    # past states: the whole state of each version, once the game is over
    first = client.get(f"/v1/games/{gid}/states/3").get_json()
    assert first["game"] == "high_card" and len(first["players"][0]["pile"]) == 3
    # the lobby's filter knows the game
    listed = client.get("/v1/games?status=finished&game=high_card").get_json()["games"]
    assert [g["id"] for g in listed] == [gid]
    assert client.get("/v1/games?status=finished&game=spit").get_json()["games"] == []
    # H-6: the audit re-derives the deal from the revealed seed and re-judges every event
    audit = client.get(f"/v1/games/{gid}/audit").get_json()
    assert audit["verified"] and audit["rules"]["ok"] and audit["game"] == "high_card"
    assert audit["deals"] == [
        {"version": 3, "type": "high_card_dealt", "nonces": [1], "verified": True}]  # fmt: skip
    # the exports: the log (NDJSON), complete with the seed, and the notation
    ndjson = client.get(f"/v1/games/{gid}/export", headers={"Accept": "application/x-ndjson"})
    header, log = from_ndjson(ndjson.get_data(True))
    assert header["game"] == "high_card" and len(log) == end["version"]
    assert verify(log, bytes.fromhex(header["server_seed"])).ok
    notation = client.get(f"/v1/games/{gid}/export", headers={"Accept": "text/plain"})
    tags, again = parse_notation(notation.get_data(True))
    assert tags["Game"] == "high_card" and tags["Result"].endswith("HC-5") and again == log


def test_HC_the_spec_lists_the_game_once_it_is_registered(redis_client):
    def spec():
        app = create_app(app_settings(), redis_client=redis_client)
        return yaml.safe_load(app.test_client().get("/openapi.yaml").get_data(True))

    before = spec()["components"]["schemas"]
    assert "HighCardState" not in before and "CardFlippedEvent" not in before
    registry.register(high_card)
    try:
        doc = spec()
    finally:
        registry.unregister(high_card.NAME)
    schemas = doc["components"]["schemas"]
    assert {
        "HighCardState",
        "HighCardPlayer",
        "HighCardFlipAction",
        "HighCardAction",
        "HighCardDealtEvent",
        "CardFlippedEvent",
        "TrickTakenEvent",
    } <= set(schemas)
    assert "high_card" in schemas["CreateGame"]["properties"]["game"]["enum"]
    assert "cards_each" in schemas["Options"]["properties"]
    assert "#/components/schemas/HighCardState" in json.dumps(schemas["State"])
    assert list(RULES) == ["spit", "speed"]


def test_HC_an_installed_packages_game_is_found_by_its_entry_point(tmp_path, redis_client):
    """A package that declares High Card in the entry-point group ``spitlog.games`` (a
    ``*.dist-info`` on the path): the registry finds it, and the API plays it."""
    dist = tmp_path / "high_card_game-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(textwrap.dedent("""\
        Metadata-Version: 2.1
        Name: high-card-game
        Version: 0.1
    """))  # fmt: skip
    (dist / "entry_points.txt").write_text("[spitlog.games]\nhigh_card = tests.games.high_card\n")
    sys.path.insert(0, str(tmp_path))
    try:
        registry.refresh()
        assert RULES["high_card"] is high_card
        client = create_app(app_settings(), redis_client=redis_client).test_client()
        gid, t0, _t1 = new_game(client, "high_card")
        assert view(client, gid, t0)["game"] == "high_card"
    finally:
        sys.path.remove(str(tmp_path))
        registry.refresh()
    assert "high_card" not in RULES
    r = client.post("/v1/games", json={"game": "high_card"})
    assert r.status_code == 400 and "game" in r.get_json()["errors"]
