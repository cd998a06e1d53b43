"""A bot that plays Speed against a hosted bot (bot:easy) to the end, over the API with
spitlog_sdk's LiveGame: the server streams its seat's view after every event, so it
never reads the game again; on each new view it acts with one of its legal actions (a
play if it has one), each action with an Idempotency-Key made for it. A RuleRefused
(422) means the move lost a race to the other seat: the next view comes anyway.

    python clients/python/examples/bot.py http://127.0.0.1:8000
"""

import random
import sys

from spitlog_client.models import CreateGame, CreateGameGame, CreateGameOpponent, SpeedState
from spitlog_sdk import LiveGame, RuleRefused, SpeedAction, Spitlog


def choose(view: SpeedState) -> SpeedAction | None:
    """One of the view's legal actions, a play if there is one (None: nothing to do)."""
    actions = [a for a in view.legal_actions if a.type_ != "resign"]
    return random.choice([a for a in actions if a.type_ == "play"] or actions or [None])


def main(base: str) -> None:
    body = CreateGame(game=CreateGameGame.SPEED, opponent=CreateGameOpponent.BOTEASY)
    with Spitlog(base) as api:
        created = api.create_game(body)
        assert created.token is not None  # a seat of ours: seat 0
        with api.seat(created.token) as me:
            live, seen, races = LiveGame(me, created.id), 0, 0
            for view in live:  # the view now, then each new one until the end
                seen += 1
                action = choose(view) if isinstance(view, SpeedState) else None
                if action is not None and view.status == "running":
                    try:
                        live.act(action)
                    except RuleRefused:
                        races += 1
            end = live.state
    assert end is not None
    print(f"{races} races lost, {live.reconnects} reconnects")
    print(f"game {created.id}: {end.status} after {seen} views; winner seat {end.winner}, "
          f"result {end.result} (you are seat 0)")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
