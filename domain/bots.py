"""Hosted bot policies: pure functions of what a seat may see.

A bot is ``choose(view, rng) -> action wire form | None`` plus ``reaction(rng) ->
seconds``. It gets the seat's view (views.view: face-up cards, its own Speed hand,
sizes of the rest; RULES H-1, H-2), never the State, so it cannot peek. ``rng`` is a
``random.Random`` the caller owns: the domain imports no randomness of its own.

``choose`` answers one of ``view["legal_actions"]`` (never resign), or ``None`` only
when the seat has nothing else to do. A bot never waits on a legal action: two bots
each waiting for the other would idle until T-4. Missing a play is modelled in the
pace instead (``Reaction.lapse``): the opponent's next move makes it look again.

The levels differ in play, not only in pace (bench/ladder.py measures both):

- ``random``: any legal action, uniformly; slowest. The ladder's floor, for tests.
- ``easy``: slow, with frequent lapses; sees each play with chance 0.7 and takes any
  one it saw (missing them all, it turns up, moves or draws instead, or fumbles any
  legal action); notices face-down tops and free spaces late; slaps the wrong pile
  three times in ten.
- ``medium``: quicker; sees nine plays in ten; looks one step ahead (a play that
  uncovers a card or frees a space, with its own follow-ups); turns up at once; digs
  with free spaces; slaps the wrong pile one time in ten.
- ``hard``: quickest. In Spit it searches: with a play in reach, it weighs
  each play, a turn-up and a dig by determinized rollouts over what its seat may see
  (``spit._search``: the unseen cards dealt at random, ``search`` times, both seats then
  playing as the greedy baseline). It spits at once, slaps or chooses (V-2) the smaller
  pile, and puts a solo spit (S-3) where the piles' difference helps it. In Speed it
  plays before it draws and plans its whole run of plays up to where it is stuck: the
  fewest cards left, then the most it could play after the opponent's next play (the
  same search did not pay there: bench/README.md).

``BASELINES`` are policies the service does not host, for the ladder's comparisons: the
greedy baseline (any fitting card at once, then turn-ups and moves or a draw, calls at
once, the smaller pile) and ``planner``, hard's plans without the search.

>>> v = {"game": "spit", "phase": "slap", "you": 0, "legal_actions": [
...     {"type": "slap", "pile": 0}, {"type": "slap", "pile": 1}, {"type": "resign"}],
...     "spit_piles": [{"size": 9, "top": "3C"}, {"size": 4, "top": "KD"}]}
>>> POLICIES["hard"].choose(v, None)
{'type': 'slap', 'pile': 1}
"""

import math
from dataclasses import dataclass

from . import registry
from .actions import Resign


def _legal(view: dict) -> list[dict]:
    return [a for a in view["legal_actions"] if a["type"] != "resign"]


@dataclass(frozen=True)
class Reaction:
    """Seconds from seeing a change to acting: ``floor`` plus a lognormal (median, sigma),
    plus, with chance ``lapse``, an exponential wait of mean ``lapse_s``: it did not see
    the play at first glance (the opponent's next move makes it look again)."""

    floor: float
    median: float
    sigma: float
    lapse: float = 0.0
    lapse_s: float = 0.0

    def __call__(self, rng) -> float:
        t = self.floor + rng.lognormvariate(math.log(self.median), self.sigma)
        if self.lapse and rng.random() < self.lapse:
            t += rng.expovariate(1.0 / self.lapse_s)
        return t


@dataclass(frozen=True)
class Bot:
    """One level: how much it sees, how far it plans, and how fast it reacts. How it plays
    a game is that game's (``Rules.bot_choose``), with these as its parameters."""

    name: str
    pace: Reaction
    notice: float = 1.0  # chance of seeing each available play
    look: float = 1.0  # chance of seeing a face-down top to turn up (squared: a free space)
    plan: int = 2  # 0: any play it saw; 1: one step ahead; 2: chains and the opponent
    judge: float = 1.0  # chance of slapping (or choosing) the smaller pile
    search: int = 0  # determinizations per searched decision (0: none; the game's search)

    def reaction(self, rng) -> float:
        return self.pace(rng)

    def choose(self, view: dict, rng) -> dict | None:
        legal = _legal(view)
        if not legal:
            return None
        if legal[0]["type"] == "ready":  # D-4, N-4, Q-2
            return legal[0]
        return registry.get(view["game"]).bot_choose(self, view, legal, rng)


class RandomBot:
    """Any legal action but resign, uniformly, at the slowest pace: the ladder's floor."""

    name = "random"
    # slower than easy at its slowest: at 0.5 + 1.0 s easy won only 56% of
    # Speed games against it, where pace decides most, too close for a ladder's step
    pace = Reaction(0.8, 1.3, 0.45)

    def reaction(self, rng) -> float:
        return self.pace(rng)

    def choose(self, view: dict, rng) -> dict | None:
        legal = _legal(view)
        return rng.choice(legal) if legal else None

    def choose_among(self, actions: list, rng):
        """The same choice made on the domain's action objects, all this bot looks at: the
        simulator uses it to skip building (and parsing) a whole view per decision."""
        legal = [a for a in actions if not isinstance(a, Resign)]
        return rng.choice(legal) if legal else None


POLICIES: dict[str, Bot | RandomBot] = {
    "random": RandomBot(),
    "easy": Bot(
        "easy",
        Reaction(0.45, 0.8, 0.4, lapse=0.25, lapse_s=1.5),
        notice=0.7,
        look=0.8,
        plan=0,
        judge=0.7,
    ),
    "medium": Bot(
        "medium",
        Reaction(0.3, 0.5, 0.35, lapse=0.1, lapse_s=1.0),
        notice=0.9,
        look=1.0,
        plan=1,
        judge=0.9,
    ),
    "hard": Bot("hard", Reaction(0.2, 0.3, 0.3), search=32),
}


BASELINES: dict[str, Bot] = {
    # The ladder's yardstick, not hosted: any fitting card at once (P-1, Q-3), then turn-ups
    # and moves (P-2, P-3) or a draw, calls at once (S-2, Q-5), the smaller pile (N-2).
    "greedy": Bot("greedy", POLICIES["hard"].pace, plan=0),
    # ``hard`` without its search: its plans alone, for the ladder's comparisons.
    "planner": Bot("planner", POLICIES["hard"].pace),
}
