"""Hypothesis fuzzing of every request body: POST /v1/games, /seats and
/actions with arbitrary JSON values, and with objects mixing the schema's keys (valid
values and garbage) with unknown keys, under random Authorization, Idempotency-Key and
If-Match headers, and raw bytes that are not JSON at all.

For every answer: never a 5xx; every error is problem+json with its status, a 400
names its fields in ``errors`` (field -> messages), an illegal move (422) has its
``rule``; and a refused request changes nothing: the game's version, its seats and
the number of games stay as they were. A bounded number of examples per test in CI;
``SPITLOG_FUZZ_LONG=1`` for a long run.
"""

import json

import fakeredis
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domain import KINDS, RULES
from service.http.app import create_app
from tests.support import profiles
from tests.support.api import app_settings, bearer, new_game

LONG = profiles.FUZZ_LONG
FUZZ = settings(
    max_examples=3000 if LONG else 120,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=not LONG,  # CI runs the same examples every time
)
PROBLEM = "application/problem+json"

REDIS = fakeredis.FakeRedis(server=fakeredis.FakeServer())
APP = create_app(app_settings(sse_max_s=0.05, longpoll_max_s=0.05), redis_client=REDIS)
CLIENT = APP.test_client()

# ---------------------------------------------------------------- strategies

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
unknown_keys = st.dictionaries(
    st.text(max_size=12).filter(lambda k: k not in {"game", "options", "type"}), json_values,
    max_size=2,
)  # fmt: skip


def maybe(valid):
    """Mostly a valid value, sometimes anything at all."""
    return st.one_of(valid, valid, valid, json_values)


def some(structured, extra_keys=True):
    """Mostly objects of the schema's keys (now and then with unknown keys), sometimes
    any JSON value at all."""
    objects = st.builds(lambda known, extra: {**extra, **known}, structured,
                        st.just({}) | st.just({}) | st.just({}) | unknown_keys)  # fmt: skip
    return st.one_of(objects, objects, objects, json_values)


OPTION_VALUES = {
    "stockpiles": st.sampled_from([4, 5, 3, 6, 0, -1]),
    "pile_choice": st.sampled_from(["slap", "choose", "grab", ""]),
    "alternate_colors": st.booleans(),
    "side_piles": st.sampled_from([5, 10, 7]),
    "target_score": st.integers(-5, 20_000),
    "max_rounds": st.integers(-5, 20_000),
}
for _name in {s.name for rules in RULES.values() for s in rules.OPTIONS}:
    OPTION_VALUES.setdefault(_name, st.floats(-1, 100_000) | st.integers(-1, 100_000))
options = st.fixed_dictionaries({}, optional={k: maybe(v) for k, v in OPTION_VALUES.items()})
seeds = st.text(max_size=140)

create_bodies = some(
    st.fixed_dictionaries(
        {"game": maybe(st.sampled_from(["spit", "speed", "chess"]))},
        optional={
            "options": st.one_of(st.just({}), maybe(options)),
            "opponent": maybe(st.sampled_from(KINDS)),
            "seat0": maybe(st.sampled_from(KINDS)),
            "client_seed": maybe(seeds),
        },
    )  # fmt: skip
)
join_bodies = some(st.fixed_dictionaries({}, optional={"client_seed": maybe(seeds)}))
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"]
cards = st.builds(lambda r, s: r + s, st.sampled_from(RANKS), st.sampled_from("CDHSX"))
small = st.integers(-2, 6)
FIELDS = {"from": small, "to": small, "stockpile": small, "pile": st.none() | small, "card": cards}
SHAPES = [  # the actions of API.md, each with the fields it takes
    ("play", ("from", "to")), ("play", ("card", "to")), ("turn_up", ("stockpile",)),
    ("move", ("from", "to")), ("spit", ()), ("spit", ("pile",)), ("slap", ("pile",)),
    ("choose", ("pile",)), ("ready", ()), ("resign", ()), ("draw", ()),
]  # fmt: skip
shaped = st.sampled_from(SHAPES).flatmap(lambda shape: st.fixed_dictionaries(
    {"type": st.just(shape[0]), **{f: maybe(FIELDS[f]) for f in shape[1]}}))  # fmt: skip
ACTION_TYPES = sorted({kind for rules in RULES.values() for kind in rules.ACTIONS})
loose = st.fixed_dictionaries(
    {"type": maybe(st.sampled_from(ACTION_TYPES))},
    optional={f: maybe(v) for f, v in FIELDS.items()},
)
action_bodies = some(st.one_of(shaped, shaped, loose))
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=300)
idem_keys = st.one_of(st.none(), st.none(), st.sampled_from(["k1", "k2"]), header_text)
etags = st.sampled_from(['"1"', '"4"', "*", 'W/"4"', '"x"', "4", '"4", "5"'])
if_match = st.one_of(st.none(), st.none(), st.none(), header_text, etags)


def raw_or_json(bodies):
    """A body as bytes: JSON (NaN and lone surrogates allowed, as Python writes them), or
    bytes that may not be JSON at all."""
    as_json = bodies.map(lambda v: json.dumps(v).encode())
    return st.one_of(
        as_json, as_json, as_json,
        bodies.map(lambda v: json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass")),
        st.binary(max_size=40),
    )  # fmt: skip


# ---------------------------------------------------------------- checks


def check_answer(r, fuzzing: bool = True) -> dict | None:
    if fuzzing:
        event(f"{r.status_code}")  # the spread of answers: --hypothesis-show-statistics
    assert r.status_code < 500, r.get_data(as_text=True)
    if r.status_code < 400:
        return None
    assert r.mimetype == PROBLEM, (r.status_code, r.mimetype)
    body = r.get_json()
    assert {"type", "title", "status", "detail"} <= set(body), body
    assert body["status"] == r.status_code and body["type"].startswith("/docs#problem-")
    if r.status_code == 400:
        errors = body["errors"]
        assert errors and isinstance(errors, dict), body
        assert all(isinstance(k, str) and v and all(isinstance(m, str) for m in v)
                   for k, v in errors.items()), body  # fmt: skip
    if r.status_code == 422:
        assert body.get("rule") or body["type"].endswith("idempotency-key-reused"), body
    return body


def version(gid: str) -> int:
    return REDIS.xlen(f"spit:{{g:{gid}}}:log")


def meta(gid: str) -> dict:
    return REDIS.hgetall(f"spit:{{g:{gid}}}:meta")


def games_count() -> int:
    return len(REDIS.keys("spit:{g:*}:meta"))


def post(path: str, raw: bytes, headers: dict):
    return CLIENT.post(path, data=raw, content_type="application/json", headers=headers)


# ---------------------------------------------------------------- the tests


@FUZZ
@given(raw=raw_or_json(create_bodies))
def test_create_with_any_body(raw):
    before = games_count()
    r = post("/v1/games", raw, {})
    check_answer(r)
    if r.status_code == 201:
        gid = r.get_json()["id"]
        assert version(gid) == r.get_json()["state"]["version"]
        assert games_count() == before + 1
    else:
        assert games_count() == before  # a refused create made nothing


OPEN: list[str] = []


@FUZZ
@given(raw=raw_or_json(join_bodies) | st.just(b""),
       auth=st.sampled_from(["none", "own", "garbage"]))  # fmt: skip
def test_join_with_any_body(raw, auth):
    if not OPEN:
        OPEN.append(new_game(CLIENT, join=False)[0])
    gid = OPEN[0]
    headers = {"none": {}, "own": bearer(meta(gid)[b"tok0"].decode()),
               "garbage": bearer("not-a-token")}[auth]  # fmt: skip
    v, seats = version(gid), meta(gid).get(b"tok1")
    r = post(f"/v1/games/{gid}/seats", raw, headers)
    check_answer(r)
    if r.status_code == 201:
        assert version(gid) > v and meta(gid).get(b"tok1")
        OPEN.clear()  # the next example joins a new game
    else:
        assert version(gid) == v and meta(gid).get(b"tok1") == seats


PLAYING: list[tuple[str, str, str]] = []


def playing() -> tuple[str, str, str]:
    if PLAYING and meta(PLAYING[0][0])[b"status"] not in (b"finished", b"aborted"):
        return PLAYING[0]
    PLAYING[:] = [new_game(CLIENT, "speed" if len(PLAYING) % 2 else "spit")]
    return PLAYING[0]


@FUZZ
@given(
    how=st.sampled_from(["legal", "mutated", "fuzz", "fuzz"]),
    fuzzed=raw_or_json(action_bodies),
    pick=st.integers(0, 10**6),
    junk=st.tuples(st.sampled_from(["from", "to", "card", "type", "pile", "zzz"]), json_values),
    auth=st.sampled_from(["seat0", "seat1", "seat0", "seat1", "none", "garbage", "other game"]),
    key=idem_keys,
    match=if_match,
)
def test_act_with_any_body_and_headers(how, fuzzed, pick, junk, auth, key, match):
    gid, tok0, tok1 = playing()
    if not OTHER:
        OTHER.append(new_game(CLIENT, join=False)[1])
    headers = {"seat0": bearer(tok0), "seat1": bearer(tok1), "none": {},
               "garbage": bearer("x" * 43), "other game": bearer(OTHER[0])}[auth]  # fmt: skip
    if key is not None:
        headers["Idempotency-Key"] = key
    if match is not None:
        headers["If-Match"] = match
    raw = fuzzed
    if how != "fuzz":  # one of the seat's legal actions now, or one with a field made wrong
        view = CLIENT.get(f"/v1/games/{gid}", headers=bearer(tok1 if auth == "seat1" else tok0))
        legal = view.get_json()["legal_actions"] or [{"type": "spit"}]
        body = legal[pick % len(legal)]
        if how == "mutated":
            body = {**body, junk[0]: junk[1]}
        raw = json.dumps(body).encode()
    v, m = version(gid), meta(gid)
    r = post(f"/v1/games/{gid}/actions", raw, headers)
    body = check_answer(r)
    if r.status_code == 201:
        assert version(gid) == r.get_json()["version"] >= v
        replayed = r.headers.get("Idempotent-Replayed") == "true"
        assert replayed or version(gid) > v
    else:
        assert version(gid) == v, body  # a refused action appended nothing
        assert meta(gid) == m
        if body.get("version") is not None:
            assert body["version"] == v


OTHER: list[str] = []


# ---------------------------------------------------------------- what fuzzing found


@pytest.mark.parametrize(
    "path, raw",
    [
        ("/v1/games", b'{"game": "spit", "client_seed": "\\ud800"}'),  # was a 500
        ("/v1/games", b'{"game": "spit", "\\udc00": 1}'),  # an unknown key: was a 500
        ("/v1/games/{gid}/seats", b'{"client_seed": "x\\udfff"}'),
        ("/v1/games", b'{"game": ' + b"[" * 900 + b"]" * 900 + b"}"),  # was a 500
        ("/v1/games/{gid}/actions", b'{"type": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
        ("/v1/games", b'{"game": "spit", "options": {"spit_grace_s": NaN}}'),
    ],
)
def test_bodies_that_are_not_strict_json_are_400(path, raw):
    gid, tok0, _ = new_game(CLIENT, join=False)
    v = version(gid)
    r = post(path.format(gid=gid), raw, bearer(tok0))
    body = check_answer(r, fuzzing=False)
    assert r.status_code == 400 and body["errors"]["_body"][0].startswith("Invalid JSON body")
    assert version(gid) == v


def test_an_escaped_surrogate_pair_is_fine():
    r = post("/v1/games", b'{"game": "spit", "client_seed": "\\ud83d\\ude00"}', {})
    assert r.status_code == 201
