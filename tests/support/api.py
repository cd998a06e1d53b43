"""Helpers for the tests that talk to the API: the tests' settings, a game, a pick."""

import random
import threading
import time
import uuid

import domain
from service import config

TEST_SETTINGS = {
    "sse_max_s": 0.3,  # streams end soon, so that a test reads them whole
    "sse_keepalive_s": 0.1,
    "longpoll_max_s": 1.0,
    # limits off (tests act far faster than any client, from one address); test_limits.py
    # turns them on
    "rate_actions": 0,
    "rate_requests": 0,
    "rate_games": 0,
    "rate_seat": 0,
    "rate_seat_reserve": 0,
    "rate_auth_failures": 0,
    "streams_per_client": 0,
    "streams_per_address": 0,
    "metrics_bind": "127.0.0.1:9464",  # ``scrape`` comes in on it
}
METRICS_PORT = 9464


class _Listening:
    """A connection's socket as a test client's request names it: its local end on
    ``port``, as a server's accepted connection tells it (``app.local_port``)."""

    def __init__(self, port: int):
        self.port = port

    def getsockname(self):
        return ("127.0.0.1", self.port)


def on_port(port: int) -> dict:
    """The test client's keywords for a request that came in on the server's ``port``."""
    return {"environ_overrides": {"werkzeug.socket": _Listening(port)}}


def scrape(client, **kw):
    """``GET /metrics`` on the metrics listener of the tests' apps (``TEST_SETTINGS``)."""
    return client.get("/metrics", **on_port(METRICS_PORT), **kw)


def app_settings(**overrides) -> config.Settings:
    """The tests' settings (``TEST_SETTINGS``) with ``overrides`` (field names)."""
    return config.load(warn=None, **{**TEST_SETTINGS, **overrides})


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client, game: str = "spit", join: bool = True, **body) -> tuple[str, str, str | None]:
    """Create a game (and take seat 1): (id, seat 0's token, seat 1's token); each with an
    Idempotency-Key of its own (strict durability requires one)."""
    r = client.post("/v1/games", json={"game": game, **body}, headers=_seat_key())
    assert r.status_code == 201, r.get_json()
    g = r.get_json()
    tok1 = None
    if join:
        r = client.post(f"/v1/games/{g['id']}/seats", json={}, headers=_seat_key())
        assert r.status_code == 201, r.get_json()
        tok1 = r.get_json()["token"]
    return g["id"], g["token"], tok1


def _seat_key() -> dict:
    return {"Idempotency-Key": uuid.uuid4().hex}


def pick(view: dict, rng: random.Random) -> dict | None:
    """A random legal action of the view's seat, resign aside."""
    acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
    return rng.choice(acts) if acts else None


def act(client, gid, token, body, **headers):
    return client.post(f"/v1/games/{gid}/actions", json=body, headers={**bearer(token), **headers})


def problem_of(r, status: int) -> dict:
    """The problem+json body of ``r``, checked to be one with ``status``."""
    assert r.status_code == status, r.get_data(as_text=True)
    assert r.mimetype == "application/problem+json"
    body = r.get_json()
    assert {"type", "title", "status", "detail"} <= set(body)
    assert body["status"] == status
    return body


def play_to_the_end(client, gid, t0, t1, rng_seed=1, max_actions=5000) -> dict:
    """Random legal actions of random seats until the game is over: its last view."""
    rng = random.Random(rng_seed)
    tokens = (t0, t1)
    for _ in range(max_actions):
        seat = rng.randrange(2)
        view = client.get(f"/v1/games/{gid}", headers=bearer(tokens[seat])).get_json()
        if view["status"] in ("finished", "aborted"):
            return view
        a = pick(view, rng)
        if a is not None:
            act(client, gid, tokens[seat], a)
    raise AssertionError("the game did not end")


def move_each(client, uses, gid: str, tokens, rng_seed: int = 1, timeout: float = 60.0):
    """Play random legal actions (resign aside) until each seat has made a move
    (``State.moved``: an action of the game's play of its own, so that a rated game may
    end in a result). Per seat, ``tokens`` gives its token (it acts through the API),
    None for a hosted bot's seat acted for by the workers' path (``Acting.submit``, what
    a worker does), or ``"workers"`` for one whose moves real workers make (waited for).
    ``uses``: what holds the use cases (``reading``, ``acting``: the app's services, a
    worker's runtime). Answers the state."""
    rng = random.Random(rng_seed)
    end = time.monotonic() + timeout
    while True:
        state = uses.reading.load(gid).state
        if state.over or (state.moved[0] and state.moved[1]):
            return state
        assert time.monotonic() < end, f"the seats of {gid} did not both move: {state.moved}"
        acted = False
        for seat, token in enumerate(tokens):
            acts = [a for a in domain.legal_actions(state, seat) if type(a) is not domain.Resign]
            if not acts or token == "workers":
                continue
            a = rng.choice(acts)
            if token is None:
                uses.acting.submit(gid, seat, a)
            else:
                act(client, gid, token, domain.action_to_dict(a))
            acted = True
            state = uses.reading.load(gid).state
        if not acted:
            time.sleep(0.02)  # a bot of the workers has the next move


def undecorated(view: dict) -> dict:
    """A view without what the service adds to the domain's (``service.players.decorate``:
    the seats' players, ``result_url``, ``rated``, ``unrated``, the rematch links), to
    compare with ``domain.view``."""
    out = {k: v for k, v in view.items()
           if k not in ("result_url", "rated", "unrated", "rematch", "rematch_of")}  # fmt: skip
    out["players"] = [{k: v for k, v in p.items() if k not in ("name", "player", "rating_diff")}
                      for p in view["players"]]  # fmt: skip
    return out


def stream_ids(app, gid: str, token: str, into: list, after: int = 3, until: str | None = None):
    """Read the game's SSE stream (from ``after``) with a test client of ``app``, putting
    each event's ``id: N`` line into ``into``; return once ``until`` is among them, or
    when the stream ends."""
    r = app.test_client().get(
        f"/v1/games/{gid}/events",
        headers={**bearer(token), "Accept": "text/event-stream", "Last-Event-ID": str(after)},
        buffered=False,
    )
    for chunk in r.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        into.extend(line for line in text.splitlines() if line.startswith("id: "))
        if until is not None and until in into:
            return


def streaming(app, gid: str, token: str, until: str | None = None):
    """``stream_ids`` of ``gid`` in a daemon thread, started: (the thread, the list its
    ``id:`` lines go into)."""
    got: list[str] = []
    t = threading.Thread(target=stream_ids, args=(app, gid, token, got),
                         kwargs={"until": until}, daemon=True)  # fmt: skip
    t.start()
    return t, got


def watched(hub, gid: str, version: int = 3, timeout: float = 5.0) -> None:
    """Until ``hub`` watches ``gid`` and knows it at ``version`` or later (its
    subscription confirmed, its version read); fails after ``timeout``."""
    end = time.monotonic() + timeout
    while not ((w := hub._watches.get(gid)) is not None and w.version >= version):
        assert time.monotonic() < end, f"the hub did not get to watch {gid}"
        time.sleep(0.005)
