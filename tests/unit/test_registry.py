"""The registry of games: the built-ins, the entry points of ``spitlog.games`` and the
registered games, read when asked; and what it refuses to register."""

import dataclasses
import sys
import textwrap
import types

import pytest

from domain import RULES, event_types, options_for, registry
from domain import spit as spit_module
from domain.events import Event, event
from domain.options import SECONDS, OptionSpec
from domain.registry import GameDefinitionError


def like_spit(name: str, **changes) -> types.ModuleType:
    """A module with Spit's rules under another name (and ``changes``)."""
    mod = types.ModuleType(f"tests_{name}")
    mod.__dict__.update({a: getattr(spit_module, a) for a in registry._ATTRS})
    mod.__dict__.update({"NAME": name, **changes})
    return mod


@pytest.fixture
def registered():
    """Games a test registers, unregistered after it."""
    names = []

    def register(module):
        registry.register(module)
        names.append(module.NAME)
        return module

    yield register
    for name in names:
        registry.unregister(name)
    assert list(RULES) == ["spit", "speed"]


def test_the_built_ins_come_first_and_rules_reads_the_registry_each_time(registered):
    assert list(RULES) == ["spit", "speed"] and RULES["spit"] is spit_module
    registered(like_spit("spit_again"))
    assert list(RULES) == ["spit", "speed", "spit_again"]
    assert options_for("spit_again", {"stockpiles": 4}).stockpiles == 4
    assert "spit_again" in repr(RULES) and len(RULES) == 3


def test_a_registered_games_events_are_read_and_listed_after_the_built_ins(registered):
    @event
    class CoinTossed(Event):
        """A coin was tossed."""

        heads: bool

    evolve = {**spit_module.EVOLVE, CoinTossed: lambda s, e: {}}
    mod = registered(like_spit("coin", EVENTS=(*spit_module.EVENTS, CoinTossed), EVOLVE=evolve))
    names = list(event_types())
    assert names.index("game_scored") < names.index("coin_tossed") < names.index("deadline_expired")
    assert event_types()["coin_tossed"] is CoinTossed and mod.NAME in RULES
    registry.unregister("coin")
    assert "coin_tossed" not in event_types()


def test_a_module_that_is_no_game_is_refused_naming_what_it_lacks():
    mod = like_spit("half")
    del mod.DECIDE, mod.view
    with pytest.raises(GameDefinitionError, match="no DECIDE, view"):
        registry.register(mod)


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"NAME": "spit"}, "a game 'spit' is registered already"),
        ({"NAME": "Spit!"}, "lower case letters"),
        ({"OPTIONS": spit_module.OPTIONS[:-1]}, "lacks an engine's option"),
        (
            {
                "OPTIONS": (
                    *spit_module.OPTIONS[:-2],
                    OptionSpec("max_rounds", "X-1", "another", int, default=5, low=1, high=9),
                    *spit_module.OPTIONS[-2:],
                )
            },
            "option 'max_rounds' is another game's",
        ),  # fmt: skip
        ({"STATE": dict}, "subclass State"),
    ],
)
def test_a_game_that_cannot_sit_beside_the_others_is_refused(changes, why):
    with pytest.raises(GameDefinitionError, match=why):
        registry.register(like_spit("other", **changes))
    assert "other" not in RULES


def test_an_event_type_of_another_games_name_or_without_evolve_is_refused():
    @event
    class CardPlayed(Event):  # the wire name card_played is Spit's and Speed's
        seat: int

    with pytest.raises(GameDefinitionError, match="'card_played' is another game's"):
        registry.register(like_spit("clash", EVENTS=(CardPlayed,)))

    @event
    class Shrugged(Event):
        seat: int

    with pytest.raises(GameDefinitionError, match="no EVOLVE for its event 'shrugged'"):
        registry.register(like_spit("lazy", EVENTS=(Shrugged,)))


def test_an_installed_packages_entry_point_is_found_and_a_broken_one_named(tmp_path):
    """A package declares a game in its entry points (``spitlog.games``): once it is on
    the path, the registry finds it when next asked (``refresh``)."""
    (tmp_path / "toss_game.py").write_text(textwrap.dedent("""
        from domain import spit
        from domain.registry import _ATTRS
        globals().update({a: getattr(spit, a) for a in _ATTRS})
        NAME = "toss"
    """))  # fmt: skip
    dist = tmp_path / "toss_game-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toss-game\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[spitlog.games]\ntoss = toss_game\n")
    sys.path.insert(0, str(tmp_path))
    try:
        assert "toss" not in RULES
        registry.refresh()
        assert list(RULES)[-1] == "toss" and RULES["toss"].NAME == "toss"
        (dist / "entry_points.txt").write_text("[spitlog.games]\ntoss = toss_game_gone\n")
        registry.refresh()
        with pytest.raises(GameDefinitionError, match="entry point toss = toss_game_gone"):
            list(RULES)
        (dist / "entry_points.txt").write_text("[spitlog.games]\nflip = toss_game\n")
        registry.refresh()
        with pytest.raises(GameDefinitionError, match="names a game 'toss'"):
            list(RULES)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("toss_game", None)
        registry.refresh()
    assert list(RULES) == ["spit", "speed"]


def test_an_option_spec_is_one_definition_shared_by_the_games_that_take_it():
    spit, speed = RULES["spit"], RULES["speed"]
    shared = {s.name for s in spit.OPTIONS} & {s.name for s in speed.OPTIONS}
    assert "alternate_colors" in shared and "idle_forfeit_s" in shared
    for name in shared:
        assert next(s for s in spit.OPTIONS if s.name == name) == next(
            s for s in speed.OPTIONS if s.name == name
        )
    # each game's options class holds its options, defaults from their specs
    for rules in (spit, speed):
        made = rules.OPTIONS_CLASS()
        assert tuple(s.name for s in rules.OPTIONS) == made.NAMES
        assert {f.name for f in dataclasses.fields(made)} == set(made.NAMES)
        assert all(getattr(made, s.name) == s.default for s in rules.OPTIONS)
    assert SECONDS["low"] > 0
