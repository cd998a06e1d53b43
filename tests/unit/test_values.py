"""Frozen values, honestly: ``replace`` copies, ``Draft`` builds a copy its maker alone holds
until it hands it over, and ``evolve`` changes no state it is given."""

import dataclasses

import pytest

from domain import replay
from domain.state import Player, State
from domain.values import Draft, replace

from .driver import play_game


def test_replace_copies_and_refuses_an_unknown_field():
    p = Player(kind="human")
    q = replace(p, ready=True)
    assert (p.ready, q.ready, q.kind) == (False, True, "human")
    with pytest.raises(TypeError, match="no field"):
        replace(p, colour="red")


def test_a_draft_changes_its_own_copy_until_it_is_handed_over():
    s = State(version=3)
    draft = Draft(s, {"version": 4})
    draft.update({"phase": "playing"})
    assert (s.version, s.phase) == (3, "new")  # the original is never touched
    done = draft.done()
    assert (done.version, done.phase) == (4, "playing")
    with pytest.raises(RuntimeError, match="spent"):
        draft.update({"version": 5})
    assert done.version == 4 and draft.done() is None
    with pytest.raises(TypeError, match="no field"):
        Draft(s).update({"colour": "red"})
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
