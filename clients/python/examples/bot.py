"""A bot that plays Speed against a hosted bot (bot:easy) to the end, over the API with
spitlog_sdk: it follows the game's events live and, after each, acts with one of the
legal actions of its view (a play if it has one); each action gets an Idempotency-Key by
itself. A 422 means the move lost a race to the other seat, so it looks again.

    python clients/python/examples/bot.py http://127.0.0.1:8000
"""

import random
import sys

from spitlog_client.models import CreateGame, CreateGameGame, CreateGameOpponent, SpeedState
from spitlog_sdk import ApiError, Spitlog


def move(me: Spitlog, game_id: str) -> None:
    """One move, if the view has one for us; again (at most 3 times) after a lost race."""
    for _ in range(3):
        view = me.get_game(game_id)
        if not isinstance(view, SpeedState) or view.status != "running":
            return
        actions = [a for a in view.legal_actions if a.type_ != "resign"]
        choices = [a for a in actions if a.type_ == "play"] or actions
        if not choices:
            return
        try:
            me.act(game_id, random.choice(choices))
            return  # done; its events will come
        except ApiError as e:
            if e.status != 422:
                raise


def main(base: str) -> None:
    body = CreateGame(game=CreateGameGame.SPEED, opponent=CreateGameOpponent.BOTEASY)
    with Spitlog(base) as api:
        created = api.create_game(body)
        assert created.token is not None  # a seat of ours: seat 0
        with api.seat(created.token) as me:
            move(me, created.id)
            seen = 0
            for _event in me.events(created.id):
                seen += 1
                move(me, created.id)
            end = me.get_game(created.id)
    print(f"game {created.id}: {end.status} after {seen} events; winner seat {end.winner}, "
          f"result {end.result} (you are seat 0)")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
