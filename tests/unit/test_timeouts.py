"""The timeouts T-1..T-6: a deadline is part of the state (``deadlines``), and the
system's ``Timeout`` action fires it once due, leaving its events in the log."""

from dataclasses import replace

from domain import Deadline, Ready, Timeout, deadlines, view
from domain.events import DeadlineExpired, GameAborted, GameEnded, PlayerReady, SeatTaken
from domain.piles import Spit, SpitCalled
from domain.speed import CentreStarted, SideCardsTurned
from domain.spit import PilesTaken, Play, Slap, SpitCardsTurned

from .builders import NOW, T0, after, cards, created, refused, speed_game, spit_game, state_of, when
from .positions import STUCK0, STUCK1, about_to_clear, speed_stuck
from .positions import spit_playing as playing
from .positions import spit_stuck as stuck


def test_T1_a_player_who_does_not_call_is_called_for():
    state = state_of(stuck())
    assert Deadline("T-1", T0 + 3.0) in deadlines(state)
    assert refused(state, Timeout("T-1"), None, now=T0 + 2.9).rule == "T-1"
    assert when(state, Timeout("T-1"), None, now=T0 + 3.0) == [
        DeadlineExpired(rule="T-1"),
        SpitCalled(seat=0, by="T-1"),
        SpitCalled(seat=1, by="T-1"),
        SpitCardsTurned(cards=cards("3C 5C"), piles=(0, 1)),
    ]
    one = after(state, Spit(), 0)
    assert when(one, Timeout("T-1"), None, now=T0 + 3.0)[1:] == [
        SpitCalled(seat=1, by="T-1"),
        SpitCardsTurned(cards=cards("3C 5C"), piles=(0, 1)),
    ]


def test_T1_solo_spit_for_the_only_spitter_onto_the_locked_or_own_pile():
    given = stuck(spit0="8S", spit1="8D 8C 8H 8C", spit_grace_s=1.5)
    assert when(given, Timeout("T-1"), None, now=T0 + 1.5)[1:] == [
        SpitCalled(seat=1, by="T-1"),
        SpitCardsTurned(cards=(None, cards("8C")[0]), piles=(None, 1)),
    ]
    locked = after(given, Spit(0), 1)  # at NOW: still blocked, a new stalemate starts
    assert Deadline("T-1", NOW + 1.5) in deadlines(locked)
    assert when(locked, Timeout("T-1"), None, now=NOW + 1.5)[-1] == SpitCardsTurned(
        cards=(None, cards("8H")[0]), piles=(None, 0)
    )


def test_T1_speed_both_called_for_then_the_side_piles_turn():
    assert when(speed_stuck(), Timeout("T-1"), None, now=T0 + 3.0) == [
        DeadlineExpired(rule="T-1"),
        SpitCalled(seat=0, by="T-1"),
        SpitCalled(seat=1, by="T-1"),
        SideCardsTurned(cards=cards("5S JD")),
    ]


def test_T2_a_player_not_ready_in_time_is_made_ready():
    given = playing(started=False, ready_grace_s=2)
    assert [d for d in deadlines(state_of(given)) if d.rule == "T-2"] == [Deadline("T-2", T0 + 2)]
    assert refused(given, Timeout("T-2"), None, now=T0 + 1).rule == "T-2"
    assert when(given, Timeout("T-2"), None, now=T0 + 2) == [
        DeadlineExpired(rule="T-2"),
        PlayerReady(seat=0, by="T-2"),
        PlayerReady(seat=1, by="T-2"),
        SpitCardsTurned(cards=cards("8S QD"), piles=(0, 1)),
    ]
    one = after(given, Ready(), 1)
    assert when(one, Timeout("T-2"), None, now=T0 + 2)[1:2] == [PlayerReady(seat=0, by="T-2")]
    speed = speed_game("8H", "8C", started=False)
    assert when(speed, Timeout("T-2"), None, now=T0 + 10)[-1] == CentreStarted(cards=cards("7C 7D"))


def test_T3_the_player_who_cleared_takes_the_smaller_pile():
    slapping = after(about_to_clear(), Play(0, 0), 0)  # piles: 8S 7H (2) and QD (1)
    assert Deadline("T-3", NOW + 3) in deadlines(slapping)
    assert refused(slapping, Timeout("T-3"), None, now=NOW + 2).rule == "T-3"
    assert when(slapping, Timeout("T-3"), None, now=NOW + 3)[:2] == [
        DeadlineExpired(rule="T-3"),
        PilesTaken(piles=(1, 0)),
    ]
    assert refused(after(slapping, Slap(0), 1), Timeout("T-3"), None, now=NOW + 3).rule == "T-3"


def test_T3_after_a_blocked_round_fewer_stockpile_cards_tie_seat_0():
    # seat 1 spits its last card at NOW: N-1b; piles 8S (1) and 8D 8C (2)
    tie = after(stuck(spit0="8S", spit1="8D 8C"), Spit(), 1)
    assert when(tie, Timeout("T-3"), None, now=NOW + 3)[1] == PilesTaken(piles=(0, 1))
    fewer1 = after(stuck(spit0="8S", spit1="8D 8C", stock1=STUCK1[:3] + ["", ""]), Spit(), 1)
    assert when(fewer1, Timeout("T-3"), None, now=NOW + 3)[1] == PilesTaken(piles=(1, 0))


def test_T3_equal_pile_sizes_pile_0():
    given = stuck(spit0="8S 8H", spit1="8D 8C", stock1=STUCK1[:3] + ["", ""])
    both = after(after(given, Spit(), 0), Spit(), 1)  # 8H and 8C turned: still blocked
    assert [len(p) for p in both.piles] == [2, 2] and both.phase == "slap"
    assert when(both, Timeout("T-3"), None, now=NOW + 3)[1] == PilesTaken(piles=(1, 0))


def test_T3_when_the_chooser_does_not_choose():
    choosing = after(about_to_clear(pile_choice="choose"), Play(0, 0), 0)
    assert when(choosing, Timeout("T-3"), None, now=NOW + 3)[1] == PilesTaken(piles=(1, 0))


def test_T4_idle_with_a_legal_action_forfeits():
    state = state_of(playing())
    forfeit = [d for d in deadlines(state) if d.rule == "T-4"]
    assert forfeit == [Deadline("T-4", T0 + 120, 0), Deadline("T-4", T0 + 120, 1)]
    assert refused(state, Timeout("T-4", 0), None, now=T0 + 119).rule == "T-4"
    assert when(state, Timeout("T-4", 0), None, now=T0 + 120) == [
        DeadlineExpired(rule="T-4", seat=0),
        GameEnded(winner=1, reason="T-4"),
    ]
    assert view(after(state, Timeout("T-4", 1), None, now=T0 + 120), 0)["winner"] == 0


def test_T4_the_clock_restarts_at_each_own_action_and_pauses_with_nothing_to_do():
    acted = after(playing(), Play(1, 0), 0)  # seat 0 acts at NOW
    assert Deadline("T-4", NOW + 120, 0) in deadlines(acted)
    assert Deadline("T-4", T0 + 120, 1) in deadlines(acted)
    assert refused(acted, Timeout("T-4", 0), None, now=T0 + 120).rule == "T-4"
    # in a stalemate a player without spit cards has nothing to do: no clock runs for it
    blocked = state_of(stuck(spit0="8S", spit1="8D 8C 8H"))
    assert [d.seat for d in deadlines(blocked) if d.rule == "T-4"] == [1]
    assert refused(blocked, Timeout("T-4", 0), None, now=T0 + 500).rule == "T-4"


# Seat 0 can only ever play KH (on a Q); seat 1 plays JC on 10C, then QD on JC.
PAUSED0 = ["KH", "2C", "2D", "AS", "AD"]
PAUSED1 = ["JC", "QD", "3D", "3H", "2H"]


def test_T4_the_clock_accumulates_in_total_and_pauses_without_restarting():
    """Both stalemated at the start, T-1 calls for both at T0+3,
    seat 1 plays at T0+60 and T0+130, and only then does seat 0 get a legal play. Seat 0
    had a legal action for 3 s in all (the stalemate's call): it is not forfeited at
    T0+130; its clock resumes there with 117 s left."""
    given = spit_game(PAUSED0, PAUSED1, "8S 10C", "8D 5C")
    start = state_of(given)
    assert start.stalemate and start.can_act == (True, True)
    called = after(given, Timeout("T-1"), None, now=T0 + 3)
    assert called.can_act == (False, True)  # tops 10C and 5C: only seat 1 can play
    assert [d.seat for d in deadlines(called) if d.rule == "T-4"] == [1]
    one = after(called, Play(0, 0), 1, now=T0 + 60)  # JC on 10C
    assert one.can_act == (False, True)
    two = after(one, Play(1, 0), 1, now=T0 + 130)  # QD on JC: KH fits at last
    assert two.can_act[0]
    assert Deadline("T-4", T0 + 130 + 117, 0) in deadlines(two)
    assert refused(two, Timeout("T-4", 0), None, now=T0 + 130).rule == "T-4"
    assert refused(two, Timeout("T-4", 0), None, now=T0 + 246.9).rule == "T-4"
    assert when(two, Timeout("T-4", 0), None, now=T0 + 247) == [
        DeadlineExpired(rule="T-4", seat=0),
        GameEnded(winner=1, reason="T-4"),
    ]
    # its own action restarts it from zero
    played = after(two, Play(0, 0), 0, now=T0 + 140)  # KH on QD; AS fits on KH next
    assert Deadline("T-4", T0 + 260, 0) in deadlines(played)


def test_T4_an_absent_player_is_forfeited_in_a_game_full_of_stalemates():
    """Seat 0 never acts. Each stalemate gives it a legal action (its call) until T-1
    calls for it: 3 s each time, which add up. Seat 1 calls at once, every time. With
    ``idle_forfeit_s`` 10, seat 0 is forfeited 1 s into the fourth stalemate."""
    spits = "8S 7S 8H 7H 8C 7C"
    state = state_of(stuck(spit0=spits, spit1=spits, idle_forfeit_s=10))
    now, stalemates = T0, 0
    while not state.over:
        assert state.stalemate
        stalemates += 1
        state = after(state, Spit(), 1, now=now + 0.1)  # seat 1 calls at once
        due = deadlines(state)[0]
        now = due.at
        state = after(state, Timeout(due.rule, due.seat), None, now=now)
    assert (state.result, state.winner, stalemates) == ("T-4", 1, 4)
    assert now == T0 + 3 * 3 + 1


def hosted(given: list, kind: str = "bot:medium") -> list:
    """``given`` with seat 1 taken by a hosted bot (whose decisions the service makes)."""
    return [replace(e, kind=kind) if isinstance(e, SeatTaken) else e for e in given]


def test_T6_a_hosted_bots_idle_clock_aborts_the_game_instead_of_forfeiting_it():
    """T-4, T-6: a hosted bot's seat is never forfeited for time it had a legal action
    (only the service can have failed to run its decisions): the same clock, run out,
    aborts the game under T-6, by the service, with no winner. A person's seat beside it
    keeps its T-4."""
    state = state_of(hosted(playing()))
    assert deadlines(state) == (Deadline("T-6", T0 + 120, 1), Deadline("T-4", T0 + 120, 0))
    assert refused(state, Timeout("T-4", 1), None, now=T0 + 500).rule == "T-4"  # none runs
    assert refused(state, Timeout("T-6", 1), None, now=T0 + 119.9).rule == "T-6"
    why = "the service could not run seat 1's decisions for 120 s"
    assert when(state, Timeout("T-6", 1), None, now=T0 + 120) == [
        DeadlineExpired(rule="T-6", seat=1),
        GameAborted(reason="T-6", by="service", why=why),
    ]
    aborted = after(state, Timeout("T-6", 1), None, now=T0 + 120)
    assert (aborted.status, aborted.winner, aborted.result) == ("aborted", None, "T-6")
    assert deadlines(aborted) == ()
    v = view(aborted, 0)
    assert v["aborted"] == {"by": "service", "why": why} and v["winner"] is None
    # the bot's clock is T-4's (in total, since its own last action): its action restarts it
    acted = after(state, Play(4, 0), 1, now=NOW)  # 9D on 8S
    assert Deadline("T-6", NOW + 120, 1) in deadlines(acted)
    # the person's own clock still forfeits the person, the bot winning
    assert when(acted, Timeout("T-4", 0), None, now=T0 + 120) == [
        DeadlineExpired(rule="T-4", seat=0),
        GameEnded(winner=1, reason="T-4"),
    ]


def test_T6_a_bots_T6_due_with_a_persons_T4_comes_first():
    """T-4, T-6 (docs/decisions/0029): when a hosted bot's T-6 falls due no later than the
    person's T-4 (both clocks from the same deal, neither seat acting), the T-6 comes
    first: the service failing the bot is no fault of the person's, so the game is
    aborted, never the person forfeited. The deadlines list it first, and the T-4 is
    refused while that T-6 runs; the person's T-4 due first is still theirs."""
    for bot in (0, 1):
        given = [replace(e, kind="bot:easy") if i == bot and hasattr(e, "kind") else e
                 for i, e in enumerate(playing())]  # fmt: skip
        state = state_of(given)
        assert state.players[bot].kind == "bot:easy" and state.players[1 - bot].kind == "human"
        assert [(d.rule, d.seat) for d in deadlines(state)] == [("T-6", bot), ("T-4", 1 - bot)]
        assert refused(state, Timeout("T-4", 1 - bot), None, now=T0 + 500).rule == "T-6"
        assert when(state, Timeout("T-6", bot), None, now=T0 + 120)[1].reason == "T-6"
    # the bot acted later: its T-6 runs later than the person's T-4, which goes first
    state = state_of(hosted(playing()))
    acted = after(state, Play(4, 0), 1, now=NOW)
    assert [d.rule for d in deadlines(acted)] == ["T-4", "T-6"]
    assert when(acted, Timeout("T-4", 0), None, now=T0 + 120)[1] == GameEnded(
        winner=1, reason="T-4"
    )
    # a log written before this ruling (its game names none) was judged as it was
    old = state_of([replace(given[0], ruling=None), *given[1:]])
    assert when(old, Timeout("T-4", 0), None, now=T0 + 120)[1] == GameEnded(winner=1, reason="T-4")


def test_T6_a_person_refused_for_idle_forfeit_s_has_the_game_aborted_not_forfeited():
    """RULES T-4, T-6: a seat whose requests the service refused for ``idle_forfeit_s``
    since its own last action stalled the game through no fault of its own: once its T-4
    clock has run out the service aborts the game under T-6 (the time refused is known
    to the service, not to the log: the domain checks the moment, the seat's clock run
    out), by the service, saying whose requests were refused and for how long. Not
    before that moment, and not for a seat whose clock is not running."""
    state = state_of(playing())
    assert refused(state, Timeout("T-6", 0), None, now=T0 + 119.9).rule == "T-6"
    why = ("the service refused seat 0's requests (a 503, or a 429 of a limit the seat did "
           "not exceed) for 120 s since its last action")  # fmt: skip
    assert when(state, Timeout("T-6", 0), None, now=T0 + 120) == [
        DeadlineExpired(rule="T-6", seat=0),
        GameAborted(reason="T-6", by="service", why=why),
    ]
    aborted = after(state, Timeout("T-6", 0), None, now=T0 + 120)
    assert (aborted.status, aborted.winner, aborted.aborted_by) == ("aborted", None, "service")
    waiting = state_of(created("spit")[:1])  # no T-4 runs: no seat is kept from acting
    assert refused(waiting, Timeout("T-6", 0), None, now=T0 + 500).rule == "T-6"


def test_T6_a_hosted_bot_at_seat_0_and_a_short_clock():
    """T-6 is the clock of whichever seat a hosted bot holds, at the table's
    ``idle_forfeit_s``; the why says which seat and how long."""
    given = [replace(e, kind="bot:hard") if i == 0 else e
             for i, e in enumerate(playing(idle_forfeit_s=2.5))]  # fmt: skip
    state = state_of(given)
    assert deadlines(state) == (Deadline("T-6", T0 + 2.5, 0), Deadline("T-4", T0 + 2.5, 1))
    assert when(state, Timeout("T-6", 0), None, now=T0 + 2.5)[1] == GameAborted(
        reason="T-6", by="service", why="the service could not run seat 0's decisions for 2.5 s"
    )


def test_T5_a_game_with_an_empty_seat_is_aborted():
    waiting = state_of(created("spit", join_timeout_s=60)[:1])
    assert deadlines(waiting) == (Deadline("T-5", T0 + 60),)
    assert refused(waiting, Timeout("T-5"), None, now=T0 + 59).rule == "T-5"
    assert when(waiting, Timeout("T-5"), None, now=T0 + 60) == [
        DeadlineExpired(rule="T-5"),
        GameAborted(reason="T-5"),
    ]
    aborted = after(waiting, Timeout("T-5"), None, now=T0 + 60)
    assert aborted.status == "aborted" and deadlines(aborted) == ()
    full = state_of(spit_game(STUCK0, STUCK1, "8S", "8D", started=False))
    assert refused(full, Timeout("T-5"), None, now=T0 + 10_000).rule == "T-5"
