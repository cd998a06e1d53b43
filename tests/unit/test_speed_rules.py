"""Speed, rule by rule (RULES.md SPEED, V-3, V-4): given events -> when action -> then
events, or the IllegalAction and its rule."""

import pytest

from domain import (
    DECK,
    Ctx,
    GameOver,
    Join,
    Ready,
    Resign,
    decide,
    legal_actions,
    replay,
    run,
    shuffle,
    view,
)
from domain.events import GameAborted, GameEnded, PlayerReady, PlayerResigned
from domain.piles import CardPlayed, Spit, SpitCalled
from domain.speed import (
    CardDrawn,
    CentreStarted,
    Draw,
    GameScored,
    PlayCard,
    SideCardsTurned,
    SidePilesRebuilt,
    SpeedDealt,
)

from .builders import (
    CLIENT_SEEDS,
    NOW,
    SEED,
    T0,
    after,
    card,
    cards,
    created,
    refused,
    speed_dealt,
    speed_game,
    state_of,
    when,
)
from .positions import speed_playing as playing
from .positions import speed_stuck as stuck


def real_deal(**options) -> SpeedDealt:
    state = replay(created("speed", **options)[:1])
    return decide(state, Join(client_seed=CLIENT_SEEDS[1]), Ctx(1, NOW, SEED))[-1]


def test_Q1_side_piles_middle_and_draw_piles_from_one_shuffled_deck():
    dealt = real_deal()
    assert isinstance(dealt, SpeedDealt) and dealt.nonce == 1 and dealt.game_no == 1
    c = shuffle(DECK, SEED, CLIENT_SEEDS, 1)
    assert dealt.side_piles == (c[0:10], c[10:20])
    assert dealt.middle == c[20:22]
    assert [h + d for h, d in zip(dealt.hands, dealt.draw_piles, strict=True)] == [
        c[22:37],
        c[37:52],
    ]
    assert [len(d) for d in dealt.draw_piles] == [10, 10]


def test_V4_five_card_side_piles_and_twenty_cards_each():
    dealt = real_deal(side_piles=5)
    assert [len(s) for s in dealt.side_piles] == [5, 5]
    assert [len(h) + len(d) for h, d in zip(dealt.hands, dealt.draw_piles, strict=True)] == [20, 20]
    everything = (
        [c for s in dealt.side_piles for c in s]
        + list(dealt.middle)
        + [c for h in dealt.hands + dealt.draw_piles for c in h]
    )
    assert sorted(everything, key=lambda c: c.index) == list(DECK)


def test_Q2_five_cards_to_hand_the_owner_alone_sees_them():
    state = after(replay(created("speed")[:1]), Join(client_seed=CLIENT_SEEDS[1]), seat=1)
    assert [len(p.hand) for p in state.players] == [5, 5]
    mine = view(state, 0)
    assert mine["players"][0]["hand"] == [str(c) for c in state.players[0].hand]
    assert "hand" not in mine["players"][1] and mine["players"][1]["hand_size"] == 5
    assert mine["centre_piles"] == [{"size": 1, "top": None, "face_down": True}] * 2


def test_Q2_both_ready_turn_the_middle_cards_up():
    given = playing(started=False)
    assert refused(given, PlayCard(card("8H"), 0), 0).rule == "Q-2"
    assert refused(given, Draw(), 0).rule == "Q-2"
    one = after(given, Ready(), 1)
    assert when(one, Ready(), 0) == [PlayerReady(seat=0), CentreStarted(cards=cards("7C 7D"))]
    started = after(one, Ready(), 0)
    assert started.piles == (cards("7C"), cards("7D")) and started.phase == "playing"
    assert refused(started, Ready(), 0).rule == "Q-2"


def test_Q3_play_an_adjacent_card_from_hand_on_either_centre_pile():
    assert when(playing(), PlayCard(card("8H"), 0), 0) == [
        CardPlayed(seat=0, card=card("8H"), to=0, src=None)
    ]
    assert when(playing(), PlayCard(card("6S"), 1), 0) == [
        CardPlayed(seat=0, card=card("6S"), to=1, src=None)
    ]
    played = after(playing(), PlayCard(card("8H"), 0), 0)
    assert played.players[0].hand == cards("6S KC KD 2S")
    assert played.piles[0] == cards("7C 8H")


def test_Q3_card_must_be_in_hand_and_adjacent():
    error = refused(playing(), PlayCard(card("KC"), 0), 0)
    assert error.rule == "Q-3" and "KC" in error.detail and "7C" in error.detail
    assert refused(playing(), PlayCard(card("8C"), 0), 0).rule == "Q-3"  # seat 1's card
    assert refused(playing(), PlayCard(card("9H"), 0), 0).rule == "Q-3"


def test_Q4_draw_with_fewer_than_five_in_hand():
    assert refused(playing(), Draw(), 0).rule == "Q-4"  # five in hand
    assert Draw() not in legal_actions(state_of(playing()), 0)
    four = after(playing(), PlayCard(card("8H"), 0), 0)
    assert when(four, Draw(), 0) == [CardDrawn(seat=0, card=card("3H"))]
    drawn = after(four, Draw(), 0)
    assert drawn.players[0].hand == cards("6S KC KD 2S 3H")
    assert drawn.players[0].draw == cards("4H 5H")
    assert refused(drawn, Draw(), 0).rule == "Q-4"  # never more than five


def test_Q4_nothing_to_draw_from_an_empty_draw_pile():
    given = speed_game("8H 6S KC KD 2S", "8C 6D QC QD 3S", "", "")
    four = after(given, PlayCard(card("8H"), 0), 0)
    assert refused(four, Draw(), 0).rule == "Q-4"


def test_Q5_both_call_then_each_side_pile_turns_a_card():
    state = state_of(stuck())
    assert state.stalemate and state.phase == "stalemate"
    assert legal_actions(state, 0) == [Spit(), Resign()]
    assert when(stuck(), Spit(), 0) == [SpitCalled(seat=0)]
    one = after(stuck(), Spit(), 0)
    assert refused(one, Spit(), 0).rule == "Q-5"  # once
    assert when(one, Spit(), 1) == [
        SpitCalled(seat=1),
        SideCardsTurned(cards=cards("5S JD")),
    ]
    resumed = after(one, Spit(), 1)
    assert resumed.piles == (cards("7C 5S"), cards("7D JD")) and resumed.phase == "playing"
    assert resumed.side == (cards("10C"), ())


def test_Q5_an_empty_side_pile_turns_nothing():
    one = after(stuck(side1=""), Spit(), 0)
    assert when(one, Spit(), 1)[-1] == SideCardsTurned(cards=(card("5S"), None))


def test_Q5_calling_outside_a_stalemate_is_illegal():
    assert refused(playing(), Spit(), 0).rule == "Q-5"
    assert Spit() not in legal_actions(state_of(playing()), 0)


def q6_position():
    """Both side piles empty; below the tops 9S and 6S lie 7C 8H (pile 0) and 7D (pile 1)."""
    return speed_game("8H 9S KC KD KH", "6S 2C 2D 2H 2S") + [
        CardPlayed(at=T0, seat=0, card=card("8H"), to=0),
        CardPlayed(at=T0, seat=0, card=card("9S"), to=0),
        CardPlayed(at=T0, seat=1, card=card("6S"), to=1),
    ]


def test_Q6_empty_side_piles_are_rebuilt_from_the_centre():
    assert state_of(q6_position()).stalemate
    one = after(q6_position(), Spit(), 0)
    mixed = shuffle(cards("7C 8H 7D"), SEED, CLIENT_SEEDS, 2)
    assert when(one, Spit(), 1) == [
        SpitCalled(seat=1),
        SidePilesRebuilt(nonce=2, side_piles=(mixed[:2], mixed[2:])),  # the odd card to pile 0
        SideCardsTurned(cards=(mixed[0], mixed[2])),
    ]
    rebuilt = after(one, Spit(), 1)
    assert rebuilt.piles == ((card("9S"), mixed[0]), (card("6S"), mixed[2]))
    assert rebuilt.side == ((mixed[1],), ())
    assert rebuilt.nonce == 2


def test_Q7_playing_the_last_card_wins():
    given = speed_game("8H", "2C 2D 2H 2S 3C", "", "4C 4D 4H")
    assert when(given, PlayCard(card("8H"), 0), 0) == [
        CardPlayed(seat=0, card=card("8H"), to=0),
        GameScored(winner=0, points=3, scores=(3, 0), reason="Q-7"),
        GameEnded(winner=0, reason="Q-7"),
    ]
    over = after(given, PlayCard(card("8H"), 0), 0)
    assert over.status == "finished" and over.winner == 0


def test_Q7_hand_empty_but_draw_pile_left_is_not_a_win():
    given = speed_game("8H", "2C 2D 2H 2S 3C", "9D", "4C 4D 4H")
    assert when(given, PlayCard(card("8H"), 0), 0) == [CardPlayed(seat=0, card=card("8H"), to=0)]


def test_Q8_the_winner_scores_the_opponents_draw_pile_and_the_match_goes_on():
    given = speed_game("8H", "2C 2D 2H 2S 3C", "", "4C 4D 4H", target_score=5)
    events = when(given, PlayCard(card("8H"), 0), 0)
    assert events[1] == GameScored(winner=0, points=3, scores=(3, 0), reason="Q-7")
    dealt = events[2]  # no GameEnded: the next game of the match is dealt
    assert len(events) == 3 and isinstance(dealt, SpeedDealt)
    assert dealt.game_no == 2 and dealt.nonce == 2
    c = shuffle(DECK, SEED, CLIENT_SEEDS, 2)
    assert dealt.side_piles == (c[:10], c[10:20]) and dealt.middle == c[20:22]
    state = after(given, PlayCard(card("8H"), 0), 0)
    assert state.scores == (3, 0) and state.round == 2 and state.phase == "ready"


def second_game(hand0, hand1, draw0, draw1, **options):
    """Game 2 of a match in which seat 0 won game 1 with 3 points."""
    return (
        speed_game("8H", "2C", **options)
        + [GameScored(at=T0, winner=0, points=3, scores=(3, 0), reason="Q-7")]
        + [speed_dealt(hand0, hand1, draw0, draw1, game_no=2)]
        + [PlayerReady(at=T0, seat=0), PlayerReady(at=T0, seat=1)]
        + [CentreStarted(at=T0, cards=cards("7C 7D"))]
    )


def test_Q8_reaching_the_target_score_wins_the_match():
    given = second_game("8H", "2C 2D", "", "4C 4D", target_score=5)
    assert when(given, PlayCard(card("8H"), 0), 0)[1:] == [
        GameScored(winner=0, points=2, scores=(5, 0), reason="Q-7"),
        GameEnded(winner=0, reason="Q-8"),
    ]


def test_Q8_E4_max_rounds_bounds_the_match_the_higher_score_wins():
    # Seat 1 wins game 2 with 2 points, but seat 0 leads the match 3 to 2.
    given = second_game("2C 2D", "8H", "4C 4D", "", target_score=10, max_rounds=2)
    assert when(given, PlayCard(card("8H"), 0), 1)[1:] == [
        GameScored(winner=1, points=2, scores=(3, 2), reason="Q-7"),
        GameEnded(winner=0, reason="E-4"),
    ]


def test_Q9_nothing_to_supply_a_card_ends_the_game_fewer_cards_win():
    given = speed_game("KC KD KH KS 2C", "2D 2H", "3S", "")  # 6 cards against 2
    assert state_of(given).stalemate
    one = after(given, Spit(), 0)
    assert when(one, Spit(), 1) == [
        SpitCalled(seat=1),
        GameScored(winner=1, points=1, scores=(0, 1), reason="Q-9"),
        GameEnded(winner=1, reason="Q-9"),
    ]


def play_out(given) -> list:
    """Both call at every stalemate and play the first card that fits, to the end."""
    state, log = state_of(given), []
    for step in range(1000):
        if state.over:
            return log
        acts = [(s, a) for s in (0, 1) for a in legal_actions(state, s) if a != Resign()]
        seat, action = acts[0]
        events, state = run(state, action, Ctx(seat, NOW + step, SEED))
        log += events
    raise AssertionError("the game did not end")


def test_Q9_a_dead_centre_ends_the_game_at_its_second_rebuild():
    # No hand card fits any centre card (7C 8H 7D 9S 6S): the first rebuild cannot help,
    # and a second one with no card played since would only go round again.
    log = play_out(q6_position())
    assert sum(isinstance(e, SidePilesRebuilt) for e in log) == 1
    assert log[-2:] == [
        GameScored(at=log[-1].at, winner=0, points=0, scores=(0, 0), reason="Q-9"),
        GameEnded(at=log[-1].at, winner=0, reason="Q-9"),  # three cards against four
    ]


def test_Q9_a_card_played_since_the_last_rebuild_allows_another():
    given = speed_game("8H 9S KC KD KH", "6S 9C 2C 2D 2H") + [
        CardPlayed(at=T0, seat=0, card=card("8H"), to=0),
        CardPlayed(at=T0, seat=0, card=card("9S"), to=0),
        CardPlayed(at=T0, seat=1, card=card("6S"), to=1),
    ]
    log = play_out(given)
    rebuilt = [i for i, e in enumerate(log) if isinstance(e, SidePilesRebuilt)]
    played = [i for i, e in enumerate(log) if isinstance(e, CardPlayed)]
    assert len(rebuilt) == 2 and len(played) == 1  # 9C on 8H, between the two
    assert rebuilt[0] < played[0] < rebuilt[1]
    assert log[-1] == GameEnded(at=log[-1].at, winner=None, reason="Q-9")


def test_Q9_equal_counts_are_a_draw():
    given = speed_game("KC KD KH KS 2C", "2D 2H 2S 3D 3H")
    one = after(given, Spit(), 1)
    assert when(one, Spit(), 0)[1:] == [
        GameScored(winner=None, points=0, scores=(0, 0), reason="Q-9"),
        GameEnded(winner=None, reason="Q-9"),
    ]


def test_E5_resigning_in_speed_records_E5_not_Q9():
    assert when(playing(), Resign(), 1) == [
        PlayerResigned(seat=1),
        GameEnded(winner=0, reason="E-5"),
    ]
    over = after(playing(), Resign(), 1)
    assert over.result == "E-5"
    with pytest.raises(GameOver):
        decide(over, Draw(), Ctx(0, NOW, SEED))
    waiting = replay(created("speed")[:1])
    assert when(waiting, Resign(), 0) == [PlayerResigned(seat=0), GameAborted(reason="E-5")]


def test_V3_alternate_colours_in_speed():
    given = speed_game("8S 8H 6C 6D 2S", "2C 2D 2H 3S 3C", alternate_colors=True)
    assert refused(given, PlayCard(card("8S"), 0), 0).rule == "V-3"  # black on 7C
    assert when(given, PlayCard(card("8H"), 0), 0)[0].card == card("8H")
    assert refused(given, PlayCard(card("6D"), 1), 0).rule == "V-3"  # red on 7D
    legal = legal_actions(state_of(given), 0)
    assert PlayCard(card("6C"), 1) in legal and PlayCard(card("6D"), 1) not in legal
