"""A bot that plays Speed against a hosted bot (bot:easy) to the end, over the API with
spitlog_client: it follows the game's events live (spitlog_sse) and, after each, acts with
one of the legal actions of its view (a play if it has one), an Idempotency-Key on each; a
422 means the move lost a race to the other seat, so it looks again.

    python clients/python/examples/bot.py http://127.0.0.1:8000
"""

import random
import sys
import uuid

from spitlog_client import AuthenticatedClient, Client
from spitlog_client.api.games import act, create_game, get_game
from spitlog_client.models import CreateGame, CreateGameGame, CreateGameOpponent, SpeedState
from spitlog_sse import events


def move(me: AuthenticatedClient, game_id: str) -> None:
    """One move, if the view has one for us; again (at most 3 times) after a lost race."""
    for _ in range(3):
        view = get_game.sync(game_id, client=me)
        if not isinstance(view, SpeedState) or view.status != "running":
            return
        actions = [a for a in view.legal_actions if a.type_ != "resign"]
        choices = [a for a in actions if a.type_ == "play"] or actions
        if not choices:
            return
        answer = act.sync_detailed(
            game_id, client=me, body=random.choice(choices), idempotency_key=str(uuid.uuid4())
        )
        if answer.status_code != 422:  # 201: done; its events will come
            return


def main(base: str) -> None:
    body = CreateGame(game=CreateGameGame.SPEED, opponent=CreateGameOpponent.BOTEASY)
    created = create_game.sync(client=Client(base), body=body)
    me = AuthenticatedClient(base, token=created.token)
    move(me, created.id)
    seen = 0
    for _event in events(me, created.id):
        seen += 1
        move(me, created.id)
    end = get_game.sync(created.id, client=me)
    print(f"game {created.id}: {end.status} after {seen} events; winner seat {end.winner}, "
          f"result {end.result} (you are seat 0)")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
