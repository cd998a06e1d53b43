"""Spit, rule by rule (RULES.md DEAL, PLAY, STALEMATE, NEW LAYOUT, END, VARIATIONS):
given events -> when action -> then events, or the IllegalAction and its rule."""

import pytest

from domain import (
    DECK,
    Ctx,
    GameOver,
    Join,
    MalformedAction,
    Ready,
    Resign,
    decide,
    legal_actions,
    parse_action,
    replay,
    shuffle,
    view,
)
from domain.events import GameAborted, GameEnded, PlayerReady, PlayerResigned
from domain.piles import CardPlayed, Spit, SpitCalled
from domain.spit import (
    CardMoved,
    CardTurnedUp,
    Choose,
    Move,
    PileChosen,
    PileSlapped,
    PilesTaken,
    Play,
    RoundEnded,
    Slap,
    SpitCardsTurned,
    SpitDealt,
    TurnUp,
    deal_layout,
)

from .builders import (
    CLIENT_SEEDS,
    NOW,
    SEED,
    after,
    card,
    cards,
    created,
    refused,
    spit_game,
    state_of,
    when,
)
from .positions import STUCK0, STUCK1, about_to_clear
from .positions import spit_playing as playing
from .positions import spit_stuck as stuck

# ---------------------------------------------------------------- DEAL


def test_D1_deck_is_shuffled_and_each_player_gets_26_cards():
    state = replay(created("spit")[:1])
    events = decide(state, Join(client_seed=CLIENT_SEEDS[1]), Ctx(1, NOW, SEED))
    dealt = events[-1]
    assert isinstance(dealt, SpitDealt) and dealt.nonces == (1,)
    deck = shuffle(DECK, SEED, CLIENT_SEEDS, 1)
    for seat in (0, 1):
        held = [c for pile in dealt.stockpiles[seat] for c in pile] + list(dealt.spit_cards[seat])
        assert len(held) == 26
        assert sorted(held, key=lambda c: c.index) == sorted(
            deck[26 * seat : 26 * seat + 26], key=lambda c: c.index
        )
    assert deck != DECK  # shuffled


def test_D2_five_stockpiles_of_1_to_5_cards_tops_face_up_and_11_spit_cards():
    state = replay(created("spit")[:1])
    state = after(state, Join(client_seed=CLIENT_SEEDS[1]), seat=1)
    for p in state.players:
        assert [len(pile) for pile in p.stockpiles] == [1, 2, 3, 4, 5]
        assert p.face_up == (True,) * 5
        assert len(p.spit) == 11
    seen = view(state, 0)["players"][1]
    assert [s["size"] for s in seen["stockpiles"]] == [1, 2, 3, 4, 5]
    assert all(s["top"] is not None for s in seen["stockpiles"])
    assert seen["spit_cards"] == 11


def test_D3_cards_are_dealt_row_by_row_like_patience():
    c = DECK[:26]
    piles, spit_cards = deal_layout(c, 5)
    assert piles == (
        (c[0],),
        (c[1], c[5]),
        (c[2], c[6], c[9]),
        (c[3], c[7], c[10], c[12]),
        (c[4], c[8], c[11], c[13], c[14]),
    )
    assert spit_cards == c[15:]  # the first of them on top


def test_D3_first_deal_is_dealt_from_the_shuffled_deck_in_order():
    state = replay(created("spit")[:1])
    dealt = decide(state, Join(client_seed=CLIENT_SEEDS[1]), Ctx(1, NOW, SEED))[-1]
    deck = shuffle(DECK, SEED, CLIENT_SEEDS, 1)
    assert dealt.stockpiles[0][4] == (deck[4], deck[8], deck[11], deck[13], deck[14])
    assert dealt.spit_cards[0][0] == deck[15]
    assert dealt.stockpiles[1][0] == (deck[26],)
    assert dealt.spit_cards[1] == deck[41:52]


def test_D4_when_both_are_ready_each_turns_the_top_spit_card():
    given = stuck(started=False)
    assert when(given, Ready(), 0) == [PlayerReady(seat=0)]
    one_ready = after(given, Ready(), 0)
    assert when(one_ready, Ready(), 1) == [
        PlayerReady(seat=1),
        SpitCardsTurned(cards=cards("8S 8D"), piles=(0, 1)),
    ]


def test_D4_nothing_can_be_played_before_both_are_ready():
    given = playing(started=False)
    assert refused(given, Play(1, 0), 0).rule == "D-4"
    assert refused(after(given, Ready(), 0), Ready(), 0).rule == "D-4"  # already ready
    assert legal_actions(state_of(given), 0) == [Ready(), Resign()]


# ---------------------------------------------------------------- PLAY


def test_P1_card_must_be_adjacent():
    assert when(playing(), Play(1, 0), 0) == [CardPlayed(seat=0, card=card("7H"), to=0, src=1)]
    error = refused(playing(), Play(2, 0), 0)  # 2D on 8S
    assert error.rule == "P-1" and "2D" in error.detail and "8S" in error.detail


def test_P1_either_spit_pile_and_the_corner():
    # KH on QD: onto the other player's pile, and from K...
    assert when(playing(), Play(0, 1), 0) == [CardPlayed(seat=0, card=card("KH"), to=1, src=0)]
    # ...and A turns the corner onto K (C-2)
    given = spit_game(["AH", "", "", "", ""], STUCK1, "KS 3C", "QD 5C")
    assert when(given, Play(0, 0), 0)[0] == CardPlayed(seat=0, card=card("AH"), to=0, src=0)


def test_P1_face_down_or_empty_stockpile_cannot_be_played():
    given = spit_game(["KH", "8C 7H", "2D", "", "10S JS"], STUCK1, "8S 3C", "QD 5C")
    given += [CardPlayed(seat=0, card=card("7H"), to=0, src=1)]
    # 8C, now on top of stockpile 1, would fit on 7H, but it is face down
    assert state_of(given).players[0].face_up[1] is False
    assert refused(given, Play(1, 0), 0).rule == "P-1"
    assert Play(1, 0) not in legal_actions(state_of(given), 0)
    assert when(after(given, TurnUp(1), 0), Play(1, 0), 0)[0].card == card("8C")
    assert refused(playing(), Play(3, 0), 0).rule == "P-1"  # empty space


def test_P2_turn_up_a_face_down_top():
    given = playing() + [CardPlayed(seat=0, card=card("7H"), to=0, src=1)]
    assert when(given, TurnUp(1), 0) == [CardTurnedUp(seat=0, stockpile=1, card=card("9C"))]
    turned = after(given, TurnUp(1), 0)
    assert turned.players[0].face_up[1] is True
    assert refused(turned, TurnUp(1), 0).rule == "P-2"  # already face up
    assert refused(given, TurnUp(3), 0).rule == "P-2"  # empty


def test_P3_move_a_top_into_an_empty_space():
    assert when(playing(), Move(1, 3), 0) == [CardMoved(seat=0, src=1, to=3, card=card("7H"))]
    moved = after(playing(), Move(1, 3), 0)
    assert moved.players[0].stockpiles[3] == cards("7H")
    assert moved.players[0].stockpiles[1] == cards("9C")
    assert moved.players[0].face_up[1] is False  # what lay under it is face down (P-2)


def test_P3_move_needs_an_empty_space_and_a_pile_of_two():
    assert refused(playing(), Move(1, 2), 0).rule == "P-3"  # space 2 holds 2D
    assert refused(playing(), Move(0, 3), 0).rule == "P-3"  # KH alone: the ruling
    face_down = playing() + [CardPlayed(seat=0, card=card("JS"), to=1, src=4)]
    assert refused(face_down, Move(4, 3), 0).rule == "P-3"  # 10S face down


def test_P3_never_more_than_the_tables_stockpiles():
    given = spit_game(["KH", "9C 7H", "2D", ""], ["4C", "4H", "JC", "3D"], "8S", "QD", stockpiles=4)
    assert refused(given, Move(1, 4), 0).rule == "V-1"
    assert Move(1, 4) not in legal_actions(state_of(given), 0)
    assert Move(1, 3) in legal_actions(state_of(given), 0)


def test_P4_first_action_in_the_log_wins_the_race():
    # Both seats want pile 0 (8S): seat 0 with 7H, seat 1 with 9D. Seat 0's reaches the
    # log first; seat 1's is judged against the new state (7H on top) and refused...
    first = after(playing(), Play(1, 0), 0)
    assert refused(first, Play(4, 0), 1).rule == "P-1"
    # ...while an action that is still legal in the new state is accepted.
    given = spit_game(
        ["KH", "9C 7H", "2D", "", "10S JS"], ["4C", "4H", "JC", "3D 6C", "9D"], "8S", "QD"
    )
    seat1_first = after(given, Play(4, 0), 1)  # 9D on 8S
    assert when(seat1_first, Play(0, 1), 0) == [CardPlayed(seat=0, card=card("KH"), to=1, src=0)]


def test_P4_a_played_card_cannot_be_taken_back():
    played = after(playing(), Play(1, 0), 0)
    assert played.piles[0][-1] == card("7H")
    with pytest.raises(MalformedAction) as info:
        parse_action("spit", {"type": "undo"})
    assert "type" in info.value.errors


def test_P5_a_player_acts_only_with_their_own_stockpiles():
    # Stockpile 1 is 7H for seat 0 (playable on 8S), 4H for seat 1 (not).
    assert refused(playing(), Play(1, 0), 1).rule == "P-1"
    # seat 1's stockpile 0 (4C) is its own, whatever seat 0 holds there (KH)
    assert refused(playing(), Play(0, 1), 1).rule == "P-1"
    assert when(playing(), Play(2, 1), 1) == [CardPlayed(seat=1, card=card("JC"), to=1, src=2)]
    assert refused(playing(), Play(1, 0), None).rule == "P-5"  # a spectator
    assert refused(playing(), Play(1, 0), 2).rule == "P-5"


# ---------------------------------------------------------------- STALEMATE


def test_S1_stalemate_is_detected_and_in_the_view():
    state = state_of(stuck())
    assert state.stalemate and state.phase == "stalemate"
    assert view(state, 0)["stalemate"] is True and view(state, None)["phase"] == "stalemate"
    assert legal_actions(state, 0) == [Spit(), Spit(0), Resign()]
    assert not state_of(playing()).stalemate and view(state_of(playing()), 1)["stalemate"] is False


def test_S1_a_possible_move_or_turn_up_is_not_a_stalemate():
    movable = stuck(stock0=["KH", "2C 2H", "2D", "", "10S"])  # P-3 into space 3
    assert not state_of(movable).stalemate
    lone = stuck(stock0=["KH", "2C", "2D", "", "10S"])  # nothing to move: the P-3 ruling
    assert state_of(lone).stalemate
    face_down = stuck(stock0=["KH", "2C", "2D", "5S", "9S 10S"]) + [
        CardPlayed(seat=0, card=card("10S"), to=0, src=4)
    ]
    assert not state_of(face_down).stalemate  # 9S can be turned up (P-2)


def test_S2_both_call_then_each_spits_onto_their_own_pile():
    assert when(stuck(), Spit(), 0) == [SpitCalled(seat=0)]
    one = after(stuck(), Spit(), 0)
    assert when(one, Spit(1), 1) == [
        SpitCalled(seat=1),
        SpitCardsTurned(cards=cards("3C 5C"), piles=(0, 1)),
    ]
    resumed = after(one, Spit(), 1)
    assert resumed.piles == (cards("8S 3C"), cards("8D 5C")) and resumed.phase == "playing"


def test_S2_own_pile_only_and_one_call_each():
    assert refused(stuck(), Spit(1), 0).rule == "S-2"
    assert refused(after(stuck(), Spit(), 0), Spit(), 0).rule == "S-2"


def test_S2_a_player_without_spit_cards_does_not_call():
    given = stuck(spit0="8S", spit1="8D 5C")
    assert refused(given, Spit(), 0).rule == "S-2"
    assert legal_actions(state_of(given), 0) == [Resign()]


def test_S3_solo_spit_goes_onto_own_pile_by_default():
    given = stuck(spit0="8S", spit1="8D 8C 8H")
    assert when(given, Spit(), 1) == [
        SpitCalled(seat=1),
        SpitCardsTurned(cards=(None, card("8C")), piles=(None, 1)),
    ]


def test_S3_solo_spit_locks_pile():
    given = stuck(spit0="8S", spit1="8D 8C 8H")
    assert legal_actions(state_of(given), 1) == [Spit(), Spit(0), Spit(1), Resign()]
    assert when(given, Spit(0), 1)[1] == SpitCardsTurned(cards=(None, card("8C")), piles=(None, 0))
    locked = after(given, Spit(0), 1)
    assert locked.stalemate and locked.solo_pile == 0  # 8C on 8S: still blocked
    assert refused(locked, Spit(1), 1).rule == "S-3"
    assert legal_actions(locked, 1) == [Spit(), Spit(0), Resign()]
    assert when(locked, Spit(), 1)[1] == SpitCardsTurned(cards=(None, card("8H")), piles=(None, 0))


def test_S4_calling_spit_outside_a_stalemate_is_illegal():
    assert refused(playing(), Spit(), 0).rule == "S-4"
    assert Spit() not in legal_actions(state_of(playing()), 0)


# ---------------------------------------------------------------- NEW LAYOUT


def test_N1_a_round_ends_when_a_player_clears_their_stockpiles():
    assert when(about_to_clear(), Play(0, 0), 0) == [
        CardPlayed(seat=0, card=card("7H"), to=0, src=0),
        RoundEnded(round=1, reason="N-1a", cleared=0, next="slap"),
    ]
    ended = after(about_to_clear(), Play(0, 0), 0)
    assert refused(ended, Play(2, 1), 1).rule == "N-1"  # JC on QD no longer counts


def test_N1_a_round_ends_when_blocked_and_out_of_spit_cards():
    given = stuck(spit0="8S", spit1="8D 8C")
    assert when(given, Spit(), 1) == [
        SpitCalled(seat=1),
        SpitCardsTurned(cards=(None, card("8C")), piles=(None, 1)),
        RoundEnded(round=1, reason="N-1b", cleared=None, next="slap"),
    ]


def test_N2_first_slap_takes_that_pile_the_other_gets_the_other():
    slapping = after(about_to_clear(), Play(0, 0), 0)
    assert slapping.phase == "slap"
    assert legal_actions(slapping, 0) == [Slap(0), Slap(1), Resign()]
    events = when(slapping, Slap(0), 1)
    assert events[:2] == [PileSlapped(seat=1, pile=0), PilesTaken(piles=(1, 0))]
    dealt = after(slapping, Slap(0), 1)
    # seat 1: pile 0 (8S 7H) + its five stockpile cards + 5C; seat 0: pile 1 (QD) + 3C
    assert [p.cards for p in dealt.players] == [2, 8]
    assert refused(dealt, Slap(1), 0).rule == "N-2"  # too late: the piles are taken


def test_N2_slap_only_at_a_rounds_end():
    assert refused(playing(), Slap(0), 0).rule == "N-2"


def test_N3_held_cards_and_taken_pile_are_shuffled_and_dealt_anew():
    slapping = after(about_to_clear(), Play(0, 0), 0)
    dealt = when(slapping, Slap(1), 0)[-1]  # seat 0 takes pile 1, seat 1 pile 0
    assert isinstance(dealt, SpitDealt) and dealt.round == 2 and dealt.nonces == (2, 3)
    held = (cards("QD 3C"), cards("8S 7H 4C 4H JC 3D QC 5C"))
    for seat in (0, 1):
        mixed = shuffle(held[seat], SEED, CLIENT_SEEDS, dealt.nonces[seat])
        assert sorted(mixed, key=lambda c: c.index) == sorted(held[seat], key=lambda c: c.index)
        piles, spit_cards = deal_layout(mixed, 5)
        assert dealt.stockpiles[seat] == piles and dealt.spit_cards[seat] == spit_cards


def test_N4_both_ready_start_the_new_round():
    given = about_to_clear(spit1="QD 5C 6C 6H 6S 10C 10D 10H JD JH QH")
    dealt = after(after(given, Play(0, 0), 0), Slap(0), 1)
    # seat 1 holds 17 cards (two spit cards), seat 0 two (a short hand, N-5)
    assert dealt.phase == "ready" and dealt.round == 2
    assert [len(p.spit) for p in dealt.players] == [0, 2]
    assert refused(dealt, Play(0, 0), 1).rule == "D-4"
    one = after(dealt, Ready(), 1)
    assert when(one, Ready(), 0) == [
        PlayerReady(seat=0),
        SpitCardsTurned(cards=(None, dealt.players[1].spit[0]), piles=(None, 1)),
    ]


def test_N5_short_hand_deals_what_it_has_and_no_spit_cards():
    c = DECK[:12]
    piles, spit_cards = deal_layout(c, 5)
    assert [len(p) for p in piles] == [1, 2, 3, 3, 3] and spit_cards == ()
    assert piles[4] == (c[4], c[8], c[11])
    assert deal_layout(DECK[:15], 5)[1] == ()  # 15 cards: a full layout, no spit cards
    assert deal_layout(DECK[:16], 5)[1] == (DECK[15],)
    assert deal_layout(DECK[:10], 4)[1] == ()  # V-1: 10 or fewer
    assert deal_layout(DECK[:11], 4)[1] == (DECK[10],)


def test_N5_one_spit_pile_the_other_does_not_exist():
    given = spit_game(["7H", "", "", "", ""], STUCK1, "", "8D 5C")
    state = state_of(given)
    assert state.piles == (None, cards("8D"))
    assert refused(given, Play(0, 0), 0).rule == "N-5"
    assert when(given, Play(0, 1), 0)[0] == CardPlayed(seat=0, card=card("7H"), to=1, src=0)
    assert view(state, 1)["spit_piles"][0] == {"size": 0, "top": None, "exists": False}


# ---------------------------------------------------------------- END


def test_E1_one_pile_first_to_clear_takes_nothing_the_other_takes_the_pile():
    # Seat 1 (with spit cards) clears first: it keeps only its spit cards; seat 0 takes
    # the spit pile and its own stockpile cards.
    given = spit_game(STUCK0, ["7H", "", "", "", ""], "", "8D 5C 6C")
    events = when(given, Play(0, 1), 1)
    assert events[:3] == [
        CardPlayed(seat=1, card=card("7H"), to=1, src=0),
        RoundEnded(round=1, reason="N-1a", cleared=1, next="take"),
        PilesTaken(piles=(1, None)),
    ]
    dealt = events[3]
    assert isinstance(dealt, SpitDealt)
    held = lambda seat: sorted(  # noqa: E731
        [c for p in dealt.stockpiles[seat] for c in p] + list(dealt.spit_cards[seat]),
        key=lambda c: c.index,
    )
    assert held(1) == sorted(cards("5C 6C"), key=lambda c: c.index)
    assert held(0) == sorted(cards("KH 2C 2D 5S 10S 8D 7H"), key=lambda c: c.index)


def test_E2_a_player_with_no_cards_left_wins_at_once_in_a_one_pile_round():
    given = spit_game(["7H", "", "", "", ""], STUCK1, "", "8D 5C")
    assert when(given, Play(0, 1), 0) == [
        CardPlayed(seat=0, card=card("7H"), to=1, src=0),
        GameEnded(winner=0, reason="E-2"),
    ]
    over = after(given, Play(0, 1), 0)
    assert over.status == "finished" and over.winner == 0 and over.result == "E-2"


def test_E2_a_player_with_no_cards_left_wins_at_once_in_a_two_pile_round():
    """Piles 8S / QD; seat 0 holds only 7H in its stockpiles and no
    spit cards; seat 1 is stuck with 5C as a spit card; seat 0 plays 7H: no slap, no new
    layout, the game ends and seat 0 wins."""
    given = spit_game(["7H", "", "", "", ""], STUCK1, "8S", "QD 5C")
    start = state_of(given)
    assert [p[-1] for p in start.piles] == list(cards("8S QD")) and not start.players[0].spit
    assert when(given, Play(0, 0), 0) == [
        CardPlayed(seat=0, card=card("7H"), to=0, src=0),
        GameEnded(winner=0, reason="E-2"),
    ]
    over = after(given, Play(0, 0), 0)
    assert (over.status, over.winner, over.result) == ("finished", 0, "E-2")


def test_E2_clearing_the_stockpiles_with_spit_cards_left_only_ends_the_round():
    given = about_to_clear()  # seat 0 still holds 3C as a spit card
    assert when(given, Play(0, 0), 0)[1] == RoundEnded(
        round=1, reason="N-1a", cleared=0, next="slap"
    )
    assert after(given, Play(0, 0), 0).status == "running"


def test_E3_one_pile_blocked_goes_to_the_player_with_more_stockpile_cards():
    # seat 0 (no spit cards) holds 5 stockpile cards, seat 1 four: seat 0 takes it
    given = stuck(spit0="", spit1="8D 8C", stock1=["4C", "4H", "JC", "3D", ""])
    events = when(given, Spit(), 1)
    assert events[2:4] == [
        RoundEnded(round=1, reason="N-1b", cleared=None, next="take"),
        PilesTaken(piles=(1, None)),
    ]
    fewer = stuck(spit0="", spit1="8D 8C", stock0=["KH", "2C", "2D", "", ""])
    assert when(fewer, Spit(), 1)[3] == PilesTaken(piles=(None, 1))


def test_E3_on_a_tie_the_player_who_had_spit_cards_takes_it():
    given = stuck(spit0="", spit1="8D 8C")  # five stockpile cards each
    assert when(given, Spit(), 1)[3] == PilesTaken(piles=(None, 1))
    mirrored = stuck(spit0="8D 8C", spit1="", stock0=STUCK1, stock1=STUCK0)
    assert when(mirrored, Spit(), 0)[3] == PilesTaken(piles=(0, None))


def test_E4_after_max_rounds_the_player_with_fewer_cards_wins():
    slapping = after(about_to_clear(max_rounds=1), Play(0, 0), 0)
    # seat 1 takes pile 0 and holds 8 cards, seat 0 holds QD and 3C
    assert when(slapping, Slap(0), 1) == [
        PileSlapped(seat=1, pile=0),
        PilesTaken(piles=(1, 0)),
        GameEnded(winner=0, reason="E-4"),
    ]


def test_E4_equal_counts_are_a_draw():
    given = about_to_clear(spit0="8S 3C 5D 6D 2H 3H 4S 6S", max_rounds=1)
    slapping = after(given, Play(0, 0), 0)
    assert when(slapping, Slap(0), 1)[-1] == GameEnded(winner=None, reason="E-4")  # 8 and 8


def test_E5_a_player_may_resign_at_any_time_and_the_other_wins():
    for given, seat in ((playing(), 0), (stuck(), 1), (playing(started=False), 1)):
        assert when(given, Resign(), seat) == [
            PlayerResigned(seat=seat),
            GameEnded(winner=1 - seat, reason="E-5"),
        ]
    slapping = after(about_to_clear(), Play(0, 0), 0)
    assert when(slapping, Resign(), 0)[-1] == GameEnded(winner=1, reason="E-5")
    over = after(playing(), Resign(), 0)
    with pytest.raises(GameOver):
        decide(over, Play(1, 0), Ctx(0, NOW, SEED))


def test_E5_resigning_before_the_second_seat_is_taken_records_E5():
    waiting = replay(created("spit")[:1])
    assert when(waiting, Resign(), 0) == [PlayerResigned(seat=0), GameAborted(reason="E-5")]


# ---------------------------------------------------------------- VARIATIONS


def test_V1_four_stockpiles_of_1_to_4_cards():
    c = DECK[:26]
    piles, spit_cards = deal_layout(c, 4)
    assert piles == ((c[0],), (c[1], c[4]), (c[2], c[5], c[7]), (c[3], c[6], c[8], c[9]))
    assert spit_cards == c[10:]
    state = after(replay(created("spit", stockpiles=4)[:1]), Join(), seat=1)
    assert [len(p) for p in state.players[0].stockpiles] == [1, 2, 3, 4]
    assert len(state.players[1].spit) == 16
    assert (
        refused(stuck(stockpiles=4, stock0=STUCK0[:4], stock1=STUCK1[:4]), TurnUp(4), 0).rule
        == "V-1"
    )


def test_V2_the_player_who_cleared_chooses_the_pile():
    choosing = after(about_to_clear(pile_choice="choose"), Play(0, 0), 0)
    assert choosing.phase == "choose" and choosing.chooser == 0
    assert legal_actions(choosing, 1) == [Resign()]
    assert legal_actions(choosing, 0) == [Choose(0), Choose(1), Resign()]
    assert refused(choosing, Choose(0), 1).rule == "V-2"
    assert refused(choosing, Slap(0), 0).rule == "N-2"
    assert when(choosing, Choose(1), 0)[:2] == [
        PileChosen(seat=0, pile=1),
        PilesTaken(piles=(1, 0)),
    ]
    assert refused(playing(pile_choice="choose"), Choose(0), 0).rule == "V-2"


def test_V2_after_a_blocked_round_fewer_stockpile_cards_choose_tie_slaps():
    fewer = stuck(spit0="8S", spit1="8D 8C", stock0=["KH", "2C", "2D", "", ""],
                  pile_choice="choose")  # fmt: skip
    assert when(fewer, Spit(), 1)[-1] == RoundEnded(
        round=1, reason="N-1b", cleared=None, next="choose", chooser=0
    )
    tie = stuck(spit0="8S", spit1="8D 8C", pile_choice="choose")
    assert when(tie, Spit(), 1)[-1] == RoundEnded(round=1, reason="N-1b", cleared=None, next="slap")


def test_V3_alternate_colours():
    # pile 0 shows 8S (black), pile 1 8D (red)
    given = spit_game(["7H", "7C", "9S", "9D", "KC"], STUCK1, "8S 3C", "8D 5C",
                      alternate_colors=True)  # fmt: skip
    assert refused(given, Play(0, 1), 0).rule == "V-3"  # 7H on 8D: both red
    assert refused(given, Play(1, 0), 0).rule == "V-3"  # 7C on 8S: both black
    assert when(given, Play(0, 0), 0)[0] == CardPlayed(seat=0, card=card("7H"), to=0, src=0)
    assert when(given, Play(1, 1), 0)[0] == CardPlayed(seat=0, card=card("7C"), to=1, src=1)
    legal = legal_actions(state_of(given), 0)
    assert Play(0, 0) in legal and Play(0, 1) not in legal
    # without the option, colour does not matter (C-2)
    plain = spit_game(["7H", "7C", "9S", "9D", "KC"], STUCK1, "8S 3C", "8D 5C")
    assert when(plain, Play(0, 1), 0)[0] == CardPlayed(seat=0, card=card("7H"), to=1, src=0)
