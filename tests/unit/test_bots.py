"""Hosted bots: legal, blind to what their seat may not see (H-1, H-2), and
stronger with each level through play."""

import doctest
import json
import random

import pytest

from domain import Ctx, bots, decide, event_types, parse_action, view
from domain.bots import BASELINES, POLICIES
from domain.simulate import play_game as simulate
from tests.support.cards import visible_cards

from .builders import speed_game, spit_game, state_of
from .driver import play_game, server_seed_for
from .positions import spit_stuck
from .test_views import cards_in

LEVELS = ("random", "easy", "medium", "hard")
TABLES = [
    ("spit", {}),
    ("spit", {"stockpiles": 4, "alternate_colors": True, "pile_choice": "choose"}),
    ("speed", {}),
    ("speed", {"side_piles": 5, "alternate_colors": True}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), TABLES)
def test_every_level_chooses_a_legal_action_or_waits_and_sees_no_hidden_card(game, options):
    """H-1, H-2: over random positions each level answers with one of its seat's
    legal_actions (never resign) that decide accepts, or None; the view it is given
    shows no face-down card and no other hand."""
    checked = 0

    def probe(state, _seat, now, rng):
        nonlocal checked
        for seat in (0, 1):
            v = view(state, seat)
            assert cards_in(v) <= visible_cards(state, seat)
            for name in LEVELS:
                wire = POLICIES[name].choose(v, rng)
                if wire is None:
                    continue
                assert wire in v["legal_actions"] and wire["type"] != "resign", (name, wire)
                decide(state, parse_action(game, wire), Ctx(seat, now, sseed))
                checked += 1

    for seed in range(3):
        sseed = server_seed_for(seed)
        play_game(game, options, seed, max_steps=400, on_step=probe)
    assert checked > 500


def test_a_bot_needs_nothing_but_the_json_view():
    """H-5: the view's JSON alone decides (the bot holds no reference to the State)."""
    state = state_of(spit_stuck())
    v = view(state, 0)
    for name in LEVELS:
        a = POLICIES[name].choose(v, random.Random(3))
        b = POLICIES[name].choose(json.loads(json.dumps(v)), random.Random(3))
        assert a == b


def test_P1_hard_takes_the_play_that_starts_a_chain_in_spit():
    """5H on 4D lets 6S and 7D follow; 3C on 4D leads nowhere."""
    given = spit_game(["5H", "3C", "6S", "7D", "KC"], ["QC", "QD", "JC", "QS", "KD"],
                      "4D 2H", "10S 2S")  # fmt: skip
    v = view(state_of(given), 0)
    assert {"type": "play", "from": 1, "to": 0} in v["legal_actions"]
    assert POLICIES["hard"].choose(v, random.Random(0)) == {"type": "play", "from": 0, "to": 0}


def test_Q3_hard_takes_the_play_that_starts_a_chain_in_speed():
    given = speed_game("5H 3C 6S 7D KC", "QC QD JC QS KD", "2D", "2C", "9S", "9C", "4D 10S")
    v = view(state_of(given), 0)
    assert {"type": "play", "card": "3C", "to": 0} in v["legal_actions"]
    assert POLICIES["hard"].choose(v, random.Random(0)) == {"type": "play", "card": "5H", "to": 0}


def test_Q3_the_planner_leaves_tops_that_the_opponents_next_play_opens_for_it():
    """(hard before its search, kept as a baseline) 3C or 5H onto 4D, and then nothing
    fits. On 5H the opponent's next play there is a 4 that 3C follows or a 6 that 7S
    follows; on 3C only a 4 (for 5H) would help."""
    given = speed_game("3C 5H 7S", "QC QD JC QS KD", "2D", "2C", "9S", "9C", "4D 10S")
    v = view(state_of(given), 0)
    assert {"type": "play", "card": "3C", "to": 0} in v["legal_actions"]
    planner = BASELINES["planner"]
    assert planner.choose(v, random.Random(0)) == {"type": "play", "card": "5H", "to": 0}


def test_S2_every_level_calls_a_stalemate():
    v = view(state_of(spit_stuck()), 0)
    for name in ("easy", "medium", "hard"):
        assert POLICIES[name].choose(v, random.Random(0)) == {"type": "spit"}


def test_N2_hard_slaps_the_smaller_pile():
    v = {"game": "spit", "phase": "slap", "you": 1,
         "legal_actions": [{"type": "slap", "pile": 0}, {"type": "slap", "pile": 1}],
         "spit_piles": [{"size": 3, "top": "2C"}, {"size": 12, "top": "9D"}]}  # fmt: skip
    assert POLICIES["hard"].choose(v, random.Random(0)) == {"type": "slap", "pile": 0}


def test_reaction_times_are_positive_and_faster_with_level():
    medians = {}
    for name in LEVELS:
        rng = random.Random(1)
        xs = sorted(POLICIES[name].reaction(rng) for _ in range(1001))
        assert xs[0] > 0
        medians[name] = xs[500]
    assert medians["hard"] < medians["medium"] < medians["easy"] < medians["random"]


def test_the_module_examples_hold():
    assert doctest.testmod(bots).failed == 0


@pytest.mark.slow
@pytest.mark.parametrize(("game", "games", "least"), [("spit", 20, 19), ("speed", 40, 34)])
def test_hard_beats_random_in_a_small_ladder(game, games, least):
    """A fast ladder (the full one is bench/ladder.py: 99.8% in Spit, 97.0% in single
    Speed games): seats alternate, virtual time. (Spit's hard searches: fewer games.)"""
    hard, rand = POLICIES["hard"], POLICIES["random"]
    wins = 0
    for i in range(games):
        rng = random.Random(f"test-ladder/{game}/{i}")
        r = simulate(game, (hard, rand) if i % 2 == 0 else (rand, hard), rng)
        assert r.status == "finished"
        wins += r.winner == i % 2
    assert wins >= least


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_T4_a_bot_that_misses_plays_never_idles_into_a_forfeit(game):
    """easy sometimes waits on a play it missed, but only while the opponent visibly has
    something to do, so its own idle clock never runs out."""
    easy = POLICIES["easy"]
    for i in range(12):
        r = simulate(game, (easy, easy), random.Random(f"easy/{game}/{i}"))
        assert r.status == "finished" and r.result != "T-4"


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_P1_Q3_the_greedy_baseline_plays_any_fitting_card_before_anything_else(game):
    """The ladder's yardstick: a play at once (P-1, Q-3), whatever else it could do."""
    if game == "spit":
        other = ["QC", "QD", "JC", "QS", "KD"]
        given, kinds = (
            spit_game(["5H", "3C", "9S 6S", "", "7D"], other, "4D 2H", "10S 2S"),
            {"move"},
        )
    else:
        given = speed_game("5H 3C KC", "QC QD", "2D 9H", "2C", "9S", "9C", "4D 10S")
        kinds = {"draw"}
    v = view(state_of(given), 0)
    assert kinds <= {a["type"] for a in v["legal_actions"]}
    for i in range(20):
        assert BASELINES["greedy"].choose(v, random.Random(i))["type"] == "play"


def test_S2_N2_the_greedy_baseline_calls_at_once_and_slaps_the_smaller_pile():
    assert BASELINES["greedy"].choose(view(state_of(spit_stuck()), 0), None) == {"type": "spit"}
    v = {"game": "spit", "phase": "slap", "you": 0,
         "legal_actions": [{"type": "slap", "pile": 0}, {"type": "slap", "pile": 1}],
         "spit_piles": [{"size": 7, "top": "2C"}, {"size": 5, "top": "9D"}]}  # fmt: skip
    assert BASELINES["greedy"].choose(v, random.Random(0)) == {"type": "slap", "pile": 1}


HIDDEN = {
    # the same faces up, other cards face down (stockpiles under their tops, spit cards)
    "spit": (
        spit_game(["5H", "3C", "9C 6S", "KD 8H", "7D"], ["QC", "2D 4S", "JH", "6D", "AS"],
                  "4D 2H 9D", "10S 2S KC"),
        spit_game(["5H", "3C", "KC 6S", "2S 8H", "7D"], ["QC", "9D 4S", "JH", "6D", "AS"],
                  "4D 9C 2H", "10S KD 2D"),
    ),
    # the same own hand and tops; the opponent's hand and every draw and side pile differ
    "speed": (
        speed_game("5H 3C 6S 7D KC", "QC QD JC QS KD", "2D 9H", "2C 8S", "9S", "9C", "4D 10S"),
        speed_game("5H 3C 6S 7D KC", "8S 2C 9H QS 9S", "9C 2D", "KD QD", "JC", "QC", "4D 10S"),
    ),
}  # fmt: skip


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_H1_H2_hard_searches_only_what_its_seat_may_see(game):
    """Non-interference (H-5's test) for the search: two deals that differ only in cards
    seat 0 may not see give it the same view, and hard the same choice with the same
    rng, each a legal action that decide accepts."""
    a, b = (state_of(g) for g in HIDDEN[game])
    assert a != b
    va, vb = view(a, 0), view(b, 0)
    assert va == vb
    hard = POLICIES["hard"]
    assert hard.search > 0
    for i in range(3):
        wire = hard.choose(va, random.Random(i))
        assert wire == hard.choose(vb, random.Random(i))
        assert wire in va["legal_actions"]
        decide(a, parse_action(game, wire), Ctx(0, 2_000.0, b"s" * 32))


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_the_simulator_asks_a_policy_only_when_its_plan_falls_due(game):
    """As a worker does: one choice per action of the seat (a plan the state outran is
    never chosen, so a search is paid once per action)."""
    asked = [0, 0]

    class Counted:
        def __init__(self, seat):
            self.seat, self.name = seat, "greedy"
            self.reaction = BASELINES["greedy"].reaction

        def choose(self, v, rng):
            asked[self.seat] += 1
            return BASELINES["greedy"].choose(v, rng)

    r = simulate(game, (Counted(0), Counted(1)), random.Random(f"asked/{game}"), keep_log=True)
    assert r.status == "finished"
    own = [e for e in r.log[3:] if getattr(e, "seat", None) is not None]
    acted = [sum(e.seat == s and getattr(e, "by", None) is None and type(e) in ACTS
                 for e in own) for s in (0, 1)]  # fmt: skip
    assert asked == acted and min(acted) > 10


ACTS = {c for c in event_types().values() if c.__name__ in (
    "CardPlayed", "CardTurnedUp", "CardMoved", "CardDrawn", "SpitCalled", "PileSlapped",
    "PileChosen", "PlayerReady")}  # fmt: skip
