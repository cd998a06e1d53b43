"""Hidden information (RULES H-1..H-6): what a state view and a redacted event show."""

import re

from domain import (
    DECK,
    Ctx,
    IllegalAction,
    Join,
    Ready,
    Resign,
    decide,
    event_to_dict,
    full_state,
    redact,
    replay,
    view,
)
from domain.piles import CardPlayed
from domain.speed import CardDrawn, Draw, PlayCard
from domain.spit import Move, Play, TurnUp

from .builders import (
    CLIENT_SEEDS,
    NOW,
    SEED,
    after,
    card,
    cards_in,
    created,
    speed_game,
    spit_game,
    state_of,
)


def dealt_spit():
    """A real first deal of Spit: the log and the state (ready, not started)."""
    log = created("spit")[:1]
    log += decide(replay(log), Join(client_seed=CLIENT_SEEDS[1]), Ctx(1, NOW, SEED))
    return log, replay(log)


def dealt_speed():
    log = created("speed")[:1]
    log += decide(replay(log), Join(client_seed=CLIENT_SEEDS[1]), Ctx(1, NOW, SEED))
    return log, replay(log)


def hidden_spit(state) -> set[str]:
    """The cards nobody may see: below the stockpile tops, face-down tops, spit cards."""
    out = set()
    for p in state.players:
        for pile, up in zip(p.stockpiles, p.face_up, strict=True):
            out |= {str(c) for c in (pile if not up else pile[:-1])}
        out |= {str(c) for c in p.spit}
    return out


def test_H1_face_down_cards_show_only_how_many():
    log, state = dealt_spit()
    hidden = hidden_spit(state)
    assert len(hidden) == 52 - 10  # only the ten stockpile tops are face up
    for seat in (0, 1, None):
        v = view(state, seat)
        assert cards_in(v) & hidden == set()
        assert v["players"][0]["spit_cards"] == 11
        assert [s["size"] for s in v["players"][1]["stockpiles"]] == [1, 2, 3, 4, 5]
        assert sum(p["cards"] for p in v["players"]) == 52  # C-3 in the view
        for event in log:
            assert cards_in(redact(event, seat)) & hidden == set()
    dealt = redact(log[-1], 0)
    assert dealt["spit_cards"] == [11, 11]
    assert dealt["stockpiles"][0][4] == {"size": 5, "top": str(state.players[0].stockpiles[4][-1])}


def test_H1_a_face_down_stockpile_top_shows_as_null():
    given = spit_game(["KH", "9C 7H", "2D", "", "10S JS"], ["4C", "4H", "JC", "3D", "9D"],
                      "8S 3C", "QD 5C")  # fmt: skip
    state = after(given, Play(1, 0), 0)  # 9C is now face down
    for seat in (0, 1, None):
        pile = view(state, seat)["players"][0]["stockpiles"][1]
        assert pile == {"size": 1, "top": None}
        assert "9C" not in cards_in(view(state, seat))
    turned = after(state, TurnUp(1), 0)
    assert view(turned, 1)["players"][0]["stockpiles"][1] == {"size": 1, "top": "9C"}


def test_H1_speed_draw_and_side_piles_are_sizes():
    log, state = dealt_speed()
    v = view(state, 0)
    assert v["players"][0]["draw_pile"] == 10 and v["players"][1]["draw_pile"] == 10
    assert v["side_piles"] == [{"size": 10}, {"size": 10}]
    assert v["centre_piles"] == [{"size": 1, "top": None, "face_down": True}] * 2
    secret = {str(c) for c in state.side[0] + state.side[1] + state.middle}
    secret |= {str(c) for p in state.players for c in p.draw}
    for seat in (0, 1, None):
        assert cards_in(view(state, seat)) & secret == set()
        assert all(cards_in(redact(e, seat)) & secret == set() for e in log)


def test_H2_a_speed_hand_is_seen_by_its_owner_alone():
    log, state = dealt_speed()
    hands = [{str(c) for c in p.hand} for p in state.players]
    for seat in (0, 1):
        v = view(state, seat)
        assert set(v["players"][seat]["hand"]) == hands[seat]
        assert "hand" not in v["players"][1 - seat]
        assert cards_in(v) & hands[1 - seat] == set()
        assert cards_in(redact(log[-1], seat)) & hands[1 - seat] == set()
        assert set(redact(log[-1], seat)["hands"][seat]) == hands[seat]
    assert cards_in(view(state, None)) & (hands[0] | hands[1]) == set()


def test_H2_a_drawn_card_is_shown_to_the_drawer_only():
    given = speed_game("8H 6S KC KD 2S", "8C 6D QC QD 3S", "3H 4H", "3D")
    four = after(given, PlayCard(card("8H"), 0), 0)
    drawn = decide(four, Draw(), Ctx(0, NOW, SEED))[0]
    assert isinstance(drawn, CardDrawn)
    assert redact(drawn, 0)["card"] == "3H"
    assert redact(drawn, 1)["card"] is None and redact(drawn, None)["card"] is None
    assert redact(drawn, 1, public=True)["card"] == "3H"


def test_H3_spit_and_centre_piles_show_their_top_and_size():
    given = spit_game(["KH", "9C 7H", "2D", "", "10S JS"], ["4C", "4H", "JC", "3D", "9D"],
                      "8S 3C", "QD 5C")  # fmt: skip
    state = after(given, Play(1, 0), 0)
    assert view(state, None)["spit_piles"] == [
        {"size": 2, "top": "7H", "exists": True},
        {"size": 1, "top": "QD", "exists": True},
    ]
    speed = after(speed_game("8H 6S KC KD 2S", "8C 6D QC QD 3S"), PlayCard(card("8H"), 0), 0)
    assert view(speed, 1)["centre_piles"] == [{"size": 2, "top": "8H"}, {"size": 1, "top": "7D"}]


def personal(v: dict) -> dict:
    """A view without what belongs to its viewer alone (seat, actions, deadline, hand)."""
    v = dict(v, you=None, legal_actions=[], deadline=None)
    v["players"] = [{k: x for k, x in p.items() if k != "hand"} for p in v["players"]]
    return v


def test_H4_spectators_see_what_both_players_see_in_common():
    for log, state in (dealt_spit(), dealt_speed()):
        spectator = view(state, None)
        assert spectator["you"] is None and spectator["legal_actions"] == []
        assert all("hand" not in p for p in spectator["players"])
        assert personal(view(state, 0)) == personal(view(state, 1)) == personal(spectator)
        assert cards_in(spectator) == cards_in(view(state, 0)) & cards_in(view(state, 1))
        dealt = redact(log[-1], None)
        assert dealt.get("hands", [5, 5]) == [5, 5]  # Speed: no hand for a spectator
        assert cards_in(dealt) == cards_in(redact(log[-1], 0)) & cards_in(redact(log[-1], 1))


def test_H5_errors_never_name_a_hidden_card():
    given = spit_game(["KH", "9C 7H", "2D 6D", "", "10S JS"], ["4C", "4H", "JC", "3D", "9D"],
                      "8S 3C", "QD 5C")  # fmt: skip
    state = after(given, Play(1, 0), 0)  # 9C face down on stockpile 1
    probes = [Play(1, 0), Play(1, 1), Move(1, 3), TurnUp(2), TurnUp(3), Move(2, 2)]
    for action in probes:
        for seat in (0, 1):
            try:
                decide(state, action, Ctx(seat, NOW, SEED))
            except IllegalAction as e:
                assert "9C" not in str(e) and "6D" not in str(e) and "3C" not in str(e)
    # Speed: seat 0 may not see seat 1's hand nor any draw pile; naming a card in an
    # action gets that card named back, and nothing else hidden.
    speed = state_of(speed_game("8H 6S KC KD 2S", "8C 6D QC QD 3S", "3H", "3D"))
    secret = {"3H", "3D", "8C", "6D", "QC", "QD", "3S"}
    for action in (Draw(), PlayCard(card("8C"), 0), PlayCard(card("3H"), 1), Ready()):
        try:
            decide(speed, action, Ctx(0, NOW, SEED))
        except IllegalAction as e:
            named = {str(action.card)} if isinstance(action, PlayCard) else set()
            assert cards_in(re.findall(r"\w+", str(e))) & secret <= named
        else:
            raise AssertionError(f"{action} should be refused")


def test_H5_replay_of_an_unfinished_game_reveals_nothing_hidden():
    log, state = dealt_spit()
    log = log + decide(state, Ready(), Ctx(0, NOW, SEED))
    state = replay(log)
    log = log + decide(state, Ready(), Ctx(1, NOW, SEED))
    state = replay(log)
    hidden = hidden_spit(state)
    for seat in (0, 1, None):
        shown = set().union(*(cards_in(redact(e, seat)) for e in log))
        assert shown & hidden == set()
        assert cards_in(view(state, seat)) & hidden == set()
    assert "pool" not in str(view(state, 0))


def test_H6_after_the_game_everything_is_public():
    log, state = dealt_spit()
    over = after(state, Resign(), 0)
    assert over.over
    for seat in (0, 1, None):
        v = view(over, seat)
        assert v == full_state(over, seat)
        assert cards_in(v) == {str(c) for c in DECK}  # every card, where it lies
    assert all(redact(e, None, public=True) == event_to_dict(e) for e in log)
    stock = full_state(over)["players"][0]["stockpiles"]
    assert [len(s["cards"]) for s in stock] == [1, 2, 3, 4, 5]
    assert [s["face_up"] for s in stock] == [1, 1, 1, 1, 1]
    assert full_state(over)["players"][1]["spit_cards"] == [str(c) for c in over.players[1].spit]


def test_H6_speed_full_state_shows_every_card():
    log, state = dealt_speed()
    over = after(state, Resign(), 1)
    assert cards_in(view(over, None)) == {str(c) for c in DECK}
    assert view(over, 0)["players"][1]["hand"] == [str(c) for c in over.players[1].hand]
    played = CardPlayed(seat=0, card=card("8H"), to=0)
    assert redact(played, 1) == event_to_dict(played)  # a played card is public anyway
