"""spitlog's rules engine: Spit and Speed as a pure, event-sourced domain.

Nothing here does I/O: time, randomness and the secret seed come in as arguments
(``Ctx``). The decider shape: ``decide(state, action, ctx) -> events``,
``evolve(state, event) -> state``, ``replay(events) -> state``.
"""

from .actions import (
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
    action_to_dict,
    parse_action,
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
    KINDS,
    Ctx,
    Deadline,
    create_game,
    deadlines,
    decide,
    evolve,
    legal_actions,
    replay,
    run,
)
from .options import GAMES, Options, parse_options
from .shuffle import commitment, shuffle
from .snapshot import state_from_dict, state_to_dict
from .state import Player, State
from .views import full_state, redact, view

__all__ = [
    "DECK", "GAMES", "KINDS", "Card", "CardError", "Choose", "Ctx", "Deadline", "DomainError",
    "Draw", "Event", "GameOver", "IllegalAction", "InvalidOptions", "Join", "MalformedAction",
    "Move", "Options", "Play", "PlayCard", "Player", "Ready", "Resign", "SeatUnavailable", "Slap",
    "Spit", "State", "Timeout", "TurnUp", "action_to_dict", "adjacent", "commitment",
    "create_game", "deadlines", "decide", "event_from_dict", "event_to_dict", "evolve",
    "full_state", "legal_actions", "parse_action", "parse_options", "redact", "replay", "run",
    "shuffle", "state_from_dict", "state_to_dict", "view",
]  # fmt: skip
