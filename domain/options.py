"""Table options: the one definition of each (``OptionSpec``: its rule, type, allowed
values, default, meaning), from which the service's documents are made, and their
validation at creation.

The engine defines the options it reads itself (T-2, T-4, T-5: ``ENGINE``); a game lists
its options, the engine's among them, in the order its views and ``game_created`` show
them (``Rules.OPTIONS``), and holds them in a class of its own (``options_class``).
``parse_options`` refuses unknown options, options of another game and values out of
range with ``InvalidOptions``, whose ``errors`` maps each offending option to its
messages.
"""

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from .errors import InvalidOptions
from .wire import integer


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: an integer or a string among ``choices``, a boolean, an integer in
    ``low..high``, or (float) a number of seconds in ``low..high``."""

    name: str
    rule: str
    text: str
    kind: type  # int, str, bool, float
    default: object
    choices: tuple = ()
    low: float | None = None
    high: float | None = None

    def read(self, v):
        """The value ``v`` as the option holds it: a number of seconds as a float, an
        integer sent as ``4.0`` as the integer (``wire.integer``); ``v`` checked first."""
        if self.kind is float:
            return float(v)
        if self.kind is int:
            return integer(v)
        return v

    def check(self, v) -> str | None:
        """What is wrong with the value ``v``, or None."""
        if self.kind is int and integer(v) is not None:
            v = integer(v)
        if self.choices:
            if type(v) is not self.kind or v not in self.choices:
                shown = " or ".join(f'"{c}"' if type(c) is str else str(c) for c in self.choices)
                return f"must be {'the integer ' if self.kind is int else ''}{shown}"
        elif self.kind is bool:
            if not isinstance(v, bool):
                return "must be true or false"
        elif self.kind is int:
            if type(v) is not int or not self.low <= v <= self.high:
                return f"must be an integer from {self.low} to {self.high}"
        elif type(v) not in (int, float) or not self.low <= v <= self.high:
            return f"must be a number of seconds from {self.low:g} to {self.high:g}"
        return None


SECONDS = {"kind": float, "low": 0.05, "high": 86_400}  # a timeout's range, in seconds
READY_GRACE = OptionSpec("ready_grace_s", "T-2", "seconds before a player is made ready",
                         default=10.0, **SECONDS)  # fmt: skip
IDLE_FORFEIT = OptionSpec(
    "idle_forfeit_s", "T-4", "seconds in all with a legal action, since your own last one, "
    "before you forfeit (a hosted bot's seat: before the game is aborted, T-6); at least 30 "
    "at a rated table", default=120.0, **SECONDS,
)  # fmt: skip
JOIN_TIMEOUT = OptionSpec("join_timeout_s", "T-5", "seconds before a game with an empty seat "
                          "is aborted", default=600.0, **SECONDS)  # fmt: skip
ENGINE = (READY_GRACE, IDLE_FORFEIT, JOIN_TIMEOUT)  # every game takes these
# The shortest idle_forfeit_s (T-4, T-6) of a rated table: a clock shorter than a hosted
# level's reaction plus the service's usual delays would end rated games by the clock
# rather than by play (docs/decisions/0029)
RATED_IDLE_MIN_S = 30.0


@dataclass(frozen=True, slots=True)
class Options:
    """A game's table options: the engine's (``ENGINE``) here, the game's own in its
    subclass (``options_class``). ``NAMES``: all of them, in the game's order."""

    NAMES: ClassVar[tuple[str, ...]] = tuple(spec.name for spec in ENGINE)

    ready_grace_s: float = READY_GRACE.default  # T-2
    idle_forfeit_s: float = IDLE_FORFEIT.default  # T-4
    join_timeout_s: float = JOIN_TIMEOUT.default  # T-5

    def public(self) -> dict:
        """The options as views and events show them, in the game's order."""
        return dict(_public(self))


@lru_cache(maxsize=256)  # a table's options repeat from view to view
def _public(options: Options) -> dict:
    return {name: getattr(options, name) for name in options.NAMES}


def options_class(name: str, specs: tuple[OptionSpec, ...]) -> type[Options]:
    """The frozen class of a game's options ``specs`` (the engine's among them): the
    engine's fields and a field for each of the others, ``NAMES`` in the specs' order."""
    own = [(s.name, s.kind, dataclasses.field(default=s.default))
           for s in specs if s not in ENGINE]  # fmt: skip
    cls = dataclasses.make_dataclass(name, own, bases=(Options,), frozen=True, slots=True)
    cls.NAMES = tuple(s.name for s in specs)
    return cls


def parse_options(
    game: str,
    specs: tuple[OptionSpec, ...],
    cls: type[Options],
    raw: dict | None,
    others: dict[str, tuple[OptionSpec, ...]],
    *,
    rated: bool = False,
) -> Options:
    """Validate the table options ``raw`` of ``game``, which takes ``specs`` (``cls``
    holds them), every game's being ``others`` (name -> specs); raise InvalidOptions
    naming each. ``rated``: of a rated table, whose ``idle_forfeit_s`` is
    ``RATED_IDLE_MIN_S`` or more."""
    raw = dict(raw or {})
    errors: dict[str, list[str]] = {}
    mine = {s.name: s for s in specs}
    for key, v in raw.items():
        if key in mine:
            problem = mine[key].check(v)
            if problem:
                errors[key] = [problem]
        else:
            owner = next((g for g, theirs in others.items() if any(s.name == key for s in theirs)),
                         None)  # fmt: skip
            errors[key] = [f"is a {owner} option, not a {game} one" if owner else "unknown option"]
    idle = raw.get(IDLE_FORFEIT.name, IDLE_FORFEIT.default)
    if rated and IDLE_FORFEIT.name not in errors and idle < RATED_IDLE_MIN_S:
        errors[IDLE_FORFEIT.name] = [f"must be at least {RATED_IDLE_MIN_S:g} s in a rated game"]
    if errors:
        raise InvalidOptions(errors)
    return cls(**{k: mine[k].read(v) for k, v in raw.items()})
