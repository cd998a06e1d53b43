"""Table options (RULES V-1..V-4, Q-8, E-4, T-1..T-5), validated once at creation.

Unknown options, options of the other game and values out of range are refused with
``InvalidOptions``, whose ``errors`` maps each offending option to its messages.
"""

from dataclasses import dataclass, fields

from .errors import InvalidOptions

GAMES = ("spit", "speed")

_TIMEOUTS = {
    "spit_grace_s": 3.0,  # T-1
    "ready_grace_s": 10.0,  # T-2
    "slap_grace_s": 3.0,  # T-3
    "idle_forfeit_s": 120.0,  # T-4
    "join_timeout_s": 600.0,  # T-5
}
_SPIT_ONLY = ("stockpiles", "pile_choice")
_SPEED_ONLY = ("side_piles", "target_score")


@dataclass(frozen=True, slots=True)
class Options:
    stockpiles: int = 5  # V-1
    pile_choice: str = "slap"  # V-2
    alternate_colors: bool = False  # V-3
    side_piles: int = 10  # V-4
    target_score: int = 0
    max_rounds: int = 60  # E-4
    spit_grace_s: float = 3.0
    ready_grace_s: float = 10.0
    slap_grace_s: float = 3.0
    idle_forfeit_s: float = 120.0
    join_timeout_s: float = 600.0

    def public(self, game: str) -> dict:
        """The options that apply to ``game``, as they appear in views and events."""
        return {name: getattr(self, name) for name in _PUBLIC[game]}


_PUBLIC = {  # the names of the options of each game, in their declared order
    game: tuple(f.name for f in fields(Options) if f.name not in other)
    for game, other in (("spit", _SPEED_ONLY), ("speed", _SPIT_ONLY))
}


def parse_options(game: str, raw: dict | None) -> Options:
    """Validate ``raw`` table options for ``game``; raise InvalidOptions naming each field."""
    if game not in GAMES:
        raise InvalidOptions({"game": [f"must be one of {', '.join(GAMES)}"]})
    raw = dict(raw or {})
    errors: dict[str, list[str]] = {}
    known = set(Options.__dataclass_fields__)
    other = _SPEED_ONLY if game == "spit" else _SPIT_ONLY
    for key in list(raw):
        if key in other:
            errors[key] = [f"is a {'speed' if game == 'spit' else 'spit'} option, not a {game} one"]
        elif key not in known:
            errors[key] = ["unknown option"]
    for key, allowed in (("stockpiles", (4, 5)), ("side_piles", (5, 10))):
        if key in raw and key not in errors:
            v = raw[key]
            if type(v) is not int or v not in allowed:
                errors[key] = [f"must be the integer {allowed[0]} or {allowed[1]}"]
    if "pile_choice" in raw and raw["pile_choice"] not in ("slap", "choose"):
        errors["pile_choice"] = ['must be "slap" or "choose"']
    if "alternate_colors" in raw and not isinstance(raw["alternate_colors"], bool):
        errors["alternate_colors"] = ["must be true or false"]
    for key, low, high in (("max_rounds", 1, 10_000), ("target_score", 0, 10_000)):
        if key in raw and key not in errors:
            v = raw[key]
            if type(v) is not int or not low <= v <= high:
                errors[key] = [f"must be an integer from {low} to {high}"]
    for key in _TIMEOUTS:
        if key in raw:
            v = raw[key]
            if isinstance(v, bool) or not isinstance(v, int | float) or not 0.05 <= v <= 86_400:
                errors[key] = ["must be a number of seconds from 0.05 to 86400"]
    if errors:
        raise InvalidOptions(errors)
    for key in _TIMEOUTS:
        if key in raw:
            raw[key] = float(raw[key])
    return Options(**raw)
