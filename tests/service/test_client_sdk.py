"""The Python client's hand-written layer, ``spitlog_sdk`` (clients/python), over the API
in this process (httpx's WSGI transport on the Flask app) and over a scripted transport:
typed answers and ``ApiError`` with the rule, discriminators by default, a join without a
token, typed events; the safe defaults (a timeout, idempotency keys, bounded retries that
honour ``Retry-After``); the webhook signature check against the server's signatures; and
``mypy --strict`` over the layer and the example bot. tests/e2e/test_client_packages.py
checks the built packages as an integrator installs them."""

import asyncio
import contextlib
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest

from service.webhooks import new_secret, sign

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "python"
sys.path.insert(0, str(CLIENT))  # this checkout's client, before any installed one

from spitlog_client.models import (  # noqa: E402
    CardPlayedEvent,
    CreateGame,
    CreateGameGame,
    GameCreatedEvent,
    GameEndedEvent,
    SpeedPlayAction,
    SpeedReadyAction,
    SpeedResignAction,
    SpeedState,
    SpitMoveAction,
)
from spitlog_client.unions import EVENT_TYPES, SPEED_ACTION_TYPES, SPIT_ACTION_TYPES  # noqa: E402
from spitlog_sdk import (  # noqa: E402
    DEFAULT_TIMEOUT,
    ApiError,
    AsyncSafeTransport,
    RetryPolicy,
    Spitlog,
    verify,
)

BASE = "http://spitlog.test"


@pytest.fixture
def api(app):
    """The SDK on the app of this process (no token: anyone)."""
    with Spitlog(BASE, transport=httpx.WSGITransport(app=app)) as made:
        yield made


def test_a_game_through_the_sdk_is_typed_end_to_end(api):
    """Create, join without a token, ready with the discriminator left to its default, a
    move the rules refuse (RULES Q-3: not in the hand) as an ``ApiError`` with the rule, a
    legal play, a resignation (E-5), then every event of the stream as its class."""
    created = api.create_game(CreateGame(game=CreateGameGame.SPEED))
    assert isinstance(created.state, SpeedState) and created.token
    seated = api.join(created.id)  # no token needed
    me, other = api.seat(created.token), api.seat(seated.token)
    me.act(created.id, SpeedReadyAction())
    assert other.act(created.id, SpeedReadyAction()).version == 6
    view = me.get_game(created.id)
    assert isinstance(view, SpeedState) and view.you == 0 and view.status == "running"
    hand = set(view.players[0].hand or [])
    outside = next(c for r in "A23456789" for c in (r + "C", r + "D") if c not in hand)
    with pytest.raises(ApiError) as refused:
        me.act(created.id, SpeedPlayAction(card=outside, to=0))
    assert refused.value.status == 422 and refused.value.rule == "Q-3"
    assert refused.value.problem is not None and refused.value.problem.version == 6
    assert "rule Q-3" in str(refused.value)
    plays = [a for a in view.legal_actions if isinstance(a, SpeedPlayAction)]
    if plays:
        assert me.act(created.id, plays[0], expected_version=6).version == 7
    other.act(created.id, SpeedResignAction())
    events = list(me.events(created.id))
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert isinstance(events[0], GameCreatedEvent) and isinstance(events[-1], GameEndedEvent)
    assert events[-1].reason == "E-5" and events[-1].winner == 0
    assert sum(isinstance(e, CardPlayedEvent) for e in events) == (1 if plays else 0)
    assert me.get_game(created.id).status == "finished"
    assert me.state_at(created.id, 1).version == 1


def test_a_stale_expected_version_and_a_bad_body_are_api_errors(api):
    created = api.create_game(CreateGame(game=CreateGameGame.SPEED))
    me = api.seat(created.token)
    with pytest.raises(ApiError) as stale:
        me.act(created.id, SpeedReadyAction(), expected_version=99)
    assert stale.value.status == 412 and stale.value.rule is None
    with pytest.raises(ApiError) as bad:
        me.act(created.id, SpeedPlayAction(card="ZZ", to=0))
    assert bad.value.status == 400 and "card" in str(bad.value)
    with pytest.raises(ApiError) as missing:
        api.get_game("g_0000000000000000")
    assert missing.value.status == 404 and missing.value.type


def test_every_discriminator_is_its_class_default():
    assert SpeedPlayAction(card="3H", to=0).to_dict() == {"type": "play", "card": "3H", "to": 0}
    assert SpitMoveAction(from_=0, to=1).type_ == "move"
    for table in (SPIT_ACTION_TYPES, SPEED_ACTION_TYPES, EVENT_TYPES):
        for value, cls in table.items():
            (field,) = [f for f in cls.__attrs_attrs__ if f.name == "type_"]
            assert field.default == value, cls


class Scripted:
    """A transport that answers from a script (status, headers) or raises, recording
    every request it was sent."""

    def __init__(self, *answers):
        self.answers, self.sent = list(answers), []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        status, headers = answer
        body = {"id": "g_1", "seat": 0, "token": "t", "commitment": "c"}
        if status >= 400:
            body = {"type": "/docs#problem-x", "title": "T", "status": status, "detail": "d"}
        return httpx.Response(status, headers=headers, json=body)


def scripted(*answers) -> tuple[Spitlog, Scripted, list[float]]:
    script, slept = Scripted(*answers), []
    client = Spitlog(BASE, "tok", transport=httpx.MockTransport(script),
                     retry=RetryPolicy(sleep=slept.append))  # fmt: skip
    return client, script, slept


def create(client: Spitlog, **kw):
    """A create whose answer is not read as a game (the script's bodies are not one)."""
    with contextlib.suppress(KeyError, TypeError, ValueError):  # a scripted 201 is no Created
        client.create_game(CreateGame(game=CreateGameGame.SPEED), **kw)


def test_every_post_gets_its_own_random_idempotency_key_kept_across_retries():
    client, script, slept = scripted((503, {"Retry-After": "1"}), (201, {}))
    create(client)
    create(client)
    keys = [r.headers["Idempotency-Key"] for r in script.sent]
    assert len(script.sent) == 3 and slept == [1.0]
    assert keys[0] == keys[1] != keys[2]  # a retry keeps its call's key
    assert all(uuid.UUID(k).version == 4 for k in keys)
    create(client, idempotency_key="mine-0123456789abcdef")
    assert script.sent[-1].headers["Idempotency-Key"] == "mine-0123456789abcdef"
    with contextlib.suppress(KeyError):  # a scripted 201 is no view
        client.get_game("g_1")
    assert script.sent[-1].method == "GET" and "Idempotency-Key" not in script.sent[-1].headers


def test_429_and_503_are_retried_after_retry_after_at_most_twice():
    client, script, slept = scripted((429, {"Retry-After": "2"}), (503, {}), (201, {}))
    create(client)
    assert len(script.sent) == 3 and slept[0] == 2.0
    assert 1.0 <= slept[1] <= 1.25  # the second retry, no Retry-After: 0.5 s doubled, jittered
    client, script, slept = scripted((503, {"Retry-After": "1"}))
    with pytest.raises(ApiError) as e:
        create(client)
    assert len(script.sent) == 3 and slept == [1.0, 1.0]  # bounded: two retries
    assert e.value.status == 503 and e.value.retry_after == 1.0


def test_a_retry_after_longer_than_the_policy_waits_is_the_callers():
    client, script, slept = scripted((429, {"Retry-After": "120"}))
    with pytest.raises(ApiError) as e:
        create(client)
    assert len(script.sent) == 1 and slept == [] and e.value.retry_after == 120.0


def test_a_409_is_retried_only_with_retry_after():
    """The first request with the key still in progress (409 with Retry-After) is waited
    for; another 409 (a seat taken) is the caller's."""
    client, script, slept = scripted((409, {"Retry-After": "1"}), (201, {}))
    create(client)
    assert len(script.sent) == 2 and slept == [1.0]
    client, script, slept = scripted((409, {}))
    with pytest.raises(ApiError):
        create(client)
    assert len(script.sent) == 1


def test_a_failed_connection_is_retried_a_lost_answer_to_a_post_is_not():
    """A POST never sent is tried again; one whose answer was lost may have been applied,
    so it is raised (its request carries its key); a GET is tried again either way."""
    refused = httpx.ConnectError("refused")
    client, script, _ = scripted(refused, (201, {}))
    create(client)
    assert len(script.sent) == 2
    client, script, _ = scripted(httpx.ReadTimeout("slow"))
    with pytest.raises(httpx.ReadTimeout) as e:
        create(client)
    assert len(script.sent) == 1 and e.value.request.headers["Idempotency-Key"]
    client, script, _ = scripted(httpx.ReadTimeout("slow"))
    with pytest.raises(httpx.ReadTimeout):
        client.get_game("g_1")
    assert len(script.sent) == 3


def test_every_call_has_a_timeout_by_default():
    client = Spitlog(BASE)
    assert DEFAULT_TIMEOUT.read == 30.0 and DEFAULT_TIMEOUT.connect == 5.0
    assert client.api.get_httpx_client().timeout == DEFAULT_TIMEOUT
    assert client.api.get_async_httpx_client().timeout == DEFAULT_TIMEOUT
    assert Spitlog(BASE, timeout=2.5).api.get_httpx_client().timeout == httpx.Timeout(2.5)


def test_a_seat_closed_leaves_the_transport_it_was_given_open():
    """``seat()`` clients share a transport given to the first: closing one must not
    close it under the others."""
    closed = []

    class Given(httpx.MockTransport):
        def close(self) -> None:
            closed.append(self)

    given = Given(Scripted((201, {})))
    with Spitlog(BASE, transport=given) as api, api.seat("tok"):
        pass
    assert closed == []


def test_the_async_transport_keys_and_retries_too():
    script = Scripted((429, {"Retry-After": "0"}), (201, {}))
    transport = AsyncSafeTransport(httpx.MockTransport(script))

    async def post() -> int:
        async with httpx.AsyncClient(transport=transport, base_url=BASE) as http:
            return (await http.post("/v1/games", json={"game": "speed"})).status_code

    assert asyncio.run(post()) == 201
    assert len(script.sent) == 2
    assert script.sent[0].headers["Idempotency-Key"] == script.sent[1].headers["Idempotency-Key"]


def test_verify_accepts_the_servers_signatures_and_nothing_else():
    secret, t, body = new_secret(), 1_764_547_512, b'{"id":"evt_g_1_12_0","type":"game.finished"}'
    header = sign(secret, t, body)
    assert verify(secret, header, body, now=t) and verify(secret, header, body, now=t + 300)
    assert not verify(secret, header, body + b" ", now=t)
    assert not verify(new_secret(), header, body, now=t)
    assert not verify(secret, header, body, now=t + 301)  # a replay, too old
    assert not verify(secret, header, body, now=t - 301)
    for bad in ("", "t=x,v1=00", f"t={t}", f"v1={header.split('v1=')[1]}", "garbage"):
        assert not verify(secret, bad, body, now=t), bad


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_sdk_and_the_example_bot_pass_mypy_strict():
    """clients/python/pyproject.toml's mypy settings: ``--strict``, the generated code's
    own errors ignored (not the types it declares)."""
    r = subprocess.run([sys.executable, "-m", "mypy", "spitlog_sdk", "examples"], cwd=CLIENT,
                       capture_output=True, text=True, timeout=280)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
