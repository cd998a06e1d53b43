"""Table options (RULES V-1..V-4, Q-8, E-4, T-1..T-5): the one definition of each, from
which the service's documents are made, and their validation at creation.

``SPEC`` describes every option once (its rule, type, allowed values, default, meaning);
each game names the options it takes (``Rules.OPTIONS``). ``parse_options`` refuses
unknown options, options of the other game and values out of range with
``InvalidOptions``, whose ``errors`` maps each offending option to its messages.

>>> parse_options("spit", {"stockpiles": 4}, {"spit": ("stockpiles",), "speed": ()}).stockpiles
4
"""

from dataclasses import dataclass, fields
from functools import lru_cache

from .errors import InvalidOptions


@dataclass(frozen=True, slots=True)
class Options:
    stockpiles: int = 5  # V-1
    pile_choice: str = "slap"  # V-2
    alternate_colors: bool = False  # V-3
    side_piles: int = 10  # V-4
    target_score: int = 0
    max_rounds: int = 60  # E-4
    spit_grace_s: float = 3.0  # T-1
    ready_grace_s: float = 10.0  # T-2
    slap_grace_s: float = 3.0  # T-3
    idle_forfeit_s: float = 120.0  # T-4
    join_timeout_s: float = 600.0  # T-5

    def public(self, names: tuple[str, ...]) -> dict:
        """The options ``names`` (a game's), as they appear in views and events."""
        return dict(_public(self, names))


@lru_cache(maxsize=256)  # a table's options repeat from view to view
def _public(options: Options, names: tuple[str, ...]) -> dict:
    return {name: getattr(options, name) for name in names}


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: an integer or a string among ``choices``, a boolean, an integer in
    ``low..high``, or (``seconds``) a number of seconds in ``low..high``."""

    name: str
    rule: str
    text: str
    kind: type  # int, str, bool, float
    choices: tuple = ()
    low: float | None = None
    high: float | None = None

    @property
    def default(self):
        return _DEFAULTS[self.name]

    def check(self, v) -> str | None:
        """What is wrong with the value ``v``, or None."""
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


_DEFAULTS = {f.name: f.default for f in fields(Options)}
_S = {"kind": float, "low": 0.05, "high": 86_400}  # a timeout, in seconds
SPEC: dict[str, OptionSpec] = {
    o.name: o
    for o in (
        OptionSpec("stockpiles", "V-1", "Spit: 5 stockpiles (1..5 cards) or 4 (1..4)", int,
                   choices=(4, 5)),
        OptionSpec("pile_choice", "V-2", "Spit: slap for the smaller pile, or the player who "
                   "cleared chooses", str, choices=("slap", "choose")),
        OptionSpec("alternate_colors", "V-3", "a card played must change colour", bool),
        OptionSpec("side_piles", "V-4", "Speed: side piles of 10 cards (15 to each player) or "
                   "5 (20 each)", int, choices=(5, 10)),
        OptionSpec("target_score", "Q-8", "Speed: the match target (0: a single game)", int,
                   low=0, high=10_000),
        OptionSpec("max_rounds", "E-4", "rounds (Speed: games) before the game ends", int,
                   low=1, high=10_000),
        OptionSpec("spit_grace_s", "T-1", "seconds before a stalemate is called for", **_S),
        OptionSpec("ready_grace_s", "T-2", "seconds before a player is made ready", **_S),
        OptionSpec("slap_grace_s", "T-3", "seconds before the piles are taken without a slap",
                   **_S),
        OptionSpec("idle_forfeit_s", "T-4", "seconds in all with a legal action, since your own "
                   "last one, before you forfeit (a hosted bot's seat: before the game is "
                   "aborted, T-6); at least 30 at a rated table", **_S),
        OptionSpec("join_timeout_s", "T-5", "seconds before a game with an empty seat is "
                   "aborted", **_S),
    )
}  # fmt: skip


# The shortest idle_forfeit_s (T-4, T-6) of a rated table: a clock shorter than a hosted
# level's reaction plus the service's usual delays would end rated games by the clock
# rather than by play (docs/decisions/0029)
RATED_IDLE_MIN_S = 30.0


def parse_options(
    game: str, raw: dict | None, games: dict[str, tuple[str, ...]], *, rated: bool = False
) -> Options:
    """Validate the table options ``raw`` of ``game``, whose options and those of every
    other game are ``games`` (name -> option names); raise InvalidOptions naming each.
    ``rated``: of a rated table, whose ``idle_forfeit_s`` is ``RATED_IDLE_MIN_S`` or more."""
    if game not in games:
        raise InvalidOptions({"game": [f"must be one of {', '.join(games)}"]})
    raw = dict(raw or {})
    errors: dict[str, list[str]] = {}
    mine = games[game]
    for key, v in raw.items():
        if key in mine:
            problem = SPEC[key].check(v)
            if problem:
                errors[key] = [problem]
        elif key in SPEC:
            owner = next(g for g, names in games.items() if key in names)
            errors[key] = [f"is a {owner} option, not a {game} one"]
        else:
            errors[key] = ["unknown option"]
    idle = raw.get("idle_forfeit_s", _DEFAULTS["idle_forfeit_s"])
    if rated and "idle_forfeit_s" not in errors and idle < RATED_IDLE_MIN_S:
        errors["idle_forfeit_s"] = [f"must be at least {RATED_IDLE_MIN_S:g} s in a rated game"]
    if errors:
        raise InvalidOptions(errors)
    return Options(**{k: float(v) if SPEC[k].kind is float else v for k, v in raw.items()})
