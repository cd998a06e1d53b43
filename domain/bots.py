"""Hosted bot policies (issue 4): pure functions of what a seat may see.

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
- ``hard``: quickest; sees everything and plans: in Spit the play that uncovers a
  face-down card (or frees a space to dig with), starts the longest chain of its own
  follow-ups, keeps its other cards playable on the new tops and opens the fewest new
  plays for the opponent, whose face-up cards it sees; then turns up, then digs from
  its tallest pile. It spits at once, slaps or chooses (V-2) the smaller pile, and puts
  a solo spit (S-3) where the piles' difference helps it. In Speed it plays before it
  draws and plans its whole run of plays up to where it is stuck: the fewest cards
  left, then the most it could play after the opponent's next play.

>>> v = {"game": "spit", "phase": "slap", "you": 0, "legal_actions": [
...     {"type": "slap", "pile": 0}, {"type": "slap", "pile": 1}, {"type": "resign"}],
...     "spit_piles": [{"size": 9, "top": "3C"}, {"size": 4, "top": "KD"}]}
>>> POLICIES["hard"].choose(v, None)
{'type': 'slap', 'pile': 1}
"""

import math
from dataclasses import dataclass
from functools import lru_cache

from .actions import Resign
from .cards import RANKS

_RANK = {r: i + 1 for i, r in enumerate(RANKS)}
_RED = frozenset("DH")

# A card inside a bot is (rank, red): all that adjacency (C-2) and colour (V-3) need.


def _card(text: str | None):
    if text is None:
        return None
    return (_RANK[text[:-1]], text[-1] in _RED)


def _fits(card, top, alt: bool) -> bool:
    if top is None:
        return False
    d = abs(card[0] - top[0])
    return (d == 1 or d == 12) and not (alt and card[1] == top[1])


@lru_cache(maxsize=65536)
def _chain(cards: tuple, tops: tuple, alt: bool) -> int:
    """The longest run of plays of ``cards`` (each once) onto ``tops``, in any order."""
    best = 0
    for i, c in enumerate(cards):
        rest = None
        for p, top in enumerate(tops):
            if _fits(c, top, alt):
                if rest is None:
                    rest = cards[:i] + cards[i + 1 :]
                n = 1 + _chain(rest, tops[:p] + (c,) + tops[p + 1 :], alt)
                if n > best:
                    best = n
                    if best == len(cards):
                        return best
    return best


def _key(cards) -> tuple:
    return tuple(sorted(cards))


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
    """One level: how much it sees, how far it plans, and how fast it reacts."""

    name: str
    pace: Reaction
    notice: float = 1.0  # chance of seeing each available play
    look: float = 1.0  # chance of seeing a face-down top to turn up (squared: a free space)
    plan: int = 2  # 0: any play it saw; 1: one step ahead; 2: chains and the opponent
    judge: float = 1.0  # chance of slapping (or choosing) the smaller pile

    def reaction(self, rng) -> float:
        return self.pace(rng)

    def choose(self, view: dict, rng) -> dict | None:
        legal = _legal(view)
        if not legal:
            return None
        kind = legal[0]["type"]
        if kind == "ready":  # D-4, N-4, Q-2
            return legal[0]
        if kind == "spit":  # S-2, S-3, Q-5: a stalemate is called at once
            return _spit_call(self, view, legal)
        if kind in ("slap", "choose"):  # N-2, V-2: each wants the smaller pile
            return _take_pile(self, view, legal, rng)
        if view["game"] == "spit":
            return _spit_play(self, view, legal, rng)
        return _speed_play(self, view, legal, rng)


class RandomBot:
    """Any legal action but resign, uniformly, at the slowest pace: the ladder's floor."""

    name = "random"
    pace = Reaction(0.5, 1.0, 0.45)

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


# ---------------------------------------------------------------- calls and piles


def _spit_call(bot: Bot, view: dict, legal: list[dict]) -> dict:
    """S-2 at once; a solo spit (S-3) names the pile where it helps most: the larger one
    when it expects to take the smaller one at the round's end (it is the faster slapper,
    or under V-2 the likelier chooser), else the smaller one."""
    named = [a for a in legal if "pile" in a]
    if len(named) < 2 or bot.plan < 2:
        return {"type": "spit"}
    sizes = [p["size"] for p in view["spit_piles"]]
    me, opp = view["players"][view["you"]], view["players"][1 - view["you"]]
    stock = [sum(s["size"] for s in p["stockpiles"]) for p in (me, opp)]
    ahead = view["options"].get("pile_choice") != "choose" or stock[0] <= stock[1]
    big = 0 if sizes[0] >= sizes[1] else 1
    pile = big if ahead else 1 - big
    return next((a for a in named if a["pile"] == pile), named[0])


def _take_pile(bot: Bot, view: dict, legal: list[dict], rng) -> dict:
    sizes = [p["size"] for p in view["spit_piles"]]
    small = 0 if sizes[0] <= sizes[1] else 1
    if bot.judge < 1.0 and rng.random() >= bot.judge:
        small = 1 - small
    return next((a for a in legal if a["pile"] == small), legal[0])


# ---------------------------------------------------------------- Spit (P-1..P-3)


def _spit_play(bot: Bot, view: dict, legal: list[dict], rng) -> dict | None:
    """P-1 first (the piles are raced for; its own cards wait), then P-2, then P-3."""
    plays = [a for a in legal if a["type"] == "play"]
    if bot.notice < 1.0:
        plays = [a for a in plays if rng.random() < bot.notice]
    if plays:
        if len(plays) == 1:
            return plays[0]
        return _best_spit_play(bot, view, plays) if bot.plan else rng.choice(plays)
    turns = [a for a in legal if a["type"] == "turn_up"]
    moves = [a for a in legal if a["type"] == "move"]
    if bot.look < 1.0:
        turns = [a for a in turns if rng.random() < bot.look]
        moves = [a for a in moves if rng.random() < bot.look * bot.look]
    if turns:  # P-2: a face-down top is a card that cannot be played yet
        return turns[0]
    if moves:  # P-3: a card moved to a space lays bare the face-down card under it
        if not bot.plan:
            return rng.choice(moves)
        mine = view["players"][view["you"]]["stockpiles"]
        return max(moves, key=lambda a: (mine[a["from"]]["size"], -a["to"]))
    return rng.choice(legal)  # missed them all at first glance: it fumbles something


# Weights of hard's play score, tuned by self-play at equal reaction times (bench/ladder.py).
_UNCOVER, _SPACE, _CHAIN, _OPP, _KEEP = 2.0, 2.0, 1.5, 3.0, 1.0


def _best_spit_play(bot: Bot, view: dict, plays: list[dict]) -> dict:
    """The play that opens the most: it uncovers a face-down card (or frees a space to dig
    with), starts the longest chain of its own follow-ups, leaves its other cards playable
    on the new tops, and opens the fewest new plays for the opponent's face-up cards."""
    alt = view["options"].get("alternate_colors", False)
    me = view["players"][view["you"]]["stockpiles"]
    opp = view["players"][1 - view["you"]]["stockpiles"]
    tops = tuple(_card(p["top"]) for p in view["spit_piles"])
    mine = [_card(s["top"]) for s in me]
    theirs = [c for c in (_card(s["top"]) for s in opp) if c is not None]
    diggable = [i for i, s in enumerate(me) if s["size"] >= 2 and s["top"] is not None]
    before = sum(any(_fits(c, t, alt) for t in tops) for c in theirs)
    best, best_score = plays[0], None
    for a in plays:
        i, p = a["from"], a["to"]
        card = mine[i]
        new = tops[:p] + (card,) + tops[p + 1 :]
        # the card below can be turned up next, or the space left can be dug with (P-3)
        space = _SPACE if any(j != i for j in diggable) else 0.0
        score = _UNCOVER if me[i]["size"] >= 2 else space
        if bot.plan >= 2:
            rest = _key(c for j, c in enumerate(mine) if c is not None and j != i)
            score += _CHAIN * _chain(rest, new, alt)
            score += _KEEP * sum(any(_fits(c, t, alt) for t in new) for c in rest)
            after = sum(any(_fits(c, t, alt) for t in new) for c in theirs)
            score -= _OPP * (after - before)
        else:  # one step: its own cards that could follow this one
            score += sum(_fits(c, card, alt) for j, c in enumerate(mine) if c and j != i)
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


# ---------------------------------------------------------------- Speed


def _speed_play(bot: Bot, view: dict, legal: list[dict], rng) -> dict | None:
    """Q-3 first, Q-4 when nothing fits. A play is raced for, a draw is not: playing first
    also keeps a draw in reserve, so it is seldom left with nothing to do. (Drawing as soon
    as the hand is below five won 45% against this at equal reaction times, and drawing
    first whenever the card to come looked worth more than the best play cost ``hard``
    six points at equal reaction times for a quarter of a point against random.)"""
    plays = [a for a in legal if a["type"] == "play"]
    if bot.notice < 1.0:
        plays = [a for a in plays if rng.random() < bot.notice]
    if plays:
        if len(plays) == 1:
            return plays[0]
        if bot.plan >= 2:
            return _plan_speed(view, plays)
        return _best_speed_play(bot, view, plays) if bot.plan else rng.choice(plays)
    draw = next((a for a in legal if a["type"] == "draw"), None)
    return draw if draw is not None else rng.choice(legal)


def _best_speed_play(bot: Bot, view: dict, plays: list[dict]) -> dict:
    """medium: the play that starts the longest chain from its hand."""
    alt = view["options"].get("alternate_colors", False)
    cards = {t: _card(t) for t in view["players"][view["you"]]["hand"]}
    tops = tuple(_card(p["top"]) for p in view["centre_piles"])
    best, best_score = plays[0], None
    for a in plays:
        card = cards[a["card"]]
        p = a["to"]
        new = tops[:p] + (card,) + tops[p + 1 :]
        rest = _key(c for t, c in cards.items() if t != a["card"])
        score = _CHAIN * _chain(rest, new, alt)
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


# Weights of hard's Speed plan, tuned against random (bench/ladder.py): a card still to
# play, the cards it could play after the opponent's next move, the ranks its hand fits.
_LEFT, _NEAR, _REACH = 1.0, 1.0, 0.1


def _plan_speed(view: dict, plays: list[dict]) -> dict:
    """hard: it plays on until nothing fits, so it judges each play by where its best run
    of plays ends (``_settle``)."""
    alt = view["options"].get("alternate_colors", False)
    cards = {t: _card(t) for t in view["players"][view["you"]]["hand"]}
    tops = tuple(_card(p["top"]) for p in view["centre_piles"])
    best, best_score = plays[0], None
    for a in plays:
        p = a["to"]
        new = tops[:p] + (cards[a["card"]],) + tops[p + 1 :]
        rest = _key(c for t, c in cards.items() if t != a["card"])
        score = _settle(rest, new, alt)
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


@lru_cache(maxsize=65536)
def _settle(cards: tuple, tops: tuple, alt: bool) -> float:
    """The best position its plays of ``cards`` onto ``tops`` can reach before it is stuck:
    the fewer cards left in its hand the better, then the more of them the
    opponent's next play (a top one rank up or down, of the other colour) would let it
    play, and the more ranks its hand fits."""
    best = None
    for i, c in enumerate(cards):
        if i and cards[i - 1] == c:
            continue
        for p, top in enumerate(tops):
            if _fits(c, top, alt):
                v = _settle(cards[:i] + cards[i + 1 :], tops[:p] + (c,) + tops[p + 1 :], alt)
                if best is None or v > best:
                    best = v
    if best is not None:
        return best
    score = -_LEFT * len(cards)
    near = 0
    for p, (rank, red) in enumerate(tops):
        for r in (rank % 13 + 1, (rank - 2) % 13 + 1):
            near += _chain(cards, tops[:p] + ((r, not red),) + tops[p + 1 :], alt)
    reach = {r for c in cards for r in (c[0] % 13 + 1, (c[0] - 2) % 13 + 1)}
    return score + _NEAR * near / 4 + _REACH * len(reach)


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
    "hard": Bot("hard", Reaction(0.2, 0.3, 0.3)),
}
