"""Cards (C-1, C-2), the wire forms of cards, actions and events, and the refusal of
malformed actions and invalid table options before any rule is consulted."""

import json

import pytest

from domain import (
    DECK,
    RULES,
    Card,
    CardError,
    InvalidOptions,
    MalformedAction,
    Options,
    action_to_dict,
    adjacent,
    create_game,
    event_from_dict,
    event_to_dict,
    event_types,
    options_for,
    parse_action,
    view,
)
from domain.cards import may_land_on
from domain.piles import Spit
from domain.speed import Draw, PlayCard
from domain.spit import Move, Play, TurnUp

from .driver import WELL_FORMED, play_game

# ---------------------------------------------------------------- cards


def test_C1_one_deck_of_52_cards_no_jokers():
    assert len(DECK) == 52 == len(set(DECK))
    assert {c.rank for c in DECK} == set(range(1, 14))
    assert {c.suit for c in DECK} == set("CDHS")
    assert all(sum(c.suit == s for c in DECK) == 13 for s in "CDHS")


def test_C1_wire_form_is_rank_then_suit():
    assert [str(Card.parse(t)) for t in ("AS", "10H", "QD", "2C", "kc", "10d")] == [
        "AS", "10H", "QD", "2C", "KC", "10D",
    ]  # fmt: skip
    assert Card.parse("10H") == Card.of(10, "H") and Card.parse("AS").rank == 1
    assert sorted(str(c) for c in DECK) == sorted(
        r + s
        for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
        for s in "CDHS"
    )
    for text in DECK:
        assert Card.parse(str(text)) is text  # interned: one object per card


@pytest.mark.parametrize(
    "bad", ["1X", "1C", "11H", "TD", "AX", "", "A", "10", " AS", "JK", None, 7]
)
def test_C1_not_a_card(bad):
    with pytest.raises(CardError):
        Card.parse(bad)


def test_C2_adjacent_ranks_and_the_corner():
    c = Card.parse
    assert adjacent(c("7H"), c("8C")) and adjacent(c("8C"), c("7H"))
    assert adjacent(c("AS"), c("2S")) and adjacent(c("AS"), c("KD")) and adjacent(c("KD"), c("AS"))
    assert adjacent(c("QH"), c("KH")) and adjacent(c("10S"), c("JD"))
    assert not adjacent(c("7H"), c("9C")) and not adjacent(c("7H"), c("7C"))
    assert not adjacent(c("AS"), c("QS")) and not adjacent(c("2S"), c("KS"))
    # every card has exactly 8 adjacent cards, whatever its suit (two ranks, four suits)
    for card in DECK:
        assert sum(adjacent(card, other) for other in DECK) == 8


def test_C2_V3_colour_matters_only_with_alternate_colours():
    c = Card.parse
    assert may_land_on(c("7H"), c("8D"), False) and not may_land_on(c("7H"), c("8D"), True)
    assert may_land_on(c("7C"), c("8D"), True) and may_land_on(c("7D"), c("8S"), True)
    assert not may_land_on(c("7C"), c("9D"), False)
    for top in DECK:
        assert sum(may_land_on(card, top, True) for card in DECK) == 4


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_C3_a_deal_holds_every_card_exactly_once(game):
    trace = play_game(game, {}, seed=3, max_steps=0)  # created and joined, nothing played
    state = trace.final
    if game == "spit":  # in the stockpiles and the spit cards
        held = [c for p in state.players for pile in p.stockpiles for c in pile]
        held += [c for p in state.players for c in p.spit]
        centre = ()
    else:  # in the hands and draw piles; in the middle and the side piles
        held = [c for p in state.players for c in p.hand + p.draw]
        centre = state.middle + tuple(c for side in state.side for c in side)
    assert sorted(held + list(centre), key=lambda c: c.index) == list(DECK)
    assert sum(p["cards"] for p in view(state, None)["players"]) == 52 - len(centre)


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_actions_round_trip_through_their_wire_form(game):
    for action in WELL_FORMED[game]:
        wire = action_to_dict(action)
        assert json.loads(json.dumps(wire)) == wire
        assert parse_action(game, wire) == action
        assert action_to_dict(parse_action(game, wire)) == wire


def test_action_wire_forms_are_the_documented_ones():
    assert action_to_dict(Play(2, 1)) == {"type": "play", "from": 2, "to": 1}
    assert action_to_dict(TurnUp(3)) == {"type": "turn_up", "stockpile": 3}
    assert action_to_dict(Move(1, 4)) == {"type": "move", "from": 1, "to": 4}
    assert action_to_dict(Spit()) == {"type": "spit"}
    assert action_to_dict(Spit(1)) == {"type": "spit", "pile": 1}
    assert action_to_dict(PlayCard(Card.parse("10H"), 0)) == {
        "type": "play",
        "card": "10H",
        "to": 0,
    }
    assert action_to_dict(Draw()) == {"type": "draw"}
    assert parse_action("spit", {"type": "spit", "pile": None}) == Spit()
    assert parse_action("speed", {"type": "play", "card": "qd", "to": 1}) == PlayCard(
        Card.parse("QD"), 1
    )


def test_an_index_with_a_zero_fraction_is_the_integer_json_schema_says_it_is():
    """JSON Schema's integers include ``2.0``: an action's index sent so is read as 2, a
    fraction or a boolean is still refused (the spec and the server agree)."""
    assert parse_action("spit", {"type": "play", "from": 2.0, "to": 0}) == Play(2, 0)
    assert parse_action("spit", {"type": "spit", "pile": 1.0}) == Spit(1)
    assert set(malformed("spit", {"type": "play", "from": 2.5, "to": 0})) == {"from"}
    assert set(malformed("spit", {"type": "play", "from": 5.0, "to": 0})) == {"from"}


def malformed(game, body) -> dict:
    with pytest.raises(MalformedAction) as info:
        parse_action(game, body)
    return info.value.errors


def test_malformed_actions_name_the_field():
    assert set(malformed("spit", {"type": "fly"})) == {"type"}
    assert set(malformed("spit", {})) == {"type"}
    assert set(malformed("speed", {"type": "turn_up", "stockpile": 0})) == {"type"}  # spit only
    assert set(malformed("spit", {"type": "draw"})) == {"type"}  # speed only
    assert set(malformed("spit", {"type": "play", "from": 0, "to": 7})) == {"to"}  # pile 7
    assert set(malformed("spit", {"type": "play", "from": 5, "to": 0})) == {"from"}
    assert set(malformed("spit", {"type": "play", "from": -1, "to": 2})) == {"from", "to"}
    assert set(malformed("spit", {"type": "play", "to": 0})) == {"from"}  # missing
    assert set(malformed("spit", {"type": "play", "from": "1", "to": True})) == {"from", "to"}
    assert set(malformed("spit", {"type": "slap", "pile": 2})) == {"pile"}
    assert set(malformed("spit", {"type": "spit", "pile": 7})) == {"pile"}
    assert set(malformed("spit", {"type": "ready", "now": 1})) == {"now"}  # unknown field
    assert set(malformed("speed", {"type": "play", "card": "1X", "to": 0})) == {"card"}
    assert set(malformed("speed", {"type": "play", "card": 10, "to": 0})) == {"card"}
    assert set(malformed("speed", {"type": "spit", "pile": 0})) == {"pile"}
    assert set(malformed("spit", ["play"])) == {"_body"}
    assert set(malformed("spit", {"type": {"play": 1}})) == {"type"}  # not a string at all
    assert set(malformed("speed", {"type": ["draw"]})) == {"type"}
    errors = malformed("speed", {"type": "play", "card": "1X", "to": 7})
    assert "1X" in " ".join(errors["card"]) and errors["to"]


# ---------------------------------------------------------------- options


def invalid(game, options) -> dict:
    with pytest.raises(InvalidOptions) as info:
        options_for(game, options)
    assert isinstance(info.value, MalformedAction)  # a 400 like any bad input
    return info.value.errors


def test_invalid_options_name_the_field():
    assert set(invalid("spit", {"jokers": True})) == {"jokers"}
    assert set(invalid("spit", {"side_piles": 5})) == {"side_piles"}  # a speed option
    assert set(invalid("spit", {"target_score": 3})) == {"target_score"}
    assert set(invalid("speed", {"stockpiles": 4})) == {"stockpiles"}  # a spit option
    assert set(invalid("speed", {"pile_choice": "choose"})) == {"pile_choice"}
    assert set(invalid("spit", {"stockpiles": 3})) == {"stockpiles"}
    assert set(invalid("spit", {"stockpiles": "5"})) == {"stockpiles"}
    assert set(invalid("spit", {"stockpiles": True})) == {"stockpiles"}
    assert set(invalid("speed", {"side_piles": 7})) == {"side_piles"}
    assert set(invalid("spit", {"pile_choice": "grab"})) == {"pile_choice"}
    assert set(invalid("spit", {"alternate_colors": "yes"})) == {"alternate_colors"}
    assert set(invalid("spit", {"max_rounds": 0})) == {"max_rounds"}
    assert set(invalid("speed", {"target_score": -1})) == {"target_score"}
    assert set(invalid("spit", {"spit_grace_s": 0})) == {"spit_grace_s"}
    assert set(invalid("spit", {"idle_forfeit_s": True})) == {"idle_forfeit_s"}
    assert set(invalid("poker", {})) == {"game"}
    both = invalid("spit", {"stockpiles": 3, "color": 1, "side_piles": 5})
    assert set(both) == {"stockpiles", "color", "side_piles"}


def test_valid_options_and_their_defaults():
    assert options_for("spit", None) == RULES["spit"].OPTIONS_CLASS()
    assert isinstance(options_for("spit", None), Options)
    o = options_for("spit", {"stockpiles": 4, "pile_choice": "choose", "alternate_colors": True,
                               "max_rounds": 3, "ready_grace_s": 2})  # fmt: skip
    assert (o.stockpiles, o.pile_choice, o.alternate_colors, o.max_rounds) == (4, "choose", True, 3)
    assert o.ready_grace_s == 2.0 and isinstance(o.ready_grace_s, float)
    s = options_for("speed", {"side_piles": 5, "target_score": 10})
    assert (s.side_piles, s.target_score, s.max_rounds) == (5, 10, 60)
    speed, spit = s.public(), o.public()
    assert set(speed) >= {"side_piles", "target_score", "alternate_colors"}
    assert "stockpiles" not in speed and "side_piles" not in spit


def test_an_integer_option_with_a_zero_fraction_is_that_integer():
    """``stockpiles: 4.0`` is V-1's 4, ``max_rounds: 3.0`` is 3 (integers as JSON Schema has
    them), held as integers; 4.5 and ``true`` are still refused."""
    o = options_for("spit", {"stockpiles": 4.0, "max_rounds": 3.0})
    assert (o.stockpiles, o.max_rounds) == (4, 3) and type(o.stockpiles) is int
    assert type(o.public()["max_rounds"]) is int
    assert options_for("speed", {"side_piles": 5.0, "target_score": 0.0}).side_piles == 5
    assert set(invalid("spit", {"stockpiles": 4.5})) == {"stockpiles"}
    assert set(invalid("spit", {"max_rounds": 2.5})) == {"max_rounds"}


def test_create_game_refuses_bad_options_and_opponents():
    kw = dict(game_id="g", now=0.0, server_seed=bytes(32), commitment="c")
    with pytest.raises(InvalidOptions) as info:
        create_game(game="spit", options={"stockpiles": 3}, **kw)
    assert "stockpiles" in info.value.errors
    with pytest.raises(MalformedAction) as info:
        create_game(game="spit", opponent="bot:godlike", **kw)
    assert "opponent" in info.value.errors


# ---------------------------------------------------------------- events


def test_events_round_trip_through_their_wire_form():
    seen = {}
    runs = [
        ("spit", {}),
        ("spit", {"pile_choice": "choose", "stockpiles": 4}),
        ("speed", {"target_score": 8}),
        ("speed", {"side_piles": 5}),
    ]
    for seed in range(12):
        for game, options in runs:
            trace = play_game(game, options, seed, resign_p=0.002, deadline_p=0.05)
            for event in trace.log:
                wire = json.loads(json.dumps(event_to_dict(event)))
                assert event_from_dict(wire) == event
                assert event_to_dict(event_from_dict(wire)) == wire
                seen.setdefault(wire["type"], wire)
    # every kind of event was met at least once
    assert set(seen) == set(event_types()), set(event_types()) - set(seen)
    assert seen["card_played"]["card"] in {str(c) for c in DECK}


def test_event_wire_form_names_the_type_and_writes_cards_as_strings():
    from domain.piles import CardPlayed
    from domain.spit import SpitCardsTurned

    e = SpitCardsTurned(at=5.0, cards=(None, Card.parse("10H")), piles=(None, 1))
    assert event_to_dict(e) == {
        "type": "spit_cards_turned", "at": 5.0, "cards": [None, "10H"], "piles": [None, 1],
    }  # fmt: skip
    assert event_from_dict(event_to_dict(e)) == e
    p = CardPlayed(seat=1, card=Card.parse("AS"), to=0)
    assert event_to_dict(p)["card"] == "AS" and event_to_dict(p)["src"] is None
    with pytest.raises(KeyError):
        event_from_dict({"type": "card_stolen"})
