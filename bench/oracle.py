"""Speed's search (``domain.speed.search``) as two players for bounds, never levels.

- ``SpeedSearch``: the search over deals sampled from what its seat may see (H-1, H-2),
  as a fair player; no level uses it (bench/README.md says why).
- ``SpeedOracle``: the same search run on the real deal. It breaks H-1 and H-2 on
  purpose, so it lives in bench/ and gets the State through the simulator's
  ``choose_state`` (which no hosted level has). What it wins against a policy at equal
  reaction times is what this search could win if nothing were hidden: the gap between
  the two is what the hidden cards hold.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain import speed  # noqa: E402
from domain.bots import POLICIES  # noqa: E402
from domain.cards import Card, kind  # noqa: E402
from domain.game import action_to_dict, parse_action  # noqa: E402
from domain.game import legal_actions as legal  # noqa: E402


class SpeedSearch:
    """Speed's fair search with ``hard``'s number of sampled deals."""

    def __init__(self, pace=POLICIES["hard"]):
        self.name, self.reaction, self.bot = "search", pace.reaction, POLICIES["hard"]

    def choose(self, view: dict, rng):
        acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
        if not acts:
            return None
        plays = [a for a in acts if a["type"] == "play"]
        if not plays:
            return acts[0]  # ready, spit or draw
        return speed.search(self.bot, view, acts, plays, rng)


class SpeedOracle:
    """Speed's search on the real cards (both hands, draw piles, side piles)."""

    def __init__(self, pace=POLICIES["hard"], samples: int = POLICIES["hard"].search):
        self.name, self.reaction, self.samples = "oracle", pace.reaction, samples

    def choose_state(self, state, seat: int, rng):
        acts = [action_to_dict(a) for a in legal(state, seat) if a.__class__.__name__ != "Resign"]
        if not acts:
            return None
        if acts[0]["type"] in ("ready", "spit"):
            return parse_action("speed", acts[0])
        plays = [a for a in acts if a["type"] == "play"]
        if not plays:
            return parse_action("speed", acts[0])
        return parse_action("speed", self._search(state, seat, acts, plays, rng))

    def _search(self, st, you: int, legal_: list, plays: list, rng) -> dict:
        fits = speed.FITS[st.options.alternate_colors]
        cands, keys = [], set()
        for a in plays:
            key = (kind(Card.parse(a["card"])), a["to"])
            if key not in keys:
                keys.add(key)
                cands.append(a)
        cands += [a for a in legal_ if a["type"] == "draw"]
        if len(cands) == 1:
            return cands[0]
        hands0 = [[c.index for c in p.hand] for p in st.players]
        draws0 = [[c.index for c in reversed(p.draw)] for p in st.players]  # top last
        side0 = [[c.index for c in reversed(s)] for s in st.side]
        tops0 = [p[-1].index for p in st.piles]
        totals = [0.0] * len(cands)
        for _ in range(self.samples):
            coins = [rng.random() for _ in range(2 * speed._HORIZON)]
            for j, a in enumerate(cands):
                hands, draws = [list(h) for h in hands0], [list(d) for d in draws0]
                tops = list(tops0)
                if a["type"] == "play":
                    c = Card.parse(a["card"]).index
                    hands[you].remove(c)
                    tops[a["to"]] = c
                else:
                    hands[you].append(draws[you].pop())
                if not hands[you] and not draws[you]:
                    left = [0.0, 0.0]
                    left[you] = -speed._WON
                    left[1 - you] = len(hands[1 - you]) + len(draws[1 - you])
                else:
                    left = speed._rollout(hands, draws, [list(s) for s in side0], tops, fits, coins)
                totals[j] += left[1 - you] - left[you]
        return cands[max(range(len(cands)), key=totals.__getitem__)]
