"""Issue 5: export formats and the offline audit (domain/export.py, domain/audit.py).

Simulated games of both modes are exported (NDJSON and notation), read back and
audited offline: all verify. Tampering with one card of one deal, or inserting one
illegal event, is caught and named. SPITLOG_AUDIT_GAMES sets how many games per mode
(default 150 here; 1000 for the issue's check: SPITLOG_AUDIT_GAMES=1000).
"""

import dataclasses
import os
import random

import pytest

from domain import (
    Abort,
    Ctx,
    Join,
    MalformedAction,
    Ready,
    Resign,
    commitment,
    create_game,
    replay,
    run,
)
from domain.audit import verify
from domain.bots import POLICIES
from domain.cards import Card
from domain.events import CardPlayed, GameAborted, SpeedDealt, SpitDealt
from domain.export import from_ndjson, parse_notation, to_ndjson, to_notation
from domain.simulate import play_game

GAMES = int(os.environ.get("SPITLOG_AUDIT_GAMES", "150"))


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


def test_an_operators_abort_ends_the_game_with_no_winner_and_the_audit_accepts_it():
    """docs/decisions/0012: ``Abort`` is the system's, like a timeout; the log says so
    (reason "admin") and the audit re-judges it like any system action."""
    log, seed = simulated("spit", 5)
    cut = len(log) // 2
    state = replay(log[:cut])
    assert not state.over
    with pytest.raises(MalformedAction):
        run(state, Abort(), Ctx(0, log[cut - 1].at, seed))  # no seat may send it
    events, after = run(state, Abort(), Ctx(None, log[cut - 1].at + 1, seed))
    assert [type(e) for e in events] == [GameAborted] and events[0].reason == "admin"
    assert after.status == "aborted" and after.over and after.result == "admin"
    verdict = verify(log[:cut] + events, seed)
    assert verdict.ok and verdict.checked == cut + 1, verdict.reason
    forged = dataclasses.replace(events[0], reason="T-5")  # not what an abort produces here
    assert not verify(log[:cut] + [forged], seed).ok


def test_E5_a_rated_game_resigned_before_both_moved_is_aborted_and_the_audit_holds_it():
    """docs/decisions/0023: the log keeps whether the game is rated (``game_created``), so
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
    unrated = [dataclasses.replace(log[0], rated=False), *log[1:]]
    verdict = verify(unrated, seed)
    assert not verdict.ok and verdict.first_bad == len(log), verdict.reason
