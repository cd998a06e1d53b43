"""The typed schemas of openapi.yaml (service/http/shapes.py) hold real answers: games of
both kinds played to their end through the API, every answer (create, join, act, the
views of each seat and of a spectator, the log as each sees it, past states, the audit)
validated against the components (jsonschema-rs: Draft 2020-12, formats checked), every
event type among them."""

import random
from pathlib import Path

import jsonschema_rs
import pytest
import yaml

import domain
from domain.actions import CARD
from service.http import shapes
from service.http.app import create_app
from tests.support.api import act, app_settings, bearer, new_game
from tests.support.fakes import MovableClock, SeededEntropy

ROOT = Path(__file__).resolve().parents[2]
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text())


def validator(component: str) -> jsonschema_rs.Draft202012Validator:
    """A validator of the component ``component`` of openapi.yaml (its refs resolved
    within the document)."""
    schema = {"$ref": shapes.COMPONENTS + component, "components": SPEC["components"]}
    return jsonschema_rs.Draft202012Validator(schema, validate_formats=True)


class Seen:
    """The answers of the games, validated as they come; the event types met."""

    def __init__(self):
        self.check = {name: validator(name) for name in ("Created", "Seated", "Acted",
                                                          "Events", "State", "Audit")}  # fmt: skip
        self.types: set[str] = set()

    def __call__(self, component: str, body: dict) -> dict:
        errors = list(self.check[component].iter_errors(body))
        assert not errors, f"{component}: {errors[0].message} at {list(errors[0].instance_path)}"
        for e in body.get("events", ()):
            self.types.add(e["type"])
        return body


def play(client, seen: Seen, game: str, rng: random.Random, **options) -> tuple[str, tuple]:
    """A game of two seats to its end by random legal actions (resign aside), every answer
    checked (each seat's view at each step, a spectator's now and then): its id and the
    seats' tokens."""
    r = client.post("/v1/games", json={"game": game, "options": options})
    gid, tok0 = seen("Created", r.get_json())["id"], r.get_json()["token"]
    r = client.post(f"/v1/games/{gid}/seats", json={})
    tokens = (tok0, seen("Seated", r.get_json())["token"])
    for step in range(20_000):
        seat = step % 2
        view = seen("State", client.get(f"/v1/games/{gid}", headers=bearer(tokens[seat])).json)
        if view["status"] == "finished":
            break
        acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
        if acts:
            r = act(client, gid, tokens[seat], rng.choice(acts))
            if r.status_code == 201:
                seen("Acted", r.get_json())
        if step % 97 == 0:
            seen("State", client.get(f"/v1/games/{gid}").get_json())
    else:
        raise AssertionError("the game did not end")
    return gid, tokens


def look(client, seen: Seen, gid: str, tokens) -> None:
    """Everything a finished game answers, as each seat and a spectator."""
    for h in (bearer(tokens[0]), bearer(tokens[1]), {}):
        seen("State", client.get(f"/v1/games/{gid}", headers=h).get_json())
        seen("Events", client.get(f"/v1/games/{gid}/events?limit=1000", headers=h).get_json())
        seen("State", client.get(f"/v1/games/{gid}/states/3", headers=h).get_json())
    seen("Audit", client.get(f"/v1/games/{gid}/audit").get_json())


def test_real_answers_of_both_games_hold_to_the_typed_schemas(redis_client):
    # the same deals and moves every run (seeds from rng), so the same events: a Speed
    # game that rebuilds its side piles, a Spit game with a choice of pile (V-2)
    rng = random.Random(15)
    clock = MovableClock()
    app = create_app(app_settings(), redis_client=redis_client, clock=clock,
                     entropy=SeededEntropy(rng))  # fmt: skip
    client = app.test_client()
    seen = Seen()
    tables = [("spit", {"max_rounds": 3}), ("spit", {"pile_choice": "choose", "stockpiles": 4}),
              ("speed", {"target_score": 2, "side_piles": 5})]  # fmt: skip
    for game, options in tables:
        gid, tokens = play(client, seen, game, rng, **options)
        look(client, seen, gid, tokens)
    # a running game's log and a past state as each viewer sees them (redacted); its end
    # by a timeout (T-4)
    for game in list(domain.RULES):
        gid, tok0, tok1 = new_game(client, game)
        for h in (bearer(tok0), bearer(tok1), {}):
            seen("Events", client.get(f"/v1/games/{gid}/events", headers=h).get_json())
            seen("State", client.get(f"/v1/games/{gid}/states/3", headers=h).get_json())
        svc = app.extensions["spitlog"]
        clock.shift(100_000)
        assert svc.acting.submit(gid, None, domain.Timeout("T-4", 0)) is not None
        clock.shift(-100_000)
        look(client, seen, gid, (tok0, tok1))
    # aborted under T-6 (RULES T-6), by the operator and by the service (a hosted bot's
    # decisions not run for idle_forfeit_s): who and why in the view and the log
    gid, tok0, tok1 = new_game(client, "spit")
    assert svc.acting.submit(gid, None, domain.Abort(why="a test of the schemas")) is not None
    look(client, seen, gid, (tok0, tok1))
    bot = client.post("/v1/games", json={"game": "speed", "opponent": "bot:easy"}).get_json()
    clock.shift(100_000)
    assert svc.acting.submit(bot["id"], None, domain.Timeout("T-6", 1)) is not None
    clock.shift(-100_000)
    look(client, seen, bot["id"], (bot["token"], bot["token"]))
    # resigned before anyone joined: aborted
    gid, tok0, _ = new_game(client, "speed", join=False)
    seen("Acted", act(client, gid, tok0, {"type": "resign"}).get_json())
    assert seen.types == set(domain.event_types()), set(domain.event_types()) - seen.types


@pytest.mark.parametrize("game", list(domain.RULES))
def test_every_action_the_rules_list_is_of_its_games_schema(game):
    actions = validator(shapes._camel(game) + "Action")
    for kind, (_cls, fields) in domain.RULES[game].ACTIONS.items():
        body = {"type": kind, **{f.wire: 0 if f.kind is not CARD else "10H" for f in fields}}
        actions.validate(body)
        validator("Action").validate(body)
        assert not actions.is_valid({**body, "extra": 1})


@pytest.mark.parametrize("game", list(domain.RULES))
def test_every_field_a_game_redacts_has_its_redacted_form(game):
    rules = domain.RULES[game]
    assert set(rules.REDACTED) == set(rules.REDACT)
    for cls, hidden in rules.REDACTED.items():
        props = SPEC["components"]["schemas"][cls.__name__ + "Event"]["properties"]
        assert set(hidden) <= set(props) and all("anyOf" in props[f] for f in hidden)


def test_every_example_of_the_spec_is_valid_against_its_schema():
    count = 0
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict):
                continue
            media = [*op.get("requestBody", {}).get("content", {}).values()]
            for answer in op.get("responses", {}).values():
                media += answer.get("content", {}).values()
            for m in media:
                for name, example in m.get("examples", {}).items():
                    schema = {**m["schema"], "components": SPEC["components"]}
                    check = jsonschema_rs.Draft202012Validator(schema, validate_formats=True)
                    assert check.is_valid(example["value"]), (method, path, name)
                    count += 1
    assert count >= 7
