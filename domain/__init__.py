"""spitlog's rules engine: Spit and Speed as a pure, event-sourced domain.

Nothing here does I/O: time, randomness and the secret seed come in as arguments
(``Ctx``). The decider shape: ``decide(state, action, ctx) -> events``,
``evolve(state, event) -> state``, ``replay(events) -> state``.
"""

from .actions import (
    Abort,
    Choose,
    Draw,
    Join,
    Move,
    Play,
    PlayCard,
    Ready,
    Resign,
    Slap,
    Spit,
    Timeout,
    TurnUp,
)
from .cards import DECK, Card, CardError, adjacent
from .errors import (
    DomainError,
    GameOver,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    SeatUnavailable,
)
from .events import Event, event_from_dict, event_to_dict
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
from .rules import GAMES, RULES, Rules
from .shuffle import commitment, shuffle
from .snapshot import state_from_dict, state_to_dict
from .state import Player, State
from .views import full_state, redact, view

__all__ = [
    "Abort", "DECK", "GAMES", "HOSTED", "KINDS", "RULES", "Card", "CardError", "Choose", "Ctx",
    "Deadline",
    "DomainError", "Draw", "Event", "GameOver", "IllegalAction", "InvalidOptions", "Join",
    "MalformedAction", "Move", "Options", "Play", "PlayCard", "Player", "Ready", "Resign",
    "Rules", "SeatUnavailable", "Slap", "Spit", "State", "Timeout", "TurnUp", "action_to_dict",
    "adjacent", "check_why", "commitment", "create_game", "deadlines", "decide", "event_from_dict",
    "event_to_dict", "evolve", "full_state", "legal_actions", "options_for", "parse_action",
    "redact", "replay", "rules_for", "run", "shuffle", "state_from_dict", "state_to_dict",
    "view",
]  # fmt: skip
