"""Rulings: where RULES.md is silent, the choices the engine made, each pinned by a test.

RULES.md states its own rulings (D-3, P-3, S-3, E-3, E-4, V-2, Q-9, T-3), tested with
their rules. These are the engine's, beyond the text:

1. Resigning while a seat is still free aborts the game (GameAborted, rule E-5): no
   one has played, so no one wins.
2. A seat that nobody has taken cannot act, not even resign (P-5).
3. A solo spit names no pile by default: it goes on the spitter's own pile, or the
   only existing one (S-3); the locked pile is the one the first solo spit used.
4. The Q-9 check is made when both players have called (or T-1 called for them), as
   any Speed stalemate is resolved; not as soon as the stalemate appears.
5. In Speed, resigning ends the whole match (rule E-5), whatever the score.
6. A Speed match that reaches ``max_rounds`` goes to the higher match score, equal
   scores a draw (E-4 speaks of cards, which a match does not compare).
7. A Speed game of a match that ends drawn (Q-9, equal cards) scores nothing and the
   match goes on with the next deal.
8. Every game of a Speed match, like every round of Spit, starts with both ready.
9. A slap or a choice that lost the race (the piles are already taken and dealt) is
   refused by its own rule, N-2 / V-2, not by D-4.
10. A one-pile round has no slap: the pile goes straight to its taker (E-1, E-3).
11. E-2 (a player without cards wins) is checked before E-4 (the round bound).
12. Every shuffle has a number (nonce) in log order: the first deal is 1, round ``r``
    of Spit uses two (one per player), a Speed rebuild (Q-6) one.
13. A timeout acting for a seat (T-1 calling, T-2 making ready) is logged with ``by``
    and is not the seat's own action (T-4 as amended): the seat's clock keeps running
    through it and pauses only while the seat has nothing legal to do, so an absent
    player forfeits after T-4 even in a game of frequent stalemates and rounds.
14. The spit cards that start a round (D-4) lock no pile, even in a one-pile round:
    only a solo spit in a stalemate does (S-3).
15. Q-9 also ends a Speed game at a stalemate that would rebuild the side piles a
    second time with no card played since the first rebuild: every centre card has
    then been a top that fitted no hand card, so the position is dead (without this
    ruling such a game cycles through Q-5 and Q-6 for ever). Tested with Q-9.
16. When the chooser of V-2 does not choose in time, T-3 applies to them as to the
    player who cleared: they take the smaller pile. Tested with T-3.
17. A rated game (``GameCreated.rated``) has no result until both seats have made a
    move (an action of the game's play of their own: not a join, a ready, a
    resignation, nor what a timeout does for them): a resignation (E-5) or a forfeit
    (T-4) before that aborts it, reason ``unplayed``, as Lichess aborts a game resigned
    or abandoned before both players moved (docs/decisions/0027). Unrated games keep
    E-5 and T-4 as they are.
18. (ruling 2 of the service, ``game.RULING``) The abort window of ruling 17 closes for
    a seat that has not moved ``ABORT_WINDOW_S`` (10 s) after its opponent's first move:
    from then on its resignation (E-5) or its forfeit (T-4) is a result, the opponent
    wins and the game is rated, although the loser never moved (docs/decisions/0036). A
    seat whose opponent has not moved can still abort; a game of ruling 1 keeps 17.
"""

from dataclasses import replace

from domain import Ctx, Deadline, Join, Ready, Resign, Timeout, deadlines, decide, replay
from domain.events import DeadlineExpired, GameAborted, GameEnded, PlayerReady, PlayerResigned
from domain.piles import Spit, SpitCalled
from domain.speed import CentreStarted, Draw, GameScored, PlayCard, SpeedDealt
from domain.spit import Choose, PilesTaken, Play, RoundEnded, Slap, SpitCardsTurned

from .builders import (
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
    spit_game,
    state_of,
    when,
)
from .positions import STUCK1, about_to_clear
from .positions import spit_stuck as stuck


def test_ruling_1_E5_resign_while_waiting_aborts_the_game():
    waiting = replay(created("spit")[:1])
    assert when(waiting, Resign(), 0) == [PlayerResigned(seat=0), GameAborted(reason="E-5")]
    aborted = after(waiting, Resign(), 0)
    assert aborted.status == "aborted" and aborted.winner is None


def test_ruling_2_P5_a_free_seat_cannot_act():
    waiting = replay(created("speed")[:1])
    assert refused(waiting, Resign(), 1).rule == "P-5"
    assert refused(waiting, Ready(), 1).rule == "P-5"
    assert refused(waiting, Ready(), 0).rule == "Q-2"  # seated, but the game has not begun
    joined = after(waiting, Join(), 1)
    assert joined.status == "running" and when(joined, Ready(), 1) == [PlayerReady(seat=1)]


def test_ruling_3_S3_solo_spit_defaults_to_own_or_the_only_pile():
    two_piles = stuck(spit0="8S", spit1="8D 8C")
    assert when(two_piles, Spit(), 1)[1] == SpitCardsTurned(
        cards=(None, card("8C")), piles=(None, 1)
    )
    # a one-pile round: seat 0 dealt no spit cards, seat 1's pile is the only one
    one_pile = stuck(spit0="", spit1="8D 8C 8H")
    assert when(one_pile, Spit(), 1)[1].piles == (None, 1)
    assert refused(one_pile, Spit(0), 1).rule == "S-3"


def test_ruling_4_Q9_checked_once_both_have_called_or_were_called_for():
    given = speed_game("KC KD KH KS 2C", "2D 2H", "3S", "")
    assert when(given, Spit(), 1) == [SpitCalled(seat=1)]  # not over yet
    assert when(given, Timeout("T-1"), None, now=T0 + 3) == [
        DeadlineExpired(rule="T-1"),
        SpitCalled(seat=0, by="T-1"),
        SpitCalled(seat=1, by="T-1"),
        GameScored(winner=1, points=1, scores=(0, 1), reason="Q-9"),
        GameEnded(winner=1, reason="Q-9"),
    ]


def match_game_2(**options):
    """Game 2 of a Speed match that seat 0 leads 3 to 0."""
    return (
        speed_game("8H", "2C", **options)
        + [GameScored(at=T0, winner=0, points=3, scores=(3, 0), reason="Q-7")]
        + [speed_dealt("KC KD KH KS 2C", "2D 2H 2S 3D 3H", "", "", game_no=2)]
        + [PlayerReady(at=T0, seat=0), PlayerReady(at=T0, seat=1)]
        + [CentreStarted(at=T0, cards=cards("7C 7D"))]
    )


def test_ruling_5_E5_resign_ends_the_whole_speed_match():
    given = match_game_2(target_score=10)
    assert state_of(given).scores == (3, 0)
    assert when(given, Resign(), 0) == [
        PlayerResigned(seat=0),
        GameEnded(winner=1, reason="E-5"),
    ]


def test_ruling_6_E4_speed_match_bound_goes_to_the_higher_score():
    given = match_game_2(target_score=10, max_rounds=2)  # game 2 ends drawn by Q-9
    one = after(given, Spit(), 0)
    assert when(one, Spit(), 1)[1:] == [
        GameScored(winner=None, points=0, scores=(3, 0), reason="Q-9"),
        GameEnded(winner=0, reason="E-4"),
    ]


def test_ruling_7_Q9_a_drawn_game_of_a_match_scores_nothing_and_the_match_goes_on():
    given = match_game_2(target_score=10)
    one = after(given, Spit(), 0)
    events = when(one, Spit(), 1)
    assert events[1] == GameScored(winner=None, points=0, scores=(3, 0), reason="Q-9")
    assert isinstance(events[2], SpeedDealt) and events[2].game_no == 3 and len(events) == 3


def test_ruling_8_Q2_every_game_of_a_match_starts_with_both_ready():
    given = speed_game("8H", "2C 2D 2H 2S 3C", "", "4C", target_score=5)
    next_game = after(given, PlayCard(card("8H"), 0), 0)
    assert next_game.phase == "ready" and next_game.round == 2 and next_game.middle
    assert refused(next_game, Draw(), 0).rule == "Q-2"
    one = after(next_game, Ready(), 0)
    assert when(one, Ready(), 1) == [
        PlayerReady(seat=1),
        CentreStarted(cards=next_game.middle),
    ]


def test_ruling_9_N2_V2_a_slap_or_choice_that_lost_the_race():
    taken = after(after(about_to_clear(), Play(0, 0), 0), Slap(0), 1)
    assert taken.phase == "ready"
    assert refused(taken, Slap(1), 0).rule == "N-2"
    chosen = after(after(about_to_clear(pile_choice="choose"), Play(0, 0), 0), Choose(0), 0)
    assert refused(chosen, Choose(1), 0).rule == "V-2"


def test_ruling_10_E1_a_one_pile_round_has_no_slap():
    given = spit_game(["KH", "2C", "", "", ""], ["7H", "", "", "", ""], "", "8D 5C 6C 6D")
    events = when(given, Play(0, 1), 1)
    assert events[1] == RoundEnded(round=1, reason="N-1a", cleared=1, next="take")
    assert events[2] == PilesTaken(piles=(1, None))
    assert after(given, Play(0, 1), 1).phase == "ready"  # dealt again at once


def test_ruling_11_E2_before_E4():
    given = spit_game(["7H", "", "", "", ""], STUCK1, "", "8D 5C", max_rounds=1)
    assert when(given, Play(0, 1), 0)[-1] == GameEnded(winner=0, reason="E-2")


def test_ruling_12_shuffles_are_numbered_in_log_order():
    state = after(replay(created("spit")[:1]), Join(), 1)
    assert state.nonce == 1
    slapping = after(about_to_clear(), Play(0, 0), 0)
    dealt = decide(slapping, Slap(0), Ctx(1, NOW, SEED))[-1]
    assert dealt.nonces == (2, 3)


def test_ruling_13_T4_a_timeout_acting_for_a_seat_is_not_its_action():
    given = about_to_clear(started=False)  # the ready phase began at T0
    events = when(given, Timeout("T-2"), None, now=T0 + 10)
    assert events[1:3] == [PlayerReady(seat=0, by="T-2"), PlayerReady(seat=1, by="T-2")]
    started = after(given, Timeout("T-2"), None, now=T0 + 10)
    t4 = [d for d in deadlines(started) if d.rule == "T-4"]
    assert t4 == [Deadline("T-4", t4[0].at, 0), Deadline("T-4", t4[0].at, 1)]
    assert t4[0].at < T0 + 10 + 120  # the clocks kept running through T-2's readying
    called_for = after(stuck(), Timeout("T-1"), None, now=T0 + 3)
    assert when(stuck(), Timeout("T-1"), None, now=T0 + 3)[1] == SpitCalled(seat=0, by="T-1")
    t4 = [d for d in deadlines(called_for) if d.rule == "T-4" and d.seat == 0]
    assert t4 and t4[0].at < T0 + 3 + 120  # and through T-1's call for seat 0


def test_ruling_14_S3_the_start_of_a_round_locks_no_pile():
    one_pile = stuck(spit0="", spit1="8D 8C 8H")
    assert state_of(one_pile).solo_pile is None
    assert after(one_pile, Spit(), 1).solo_pile == 1


def rated(events: list) -> list:
    """The same position in a rated game."""
    return [replace(events[0], rated=True), *events[1:]]


def test_ruling_17_E5_a_rated_game_resigned_before_both_seats_moved_is_aborted_unplayed():
    given = rated(spit_stuck_playable())
    assert state_of(given).rated and state_of(given).moved == (False, False)
    for seat in (0, 1):  # ready, and the spit cards the round starts with, are no move
        why = f"a rated game: seat {seat} resigned (E-5) before seat 0 and seat 1 had made a "
        assert when(given, Resign(), seat) == [
            PlayerResigned(seat=seat),
            GameAborted(reason="unplayed", why=why + "move, so it has no result"),
        ]
    aborted = after(given, Resign(), 1)
    assert aborted.status == "aborted" and aborted.winner is None
    assert aborted.result == "unplayed"
    one = after(given, Play(1, 0), 0)  # seat 0 moved, seat 1 not yet
    assert one.moved == (True, False)
    for seat in (0, 1):  # the log says who had not moved
        aborted = when(one, Resign(), seat)[-1]
        assert aborted.reason == "unplayed" and "before seat 1 had made a move" in aborted.why
    both = after(one, Play(0, 1), 1)
    assert both.moved == (True, True)
    assert when(both, Resign(), 0) == [PlayerResigned(seat=0), GameEnded(winner=1, reason="E-5")]


def test_ruling_17_E5_an_unrated_game_resigned_before_any_move_still_ends_E5():
    given = spit_stuck_playable()
    assert not state_of(given).rated
    assert when(given, Resign(), 0) == [PlayerResigned(seat=0), GameEnded(winner=1, reason="E-5")]


def test_ruling_17_T4_a_rated_game_forfeited_before_both_seats_moved_is_aborted_unplayed():
    given = rated(spit_stuck_playable())
    assert when(given, Timeout("T-4", 0), None, now=T0 + 120) == [
        DeadlineExpired(rule="T-4", seat=0),
        GameAborted(
            reason="unplayed",
            why="a rated game: seat 0 was idle for 120 s (T-4) "
            "before seat 0 and seat 1 had made a move, so it has no result",
        ),
    ]
    ruling_1 = [replace(given[0], ruling=1), *given[1:]]  # ruling 18 is ruling 2's
    one = after(ruling_1, Play(1, 0), 0, now=T0 + 1)
    due = next(d.at for d in deadlines(one) if d.rule == "T-4" and d.seat == 1)
    expired = when(one, Timeout("T-4", 1), None, now=due)
    assert expired[0] == DeadlineExpired(rule="T-4", seat=1)
    assert expired[1].reason == "unplayed" and "before seat 1 had made" in expired[1].why
    one = after(given, Play(1, 0), 0, now=T0 + 1)
    both = after(one, Play(0, 1), 1, now=T0 + 2)
    due = next(d.at for d in deadlines(both) if d.rule == "T-4" and d.seat == 0)
    assert when(both, Timeout("T-4", 0), None, now=due) == [
        DeadlineExpired(rule="T-4", seat=0),
        GameEnded(winner=1, reason="T-4"),
    ]
    unrated = spit_stuck_playable()
    assert when(unrated, Timeout("T-4", 0), None, now=T0 + 120)[-1] == GameEnded(
        winner=1, reason="T-4"
    )


def test_ruling_17_what_a_move_is():
    """A seat's own action of the game's play moves it; a join, a ready, a timeout acting
    for it (T-1 calling, T-2 making ready) do not."""
    waiting = replay(rated(created("spit"))[:1])
    joined = after(waiting, Join(), 1)
    assert joined.moved == (False, False)
    readied = after(after(joined, Ready(), 0), Ready(), 1)
    assert readied.moved == (False, False)
    made_ready = after(rated(about_to_clear(started=False)), Timeout("T-2"), None, now=T0 + 10)
    assert made_ready.moved == (False, False)
    called_for = after(rated(stuck()), Timeout("T-1"), None, now=T0 + 3)
    assert called_for.moved == (False, False)
    assert after(rated(stuck()), Spit(), 1).moved == (False, True)  # a call of its own
    speed = rated(speed_game("8H 6S KC KD 2S", "8C 6D QC QD 3S", "3H", "3D", "5S", "JD"))
    assert after(speed, PlayCard(card("8H"), 0), 0).moved == (True, False)


def spit_stuck_playable():
    """Spit, both ready and spitting: seat 0 can play 7H (stockpile 1) on 8S, seat 1 can
    play 9D (stockpile 0) on 8S or on 7H."""
    return spit_game(["KH", "7H", "2D", "5S", "10S"], ["9D", "4H", "JC", "3D", "QC"],
                     "8S 3C", "8D 5C")  # fmt: skip


def test_ruling_18_E5_a_seat_that_watched_its_opponent_move_cannot_abort_by_resigning():
    """E-5: seat 1 never moves, watches seat 0 play, then resigns: inside the window (less
    than ABORT_WINDOW_S after seat 0's first move) the game is aborted; after it, seat 1
    loses by E-5 and the game is a result. Seat 0, whose opponent never moved, still
    aborts; a game of ruling 1 aborts as ruling 17 has it."""
    from domain.game import ABORT_WINDOW_S

    given = rated(spit_stuck_playable())
    one = after(given, Play(1, 0), 0, now=T0 + 1)
    assert one.first_move_at == T0 + 1 and one.moved == (True, False)
    inside = when(one, Resign(), 1, now=T0 + 1 + ABORT_WINDOW_S - 0.001)
    assert inside[-1].reason == "unplayed"
    late = T0 + 1 + ABORT_WINDOW_S
    assert when(one, Resign(), 1, now=late) == [
        PlayerResigned(seat=1), GameEnded(winner=0, reason="E-5")]  # fmt: skip
    assert when(one, Resign(), 0, now=late)[-1].reason == "unplayed"
    old = after([replace(given[0], ruling=1), *given[1:]], Play(1, 0), 0, now=T0 + 1)
    assert when(old, Resign(), 1, now=late)[-1].reason == "unplayed"
    both = after(one, Play(0, 1), 1, now=T0 + 2)
    assert both.first_move_at is None and both.moved == (True, True)


def test_ruling_18_T4_a_seat_that_never_moved_after_its_opponent_did_loses_by_T4():
    """T-4: seat 0 moved; seat 1 never does and its clock runs out (at least 30 s on a
    rated table, past the window): seat 0 wins by T-4, a result."""
    given = rated(spit_stuck_playable())
    one = after(given, Play(1, 0), 0, now=T0 + 1)
    due = next(d.at for d in deadlines(one) if d.rule == "T-4" and d.seat == 1)
    assert when(one, Timeout("T-4", 1), None, now=due) == [
        DeadlineExpired(rule="T-4", seat=1), GameEnded(winner=0, reason="T-4")]  # fmt: skip
