"""Export formats and the offline audit (domain/export.py, domain/audit.py).

Simulated games of both modes are exported (NDJSON and notation), read back and
audited offline: all verify. Tampering with one card of one deal, or inserting one
illegal event, is caught and named. SPITLOG_AUDIT_GAMES sets how many games per mode
(default 150 here; docs/testing.md's long profile: SPITLOG_AUDIT_GAMES=1000).
"""

import dataclasses
import json
import random

import pytest

from domain import (
    Abort,
    Ctx,
    Join,
    MalformedAction,
    Ready,
    Resign,
    Timeout,
    commitment,
    create_game,
    current,
    deadlines,
    replay,
    run,
    view,
)
from domain.audit import verify
from domain.bots import POLICIES
from domain.cards import Card
from domain.codec import event_from_dict, event_to_dict
from domain.events import DeadlineExpired, GameAborted, GameEnded
from domain.export import from_ndjson, parse_notation, to_ndjson, to_notation
from domain.game import RULING
from domain.piles import CardPlayed
from domain.simulate import play_game
from domain.speed import SpeedDealt
from domain.spit import SpitDealt
from tests.support import profiles

GAMES = profiles.AUDIT_GAMES


def simulated(game: str, i: int, options=None):
    rng = random.Random(i)
    p = POLICIES["random"]
    r = play_game(game, (p, p), rng, keep_log=True, options=options)
    again = random.Random(i)
    seed = bytes(again.getrandbits(8) for _ in range(32))  # play_game's first draws
    return r.log, seed


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_simulated_games_exported_and_audited_offline_all_verify(game):
    for i in range(GAMES):
        opts = [
            {},
            {"alternate_colors": True},
            {"stockpiles": 4} if game == "spit" else {"side_piles": 5},
        ][i % 3]
        log, seed = simulated(game, i, opts)
        header, back = from_ndjson(to_ndjson(log, seed))
        assert back == log and header["server_seed"] == seed.hex()
        tags, back2 = parse_notation(to_notation(log, seed))
        assert back2 == log and tags["Seed"] == seed.hex()
        verdict = verify(back2, bytes.fromhex(tags["Seed"]))
        assert verdict.ok, (game, i, verdict.reason)
        assert verdict.checked == len(log) and all(d["ok"] for d in verdict.deals)


def test_tampering_with_one_card_of_one_deal_is_caught_and_named():
    log, seed = simulated("spit", 3)
    k = next(j for j, e in enumerate(log) if isinstance(e, SpitDealt) and e.round == 2)
    deal = log[k]
    piles = [list(p) for p in deal.stockpiles[0]]
    swap = next(c for c in (Card.parse("AS"), Card.parse("2S")) if c not in piles[4])
    piles[4][0] = swap
    log[k] = dataclasses.replace(deal, stockpiles=(tuple(map(tuple, piles)), deal.stockpiles[1]))
    verdict = verify(log, seed)
    assert not verdict.ok and verdict.first_bad == k + 1
    assert "spit_dealt" in verdict.reason


def test_tampering_with_a_speed_deal_is_caught_too():
    log, seed = simulated("speed", 4)
    k = next(j for j, e in enumerate(log) if isinstance(e, SpeedDealt))
    deal = log[k]
    hands = (deal.hands[0][::-1], deal.hands[1])
    log[k] = dataclasses.replace(deal, hands=hands)
    assert verify(log, seed).first_bad == k + 1


def test_one_inserted_illegal_event_is_caught_and_named():
    log, seed = simulated("spit", 5)
    k = next(j for j, e in enumerate(log) if isinstance(e, CardPlayed) and j > 50)
    forged = dataclasses.replace(
        log[k], card=Card.parse("KH") if log[k].card != Card.parse("KH") else Card.parse("QH")
    )
    log.insert(k, forged)
    verdict = verify(log, seed)
    assert not verdict.ok and verdict.first_bad == k + 1
    assert "card_played" in verdict.reason


def test_a_wrong_seed_fails_the_commitment():
    log, seed = simulated("speed", 6)
    verdict = verify(log, bytes(32))
    assert not verdict.ok and "commitment" in verdict.reason


def test_T6_an_operators_abort_ends_the_game_with_no_winner_and_the_audit_accepts_it():
    """RULES T-6: ``Abort`` is the operator's, like a timeout the system's: the game is
    aborted under T-6, no one winning, and the log says that the operator did it and why;
    the audit re-judges it like any system action."""
    log, seed = simulated("spit", 5)
    cut = len(log) // 2
    state = replay(log[:cut])
    assert not state.over
    at = log[cut - 1].at + 1
    with pytest.raises(MalformedAction):
        run(state, Abort(why="stuck"), Ctx(0, at, seed))  # no seat may send it
    for why in ("", "   ", "x" * 201, "two\nlines"):  # a reason is one line of words
        with pytest.raises(MalformedAction) as info:
            run(state, Abort(why=why), Ctx(None, at, seed))
        assert "why" in info.value.errors
    events, after = run(state, Abort(why="a reported abuse"), Ctx(None, at, seed))
    assert events == [GameAborted(at=at, reason="T-6", by="operator", why="a reported abuse")]
    assert after.status == "aborted" and after.over and after.winner is None
    assert (after.result, after.aborted_by, after.aborted_why) == (
        "T-6",
        "operator",
        "a reported abuse",
    )
    assert view(after, None)["aborted"] == {"by": "operator", "why": "a reported abuse"}
    verdict = verify(log[:cut] + events, seed)
    assert verdict.ok and verdict.checked == cut + 1, verdict.reason
    for forged in (
        dataclasses.replace(events[0], reason="T-5"),  # not what an abort produces here
        dataclasses.replace(events[0], by="service"),  # the service's has its deadline first
        dataclasses.replace(events[0], why=None),  # an operator's says why
    ):
        assert not verify(log[:cut] + [forged], seed).ok, forged


def test_E5_a_rated_game_resigned_before_both_moved_is_aborted_and_the_audit_holds_it():
    """docs/decisions/0027: the log keeps whether the game is rated (``game_created``), so
    the audit re-judges the resignation as the rules do in a rated game: an abort with
    reason ``unplayed``; the same log claiming an unrated game fails at that event."""
    seed = bytes(range(32))
    log = create_game(game_id="g_r", game="spit", now=1000.0, server_seed=seed,
                      commitment=commitment(seed), rated=True)  # fmt: skip
    state = replay(log)
    for action, seat in ((Join(), 1), (Ready(), 0), (Ready(), 1), (Resign(), 0)):
        events, state = run(state, action, Ctx(seat, 1001.0, seed))
        log += events
    assert state.status == "aborted" and state.result == "unplayed" and state.winner is None
    header, back = from_ndjson(to_ndjson(log, seed))
    assert back == log and back[0].rated
    assert parse_notation(to_notation(log, seed))[1] == log
    verdict = verify(log, seed)
    assert verdict.ok and verdict.checked == len(log), verdict.reason
    unrated = [dataclasses.replace(log[0], rated=None), *log[1:]]
    verdict = verify(unrated, seed)
    assert not verdict.ok and verdict.first_bad == len(log), verdict.reason


def test_T6_a_hosted_bots_stalled_seat_aborts_and_the_audit_checks_the_moment():
    """T-4, T-6: the service's own abort follows from the bot seat's clock (a deadline in
    the log), so the audit accepts it exactly when that clock ran out."""
    log, seed = simulated("speed", 2)
    cut = len(log) // 3
    state = replay(log[:cut])
    d = next(d for d in deadlines(state) if d.rule == "T-6")
    events, after = run(state, Timeout("T-6", d.seat), Ctx(None, d.at, seed))
    assert [type(e) for e in events] == [DeadlineExpired, GameAborted]
    assert (after.result, after.aborted_by, after.winner) == ("T-6", "service", None)
    assert verify(log[:cut] + events, seed).ok
    early = [dataclasses.replace(e, at=d.at - 0.5) for e in events]
    assert not verify(log[:cut] + early, seed).ok


def test_T6_a_log_from_before_T6_still_replays_exports_and_audits():
    """Logs stored before RULES T-6: an operator's abort was ``game_aborted`` with reason
    ``admin`` (no by, no why), and a hosted bot's seat was forfeited by T-4 when its clock
    ran out. Both still replay (the abort reads as T-6 by the operator), export byte for
    byte as they were written (an archived copy is checked against the export Redis
    makes), and audit; each only where today's rules allow the action it answered. A log
    from before T-6 names no ruling in its ``game_created``."""
    log, seed = simulated("spit", 5)
    log = [dataclasses.replace(log[0], ruling=None), *log[1:]]
    assert "ruling" not in event_to_dict(log[0])  # its first line as it was written
    cut = len(log) // 2
    state = replay(log[:cut])
    at = log[cut - 1].at + 1
    old = {"type": "game_aborted", "at": at, "reason": "admin"}
    legacy = event_from_dict(old)
    assert event_to_dict(legacy) == old  # read and written back as it was
    aborted = replay([legacy], state)
    assert (aborted.status, aborted.result, aborted.aborted_by, aborted.aborted_why) == (
        "aborted",
        "T-6",
        "operator",
        None,
    )
    whole = log[:cut] + [legacy]
    text = to_ndjson(whole, seed)
    last = json.dumps({"version": cut + 1, **old}, separators=(",", ":"))
    assert text.splitlines()[-1] == last
    assert from_ndjson(text)[1] == whole and parse_notation(to_notation(whole, seed))[1] == whole
    assert verify(whole, seed).ok
    assert not verify(whole + [legacy], seed).ok  # over already: nothing may follow
    # a bot seat's forfeit by T-4, as logged before T-6: accepted at its clock's end only
    d = next(d for d in deadlines(state) if d.rule == "T-6")
    forfeit = [
        DeadlineExpired(at=d.at, rule="T-4", seat=d.seat),
        GameEnded(at=d.at, winner=1 - d.seat, reason="T-4"),
    ]
    verdict = verify(log[:cut] + forfeit, seed)
    assert verdict.ok, verdict.reason
    early = [dataclasses.replace(e, at=d.at - 0.5) for e in forfeit]
    assert not verify(log[:cut] + early, seed).ok
    wrong = [forfeit[0], dataclasses.replace(forfeit[1], winner=d.seat)]
    assert not verify(log[:cut] + wrong, seed).ok


def test_T6_a_new_log_with_a_forfeit_or_abort_of_the_old_forms_fails_the_audit():
    """docs/decisions/0029: a game created today names the rulings it is played under
    (``game_created.ruling``), so the forms of a log from before T-6 (a hosted bot
    forfeited by T-4, an operator's abort with reason ``admin``) are forgeries in it: the
    audit fails at them. The same events in a log that names no ruling still pass."""
    log, seed = simulated("spit", 5)
    assert log[0].ruling == RULING and event_to_dict(log[0])["ruling"] == RULING
    cut = len(log) // 2
    state = replay(log[:cut])
    d = next(d for d in deadlines(state) if d.rule == "T-6")
    forfeit = [
        DeadlineExpired(at=d.at, rule="T-4", seat=d.seat),
        GameEnded(at=d.at, winner=1 - d.seat, reason="T-4"),
    ]
    admin = [GameAborted(at=log[cut - 1].at + 1, reason="admin")]
    for forged in (forfeit, admin):
        verdict = verify(log[:cut] + forged, seed)
        assert not verdict.ok and verdict.first_bad == cut + 1, verdict.reason
        old = [dataclasses.replace(log[0], ruling=None), *log[1:cut]]
        assert verify(old + forged, seed).ok  # a log from before T-6: as it was judged


def test_T6_an_aborted_games_exports_say_how_it_ended():
    """docs/export.md: the notation's ``Result`` of an aborted game is ``- <rule>`` (no
    winner), ``- T-6`` for an abort under T-6; the ``game_aborted`` line says by whom and
    why. The NDJSON of an abort without them (T-5, E-5) has no ``by`` or ``why`` keys."""
    log, seed = simulated("spit", 5)
    cut = len(log) // 2
    state = replay(log[:cut])
    events, _ = run(state, Abort(why="a stuck game"), Ctx(None, log[cut - 1].at + 1, seed))
    text = to_notation(log[:cut] + events, seed)
    assert '[Result "- T-6"]' in text
    assert text.splitlines()[-1].endswith('game_aborted reason=T-6 by=operator why="a stuck game"')
    assert parse_notation(text)[1] == log[:cut] + events
    header = json.loads(to_ndjson(log[:cut] + events, seed).splitlines()[0])
    assert (header["winner"], header["result"]) == (None, None)  # game_ended's: none
    t5 = GameAborted(at=1.0, reason="T-5")
    assert event_to_dict(t5) == {"type": "game_aborted", "at": 1.0, "reason": "T-5"}
    assert '[Result "*"]' in to_notation(log[:cut], seed)
    drawn = log[:cut] + [GameEnded(at=log[cut - 1].at, winner=None, reason="E-4")]
    assert '[Result "- E-4"]' in to_notation(drawn, seed)  # no winner: "-", not "None"


def test_T6_game_aborted_v1_is_upcast_to_an_abort_under_T6_by_the_operator():
    """GameAborted is at version 2: version 1 (before RULES T-6) wrote an operator's abort as
    reason ``admin``; ``current`` reads it as T-6 by the operator, and leaves every form of
    version 2 as it is (a stored form carries no version)."""
    assert GameAborted.VERSION == 2
    old = GameAborted(at=1.0, reason="admin")
    assert current(old) == GameAborted(at=1.0, reason="T-6", by="operator")
    for e in (
        GameAborted(at=1.0, reason="T-6", by="operator", why="abuse"),
        GameAborted(at=1.0, reason="T-6", by="service", why="stalled"),
        GameAborted(at=1.0, reason="T-5"),
        GameAborted(at=1.0, reason="unplayed", why="a rated game: ..."),
    ):
        assert current(e) is e
    assert current(GameEnded(at=1.0, winner=0, reason="E-2")).reason == "E-2"  # version 1
