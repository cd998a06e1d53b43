"""Speed, whole: section Speed of docs/rules.md (Q-1..Q-9, V-3, V-4), its state, actions, events
and options, what a viewer may see of it, and how a hosted bot plays it (a
``rules.Rules``, in the shape of ``spit.py``)."""

from dataclasses import dataclass
from functools import lru_cache

from .actions import CARD, READY, RESIGN, Field, Ready
from .cards import DECK, FITS, Card, fmt, kind, longest_run, may_land_on
from .errors import IllegalAction
from .events import Event, GameEnded, PlayerReady, event
from .options import ENGINE, OptionSpec, options_class
from .piles import (
    ALTERNATE_COLORS,
    MAX_ROUNDS,
    SLAP_GRACE,
    SPIT_GRACE,
    TO_PILE,
    CardPlayed,
    Spit,
    SpitCalled,
    apply_called,
)
from .shuffle import shuffle
from .state import Cards, Player, State, set_at, set_player
from .values import replace
from .wire import CARDS, SIZE, SIZES, TOP, array, either, obj, ref

NAME = "speed"
START_RULE = "Q-2"
# The hosted levels' Glicko-2 ratings in this game, calibrated from simulated games
# (bench/bot_ratings.py --games 40 --periods 10 --seed 16 --floor 800: a round robin of
# 10 periods of 40 games a pair, random put at 800)
BOT_RATINGS = {"random": 800, "easy": 1100, "medium": 1433, "hard": 1791}
HAND = 5

# ---------------------------------------------------------------- options (V-4, Q-8)

SIDE_PILES = OptionSpec("side_piles", "V-4", "Speed: side piles of 10 cards (15 to each player) "
                        "or 5 (20 each)", int, default=10, choices=(5, 10))  # fmt: skip
TARGET_SCORE = OptionSpec("target_score", "Q-8", "Speed: the match target (0: a single game)",
                          int, default=0, low=0, high=10_000)  # fmt: skip
READY_GRACE, IDLE_FORFEIT, JOIN_TIMEOUT = ENGINE
OPTIONS = (ALTERNATE_COLORS, SIDE_PILES, TARGET_SCORE, MAX_ROUNDS, SPIT_GRACE, READY_GRACE,
           SLAP_GRACE, IDLE_FORFEIT, JOIN_TIMEOUT)  # fmt: skip
OPTIONS_CLASS = options_class("SpeedOptions", OPTIONS)

# ---------------------------------------------------------------- state


@dataclass(frozen=True, slots=True)
class SpeedPlayer(Player):
    hand: Cards = ()
    draw: Cards = ()  # top first

    @property
    def cards(self) -> int:
        """How many cards this player holds in all (C-3)."""
        return len(self.hand) + len(self.draw)


@dataclass(frozen=True, slots=True)
class SpeedState(State):
    options: OPTIONS_CLASS = OPTIONS_CLASS()
    players: tuple[SpeedPlayer, SpeedPlayer] = (SpeedPlayer(), SpeedPlayer())
    piles: tuple[Cards | None, ...] = (None, None)  # centre piles, bottom first
    side: tuple[Cards, ...] = ((), ())  # side piles, top first
    middle: Cards = ()  # the two face-down middle cards before the start
    rebuilt_idle: bool = False  # side piles rebuilt, no card played since
    scores: tuple[int, int] = (0, 0)


STATE = SpeedState

# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: Card
    to: int


@dataclass(frozen=True, slots=True)
class Draw:
    pass


ACTIONS = {
    "play": (PlayCard, (Field("card", "card", CARD), TO_PILE)),
    "draw": (Draw, ()),
    "spit": (Spit, ()),
    **READY,
    **RESIGN,
}

# ---------------------------------------------------------------- events


@event
class SpeedDealt(Event):
    """Speed: the cards were dealt: side piles, the middle, hands and draw piles."""

    game_no: int
    nonce: int
    side_piles: tuple[Cards, ...]  # top first
    middle: Cards
    hands: tuple[Cards, ...]
    draw_piles: tuple[Cards, ...]  # top first


@event
class CentreStarted(Event):
    """Speed: the centre piles were started with these cards."""

    cards: Cards


@event
class CardDrawn(Event):
    """Speed: a seat drew a card from its draw pile into its hand."""

    seat: int
    card: Card


@event
class SideCardsTurned(Event):
    """Speed: each side pile's top card was turned onto a centre pile."""

    cards: tuple[Card | None, ...]


@event
class SidePilesRebuilt(Event):
    """Speed: the side piles were rebuilt from the centre piles and shuffled."""

    nonce: int
    side_piles: tuple[Cards, ...]  # top first


@event
class GameScored(Event):
    """Speed: a game was scored."""

    winner: int | None
    points: int
    scores: tuple[int, ...]
    reason: str


# the events of a game of a match, in the order they come
EVENTS = (SpeedDealt, PlayerReady, CentreStarted, CardPlayed, CardDrawn, SpitCalled,
          SideCardsTurned, SidePilesRebuilt, GameScored)  # fmt: skip
DEALS = (SpeedDealt, SidePilesRebuilt)  # the events that record a shuffle
NEW_ROUND = (SideCardsTurned,)  # a stalemate after these is a new one
PHASE_DEADLINES = {  # phase -> (rule, the option of its seconds)
    "stalemate": ("T-1", SPIT_GRACE.name),
    "ready": ("T-2", READY_GRACE.name),
}


def setup(options) -> SpeedPlayer:
    return SpeedPlayer()


def deal(state: SpeedState, seed: bytes) -> SpeedDealt:
    """Q-1, Q-2: side piles, two middle cards, draw piles; five of each draw pile to hand."""
    n = state.options.side_piles
    d = (52 - 2 * n - 2) // 2
    nonce = state.nonce + 1
    c = shuffle(DECK, seed, state.client_seeds, nonce)
    draws = (c[2 * n + 2 : 2 * n + 2 + d], c[2 * n + 2 + d :])
    return SpeedDealt(
        game_no=state.round + 1,
        nonce=nonce,
        side_piles=(c[:n], c[n : 2 * n]),
        middle=c[2 * n : 2 * n + 2],
        hands=tuple(dp[:HAND] for dp in draws),
        draw_piles=tuple(dp[HAND:] for dp in draws),
    )


def apply_dealt(s: SpeedState, e: SpeedDealt) -> dict:
    players = tuple(
        replace(p, hand=e.hands[i], draw=e.draw_piles[i], ready=False, called=False)
        for i, p in enumerate(s.players)
    )
    return dict(
        players=players,
        status="running",
        phase="ready",
        round=e.game_no,
        nonce=e.nonce,
        side=e.side_piles,
        middle=e.middle,
        piles=((), ()),
        rebuilt_idle=False,
    )


def start(state: SpeedState) -> CentreStarted:
    """Q-2: the two middle cards are turned up and start the centre piles."""
    return CentreStarted(cards=state.middle)


def apply_started(s: SpeedState, e: CentreStarted) -> dict:
    return dict(middle=(), piles=tuple((c,) for c in e.cards), phase="playing")


def guard(state: SpeedState, action) -> None:
    """Q-2: nothing is played before both are ready."""
    if state.phase == "ready":
        raise IllegalAction(START_RULE, "the round has not started: both players must be ready")


def decide_play(state: SpeedState, seat: int, a: PlayCard) -> list:
    """Q-3 (with C-2, V-3): a card from your hand onto an adjacent centre pile."""
    if a.card not in state.players[seat].hand:
        raise IllegalAction("Q-3", f"{a.card} is not in your hand")
    top = state.piles[a.to][-1]
    if not may_land_on(a.card, top, False):
        raise IllegalAction("Q-3", f"{a.card} is not adjacent to {top} on centre pile {a.to}")
    if not may_land_on(a.card, top, state.options.alternate_colors):
        raise IllegalAction("V-3", f"{a.card} is the same colour as {top} on centre pile {a.to}")
    return [CardPlayed(seat=seat, card=a.card, to=a.to)]


def decide_draw(state: SpeedState, seat: int, a: Draw) -> list:
    """Q-4: draw while your hand holds fewer than five cards."""
    p = state.players[seat]
    if len(p.hand) >= HAND:
        raise IllegalAction("Q-4", "your hand already holds five cards")
    if not p.draw:
        raise IllegalAction("Q-4", "your draw pile is empty")
    return [CardDrawn(seat=seat, card=p.draw[0])]


def apply_played(s: SpeedState, e: CardPlayed) -> dict:
    p = s.players[e.seat]
    p = replace(p, hand=tuple(c for c in p.hand if c != e.card))
    return dict(
        players=set_player(s.players, e.seat, p),
        piles=set_at(s.piles, e.to, s.piles[e.to] + (e.card,)),
        rebuilt_idle=False,
    )


def apply_drawn(s: SpeedState, e: CardDrawn) -> dict:
    p = s.players[e.seat]
    p = replace(p, hand=p.hand + (e.card,), draw=p.draw[1:])
    return dict(players=set_player(s.players, e.seat, p))


def has_moves(state: SpeedState, seat: int) -> bool:
    p = state.players[seat]
    if len(p.hand) < HAND and p.draw:
        return True
    fits = FITS[state.options.alternate_colors]  # the hot path of stalemate detection
    targets = [fits[pile[-1].index] for pile in state.piles if pile]
    for c in p.hand:
        n = c.index
        for t in targets:
            if n in t:
                return True
    return False


def moves(state: SpeedState, seat: int) -> list:
    p = state.players[seat]
    fits = FITS[state.options.alternate_colors]
    targets = [(to, fits[pile[-1].index]) for to, pile in enumerate(state.piles) if pile]
    out: list = [PlayCard(c, to) for c in p.hand for to, fit in targets if c.index in fit]
    if len(p.hand) < HAND and p.draw:
        out.append(Draw())
    return out


def decide_spit(state: SpeedState, seat: int, a: Spit) -> list:
    """Q-5: both call in a stalemate; the second call turns the side piles up."""
    if state.phase != "stalemate":
        raise IllegalAction("Q-5", "there is no stalemate: spit may be called only in one")
    if state.players[seat].called:
        raise IllegalAction("Q-5", "you have already called in this stalemate")
    return [SpitCalled(seat=seat)]


def resolve(state: SpeedState, seed: bytes) -> list:
    """Q-5, Q-6, Q-9: turn the side piles up, rebuilding them from the centre if needed."""
    if any(state.side):
        return [SideCardsTurned(cards=tuple(sp[0] if sp else None for sp in state.side))]
    below = [c for pile in state.piles for c in pile[:-1]]
    # Q-9 ruling: a second rebuild with no card played since the first is a dead
    # stalemate (every centre card has been a top that no hand card fitted; without this
    # the game would cycle through for ever). A position with nothing to
    # rebuild from is the same dead end reached at once (it arises in hand-built
    # positions only: a real deal always leaves centre cards to shuffle).
    if not below or state.rebuilt_idle:
        a, b = (p.cards for p in state.players)
        return game_over(state, None if a == b else (0 if a < b else 1), "Q-9")
    nonce = state.nonce + 1
    mixed = shuffle(below, seed, state.client_seeds, nonce)
    half = (len(mixed) + 1) // 2  # the odd card to side pile 0
    rebuilt = SidePilesRebuilt(nonce=nonce, side_piles=(mixed[:half], mixed[half:]))
    return [
        rebuilt,
        SideCardsTurned(cards=tuple(sp[0] if sp else None for sp in rebuilt.side_piles)),
    ]


def apply_rebuilt(s: SpeedState, e: SidePilesRebuilt) -> dict:
    return dict(
        side=e.side_piles,
        piles=tuple(p[-1:] for p in s.piles),
        nonce=e.nonce,
        rebuilt_idle=True,
    )


def apply_side_turned(s: SpeedState, e: SideCardsTurned) -> dict:
    piles, side = list(s.piles), list(s.side)
    for i, card in enumerate(e.cards):
        if card is not None:
            piles[i] = piles[i] + (card,)
            side[i] = side[i][1:]
    players = tuple(replace(p, called=False) for p in s.players)
    return dict(piles=tuple(piles), side=tuple(side), players=players, phase="playing")


def game_over(state: SpeedState, winner: int | None, reason: str) -> list:
    """Q-7, Q-8: score the game; end the match at the target score or at E-4's bound."""
    points = len(state.players[1 - winner].draw) if winner is not None else 0
    scores = list(state.scores)
    if winner is not None:
        scores[winner] += points
    events: list = [GameScored(winner=winner, points=points, scores=tuple(scores), reason=reason)]
    target = state.options.target_score
    if target == 0:
        events.append(GameEnded(winner=winner, reason=reason))
    elif winner is not None and scores[winner] >= target:
        events.append(GameEnded(winner=winner, reason="Q-8"))
    elif state.round >= state.options.max_rounds:
        a, b = scores
        events.append(GameEnded(winner=None if a == b else (0 if a > b else 1), reason="E-4"))
    return events  # without GameEnded the phase is "dealing": follow() deals the next game


def apply_scored(s: SpeedState, e: GameScored) -> dict:
    return dict(scores=e.scores, phase="dealing")


def follow(state: SpeedState, seed: bytes | None, at: float) -> list:
    """Q-7 (a player out of cards has won), Q-5 (both called), Q-8 (the match's next deal)."""
    if state.status != "running":
        return []
    if state.phase == "dealing":
        return [deal(state, seed)]
    if state.phase not in ("playing", "stalemate"):
        return []
    for i, p in enumerate(state.players):
        if not p.hand and not p.draw:
            return game_over(state, i, "Q-7")
    if state.phase == "stalemate" and all(p.called for p in state.players):
        return resolve(state, seed)
    return []


def can_act(state: SpeedState, seat: int) -> bool:
    phase = state.phase
    if phase == "playing":
        return has_moves(state, seat)
    if phase == "stalemate":
        return not state.players[seat].called
    if phase == "ready":
        return not state.players[seat].ready
    return False


def legal(state: SpeedState, seat: int) -> list:
    phase = state.phase
    if phase == "playing":
        return moves(state, seat)
    if phase in ("stalemate", "ready"):
        return ([Spit()] if phase == "stalemate" else [Ready()]) if can_act(state, seat) else []
    return []


def on_timeout(state: SpeedState, rule: str) -> list:
    """T-1: each seat not yet called is called for (``follow`` then turns the side piles)."""
    return [SpitCalled(seat=s, by="T-1") for s in (0, 1) if not state.players[s].called]


# ---------------------------------------------------------------- what a viewer sees (H-1..H-4)


def _top(pile):
    return pile[-1].name if pile else None


def view(state: SpeedState, seat: int | None, out: dict) -> None:
    """The viewer's own hand (H-2); sizes of hands, draw piles and side piles (H-1); the
    centre piles' tops (H-3), face down until both are ready (Q-2)."""
    out["scores"] = list(state.scores)
    for i, (pv, p) in enumerate(zip(out["players"], state.players, strict=True)):
        pv["hand_size"] = len(p.hand)
        pv["draw_pile"] = len(p.draw)
        if i == seat:
            pv["hand"] = fmt(p.hand)
    out["side_piles"] = [{"size": len(sp)} for sp in state.side]
    if state.middle:
        out["centre_piles"] = [{"size": 1, "top": None, "face_down": True} for _ in state.middle]
    else:
        out["centre_piles"] = [{"size": len(p or ()), "top": _top(p)} for p in state.piles]


def full_view(state: SpeedState, out: dict) -> None:
    out["scores"] = list(state.scores)
    for pv, p in zip(out["players"], state.players, strict=True):
        pv["hand"] = fmt(p.hand)
        pv["draw_pile"] = fmt(p.draw)
    out["side_piles"] = [{"cards": fmt(sp)} for sp in state.side]
    out["middle"] = fmt(state.middle)
    out["centre_piles"] = [{"cards": fmt(p or ())} for p in state.piles]


def text(full: dict) -> list[str]:
    """The table of a full state (``full_view``) in text: seat 1, the piles, seat 0."""

    def seat(i: int) -> list[str]:
        p = full["players"][i]
        head = f"  seat {i} ({p['kind']}): {p['cards']} cards, draw pile {len(p['draw_pile'])}"
        return [head, "    hand: " + (" ".join(p["hand"]) or "-")]

    centre = "   ".join(
        f"side {i}: {len(s['cards']):>2}   centre {i}: "
        f"{c['cards'][-1] if c['cards'] else '-':>3} ({len(c['cards'])})"
        for i, (s, c) in enumerate(zip(full["side_piles"], full["centre_piles"], strict=True))
    )
    return [*seat(1), "", "    " + centre, "", *seat(0)]


def _hide_dealt(e: SpeedDealt, seat: int | None, d: dict) -> None:  # H-1, H-2
    d["side_piles"] = [len(sp) for sp in e.side_piles]
    d["middle"] = len(e.middle)
    d["draw_piles"] = [len(dp) for dp in e.draw_piles]
    d["hands"] = [fmt(h) if i == seat else len(h) for i, h in enumerate(e.hands)]


def _hide_drawn(e: CardDrawn, seat: int | None, d: dict) -> None:  # H-2
    if e.seat != seat:
        d["card"] = None


def _hide_rebuilt(e: SidePilesRebuilt, seat: int | None, d: dict) -> None:  # H-1
    d["side_piles"] = [len(sp) for sp in e.side_piles]


REDACT = {SpeedDealt: _hide_dealt, CardDrawn: _hide_drawn, SidePilesRebuilt: _hide_rebuilt}

# ---------------------------------------------------------------- the wire forms (wire.py)

SHAPES = {
    "SidePile": obj({"size": SIZE}, "a side pile (Q-5): its size"),
    "SidePileCards": obj({"cards": CARDS}, "a side pile after the game, top first"),
    "CentrePile": obj(
        {
            "size": SIZE,
            "top": TOP,
            "face_down": {"type": "boolean", "description": "until both are ready (Q-2)"},
        },
        "a centre pile",
        optional=["face_down"],
    ),  # fmt: skip
    "CentrePileCards": obj({"cards": CARDS}, "a centre pile after the game, bottom first"),
}
VIEW = {  # what view (during the game) and full_view (after it) add; players: to each seat
    "players": obj(
        {
            "hand": {**CARDS, "description": "your own hand (H-2); every hand after the game"},
            "hand_size": {**SIZE, "description": "while the game runs"},
            "draw_pile": either(
                SIZE, CARDS, description="its size; after the game, its cards, top first"
            ),
        },
        "A seat in Speed.",
        optional=["hand", "hand_size"],
    ),  # fmt: skip
    "table": obj(
        {
            "scores": array({"type": "integer"}, "per seat (Q-8)"),
            "side_piles": array(either(ref("SidePile"), ref("SidePileCards"))),
            "centre_piles": array(either(ref("CentrePile"), ref("CentrePileCards"))),
            "middle": {
                **CARDS,
                "description": "after the game: the cards under the centre piles' first cards",
            },
        },
        "A game of Speed as you may see it (RULES H-1..H-4); every card once it is over.",
        optional=["middle"],
    ),  # fmt: skip
}
REDACTED = {  # what _hide_dealt, _hide_drawn and _hide_rebuilt leave
    SpeedDealt: {
        "side_piles": SIZES,
        "middle": SIZE,
        "draw_piles": SIZES,
        "hands": array(either(CARDS, SIZE), "per seat: your own hand, another's size"),
    },
    CardDrawn: {"card": {"type": "null", "description": "another seat's card (H-2)"}},
    SidePilesRebuilt: {"side_piles": SIZES},
}


def candidates(e) -> list:
    """The actions of a seat that begin a batch with ``e`` (for the audit)."""
    if isinstance(e, CardPlayed):
        return [(PlayCard(e.card, e.to), e.seat)]
    if isinstance(e, CardDrawn):
        return [(Draw(), e.seat)]
    if isinstance(e, SpitCalled) and e.by is None:
        return [(Spit(), e.seat)]
    return []


# ---------------------------------------------------------------- how a hosted bot plays it


def bot_choose(bot, view: dict, legal: list[dict], rng) -> dict | None:
    """Q-5 calls at once; Q-3 first, Q-4 when nothing fits. A play is raced for, a draw is
    not: playing first also keeps a draw in reserve, so it is seldom left with nothing to
    do. (Drawing as soon as the hand is below five won 45% against this at equal reaction
    times, and drawing first whenever the card to come looked worth more than the best
    play cost ``hard`` six points at equal reaction times for a quarter of a point
    against random.)"""
    if legal[0]["type"] == "spit":
        return {"type": "spit"}
    plays = [a for a in legal if a["type"] == "play"]
    if bot.notice < 1.0:
        plays = [a for a in plays if rng.random() < bot.notice]
    if plays:
        if len(plays) == 1:
            return plays[0]
        if bot.plan >= 2:
            return _plan(view, plays)
        return _best_play(view, plays) if bot.plan else rng.choice(plays)
    draw = next((a for a in legal if a["type"] == "draw"), None)
    return draw if draw is not None else rng.choice(legal)


_CHAIN = 1.5  # medium's weight of a chain (Spit's, so that the levels read alike)


def _tops(view: dict) -> tuple[Card | None, ...]:
    return tuple(None if p["top"] is None else Card.parse(p["top"]) for p in view["centre_piles"])


def _best_play(view: dict, plays: list[dict]) -> dict:
    """medium: the play that starts the longest chain from its hand."""
    alt = view["options"].get("alternate_colors", False)
    cards = {t: Card.parse(t) for t in view["players"][view["you"]]["hand"]}
    tops = _tops(view)
    best, best_score = plays[0], None
    for a in plays:
        p = a["to"]
        new = tops[:p] + (cards[a["card"]],) + tops[p + 1 :]
        rest = tuple(c for t, c in cards.items() if t != a["card"])
        score = _CHAIN * longest_run(rest, new, alt)
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


# Weights of hard's Speed plan, tuned against random (bench/ladder.py): a card still to
# play, the cards it could play after the opponent's next move, the ranks its hand fits.
_LEFT, _NEAR, _REACH = 1.0, 1.0, 0.1


def _plan(view: dict, plays: list[dict]) -> dict:
    """hard: it plays on until nothing fits, so it judges each play by where its best run
    of plays ends (``_settle``)."""
    alt = view["options"].get("alternate_colors", False)
    cards = {t: kind(Card.parse(t)) for t in view["players"][view["you"]]["hand"]}
    tops = tuple(None if t is None else kind(t) for t in _tops(view))
    best, best_score = plays[0], None
    for a in plays:
        p = a["to"]
        new = tops[:p] + (cards[a["card"]],) + tops[p + 1 :]
        rest = tuple(sorted((c for t, c in cards.items() if t != a["card"]), key=_index))
        score = _settle(rest, new, alt)
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


def _index(c: Card) -> int:
    return c.index


# the card of each rank and colour (``cards.kind``): _NEXT_TOPS[top] are the two tops the
# opponent's next play could make of ``top``: a rank up or down, of the other colour
_BY_KIND = {(c.rank, c.red): kind(c) for c in DECK}
_NEXT_TOPS = {
    kind(c): tuple(_BY_KIND[(r, not c.red)] for r in (c.rank % 13 + 1, (c.rank - 2) % 13 + 1))
    for c in DECK
}


@lru_cache(maxsize=65536)
def _settle(cards: tuple, tops: tuple, alt: bool) -> float:
    """The best position its plays of ``cards`` onto ``tops`` can reach before it is stuck:
    the fewer cards left in its hand the better, then the more of them the opponent's
    next play (a top one rank up or down, of the other colour) would let it play, and
    the more ranks its hand fits."""
    best = None
    fits = FITS[alt]
    for i, c in enumerate(cards):
        if i and cards[i - 1] is c:
            continue
        for p, top in enumerate(tops):
            if top is not None and c.index in fits[top.index]:
                v = _settle(cards[:i] + cards[i + 1 :], tops[:p] + (c,) + tops[p + 1 :], alt)
                if best is None or v > best:
                    best = v
    if best is not None:
        return best
    score = -_LEFT * len(cards)
    near = 0
    for p, top in enumerate(tops):
        if top is None:
            continue
        for nxt in _NEXT_TOPS[top]:
            near += longest_run(cards, tops[:p] + (nxt,) + tops[p + 1 :], alt)
    reach = {r for c in cards for r in (c.rank % 13 + 1, (c.rank - 2) % 13 + 1)}
    return score + _NEAR * near / 4 + _REACH * len(reach)


EVOLVE = {
    SpeedDealt: apply_dealt,
    CentreStarted: apply_started,
    CardPlayed: apply_played,
    CardDrawn: apply_drawn,
    SpitCalled: apply_called,
    SidePilesRebuilt: apply_rebuilt,
    SideCardsTurned: apply_side_turned,
    GameScored: apply_scored,
}

DECIDE = {PlayCard: decide_play, Draw: decide_draw, Spit: decide_spit}
