"""Frozen values, honestly: ``replace`` copies, ``build`` completes a copy from itself before
handing it over, and ``evolve`` changes no state it is given."""

import dataclasses

import pytest

from domain import replay
from domain.state import Player, State
from domain.values import build, replace

from .driver import play_game


def test_replace_copies_and_refuses_an_unknown_field():
    p = Player(kind="human")
    q = replace(p, ready=True)
    assert (p.ready, q.ready, q.kind) == (False, True, "human")
    with pytest.raises(TypeError, match="no field"):
        replace(p, colour="red")


def test_build_completes_its_own_copy_from_the_copy_and_hands_it_over_frozen():
    s = State(version=3, phase="ready")
    seen = []

    def finish(new, step):
        seen.append((new.version, new.phase))  # the copy, with the changes, not yet finished
        return {"version": new.version + step}

    done = build(s, {"phase": "playing"}, finish, 1)
    assert seen == [(3, "playing")] and (done.version, done.phase) == (4, "playing")
    assert (s.version, s.phase) == (3, "ready")  # the original is never touched
    with pytest.raises(TypeError, match="no field"):
        build(s, {}, lambda new: {"colour": "red"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        done.version = 5  # a value handed over stays frozen


def test_evolve_leaves_every_state_it_is_given_as_it_was():
    for game in ("spit", "speed"):
        log = play_game(game, {}, seed=5).log
        states = [replay(log[:k]) for k in range(1, len(log))]
        copies = [replace(s) for s in states]
        for s, e in zip(states, log[1:], strict=False):
            replay([e], s)
        assert states == copies
