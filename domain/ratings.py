"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013): pure functions.

A rating is (rating, RD, volatility) on the Glicko scale (1500, 350, 0.06 for a newcomer).
``update`` rates one player after one *rating period*, from the games it played in it
against opponents rated as they were at the period's start; ``rate_period`` does that
for every player of a period at once (a player with no game only grows less certain:
step 6). Lichess rates every game as a period of its own; the bots' ladder
(bench/ladder.py) plays its simulated games in periods of a round robin.

Why not PyPI's ``glicko2`` 2.1.0 (MIT): its volatility step computes ``f(x)`` with the
rating where the paper has the RD (``self.__rating**2`` for phi squared), which the
paper's own example cannot catch, since its player is rated 1500 (mu = 0); it keeps
mutable class state too. This module is the paper's steps 1-8, tested on the paper's
example (tests/unit/test_ratings.py).

>>> r = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                       (Rating(1700, 300), 0.0)])
>>> round(r.mu, 4), round(r.phi, 4), round(r.vol, 5)  # the paper: -0.2069, 0.8722, 0.05999
(-0.2069, 0.8722, 0.06)
>>> round(r.rating, 2), round(r.rd, 2)  # the paper, from mu rounded first: 1464.06, 151.52
(1464.05, 151.52)
"""

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # the Glicko-2 scale's unit in Glicko points (step 2)
TAU = 0.5  # the system constant: how much the volatility may change (the paper's example)
EPSILON = 0.000001  # the convergence tolerance of the volatility iteration (step 5)


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(a: Rating, b: Rating) -> float:
    """The score ``a`` expects against ``b`` (b's uncertainty counted, as in step 3).

    >>> round(expected(Rating(1700, 50), Rating(1500, 50)), 3)
    0.757
    """
    return _e(a.mu, b.mu, b.phi)


def _volatility(phi: float, vol: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(vol * vol)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, games: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after a period in which it played ``games``: (the opponent's
    rating at the period's start, the player's score: 1 win, 0.5 draw, 0 loss)."""
    games = list(games)
    mu, phi = player.mu, player.phi
    if not games:  # step 6 alone: only the uncertainty grows
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + player.vol**2), player.vol)
    v, delta = variance_and_improvement(player, games)
    vol = _volatility(phi, player.vol, v, delta, tau)
    phi_star = math.sqrt(phi * phi + vol * vol)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_new = mu + phi_new * phi_new * delta / v
    return Rating(1500.0 + SCALE * mu_new, SCALE * phi_new, vol)  # step 8


def variance_and_improvement(player: Rating, games: list[tuple[Rating, float]]):
    """Steps 3 and 4: the estimated variance ``v`` of the player's rating from the games
    alone, and the estimated improvement ``delta``."""
    inv_v = total = 0.0
    for opp, score in games:
        g = _g(opp.phi)
        e = _e(player.mu, opp.mu, opp.phi)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    return 1.0 / inv_v, total / inv_v


def rate_period(
    ratings: dict, games: Iterable[tuple[object, object, float]], tau: float = TAU
) -> dict:
    """Every player's rating after one period: ``games`` are (a, b, a's score) between
    keys of ``ratings``; each player is rated against the others' ratings at the start.

    >>> out = rate_period({"x": Rating(), "y": Rating()}, [("x", "y", 1.0)])
    >>> round(out["x"].rating), round(out["y"].rating)
    (1662, 1338)
    """
    played: dict = {k: [] for k in ratings}
    for a, b, score in games:
        played[a].append((ratings[b], score))
        played[b].append((ratings[a], 1.0 - score))
    return {k: update(r, played[k], tau) for k, r in ratings.items()}
