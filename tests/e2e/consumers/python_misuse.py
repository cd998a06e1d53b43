"""Lines an integrator's type checker must refuse (tests/e2e/test_client_packages.py):
each line marked ``# refused`` must get an error from ``mypy --strict``, and no other."""

from spitlog_client.models import SpeedPlayAction, SpeedState
from spitlog_sdk import Spitlog

api = Spitlog("http://127.0.0.1:8000", "token")
SpeedPlayAction(card=3, to=0)  # refused: a card is a str
SpeedPlayAction(card="3H", to=0, nope=True)  # refused: no such field
SpeedPlayAction(type_="draw", card="3H", to=0)  # refused: another action's type
api.act("g_1", {"type": "play", "card": "3H", "to": 0})  # refused: a dict is no action
field = api.get_game("g_1").nope  # refused: a view has no such field
view: SpeedState = api.get_game("g_1")  # refused: the view of either game
created_token: str = api.create_game(None)  # refused: a body is needed, a Created answered
