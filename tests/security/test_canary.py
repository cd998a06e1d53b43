"""The hidden-information canary (RULES H-1..H-5): play whole games through the API with
random legal actions (and some illegal ones) and keep every byte sent to seat 1 and to
a spectator: views, action answers, errors, events as JSON, SSE and NDJSON streams
(with views and without), long-polls, past states, every header. None may name a card
its receiver has not been able to see by then; what it may see is worked out from the
full states, not from domain.view.

The same over the seat channel (``GET /v1/games/{id}/live``, on `spitlog serve`): every
frame each viewer (seat 0, seat 1, a spectator) is sent while both seats play on their
channels, seat 1 sending illegal actions now and then."""

import json
import random
import zlib

import pytest
import requests

import domain
from service.http.app import create_app
from tests.support.api import app_settings, bearer, new_game, pick
from tests.support.cards import cards_in_text as cards_in
from tests.support.cards import visible_cards
from tests.support.live import Viewer, play_over_channels
from tests.support.processes import free_port, start, stop, wait_ready

ALL_CARDS = {str(c) for c in domain.DECK}


def capture(r) -> str:
    head = "".join(f"{k}: {v}\n" for k, v in r.headers.items())
    return head + r.get_data(as_text=True)


def illegal_body(game: str, view: dict, rng: random.Random) -> dict:
    """An action the rules likely refuse now, naming no card the seat cannot see."""
    if game == "spit":
        return rng.choice([
            {"type": "play", "from": rng.randrange(5), "to": rng.randrange(2)},
            {"type": "move", "from": rng.randrange(5), "to": rng.randrange(5)},
            {"type": "turn_up", "stockpile": rng.randrange(5)},
            {"type": "spit"}, {"type": "slap", "pile": 0}, {"type": "ready"},
        ])  # fmt: skip
    hand = view["players"][1].get("hand") or []
    options = [{"type": "draw"}, {"type": "spit"}, {"type": "ready"}]
    options += [{"type": "play", "card": c, "to": rng.randrange(2)} for c in hand]
    return rng.choice(options)


def play_and_capture(client, game: str, options: dict, seed: int):
    rng = random.Random(seed)
    gid, t0, t1 = new_game(client, game=game, options=options)
    tokens = (t0, t1)
    seen = {1: [], None: []}  # receiver -> [(version when received, text)]
    version = 3

    def keep(who, r, v=None):
        seen[who].append((v if v is not None else version, capture(r)))

    for step in range(20_000):
        seat = rng.randrange(2)
        view = client.get(f"/v1/games/{gid}", headers=bearer(tokens[seat])).get_json()
        if view["status"] in ("finished", "aborted"):
            break
        version = view["version"]
        if seat == 1 and rng.random() < 0.15:
            r = client.post(f"/v1/games/{gid}/actions", json=illegal_body(game, view, rng),
                            headers=bearer(t1))  # fmt: skip
            if r.status_code == 201:  # "likely": it may have been legal after all
                version = r.get_json()["version"]
                view = client.get(f"/v1/games/{gid}", headers=bearer(tokens[seat])).get_json()
            keep(1, r)
        action = pick(view, rng)
        if action is not None:
            r = client.post(
                f"/v1/games/{gid}/actions",
                json=action,
                headers={**bearer(tokens[seat]), "Idempotency-Key": f"s{step}"},
            )
            if r.status_code == 201:
                version = r.get_json()["version"]
            if seat == 1:
                keep(1, r)
        r = client.get(f"/v1/games/{gid}", headers=bearer(t1))
        keep(1, r, int(r.headers["ETag"].strip('"')))
        if step % 7 == 0:
            after = rng.randrange(version + 1)
            keep(1, client.get(f"/v1/games/{gid}/events?after={after}", headers=bearer(t1)))
            keep(None, client.get(f"/v1/games/{gid}/events?after={after}"))
            keep(None, client.get(f"/v1/games/{gid}"))
            v = rng.randrange(1, version + 1)
            keep(1, client.get(f"/v1/games/{gid}/states/{v}", headers=bearer(t1)))
            keep(None, client.get(f"/v1/games/{gid}/states/{v}"))
        if step % 29 == 0:
            sse = {"Accept": "text/event-stream", "Last-Event-ID": str(rng.randrange(version))}
            keep(1, client.get(f"/v1/games/{gid}/events", headers={**sse, **bearer(t1)}))
            # the streams with views, from now and resumed, as SSE and as NDJSON
            for accept in ("text/event-stream", "application/x-ndjson"):
                keep(1, client.get(f"/v1/games/{gid}/events?views=true",
                                   headers={"Accept": accept, **bearer(t1)}))  # fmt: skip
                keep(None, client.get(f"/v1/games/{gid}/events?views=true",
                                      headers={**sse, "Accept": accept}))  # fmt: skip
            keep(None, client.get(f"/v1/games/{gid}/events?wait=0.05&after={version}"))
            keep(1, client.get(f"/v1/games/{gid}/audit", headers=bearer(t1)))  # 409
    else:
        pytest.fail("the game did not end")
    return gid, seen


@pytest.mark.parametrize(
    "game, options",
    [
        ("spit", {"max_rounds": 4}),
        ("spit", {"max_rounds": 2, "stockpiles": 4, "pile_choice": "choose"}),
        ("speed", {"target_score": 25, "max_rounds": 3}),
    ],
)
def test_no_byte_sent_before_the_end_names_a_card_its_receiver_could_not_see(
    redis_client, game, options
):
    app = create_app(app_settings(sse_max_s=0.02), redis_client=redis_client)
    client = app.test_client()
    gid, seen = play_and_capture(
        client, game, options, seed=zlib.crc32(f"{game}{options}".encode())
    )

    log = client.get(f"/v1/games/{gid}/audit").get_json()["events"]
    check_captured(log, seen, checked_at_least=20)


def check_captured(log: list[dict], seen: dict, checked_at_least: int) -> None:
    """Each text ``seen[who]`` holds, received at a version before the end, names only
    cards ``who`` could see by then (the states rebuilt from the audit's ``log``)."""
    states = [domain.State()]
    for e in log:
        d = {k: v for k, v in e.items() if k != "version"}
        states.append(domain.evolve(states[-1], domain.event_from_dict(d)))
    final = states[-1].version
    for who, captured in seen.items():
        allowed = [set()]  # allowed[v]: every card `who` could see at some version <= v
        for s in states[1:]:
            allowed.append(allowed[-1] | visible_cards(s, who))
        checked = 0
        for v, text in captured:
            if v >= final:  # the game is over: everything is public (H-6)
                continue
            leaked = cards_in(text) & (ALL_CARDS - allowed[v])
            assert not leaked, f"{who=} at version {v} received hidden {leaked}: {text[:400]}"
            checked += 1
        assert checked > checked_at_least
        # the canary can sing: the full state at a checked version names hidden cards
        mid = states[3]  # just dealt: the spit cards, draw and side piles are all unseen
        full = json.dumps(domain.full_state(mid))
        assert cards_in(full) & (ALL_CARDS - allowed[mid.version])


@pytest.fixture(scope="module")
def served_channel(redis_url):
    """`spitlog serve` on the real Redis, its limits off (the seats play flat out)."""
    port = free_port()
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
           "SPITLOG_RATE_REQUESTS": "0", "SPITLOG_RATE_ACTIONS": "0", "SPITLOG_RATE_SEAT": "0",
           "SPITLOG_LIVE_FRAMES_PER_S": "10000"}  # fmt: skip
    proc = start(["serve"], env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc)
    except RuntimeError:
        pytest.fail(stop(proc))
    yield base
    stop(proc)


@pytest.mark.parametrize(
    "game, options",
    [("spit", {"max_rounds": 3}), ("speed", {"target_score": 25, "max_rounds": 2})],
)
def test_no_frame_of_the_seat_channel_names_a_card_its_receiver_could_not_see(
    served_channel, game, options
):
    """RULES H-1..H-5 over the channel, for every viewer: seat 0, seat 1, a spectator."""
    base = served_channel
    g = requests.post(f"{base}/v1/games", json={"game": game, "options": options}).json()
    gid = g["id"]
    t1 = requests.post(f"{base}/v1/games/{gid}/seats", json={}).json()["token"]
    seats = [Viewer(base, gid, g["token"], resume=True), Viewer(base, gid, t1, resume=True)]
    spectator = Viewer(base, gid, resume=True)
    seen = {0: [], 1: [], None: []}  # receiver -> [(its version when received, the frame)]

    seats[0].on_frame = lambda text, at: seen[0].append((at, text))
    seats[1].on_frame = lambda text, at: seen[1].append((at, text))
    spectator.on_frame = lambda text, at: seen[None].append((at, text))
    play_over_channels(seats, seed=zlib.crc32(f"{game}{options}".encode()),
                       illegal=lambda view, rng: illegal_body(game, view, rng))  # fmt: skip
    for viewer in (*seats, spectator):
        viewer.closed()
    log = requests.get(f"{base}/v1/games/{gid}/audit").json()["events"]
    check_captured(log, seen, checked_at_least=10)
