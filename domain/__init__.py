"""spitlog's rules engine: card games as a pure, event-sourced domain.

Nothing here does I/O: time, randomness and the secret seed come in as arguments
(``Ctx``). The decider shape: ``decide(state, action, ctx) -> events``,
``evolve(state, event) -> state``, ``replay(events) -> state``. The games are found in
the registry (``registry.py``: the built-ins, the installed packages' and the
registered ones); ``RULES`` reads it at each use.
"""

from . import registry
from .actions import Abort, Join, Ready, Resign, Timeout
from .cards import DECK, Card, CardError, adjacent
from .codec import current, event_from_dict, event_to_dict, event_types
from .errors import (
    DomainError,
    GameOver,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    SeatUnavailable,
)
from .events import Event
from .game import (
    HOSTED,
    KINDS,
    Ctx,
    Deadline,
    action_to_dict,
    check_why,
    create_game,
    deadlines,
    decide,
    evolve,
    legal_actions,
    options_for,
    parse_action,
    replay,
    rules_for,
    run,
)
from .options import Options
from .registry import RULES
from .rules import Rules
from .shuffle import commitment, shuffle
from .snapshot import state_from_dict, state_to_dict
from .state import Player, State
from .views import full_state, redact, view

__all__ = [
    "Abort", "DECK", "HOSTED", "KINDS", "RULES", "Card", "CardError", "Ctx", "Deadline",
    "DomainError", "Event", "GameOver", "IllegalAction", "InvalidOptions", "Join",
    "MalformedAction", "Options", "Player", "Ready", "Resign", "Rules", "SeatUnavailable",
    "State", "Timeout", "action_to_dict", "adjacent", "check_why", "commitment", "create_game",
    "current", "deadlines", "decide", "event_from_dict", "event_to_dict", "event_types",
    "evolve", "full_state", "legal_actions", "options_for", "parse_action", "redact",
    "registry", "replay", "rules_for", "run", "shuffle", "state_from_dict", "state_to_dict",
    "view",
]  # fmt: skip
