"""Games by name: the engine, the service and the documents find every game here.

Three sources, in this order: the built-in games (``_built_ins``), the games installed
packages declare in the entry-point group ``spitlog.games`` (each entry point, named as
its game, names a module implementing ``rules.Rules``), and those ``register`` adds (a
test's game). Whatever lists games asks when it needs them (``games``, ``RULES``,
``event_types``): the built-ins and the entry points are loaded the first time,
``refresh`` reads the entry points again. What the engine makes from the list of games
(each game's evolve table, the actions' encoders, the views' redactions) is kept here,
in the open, by ``derived``, and dropped whenever the list changes; ``on_change`` tells
any other listener.

Which packages are installed is the one thing the domain reads of its environment
(``importlib.metadata``), once, as importing a module reads it: no game's rules depend
on it.
"""

import re
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import entry_points
from typing import TypeVar

from .events import ENGINE, OPENING, Event
from .options import ENGINE as ENGINE_OPTIONS
from .options import Options
from .rules import Rules
from .state import State

T = TypeVar("T")
GROUP = "spitlog.games"
NAME = re.compile(r"[a-z][a-z0-9_]*")


class GameDefinitionError(ValueError):
    """A module that cannot be registered as a game: it says which and why."""


_games: dict[str, Rules] = {}  # built-ins, then entry points, then registered
_registered: dict[str, Rules] = {}
_loaded = False
_listeners: list[Callable[[], None]] = []
_derived: dict[str, object] = {}  # ``derived``: name -> what was made of the games listed
EVENT_TYPES: dict[str, type[Event]] = {}  # filled by ``event_types``, emptied on a change


def _built_ins() -> tuple:
    """The games that come with the engine."""
    from . import speed, spit

    return (spit, speed)


def _load() -> dict[str, Rules]:
    global _loaded
    found: dict[str, Rules] = {}
    for module in _built_ins():
        _add(found, module, "a built-in game")
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        where = f"entry point {ep.name} = {ep.value} ({GROUP})"
        try:
            module = ep.load()
        except Exception as e:  # a broken package: say which, whatever broke
            raise GameDefinitionError(f"{where}: {type(e).__name__}: {e}") from e
        if getattr(module, "NAME", None) != ep.name:
            raise GameDefinitionError(f"{where}: names a game {getattr(module, 'NAME', None)!r}")
        _add(found, module, where)
    for module in _registered.values():
        _add(found, module, "registered")
    _games.clear()
    _games.update(found)
    _loaded = True
    return _games


def _add(found: dict[str, Rules], module, where: str) -> None:
    check(module, found, where)
    found[module.NAME] = module


def games() -> dict[str, Rules]:
    """Every game, by name (not to be changed by the caller)."""
    return _games if _loaded else _load()


def get(name: str) -> Rules:
    """The game ``name``; KeyError if there is none."""
    return (_games if _loaded else _load())[name]


def register(module) -> Rules:
    """Add the game ``module`` (a ``Rules``) after the others; GameDefinitionError if it is
    not one, or its name or an event type's is another game's."""
    check(module, {n: g for n, g in games().items() if g is not module}, "registered")
    _registered[module.NAME] = module
    _changed()
    return module


def unregister(name: str) -> None:
    """Remove the game ``register`` added as ``name`` (a built-in stays)."""
    if _registered.pop(name, None) is not None:
        _changed()


def refresh() -> None:
    """Read the entry points again when next asked (a package installed since)."""
    _changed()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever the list of games changes (a cache made from it)."""
    _listeners.append(listener)


def derived(name: str, make: Callable[[dict[str, Rules]], T]) -> T:
    """What ``make(games())`` gives, made the first time ``name`` is asked for and kept
    until the list of games changes (``register``, ``unregister``, ``refresh``). ``make``
    reads nothing but the games; what it gives may be filled later with values made from
    them alone (a table of encoders by action type), never with anything else."""
    got = _derived.get(name)
    if got is None:
        got = _derived[name] = make(games())
    return got  # type: ignore[return-value]


def _changed() -> None:
    global _loaded
    _loaded = False
    EVENT_TYPES.clear()
    _derived.clear()
    for listener in _listeners:
        listener()


def event_types() -> dict[str, type[Event]]:
    """Every event type by its wire name, in the documents' order: the events that open a
    log, each game's (``Rules.EVENTS``, each type once, where the first game to list it
    puts it), then the engine's others."""
    if EVENT_TYPES and _loaded:
        return EVENT_TYPES
    order = list(OPENING)
    for rules in games().values():
        order += [cls for cls in rules.EVENTS if cls not in order]
    order += [cls for cls in ENGINE if cls not in order]
    EVENT_TYPES.clear()
    EVENT_TYPES.update((cls.TYPE, cls) for cls in order)
    return EVENT_TYPES


def check(module, others: dict[str, Rules], where: str = "") -> None:
    """Raise GameDefinitionError unless ``module`` is a game that can sit beside ``others``:
    a ``Rules``, its name free, its event types' wire names not other games' (another
    type's), the engine's options among its own and an option another game shares the
    same, an evolve for each of its own events."""
    say = f"{where}: " if where else ""
    if not isinstance(module, Rules):
        missing = [n for n in _ATTRS if not hasattr(module, n)]
        raise GameDefinitionError(f"{say}{module!r} is not a game: no {', '.join(missing)}")
    name = module.NAME
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise GameDefinitionError(f"{say}NAME {name!r}: lower case letters, digits and _")
    if name in others:
        raise GameDefinitionError(f"{say}a game {name!r} is registered already")
    if not issubclass(module.STATE, State) or not issubclass(module.OPTIONS_CLASS, Options):
        raise GameDefinitionError(f"{say}STATE and OPTIONS_CLASS subclass State and Options")
    if any(spec not in module.OPTIONS for spec in ENGINE_OPTIONS):
        raise GameDefinitionError(f"{say}OPTIONS lacks an engine's option (options.ENGINE)")
    types = {cls.TYPE: cls for cls in (*OPENING, *ENGINE)}
    options = {}
    for other in others.values():
        types.update((cls.TYPE, cls) for cls in other.EVENTS)
        options.update((spec.name, spec) for spec in other.OPTIONS)
    for cls in module.EVENTS:
        if not (isinstance(cls, type) and issubclass(cls, Event)):
            raise GameDefinitionError(f"{say}EVENTS holds {cls!r}, not an event type")
        if types.get(cls.TYPE, cls) is not cls:
            raise GameDefinitionError(f"{say}event type {cls.TYPE!r} is another game's")
        if cls not in module.EVOLVE and cls not in ENGINE:
            raise GameDefinitionError(f"{say}no EVOLVE for its event {cls.TYPE!r}")
    for spec in module.OPTIONS:
        if options.get(spec.name, spec) != spec:
            raise GameDefinitionError(f"{say}option {spec.name!r} is another game's")


_ATTRS = [
    *Rules.__annotations__,
    *(n for n, v in vars(Rules).items() if callable(v) and not n.startswith("_")),
]


class _Rules(Mapping):
    """Every game by name, read from the registry at each use (``domain.RULES``)."""

    def __getitem__(self, name: str) -> Rules:
        return get(name)

    def __iter__(self) -> Iterator[str]:
        return iter(list(games()))

    def __len__(self) -> int:
        return len(games())

    def __repr__(self) -> str:
        return f"RULES({', '.join(games())})"


RULES: Mapping[str, Rules] = _Rules()
