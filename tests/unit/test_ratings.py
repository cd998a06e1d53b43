"""Glicko-2 (domain/ratings.py) against the published example: Glickman, "Example of the
Glicko-2 system" (2013), a player rated 1500 (RD 200, volatility 0.06, tau 0.5) who beats
a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300) in one rating period."""

import doctest

import pytest

from domain import ratings
from domain.ratings import Rating, expected, rate_period, update

PLAYER = Rating(1500, 200, 0.06)
GAMES = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_step_2_converts_to_the_glicko2_scale():
    assert (PLAYER.mu, round(PLAYER.phi, 4)) == (0.0, 1.1513)
    assert [(round(o.mu, 4), round(o.phi, 4)) for o, _ in GAMES] == [
        (-0.5756, 0.1727), (0.2878, 0.5756), (1.1513, 1.7269)]  # fmt: skip


def test_step_3_g_and_e_of_each_opponent():
    assert [round(ratings._g(o.phi), 4) for o, _ in GAMES] == [0.9955, 0.9531, 0.7242]
    assert [round(ratings._e(0.0, o.mu, o.phi), 3) for o, _ in GAMES] == [0.639, 0.432, 0.303]


def test_steps_3_and_4_variance_and_improvement():
    """The paper's 1.7785 and -0.4834 are worked from g and E rounded as printed above."""
    v, delta = ratings.variance_and_improvement(PLAYER, GAMES)
    assert v == pytest.approx(1.7785, abs=0.001)
    assert delta == pytest.approx(-0.4834, abs=0.001)


def test_steps_5_to_8_the_new_rating():
    r = update(PLAYER, GAMES)
    assert r.vol == pytest.approx(0.05999, abs=1e-5)
    assert round(r.mu, 4) == -0.2069
    assert round(r.phi, 4) == 0.8722
    assert r.rating == pytest.approx(1464.06, abs=0.02)  # the paper rounds mu first
    assert r.rd == pytest.approx(151.52, abs=0.01)


def test_the_volatility_step_uses_the_rd_not_the_rating():
    """The published example rates a 1500 player (mu = 0), which cannot tell phi from mu
    in step 5's f(x); moved by +400, every game's expectation is the same, so the
    volatility must be the same (PyPI's glicko2 2.1.0 gets a different one)."""
    moved = update(Rating(1900, 200, 0.06), [(Rating(o.rating + 400, o.rd), s) for o, s in GAMES])
    assert moved.vol == pytest.approx(update(PLAYER, GAMES).vol, rel=1e-9)
    assert moved.rating - 400 == pytest.approx(update(PLAYER, GAMES).rating, abs=1e-6)


def test_step_6_alone_for_a_player_without_games():
    r = update(PLAYER, [])
    assert (r.rating, r.vol) == (1500, 0.06)
    assert r.rd == pytest.approx(173.7178 * (1.1513**2 + 0.06**2) ** 0.5, abs=0.01)


def test_a_period_rates_everyone_against_the_ratings_at_its_start():
    start = {"a": PLAYER, **{f"o{i}": o for i, (o, _) in enumerate(GAMES)}}
    games = [("a", f"o{i}", s) for i, (_, s) in enumerate(GAMES)]
    out = rate_period(start, games)
    assert out["a"] == update(PLAYER, GAMES)
    assert out["o0"] == update(GAMES[0][0], [(PLAYER, 0.0)])
    assert out["o2"].rating > 1700 and out["o2"].rd < 300  # it beat "a"


def test_expected_is_symmetric_for_equal_deviations():
    a, b = Rating(1700, 60), Rating(1500, 60)
    assert expected(a, b) + expected(b, a) == pytest.approx(1.0)
    assert expected(a, b) == pytest.approx(0.757, abs=0.001)


def test_the_module_examples_hold():
    assert doctest.testmod(ratings).failed == 0
