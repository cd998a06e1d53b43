"""Speed's search as two players for bounds, never levels: the search of Spit's hard
(determinized rollouts), written for Speed. No hosted level uses it: at equal reaction
times it wins no more than the greedy baseline, and hard wins less often against random
with it than with its plans (bench/README.md).

- ``SpeedSearch``: the search over deals sampled from what its seat may see (H-1, H-2),
  as a fair player.
- ``SpeedOracle``: the same search run on the real deal. It breaks H-1 and H-2 on
  purpose, so it lives in bench/ and gets the State through the simulator's
  ``choose_state`` (which no hosted level has). What it wins against a policy at equal
  reaction times is what this search could win if nothing were hidden: the gap between
  the two is what the hidden cards hold.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.bots import POLICIES  # noqa: E402
from domain.cards import FITS, Card, kind  # noqa: E402
from domain.game import action_to_dict, parse_action  # noqa: E402
from domain.game import legal_actions as legal  # noqa: E402
from domain.speed import HAND  # noqa: E402

HORIZON = 40  # the steps a rollout plays at most (a game is about 60)
WON = 100.0  # a game won, against the cards the seats hold


def candidates(legal_: list[dict], plays: list[dict]) -> list[dict]:
    """Each play of a different card kind or pile, and the draw (Q-4)."""
    cands, keys = [], set()
    for a in plays:
        key = (kind(Card.parse(a["card"])), a["to"])
        if key not in keys:
            keys.add(key)
            cands.append(a)
    return cands + [a for a in legal_ if a["type"] == "draw"]


def best(cands: list[dict], you: int, samples: int, deal, fits, rng) -> dict:
    """The candidate that wins most often, then leaves ``you`` the fewest cards against
    the opponent's: ``samples`` times, ``deal(rng)`` gives (hands, draw piles top last,
    side piles top last, centre tops) and from each candidate both seats play
    ``HORIZON`` steps as the greedy baseline would (``rollout``), each step won by
    either seat alike (equal paces), with the same coin flips for every candidate."""
    if len(cands) == 1:
        return cands[0]
    totals = [0.0] * len(cands)
    for _ in range(samples):
        hands0, draws0, side0, tops0 = deal(rng)
        coins = [rng.random() for _ in range(2 * HORIZON)]
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
                left[you], left[1 - you] = -WON, len(hands[1 - you]) + len(draws[1 - you])
            else:
                left = rollout(hands, draws, [list(s) for s in side0], tops, fits, coins)
            totals[j] += left[1 - you] - left[you]
    return cands[max(range(len(cands)), key=totals.__getitem__)]


def rollout(hands, draws, side, tops, fits, coins) -> tuple[float, float]:
    """Both seats play as the greedy baseline (a play at once, else a draw), for
    ``len(coins) // 2`` steps at most: the cards each would hold then (hand and draw pile),
    a seat out of cards (Q-7) holding ``-WON``. Stops where the side piles are empty at
    a stalemate (Q-6 would shuffle). Changes its arguments."""
    n = len(coins)
    i = 0
    while i < n:
        if not hands[0] and not draws[0] or not hands[1] and not draws[1]:
            break
        fit0, fit1 = fits[tops[0]], fits[tops[1]]
        acts = [None, None]
        for seat in (0, 1):
            found = []
            for c in hands[seat]:
                if c in fit0:
                    found.append((c, 0))
                if c in fit1:
                    found.append((c, 1))
            if found:
                acts[seat] = found[int(coins[i + 1] * len(found))] if len(found) > 1 else found[0]
            elif draws[seat] and len(hands[seat]) < HAND:
                acts[seat] = (None, -1)
        if acts[0] is None and acts[1] is None:
            if not side[0] and not side[1]:
                break  # the rollout ends here
            for q in (0, 1):
                if side[q]:
                    tops[q] = side[q].pop()
            i += 2
            continue
        if acts[0] is not None and acts[1] is not None:
            seat = 1 if coins[i] < 0.5 else 0
        else:
            seat = 0 if acts[1] is None else 1
        c, q = acts[seat]
        if q >= 0:
            hands[seat].remove(c)
            tops[q] = c
        else:
            hands[seat].append(draws[seat].pop())
        i += 2
    left = [len(hands[s]) + len(draws[s]) for s in (0, 1)]
    for s in (0, 1):
        if not left[s]:
            left[s] = -WON
    return left[0], left[1]


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
        return best(candidates(acts, plays), view["you"], self.bot.search, _sampler(view),
                    FITS[view["options"].get("alternate_colors", False)], rng)  # fmt: skip


def _sampler(view: dict):
    """Deals of what the seat cannot see (every card but its hand and the centre tops),
    at random: the opponent's hand, the draw piles, the side piles."""
    you = view["you"]
    me, opp = view["players"][you], view["players"][1 - you]
    hand = [Card.parse(t).index for t in me["hand"]]
    tops = [Card.parse(p["top"]).index for p in view["centre_piles"]]
    seen = set(hand) | set(tops)
    unseen = [c for c in range(52) if c not in seen]
    sizes = (opp["hand_size"], me["draw_pile"], opp["draw_pile"])
    sides = [sp["size"] for sp in view["side_piles"]]

    def deal(rng):
        rng.shuffle(unseen)
        k = sizes[0]
        hands, draws = [None, None], [None, None]
        hands[you], hands[1 - you] = hand, unseen[:k]
        draws[you] = unseen[k : k + sizes[1]]
        k += sizes[1]
        draws[1 - you] = unseen[k : k + sizes[2]]
        k += sizes[2]
        side = (unseen[k : k + sides[0]], unseen[k + sides[0] : k + sides[0] + sides[1]])
        return hands, draws, side, tops

    return deal


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
        real = ([[c.index for c in p.hand] for p in st.players],
                [[c.index for c in reversed(p.draw)] for p in st.players],  # top last
                [[c.index for c in reversed(s)] for s in st.side],
                [p[-1].index for p in st.piles])  # fmt: skip
        return best(candidates(legal_, plays), you, self.samples, lambda _rng: real,
                    FITS[st.options.alternate_colors], rng)  # fmt: skip
