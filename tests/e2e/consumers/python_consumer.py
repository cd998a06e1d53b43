"""An integrator's program on the installed ``spitlog-client`` (tests/e2e/
test_client_packages.py copies it into a clean project): it must type-check with
``mypy --strict --disallow-any-expr`` (no value of the client's typed ``Any``) and play a
short game of Speed against the server at ``argv[1]``: both seats (the second joined
without a token), both ready, a refused move (its rule), a legal one, a resignation, every
event read live, typed; and check webhook signatures (``SPITLOG_TEST_WEBHOOK``: secret,
header, body and time as JSON). Its last line is a JSON summary."""

import json
import os
import sys
from typing import cast

from spitlog_client.models import (
    CardPlayedEvent,
    CreateGame,
    CreateGameGame,
    GameEndedEvent,
    SpeedPlayAction,
    SpeedReadyAction,
    SpeedResignAction,
    SpeedState,
)
from spitlog_sdk import ApiError, Event, Spitlog, State, verify


def speed(view: State) -> SpeedState:
    assert isinstance(view, SpeedState), view
    return view


def main(base: str) -> dict[str, object]:
    api = Spitlog(base)
    created = api.create_game(CreateGame(game=CreateGameGame.SPEED))
    assert created.token is not None
    me = api.seat(created.token)
    other = api.seat(api.join(created.id).token)  # joined without a token
    me.act(created.id, SpeedReadyAction())  # the discriminator is the class's default
    acted = other.act(created.id, SpeedReadyAction())
    view = speed(me.get_game(created.id))
    hand = set(view.players[0].hand or [])  # ours: seat 0
    refused: ApiError | None = None
    outside = next(c for r in "A23456789" for c in (r + "C", r + "D") if c not in hand)
    try:
        me.act(created.id, SpeedPlayAction(card=outside, to=0))
    except ApiError as e:
        refused = e
    assert refused is not None
    plays = [a for a in view.legal_actions if isinstance(a, SpeedPlayAction)]
    played = me.act(created.id, plays[0]).version if plays else None
    other.act(created.id, SpeedResignAction())
    events: list[Event] = list(me.events(created.id))
    last = events[-1]
    secret, header, body, t = cast(list[str], json.loads(os.environ["SPITLOG_TEST_WEBHOOK"]))
    return {
        "game": created.id,
        "version_after_ready": acted.version,
        "refused": [refused.status, refused.rule, refused.type],
        "played": played,
        "cards_played": sum(isinstance(e, CardPlayedEvent) for e in events),
        "events": [type(e).__name__ for e in events],
        "versions": [e.version for e in events],
        "ended": [last.winner, last.reason] if isinstance(last, GameEndedEvent) else None,
        "status": str(speed(me.get_game(created.id)).status),
        "verified": verify(secret, header, body.encode(), now=float(t)),
        "tampered": verify(secret, header, body.encode() + b" ", now=float(t)),
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1])))
