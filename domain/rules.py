"""The ``Rules`` protocol: everything that makes one game, in one module.

The engine (``game.py``, ``views.py``, ``audit.py``, ``bots.py``) never asks which game
it plays: it finds the game in the registry (``registry.py``) by the name its log gives
and calls its rules. A game is a module with the attributes below (PEP 544: a module can
implement a protocol), as boardgame.io's game definitions hold their setup, moves, end,
player view and AI together.
"""

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from .actions import Wire
from .events import Event
from .options import Options, OptionSpec
from .state import Player, State


@runtime_checkable
class Rules(Protocol):
    NAME: str  # the game's name on the wire: lower case letters, digits and _
    START_RULE: str  # the rule by which a round starts once both are ready (D-4, Q-2)
    STATE: type[State]  # its state: ``State`` with the game's own fields
    # its table options in the order views and events show them (the engine's among them,
    # ``options.ENGINE``), and the class that holds them (``options.options_class``)
    OPTIONS: tuple[OptionSpec, ...]
    OPTIONS_CLASS: type[Options]
    ACTIONS: Wire  # its actions' wire forms (the engine's ready and resign among them)
    # its events, in the order a round meets them (an engine's event it places, such as
    # PlayerReady, among them): the wire names are one namespace, shared by every game
    EVENTS: tuple[type[Event], ...]
    DECIDE: dict[type, Callable]  # action type -> decide(state, seat, action) -> events
    EVOLVE: dict[type, Callable]  # event type -> apply(state, event) -> the fields it changes
    REDACT: dict[type, Callable]  # event type -> hide(event, seat, wire form), in place
    # phase -> the game-wide deadline running in it: (its rule, the option of its seconds)
    PHASE_DEADLINES: dict[str, tuple[str, str]]
    NEW_ROUND: tuple[type[Event], ...]  # after these a stalemate is a new one (its clock)
    DEALS: tuple[type, ...]  # the events that record a shuffle (H-6: the audit re-derives them)
    # the wire forms, in JSON Schema (wire.py): named shapes, what view and full_view add,
    # what REDACT leaves of the fields it hides (event type -> field -> schema)
    SHAPES: dict[str, dict]
    VIEW: dict[str, dict]
    REDACTED: dict[type, dict[str, dict]]
    BOT_RATINGS: dict[str, int]  # hosted level -> its Glicko-2 rating in this game (calibrated)

    def setup(self, options: Options) -> Player:
        """A seat's things before the first deal: an instance of the game's player class."""

    def deal(self, state: State, seed: bytes) -> Event:
        """The deal, once both seats are taken (and after each round or game)."""

    def start(self, state: State) -> Event:
        """What starts a round once both players are ready."""

    def guard(self, state: State, action) -> None:
        """Refuse (IllegalAction) an action its phase does not allow, before its rule."""

    def follow(self, state: State, seed: bytes | None, at: float) -> list[Event]:
        """What the rules make happen by themselves in ``state``."""

    def has_moves(self, state: State, seat: int) -> bool:
        """Whether ``seat`` could play now (a stalemate is when neither can)."""

    def can_act(self, state: State, seat: int) -> bool:
        """Whether ``seat`` has a legal action other than resign (T-4's clock)."""

    def legal(self, state: State, seat: int) -> list:
        """Every action ``decide`` accepts from ``seat`` now, resign aside."""

    def on_timeout(self, state: State, rule: str) -> list[Event]:
        """What a game-wide deadline of ``PHASE_DEADLINES`` does when it fires (T-2, the
        engine's, aside)."""

    def view(self, state: State, seat: int | None, out: dict) -> None:
        """Add to ``out`` what ``seat`` may see of the game's own things (H-1..H-4)."""

    def full_view(self, state: State, out: dict) -> None:
        """Add to ``out`` every card where it lies (H-6)."""

    def text(self, full: dict) -> list[str]:
        """The table of a full state (``full_view``'s form) in lines of text."""

    def candidates(self, event: Event) -> list[tuple]:
        """The (action, seat) pairs that could have produced a batch starting at
        ``event``, for the audit."""

    def bot_choose(self, bot, view: dict, legal: list[dict], rng) -> dict | None:
        """A hosted bot's choice among ``legal`` (ready aside), by its level ``bot``."""
