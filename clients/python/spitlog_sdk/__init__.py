"""The spitlog API from Python, typed and with safe defaults, over the generated
``spitlog_client`` (its models are the types every call answers):

    from spitlog_client.models import CreateGame, CreateGameGame, SpeedPlayAction
    from spitlog_sdk import ApiError, Spitlog

    api = Spitlog("http://127.0.0.1:8000")
    created = api.create_game(CreateGame(game=CreateGameGame.SPEED))
    me = api.seat(created.token)            # seat 0
    other = api.seat(api.join(created.id).token)
    try:
        me.act(created.id, SpeedPlayAction(card="3H", to=0))
    except ApiError as e:
        print(e.status, e.rule)             # 422 C-... : the rule that refused it
    for event in me.events(created.id):     # CardPlayedEvent, ... as they happen
        ...

- ``Spitlog``: ``create_game``, ``join``, ``get_game``, ``state_at``, ``act``, ``events``;
- ``safe_client``: the generated client with the same defaults, for every other call;
- ``LiveGame``: a game kept current from the events stream with views (``for state in
  live``), its actions sent with ``act``;
- ``ApiError``: ``status``, ``problem``, ``rule``, ``retry_after``; ``RuleRefused`` (422,
  the rules' refusal, ``rule`` its ID) and ``VersionMoved`` (412) are ``ApiError``s;
- ``verify``: a webhook's ``Spitlog-Signature``;
- ``State``, ``Event``, ``SpitAction``, ``SpeedAction``, ``Action``: the unions by name.
"""

from spitlog_client.unions import Event, SpeedAction, SpitAction, State

from ._transport import (
    DEFAULT_TIMEOUT,
    AsyncSafeTransport,
    RetryPolicy,
    SafeTransport,
    new_idempotency_key,
)
from .client import Action, Spitlog, safe_client
from .errors import ApiError, RuleRefused, VersionMoved
from .live import LiveGame, parse_state
from .sse import events, parse_event
from .webhooks import verify

__all__ = [
    "DEFAULT_TIMEOUT",
    "Action",
    "ApiError",
    "AsyncSafeTransport",
    "Event",
    "LiveGame",
    "RetryPolicy",
    "RuleRefused",
    "SafeTransport",
    "SpeedAction",
    "SpitAction",
    "Spitlog",
    "State",
    "VersionMoved",
    "events",
    "new_idempotency_key",
    "parse_event",
    "parse_state",
    "safe_client",
    "verify",
]
