"""Ratings on the fakes: who a rated game moves (only a player against an established
opponent), when a rated game is a result (its abort window), and the rater reading the
state it rates."""

import dataclasses
import json
import random

import domain
from domain.events import GameCreated
from domain.game import ABORT_WINDOW_S
from domain.speed import PlayCard
from service.players import PROVISIONAL_RD, Who
from service.ports import Appended
from service.rating import Rater
from service.records import GameRecord
from tests.unit.builders import SEED, speed_game
from tests.usecases.conftest import make_world

APP = "a_0123456789ab"
ALICE = Who("human", "Alice", f"{APP}:alice")
BOB = Who("human", "Bob", f"{APP}:bob")


def player(name: str) -> Who:
    return Who("human", name.title(), f"{APP}:{name}")


def establish(world, who: Who, game: str, rating: float, rd: float = 60.0) -> None:
    """Give ``who`` an established rating in ``game`` (as games played before would)."""
    world.players.touch_player(who.pkey, who.name, 0)
    _marker, [(guard, _r)] = world.players.read_for_rating("seed-" + who.pkey, game, [who.pkey])
    new = {"rating": rating, "rd": rd, "vol": 0.06, "games": 30, "wins": 15, "losses": 15,
           "draws": 0}  # fmt: skip
    world.players.apply_rating("seed-" + who.pkey, game, "{}", [(who.pkey, guard, new, True)])


def move_each(world, gid: str, tokens) -> None:
    """Legal actions of both seats until each has made a move (a hosted level's seat, token
    None, through the workers' ``submit``)."""
    rng = random.Random(gid)
    for _step in range(500):
        state = world.cases.reading.load(gid).state
        if all(state.moved):
            return
        for seat in (0, 1):
            acts = [a for a in domain.legal_actions(state, seat) if type(a) is not domain.Resign]
            if not acts:
                continue
            action = rng.choice(acts)
            if tokens[seat] is None:
                world.acting.submit(gid, seat, action, state.version)
            else:
                world.acting.act(gid, tokens[seat], domain.action_to_dict(action))
            state = world.cases.reading.load(gid).state
            if state.over:
                return
    raise AssertionError(f"{gid}: the seats did not both move")


def move_one(world, gid: str, tokens, seat: int) -> None:
    """Seat ``seat`` makes a move; the other only says it is ready (no move)."""
    for _ in range(20):
        state = world.cases.reading.load(gid).state
        if state.moved[seat]:
            return
        other = [a for a in domain.legal_actions(state, 1 - seat) if type(a) is domain.Ready]
        if other:
            world.acting.act(gid, tokens[1 - seat], domain.action_to_dict(other[0]))
            continue
        acts = [a for a in domain.legal_actions(state, seat) if type(a) is not domain.Resign]
        world.acting.act(gid, tokens[seat], domain.action_to_dict(acts[0]))
    raise AssertionError(f"{gid}: seat {seat} did not move")


def rated_game(world, who: Who, opponent, loser: int, game: str = "spit", moved=(True, True)):
    """A rated game of ``who`` (seat 0) and ``opponent`` (a ``Who``, or a hosted level),
    in which the seats in ``moved`` make a move, then, once the abort window closed,
    ``loser`` resigns; rated. Its id and the rater's answer."""
    hosted = isinstance(opponent, str)
    made = world.cases.seating.create(game, {}, opponent if hosted else "human", "", who=who,
                                      rated=True).body  # fmt: skip
    gid, tokens = made["id"], [made["token"], None]
    if not hosted:
        tokens[1] = world.cases.joining.join(gid, "", who=opponent).body["token"]
    if all(moved):
        move_each(world, gid, tokens)
    else:
        move_one(world, gid, tokens, moved.index(True))
    world.clock.shift(ABORT_WINDOW_S)
    if tokens[loser] is not None:
        world.acting.act(gid, tokens[loser], {"type": "resign"})
    else:
        world.acting.submit(gid, loser, domain.Resign())
    return gid, world.rater().step(gid)


def rating(world, who: Who, game: str = "spit") -> dict | None:
    return world.players.ratings([who.pkey], game)[0]


def listed(world, game: str = "spit") -> list[str]:
    return [pkey for _m, pkey in world.players.leaderboard(game, None, 1000)[0]]


def test_a_farm_of_throwaway_players_lifts_no_one_onto_the_leaderboard():
    """The farm of the review: alice beats 60 new players of her app (each makes a move,
    then resigns after the abort window), then loses 3 to bot:hard on purpose. Against a
    provisional opponent no rating moves: she ends where the 3 losses alone put her,
    provisional and off the leaderboard."""
    farm, honest = make_world(), make_world()
    for i in range(60):
        gid, got = rated_game(farm, ALICE, player(f"throwaway{i}"), loser=1)
        assert got == "rated"
        outcome = farm.store.game_record(gid).rating
        assert [s.get("unchanged") for s in outcome["seats"]] == ["provisional opponent"] * 2
    assert rating(farm, ALICE) is None and rating(farm, player("throwaway0")) is None
    for world in (farm, honest):
        for _ in range(3):
            assert rated_game(world, ALICE, "bot:hard", loser=0)[1] == "rated"
    after = rating(farm, ALICE)
    assert after == rating(honest, ALICE)
    assert after["games"] == 3 and after["losses"] == 3 and after["rd"] >= PROVISIONAL_RD
    assert ALICE.pkey not in listed(farm)


def test_against_a_provisional_player_only_the_provisional_side_moves():
    """Bob (established, 1700) loses to alice (a newcomer): alice's rating moves, Bob's
    stays; between two established players both move."""
    world = make_world()
    establish(world, BOB, "spit", 1700.0)
    before = rating(world, BOB)
    gid, got = rated_game(world, ALICE, BOB, loser=1)
    assert got == "rated"
    assert rating(world, BOB) == before
    assert rating(world, ALICE)["rating"] > 1500 and rating(world, ALICE)["wins"] == 1
    seats = world.store.game_record(gid).rating["seats"]
    assert "after" in seats[0] and seats[1]["unchanged"] == "provisional opponent"
    assert BOB.pkey in listed(world) and ALICE.pkey not in listed(world)
    establish(world, ALICE, "spit", 1600.0)
    _gid, got = rated_game(world, ALICE, BOB, loser=1)
    assert got == "rated" and rating(world, BOB)["rating"] < 1700
    assert rating(world, ALICE)["rating"] > 1600


def test_E5_a_seat_that_never_moved_and_resigns_after_the_window_loses_a_rated_game():
    """E-5 (ruling 18): bob never moves, watches alice play, then resigns once the abort
    window closed: alice wins by E-5 and the game is rated."""
    world = make_world()
    establish(world, ALICE, "spit", 1600.0)
    establish(world, BOB, "spit", 1600.0)
    gid, got = rated_game(world, ALICE, BOB, loser=1, moved=(True, False))
    state = world.cases.reading.load(gid).state
    assert (state.status, state.result, state.winner, state.moved) == (
        "finished", "E-5", 0, (True, False))  # fmt: skip
    assert got == "rated" and rating(world, BOB)["losses"] == 16


def test_T4_a_seat_that_never_moved_forfeits_a_rated_game():
    """T-4 (ruling 18): alice moved; bob never does and his idle clock runs out: alice
    wins by T-4, and it is rated."""
    world = make_world()
    establish(world, ALICE, "spit", 1600.0)
    establish(world, BOB, "spit", 1600.0)
    made = world.cases.seating.create("spit", {}, "human", "", who=ALICE, rated=True).body
    gid, t0 = made["id"], made["token"]
    t1 = world.cases.joining.join(gid, "", who=BOB).body["token"]
    move_one(world, gid, (t0, t1), 0)
    for _ in range(200):  # the game's own timeouts fall due, alice plays on, until bob's T-4
        state = world.cases.reading.load(gid).state
        if state.over:
            break
        due = domain.deadlines(state)[0]
        if due.rule == "T-4" and due.seat == 0:
            world.clock.shift(max(0.0, due.at - 1 - world.clock()))
            acts = [a for a in domain.legal_actions(state, 0) if type(a) is not domain.Resign]
            world.acting.act(gid, t0, domain.action_to_dict(acts[0]))
            continue
        world.clock.shift(max(0.0, due.at - world.clock()))
        world.acting.submit(gid, None, domain.Timeout(due.rule, due.seat))
    state = world.cases.reading.load(gid).state
    assert (state.status, state.result, state.winner) == ("finished", "T-4", 0)
    assert world.rater().step(gid) == "rated" and rating(world, BOB)["losses"] == 16


class FinishesAfterFirstRead:
    """The game store, as the rater sees it while the game ends right after its first
    read of the record (``finish`` runs then)."""

    def __init__(self, store, finish):
        self.store, self.finish, self.reads = store, finish, 0

    def game_record(self, game_id):
        record = self.store.game_record(game_id)
        self.reads += 1
        if self.reads == 1:
            self.finish()
        return record

    def __getattr__(self, name):
        return getattr(self.store, name)


def test_the_rater_checks_the_moves_of_the_state_it_rates():
    """A rated Speed game alice wins by play (her last card, Q-7) at once, bob never having
    moved: inside the abort window, unrated (``unplayed``), even when the game ends
    between the rater's first read of it and its rating."""
    world = make_world()
    establish(world, ALICE, "speed", 1600.0)
    establish(world, BOB, "speed", 1600.0)
    given = [dataclasses.replace(e, rated=True, game_id="g_00000000000000aa")
             if isinstance(e, GameCreated) else e
             for e in speed_game("8H", "2C 2D 2H 2S 3C")]  # fmt: skip
    gid = given[0].game_id
    record = GameRecord(
        game="speed", seed=SEED, commitment=given[0].commitment, created_ms=0, rated=True,
        status="running", seats=(world.cases.seating.seated.seat(ALICE, "speed"),
                                 world.cases.seating.seated.seat(BOB, "speed")),
    )  # fmt: skip
    wire = [domain.event_to_dict(e) for e in given]
    assert isinstance(world.store.append(gid, 0, wire, record=record), Appended)

    def finish():
        state = world.cases.reading.load(gid).state
        world.acting.submit(gid, 0, PlayCard(domain.Card.parse("8H"), 0), state.version)

    rater = Rater(world.cases.reading, FinishesAfterFirstRead(world.store, finish),
                  world.players)  # fmt: skip
    assert rater.step(gid) == "running"  # it read the game running: no rating yet
    assert rater.step(gid) == "unplayed"
    state = world.cases.reading.load(gid).state
    assert (state.status, state.winner, state.moved) == ("finished", 0, (True, False))
    assert json.loads(json.dumps(world.store.game_record(gid).rating))["unrated"] == "unplayed"
    assert rating(world, ALICE, "speed")["games"] == 30  # nothing applied
