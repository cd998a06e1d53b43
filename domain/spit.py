"""Spit, whole: the Spit sections of docs/rules.md (the deal, playing, stalemates, the end
of a round and of the game, the table options), its state, actions, events and options,
what a viewer may see of it, and how a hosted bot plays it (a ``rules.Rules``).

Each rule lives here once and names its ID (docs/rules.md). ``decide_*`` functions judge an
action against a state and return events; ``apply_*`` functions evolve the state by
one event; ``follow`` adds what the rules make happen by themselves after an action
(the game or a round ending, piles going to their takers, the next deal).
"""

from dataclasses import dataclass

from .actions import READY, RESIGN, Field, Kind, Ready
from .cards import DECK, FITS, Card, fmt, longest_run, may_land_on
from .errors import IllegalAction
from .events import Event, GameEnded, PlayerReady, event
from .options import ENGINE, OptionSpec, options_class
from .piles import (
    ALTERNATE_COLORS,
    MAX_ROUNDS,
    PILE,
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
from .wire import CARDS, SEAT, SIZE, TOP, array, either, nullable, obj, ref

NAME = "spit"
START_RULE = "D-4"
# The hosted levels' Glicko-2 ratings in this game, calibrated from simulated games
# (bench/bot_ratings.py --games 40 --periods 10 --seed 16 --floor 800: a round robin of
# 10 periods of 40 games a pair, random put at 800)
BOT_RATINGS = {"random": 800, "easy": 1210, "medium": 1638, "hard": 2169}

# ---------------------------------------------------------------- options (V-1, V-2)

MAX_STOCKPILES = 5
STOCKPILES = OptionSpec("stockpiles", "V-1", "Spit: 5 stockpiles (1..5 cards) or 4 (1..4)", int,
                        default=MAX_STOCKPILES, choices=(4, 5))  # fmt: skip
PILE_CHOICE = OptionSpec("pile_choice", "V-2", "Spit: slap for the smaller pile, or the player "
                         "who cleared chooses", str, default="slap",
                         choices=("slap", "choose"))  # fmt: skip
READY_GRACE, IDLE_FORFEIT, JOIN_TIMEOUT = ENGINE
OPTIONS = (STOCKPILES, PILE_CHOICE, ALTERNATE_COLORS, MAX_ROUNDS, SPIT_GRACE, READY_GRACE,
           SLAP_GRACE, IDLE_FORFEIT, JOIN_TIMEOUT)  # fmt: skip
OPTIONS_CLASS = options_class("SpitOptions", OPTIONS)

# ---------------------------------------------------------------- state

Layout = tuple[Cards, ...]  # stockpiles, bottom card first


@dataclass(frozen=True, slots=True)
class SpitPlayer(Player):
    stockpiles: tuple[Cards, ...] = ()  # bottom card first
    face_up: tuple[bool, ...] = ()  # is the top card of each stockpile face up
    spit: Cards = ()  # top first
    pool: Cards = ()  # the cards gathered at a round's end, before the next deal (N-3)
    had_spit: bool = False  # held spit cards when the round began (E-3)

    @property
    def cards(self) -> int:
        """How many cards this player holds in all (C-3)."""
        return sum(map(len, self.stockpiles)) + len(self.spit) + len(self.pool)

    @property
    def stock_count(self) -> int:
        return sum(map(len, self.stockpiles))


@dataclass(frozen=True, slots=True)
class SpitState(State):
    options: OPTIONS_CLASS = OPTIONS_CLASS()
    players: tuple[SpitPlayer, SpitPlayer] = (SpitPlayer(), SpitPlayer())
    piles: tuple[Cards | None, ...] = (None, None)  # spit piles, bottom first (None: N-5)
    solo_pile: int | None = None  # S-3 lock
    cleared: int | None = None  # the seat that cleared its layout this round (N-1a)
    chooser: int | None = None  # V-2


STATE = SpitState

# ---------------------------------------------------------------- actions

STOCKPILE = Kind("stockpile", {"type": "integer", "minimum": 0, "maximum": MAX_STOCKPILES - 1,
                 "description": "a stockpile, 0 to 4 (0 to 3 under V-1)"})  # fmt: skip


@dataclass(frozen=True, slots=True)
class Play:  # P-1
    src: int
    to: int


@dataclass(frozen=True, slots=True)
class TurnUp:  # P-2
    stockpile: int


@dataclass(frozen=True, slots=True)
class Move:  # P-3
    src: int
    to: int


@dataclass(frozen=True, slots=True)
class Slap:  # N-2
    pile: int


@dataclass(frozen=True, slots=True)
class Choose:  # V-2
    pile: int


_FROM = Field("from", "src", STOCKPILE)
ACTIONS = {
    "play": (Play, (_FROM, TO_PILE)),
    "turn_up": (TurnUp, (Field("stockpile", "stockpile", STOCKPILE),)),
    "move": (Move, (_FROM, Field("to", "to", STOCKPILE))),
    "spit": (Spit, (Field("pile", "pile", PILE, required=False),)),
    "slap": (Slap, (Field("pile", "pile", PILE),)),
    "choose": (Choose, (Field("pile", "pile", PILE),)),
    **READY,
    **RESIGN,
}

# ---------------------------------------------------------------- events


@event
class SpitDealt(Event):  # D-1..D-3, N-3, N-5
    """Spit: the cards were dealt into each seat's stockpiles and spit cards."""

    round: int
    nonces: tuple[int, ...]  # the shuffles of this deal (shuffle.py)
    stockpiles: tuple[Layout, ...]  # per seat
    spit_cards: tuple[Cards, ...]  # per seat, top first


@event
class SpitCardsTurned(Event):  # D-4, S-2, S-3
    """Spit: each seat's spit card was turned onto a spit pile."""

    cards: tuple[Card | None, ...]  # per seat: the card it turned, or None
    piles: tuple[int | None, ...]  # per seat: the spit pile it landed on


@event
class CardTurnedUp(Event):  # P-2
    """Spit: a stockpile's top card was turned face up."""

    seat: int
    stockpile: int
    card: Card


@event
class CardMoved(Event):  # P-3
    """Spit: a stockpile's top card was moved onto another stockpile."""

    seat: int
    src: int
    to: int
    card: Card


@event
class RoundEnded(Event):  # N-1
    """Spit: a round ended; `next` says how the piles are taken."""

    round: int
    reason: str  # "N-1a" (a layout cleared) or "N-1b" (blocked, no spit cards)
    cleared: int | None  # the seat that cleared its layout, if any
    next: str  # "slap", "choose" or "take"
    chooser: int | None = None  # V-2


@event
class PileSlapped(Event):  # N-2
    """Spit: a seat slapped a spit pile."""

    seat: int
    pile: int


@event
class PileChosen(Event):  # V-2
    """Spit: a seat chose a spit pile (V-2)."""

    seat: int
    pile: int


@event
class PilesTaken(Event):  # N-2, N-3, E-1, E-3, T-3
    """Spit: each seat took a spit pile (or none)."""

    piles: tuple[int | None, ...]  # per seat: the spit pile it takes, or None


# the events of a round, in the order they come
EVENTS = (SpitDealt, PlayerReady, SpitCardsTurned, CardPlayed, CardTurnedUp, CardMoved,
          SpitCalled, RoundEnded, PileSlapped, PileChosen, PilesTaken)  # fmt: skip
DEALS = (SpitDealt,)  # the events that record a shuffle
NEW_ROUND = (SpitCardsTurned,)  # a stalemate after these is a new one
PHASE_DEADLINES = {  # phase -> (rule, the option of its seconds)
    "stalemate": ("T-1", SPIT_GRACE.name),
    "ready": ("T-2", READY_GRACE.name),
    "slap": ("T-3", SLAP_GRACE.name),
    "choose": ("T-3", SLAP_GRACE.name),
}


def setup(options) -> SpitPlayer:
    """An empty layout of ``stockpiles`` spaces (V-1)."""
    k = options.stockpiles
    return SpitPlayer(stockpiles=((),) * k, face_up=(False,) * k)


# ---------------------------------------------------------------- dealing (D-1..D-4)


def deal_layout(cards: Cards, k: int) -> tuple[tuple[Cards, ...], Cards]:
    """D-3: deal ``cards`` row by row into ``k`` stockpiles; the rest are spit cards.

    >>> from .cards import parse_cards
    >>> piles, spit = deal_layout(parse_cards("AS 2S 3S 4S 5S 6S 7S".split()), 5)
    >>> [[str(c) for c in p] for p in piles], [str(c) for c in spit]
    ([['AS'], ['2S', '6S'], ['3S', '7S'], ['4S'], ['5S']], [])
    """
    piles: list[list[Card]] = [[] for _ in range(k)]
    i = 0
    for row in range(k):
        for j in range(row, k):
            if i == len(cards):
                return tuple(tuple(p) for p in piles), ()
            piles[j].append(cards[i])
            i += 1
    return tuple(tuple(p) for p in piles), tuple(cards[i:])  # N-5: none left, no spit cards


def deal(state: SpitState, seed: bytes) -> SpitDealt:
    """D-1 for the first round (one shuffled deck, 26 each), N-3 for the next ones."""
    k = state.options.stockpiles
    if state.round == 0:
        nonce = state.nonce + 1
        deck = shuffle(DECK, seed, state.client_seeds, nonce)
        hands, nonces = (deck[:26], deck[26:]), (nonce,)
    else:
        nonces = (state.nonce + 1, state.nonce + 2)
        hands = tuple(
            shuffle(p.pool, seed, state.client_seeds, n)
            for p, n in zip(state.players, nonces, strict=True)
        )
    layouts = [deal_layout(h, k) for h in hands]
    return SpitDealt(
        round=state.round + 1,
        nonces=nonces,
        stockpiles=tuple(lay[0] for lay in layouts),
        spit_cards=tuple(lay[1] for lay in layouts),
    )


def apply_dealt(s: SpitState, e: SpitDealt) -> dict:
    players = tuple(
        replace(
            p,
            stockpiles=e.stockpiles[i],
            face_up=tuple(bool(pile) for pile in e.stockpiles[i]),
            spit=e.spit_cards[i],
            pool=(),
            had_spit=bool(e.spit_cards[i]),
            ready=False,
            called=False,
        )
        for i, p in enumerate(s.players)
    )
    return dict(
        players=players,
        status="running",
        phase="ready",
        round=e.round,
        nonce=max(e.nonces),
        piles=(None, None),
        solo_pile=None,
        cleared=None,
        chooser=None,
    )


def start(state: SpitState) -> SpitCardsTurned:
    """D-4: each player with spit cards turns the top one up to start their spit pile."""
    cards = tuple(p.spit[0] if p.spit else None for p in state.players)
    return SpitCardsTurned(cards=cards, piles=tuple(i if c else None for i, c in enumerate(cards)))


def apply_spit_turned(s: SpitState, e: SpitCardsTurned) -> dict:
    piles = list(s.piles) if s.phase != "ready" else [None, None]
    players = []
    for p, card, pile in zip(s.players, e.cards, e.piles, strict=True):
        if card is not None:
            piles[pile] = (piles[pile] or ()) + (card,)
            players.append(replace(p, spit=p.spit[1:], called=False))
        else:
            players.append(replace(p, called=False))
    solo = s.solo_pile
    if s.phase != "ready" and sum(c is not None for c in e.cards) == 1:
        solo = next(pl for pl in e.piles if pl is not None)  # S-3: the first solo spit locks
    return dict(players=tuple(players), piles=tuple(piles), phase="playing", solo_pile=solo)


# ---------------------------------------------------------------- play (P-1..P-5)


def _stockpile(state: SpitState, seat: int, index: int) -> Cards:
    if index >= state.options.stockpiles:  # V-1
        raise IllegalAction("V-1", f"this table has {state.options.stockpiles} stockpiles")
    return state.players[seat].stockpiles[index]


def decide_play(state: SpitState, seat: int, a: Play) -> list:
    """P-1 (with C-2, V-3, N-5): a face-up stockpile top onto an adjacent spit pile."""
    p = state.players[seat]
    src = _stockpile(state, seat, a.src)
    if not src:
        raise IllegalAction("P-1", f"stockpile {a.src} is empty")
    if not p.face_up[a.src]:
        raise IllegalAction("P-1", f"the top card of stockpile {a.src} is face down (P-2)")
    pile = state.piles[a.to]
    if pile is None:
        raise IllegalAction("N-5", f"spit pile {a.to} does not exist this round")
    card, top = src[-1], pile[-1]
    if not may_land_on(card, top, False):
        raise IllegalAction("P-1", f"{card} is not adjacent to {top} on pile {a.to}")
    if not may_land_on(card, top, state.options.alternate_colors):
        raise IllegalAction("V-3", f"{card} is the same colour as {top} on pile {a.to}")
    return [CardPlayed(seat=seat, card=card, to=a.to, src=a.src)]


def decide_turn_up(state: SpitState, seat: int, a: TurnUp) -> list:
    """P-2: turn a face-down stockpile top face up."""
    src = _stockpile(state, seat, a.stockpile)
    if not src:
        raise IllegalAction("P-2", f"stockpile {a.stockpile} is empty")
    if state.players[seat].face_up[a.stockpile]:
        raise IllegalAction("P-2", f"the top card of stockpile {a.stockpile} is already face up")
    return [CardTurnedUp(seat=seat, stockpile=a.stockpile, card=src[-1])]


def decide_move(state: SpitState, seat: int, a: Move) -> list:
    """P-3 (with its ruling): a face-up top into an empty space, from a pile of two or more."""
    src = _stockpile(state, seat, a.src)
    dst = _stockpile(state, seat, a.to)
    if dst:
        raise IllegalAction("P-3", f"stockpile space {a.to} is not empty")
    if len(src) < 2:
        raise IllegalAction("P-3", f"stockpile {a.src} must hold at least two cards to move one")
    if not state.players[seat].face_up[a.src]:
        raise IllegalAction("P-3", f"the top card of stockpile {a.src} is face down (P-2)")
    return [CardMoved(seat=seat, src=a.src, to=a.to, card=src[-1])]


def apply_played(s: SpitState, e: CardPlayed) -> dict:
    p = s.players[e.seat]
    p = replace(
        p,
        stockpiles=set_at(p.stockpiles, e.src, p.stockpiles[e.src][:-1]),
        face_up=set_at(p.face_up, e.src, False),
    )
    return dict(
        players=set_player(s.players, e.seat, p),
        piles=set_at(s.piles, e.to, s.piles[e.to] + (e.card,)),
    )


def apply_turned_up(s: SpitState, e: CardTurnedUp) -> dict:
    p = s.players[e.seat]
    p = replace(p, face_up=set_at(p.face_up, e.stockpile, True))
    return dict(players=set_player(s.players, e.seat, p))


def apply_moved(s: SpitState, e: CardMoved) -> dict:
    p = s.players[e.seat]
    piles = set_at(p.stockpiles, e.src, p.stockpiles[e.src][:-1])
    piles = set_at(piles, e.to, (e.card,))
    face = set_at(set_at(p.face_up, e.src, False), e.to, True)
    return dict(players=set_player(s.players, e.seat, replace(p, stockpiles=piles, face_up=face)))


def moves(state: SpitState, seat: int) -> list:
    """Every legal P-1..P-3 action of ``seat`` (S-1 is the absence of these for both)."""
    p = state.players[seat]
    fits = FITS[state.options.alternate_colors]
    targets = [(to, fits[t[-1].index]) for to, t in enumerate(state.piles) if t]
    out: list = []
    empty = [i for i, pile in enumerate(p.stockpiles) if not pile]
    for i, pile in enumerate(p.stockpiles):
        if not pile:
            continue
        if not p.face_up[i]:
            out.append(TurnUp(i))
            continue
        n = pile[-1].index
        for to, fit in targets:
            if n in fit:
                out.append(Play(i, to))
        if len(pile) >= 2:
            for j in empty:
                out.append(Move(i, j))
    return out


def has_moves(state: SpitState, seat: int) -> bool:
    """Whether ``seat`` has any P-1..P-3 action (the hot path of stalemate detection)."""
    p = state.players[seat]
    fits = FITS[state.options.alternate_colors]
    targets = [fits[t[-1].index] for t in state.piles if t]
    some_empty = some_movable = False
    for i, pile in enumerate(p.stockpiles):  # indexing face_up: cheaper than a strict zip
        if not pile:
            some_empty = True
        elif not p.face_up[i]:
            return True
        else:
            n = pile[-1].index
            for t in targets:
                if n in t:
                    return True
            if len(pile) >= 2:
                some_movable = True
    return some_empty and some_movable


def guard(state: SpitState, action) -> None:
    """D-4, N-4: nothing but a late slap or choice before both are ready (those lost a
    race, and their own rule, N-2 or V-2, says so); N-1: no play while the piles are
    being taken."""
    kind = type(action)
    if state.phase == "ready" and kind not in (Slap, Choose):
        raise IllegalAction(START_RULE, "the round has not started: both players must be ready")
    if state.phase in ("slap", "choose", "dealing") and kind in (Play, TurnUp, Move, Spit):
        raise IllegalAction("N-1", "the round is over: the piles are being taken")


# ---------------------------------------------------------------- stalemate (S-1..S-4)


def spitters(state: SpitState) -> list[int]:
    """The seats that must call in a stalemate: those who still have spit cards (S-2)."""
    return [i for i, p in enumerate(state.players) if p.spit]


def solo_piles(state: SpitState, seat: int) -> list[int]:
    """S-3: the piles a solo spitter may name (only the locked one once it is locked)."""
    if state.solo_pile is not None:
        return [state.solo_pile]
    return [i for i, pile in enumerate(state.piles) if pile is not None]


def solo_default(state: SpitState, seat: int) -> int:
    """S-3 ruling: the first solo spit goes on the spitter's own pile unless named."""
    allowed = solo_piles(state, seat)
    return seat if seat in allowed else allowed[0]


def decide_spit(state: SpitState, seat: int, a: Spit) -> list:
    """S-2..S-4: call "spit!" in a stalemate; the last needed call turns the cards."""
    if state.phase != "stalemate":
        raise IllegalAction("S-4", "there is no stalemate: a spit may be called only in one")
    need = spitters(state)
    if seat not in need:
        raise IllegalAction("S-2", "you have no spit cards left to turn")
    if state.players[seat].called:
        raise IllegalAction("S-2", "you have already called spit in this stalemate")
    if len(need) == 1:  # S-3: solo spit
        allowed = solo_piles(state, seat)
        if a.pile is not None and a.pile not in allowed:
            why = "is locked for this round" if state.solo_pile is not None else "exists"
            raise IllegalAction("S-3", f"a solo spit may go only on pile {allowed[0]}, which {why}")
        pile = a.pile if a.pile is not None else solo_default(state, seat)
        return [SpitCalled(seat=seat), turn_spit_cards(state, {seat: pile})]
    if a.pile not in (None, seat):
        raise IllegalAction("S-2", f"each player spits onto their own pile ({seat})")
    events: list = [SpitCalled(seat=seat)]
    if all(state.players[s].called for s in need if s != seat):
        events.append(turn_spit_cards(state, {s: s for s in need}))
    return events


def turn_spit_cards(state: SpitState, piles: dict[int, int]) -> SpitCardsTurned:
    """S-2: each caller turns their top spit card onto the pile given for them."""
    return SpitCardsTurned(
        cards=tuple(state.players[s].spit[0] if s in piles else None for s in (0, 1)),
        piles=tuple(piles.get(s) for s in (0, 1)),
    )


# ---------------------------------------------------------------- a round's end (N-1..N-5, E-*)


def fewer_stock(state: SpitState) -> int | None:
    """The seat with fewer stockpile cards, or None on a tie."""
    a, b = (p.stock_count for p in state.players)
    return None if a == b else (0 if a < b else 1)


def round_end(state: SpitState) -> list:
    """E-2 and N-1: whether the game or the round has ended, and the events that say how
    it goes on."""
    cleared = next((i for i, p in enumerate(state.players) if not any(p.stockpiles)), None)
    if cleared is not None and not state.players[cleared].spit:  # E-2: it wins at once
        return [GameEnded(winner=cleared, reason="E-2")]
    if cleared is not None:
        reason = "N-1a"
    elif state.phase == "stalemate" and not spitters(state):
        reason = "N-1b"
    else:
        return []
    if None in state.piles:  # a one-pile round (N-5): no slap
        owner = state.piles.index(next(p for p in state.piles if p is not None))
        pile = owner
        if cleared is not None:  # E-1: the first to clear takes nothing from the centre
            taker = 1 - cleared
        else:  # E-3 ruling
            a, b = (p.stock_count for p in state.players)
            taker = owner if a == b else (0 if a > b else 1)
        ended = RoundEnded(round=state.round, reason=reason, cleared=cleared, next="take")
        return [ended, PilesTaken(piles=tuple(pile if s == taker else None for s in (0, 1)))]
    chooser = None
    if state.options.pile_choice == "choose":  # V-2 and its ruling
        chooser = cleared if cleared is not None else fewer_stock(state)
    nxt = "choose" if chooser is not None else "slap"
    return [
        RoundEnded(round=state.round, reason=reason, cleared=cleared, next=nxt, chooser=chooser)
    ]


def apply_round_ended(s: SpitState, e: RoundEnded) -> dict:
    phase = {"slap": "slap", "choose": "choose", "take": "dealing"}[e.next]
    return dict(phase=phase, cleared=e.cleared, chooser=e.chooser)


def decide_slap(state: SpitState, seat: int, a: Slap) -> list:
    """N-2: the first slap in the log takes that pile; the other player takes the other."""
    if state.phase != "slap":
        raise IllegalAction("N-2", "there is nothing to slap: no round is ending by slap")
    return [PileSlapped(seat=seat, pile=a.pile), _taken(seat, a.pile)]


def decide_choose(state: SpitState, seat: int, a: Choose) -> list:
    """V-2: the player who cleared (or has fewer stockpile cards) chooses a pile."""
    if state.phase != "choose":
        raise IllegalAction("V-2", "there is no pile to choose now")
    if seat != state.chooser:
        raise IllegalAction("V-2", f"seat {state.chooser} chooses the pile this round")
    return [PileChosen(seat=seat, pile=a.pile), _taken(seat, a.pile)]


def _taken(seat: int, pile: int) -> PilesTaken:
    return PilesTaken(piles=(pile, 1 - pile) if seat == 0 else (1 - pile, pile))


def slap_timeout(state: SpitState) -> list:
    """T-3: the player who cleared (else fewer stockpile cards; tie: seat 0) takes the
    smaller pile (equal sizes: pile 0)."""
    taker = state.cleared if state.cleared is not None else (fewer_stock(state) or 0)
    a, b = (len(p) for p in state.piles)
    return [_taken(taker, 1 if b < a else 0)]


def apply_taken(s: SpitState, e: PilesTaken) -> dict:
    """N-3: each player gathers the pile they took and every card they still hold."""
    players = tuple(
        replace(
            p,
            pool=p.pool
            + tuple(c for pile in p.stockpiles for c in pile)
            + p.spit
            + (s.piles[e.piles[i]] if e.piles[i] is not None else ()),
            stockpiles=((),) * s.options.stockpiles,
            face_up=(False,) * s.options.stockpiles,
            spit=(),
            ready=False,
            called=False,
        )
        for i, p in enumerate(s.players)
    )
    return dict(players=players, piles=(None, None), phase="dealing")


def after_taken(state: SpitState, seed: bytes, at: float) -> list:
    """E-4, then the next deal (N-3). (E-2 ended the game before any taking: round_end.)"""
    if state.round >= state.options.max_rounds:
        a, b = (len(p.pool) for p in state.players)
        return [GameEnded(winner=None if a == b else (0 if a < b else 1), reason="E-4")]
    return [deal(state, seed)]


def follow(state: SpitState, seed: bytes | None, at: float) -> list:
    """What happens by itself in ``state``: the game's or a round's end, the taking, the
    next deal."""
    if state.status != "running":
        return []
    if state.phase in ("playing", "stalemate"):
        return round_end(state)
    if state.phase == "dealing":
        return after_taken(state, seed, at)
    return []


def can_act(state: SpitState, seat: int) -> bool:
    """Whether ``seat`` has an action other than resign (T-4's clock)."""
    phase = state.phase
    if phase == "playing":
        return has_moves(state, seat)
    if phase == "stalemate":
        return seat in spitters(state) and not state.players[seat].called
    if phase == "ready":
        return not state.players[seat].ready
    if phase == "slap":
        return True
    if phase == "choose":
        return seat == state.chooser
    return False


def legal(state: SpitState, seat: int) -> list:
    """Every action ``decide`` accepts from ``seat`` now, resign aside."""
    phase = state.phase
    if phase == "playing":
        return moves(state, seat)
    if phase == "stalemate":
        if not can_act(state, seat):
            return []
        if len(spitters(state)) == 1:
            return [Spit()] + [Spit(p) for p in solo_piles(state, seat)]
        return [Spit(), Spit(seat)]
    if phase == "ready":
        return [Ready()] if not state.players[seat].ready else []
    if phase == "slap":
        return [Slap(0), Slap(1)]
    if phase == "choose" and seat == state.chooser:
        return [Choose(0), Choose(1)]
    return []


def on_timeout(state: SpitState, rule: str) -> list:
    """T-1: each spitter not yet called is called for (a lone one spits on its own pile,
    or the locked one: S-3), and the spit cards turn; T-3: ``slap_timeout``."""
    if rule == "T-3":
        return slap_timeout(state)
    need = spitters(state)
    events: list = [SpitCalled(seat=s, by="T-1") for s in need if not state.players[s].called]
    solo = len(need) == 1
    piles = {need[0]: solo_default(state, need[0])} if solo else {s: s for s in need}
    return events + [turn_spit_cards(state, piles)]


# ---------------------------------------------------------------- what a viewer sees (H-1..H-4)


def _top(pile, up: bool = True):
    return pile[-1].name if pile and up else None


def view(state: SpitState, seat: int | None, out: dict) -> None:
    """Face-up stockpile tops and the spit piles' tops; sizes of everything else (H-1, H-3)."""
    out["solo_pile"] = state.solo_pile
    for pv, p in zip(out["players"], state.players, strict=True):
        pv["spit_cards"] = len(p.spit)
        pv["stockpiles"] = [
            {"size": len(pile), "top": _top(pile, p.face_up[k])}
            for k, pile in enumerate(p.stockpiles)
        ]
    out["spit_piles"] = [
        {"size": len(p or ()), "top": _top(p), "exists": p is not None} for p in state.piles
    ]


def full_view(state: SpitState, out: dict) -> None:
    out["solo_pile"] = state.solo_pile
    for pv, p in zip(out["players"], state.players, strict=True):
        pv["stockpiles"] = [
            {"cards": fmt(pile), "face_up": int(bool(pile) and up)}
            for pile, up in zip(p.stockpiles, p.face_up, strict=True)
        ]
        pv["spit_cards"] = fmt(p.spit)
        if p.pool:
            pv["pool"] = fmt(p.pool)
    out["spit_piles"] = [{"cards": fmt(p or ()), "exists": p is not None} for p in state.piles]


def text(full: dict) -> list[str]:
    """The table of a full state (``full_view``) in text: seat 1, the spit piles, seat 0.
    ``##``: a face-down top."""

    def seat(i: int) -> list[str]:
        p = full["players"][i]
        piles = " ".join(
            f"[{s['cards'][-1] if s['face_up'] else '##':>3} {len(s['cards']):>1}]"
            if s["cards"] else "[     ]"
            for s in p["stockpiles"]
        )  # fmt: skip
        head = f"  seat {i} ({p['kind']}): {p['cards']} cards, {len(p['spit_cards'])} spit cards"
        return [head, "    " + piles]

    centre = "   ".join(
        f"pile {i}: {p['cards'][-1] if p['cards'] else '-':>3} ({len(p['cards'])})"
        if p["exists"] else f"pile {i}: none"
        for i, p in enumerate(full["spit_piles"])
    )  # fmt: skip
    return [*seat(1), "", "    " + centre, "", *seat(0)]


def _hide_dealt(e: SpitDealt, seat: int | None, d: dict) -> None:
    """D-2: only the top of each stockpile is face up; spit cards are face down (H-1)."""
    d["stockpiles"] = [
        [{"size": len(pile), "top": _top(pile)} for pile in layout] for layout in e.stockpiles
    ]
    d["spit_cards"] = [len(sc) for sc in e.spit_cards]


REDACT = {SpitDealt: _hide_dealt}

# ---------------------------------------------------------------- the wire forms (wire.py)

_EXISTS = {"type": "boolean", "description": "false while a seat plays alone (S-3)"}
SHAPES = {
    "Stockpile": obj({"size": SIZE, "top": TOP}, "a stockpile: its size, its top if face up"),
    "StockpileCards": obj(
        {"cards": CARDS, "face_up": {"type": "integer", "minimum": 0, "maximum": 1}},
        "a stockpile after the game: its cards, bottom first, and how many are face up",
    ),
    "Pile": obj({"size": SIZE, "top": TOP, "exists": _EXISTS}, "a spit pile"),
    "PileCards": obj({"cards": CARDS, "exists": _EXISTS}, "a spit pile after the game"),
}
VIEW = {  # what view (during the game) and full_view (after it) add; players: to each seat
    "players": obj(
        {
            "spit_cards": either(
                SIZE, CARDS, description="how many; after the game, the cards, top first"
            ),
            "stockpiles": array(either(ref("Stockpile"), ref("StockpileCards"))),
            "pool": {
                **CARDS,
                "description": "after the game: the cards taken and not dealt "
                "(only when there are some)",
            },
        },
        "A seat in Spit.",
        optional=["pool"],
    ),  # fmt: skip
    "table": obj(
        {
            "solo_pile": {**nullable(SEAT), "description": "S-3: the one spit pile left"},
            "spit_piles": array(either(ref("Pile"), ref("PileCards"))),
        },
        "A game of Spit as you may see it (RULES H-1..H-4); every card once it is over.",
    ),
}
REDACTED = {  # what _hide_dealt leaves
    SpitDealt: {
        "stockpiles": array(array(ref("Stockpile")), "per seat, its stockpiles"),
        "spit_cards": array(SIZE, "per seat, how many spit cards"),
    },
}


def candidates(e) -> list:
    """The actions of a seat that begin a batch with ``e`` (for the audit)."""
    if isinstance(e, CardPlayed):
        return [(Play(e.src, e.to), e.seat)]
    if isinstance(e, CardTurnedUp):
        return [(TurnUp(e.stockpile), e.seat)]
    if isinstance(e, CardMoved):
        return [(Move(e.src, e.to), e.seat)]
    if isinstance(e, SpitCalled) and e.by is None:
        return [(Spit(p), e.seat) for p in (None, 0, 1)]
    if isinstance(e, PileSlapped):
        return [(Slap(e.pile), e.seat)]
    if isinstance(e, PileChosen):
        return [(Choose(e.pile), e.seat)]
    return []


# ---------------------------------------------------------------- how a hosted bot plays it


def bot_choose(bot, view: dict, legal: list[dict], rng) -> dict | None:
    """S-2 calls at once; N-2 and V-2 want the smaller pile; otherwise P-1 first (the piles
    are raced for; its own cards wait), then P-2, then P-3; a level that searches
    (``bot.search``) weighs a play against a turn-up and a dig (``_search``)."""
    kind = legal[0]["type"]
    if kind == "spit":
        return _spit_call(bot, view, legal)
    if kind in ("slap", "choose"):
        return _take_pile(bot, view, legal, rng)
    plays = [a for a in legal if a["type"] == "play"]
    if bot.search and plays:
        return _search(bot, view, legal, plays, rng)
    if bot.notice < 1.0:
        plays = [a for a in plays if rng.random() < bot.notice]
    if plays:
        if len(plays) == 1:
            return plays[0]
        return _best_play(bot, view, plays) if bot.plan else rng.choice(plays)
    turns = [a for a in legal if a["type"] == "turn_up"]
    moves = [a for a in legal if a["type"] == "move"]
    if bot.look < 1.0:
        turns = [a for a in turns if rng.random() < bot.look]
        moves = [a for a in moves if rng.random() < bot.look * bot.look]
    if turns:  # P-2: a face-down top is a card that cannot be played yet
        return turns[0]
    if moves:  # P-3: a card moved to a space lays bare the face-down card under it
        return _dig(view, moves) if bot.plan else rng.choice(moves)
    return rng.choice(legal)  # missed them all at first glance: it fumbles something


def _spit_call(bot, view: dict, legal: list[dict]) -> dict:
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


def _take_pile(bot, view: dict, legal: list[dict], rng) -> dict:
    sizes = [p["size"] for p in view["spit_piles"]]
    small = 0 if sizes[0] <= sizes[1] else 1
    if bot.judge < 1.0 and rng.random() >= bot.judge:
        small = 1 - small
    return next((a for a in legal if a["pile"] == small), legal[0])


# Weights of the planner's play score (hard before its search, now a baseline of
# bench/ladder.py), tuned by self-play at equal reaction times.
_UNCOVER, _SPACE, _CHAIN, _OPP, _KEEP = 2.0, 2.0, 1.5, 3.0, 1.0


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


def _fits_any(card: Card, tops, alt: bool) -> bool:
    return any(t is not None and may_land_on(card, t, alt) for t in tops)


def _best_play(bot, view: dict, plays: list[dict]) -> dict:
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
    before = sum(_fits_any(c, tops, alt) for c in theirs)
    best, best_score = plays[0], None
    for a in plays:
        i, p = a["from"], a["to"]
        card = mine[i]
        new = tops[:p] + (card,) + tops[p + 1 :]
        # the card below can be turned up next, or the space left can be dug with (P-3)
        space = _SPACE if any(j != i for j in diggable) else 0.0
        score = _UNCOVER if me[i]["size"] >= 2 else space
        if bot.plan >= 2:
            rest = tuple(c for j, c in enumerate(mine) if c is not None and j != i)
            score += _CHAIN * longest_run(rest, new, alt)
            score += _KEEP * sum(_fits_any(c, new, alt) for c in rest)
            after = sum(_fits_any(c, new, alt) for c in theirs)
            score -= _OPP * (after - before)
        else:  # one step: its own cards that could follow this one
            score += sum(may_land_on(c, card, alt) for j, c in enumerate(mine) if c and j != i)
        if best_score is None or score > best_score:
            best, best_score = a, score
    return best


def _dig(view: dict, moves: list[dict]) -> dict:
    """P-3 from its tallest pile (the most face-down cards to lay bare), to the first space."""
    mine = view["players"][view["you"]]["stockpiles"]
    return max(moves, key=lambda a: (mine[a["from"]]["size"], -a["to"]))


# hard's search: how many steps each rollout plays, and what a game won (E-2) is worth
# against the cards the seats would hold (docs/decisions/0015 has the trials)
_HORIZON, _WON = 20, 30.0
_NONE = frozenset()  # what fits on no pile (N-5)


def _search(bot, view: dict, legal: list[dict], plays: list[dict], rng) -> dict:
    """hard: determinized rollouts over what the seat may see (H-1). Its
    candidates are each play, a turn-up (P-2) and a dig (P-3): turning up or digging
    before a play can be worth more (the play waits; a card turned up may follow it).
    ``bot.search`` times, the cards it cannot see (face-down stockpile cards, spit cards:
    every card not face up in its view) are dealt at random to where face-down cards lie,
    and from each candidate both seats play ``_HORIZON`` steps as the greedy baseline
    would, each step won by either seat alike (equal paces), with the same coin flips
    for every candidate. It takes the candidate that leaves it, on average, the fewest
    cards against the opponent's (a game won by E-2 counts ``_WON``)."""
    you = view["you"]
    fits = FITS[view["options"].get("alternate_colors", False)]
    seen = set()
    layout = []  # per seat: (size, face-up top index or None) per stockpile
    for pv in view["players"]:
        rows = []
        for sp in pv["stockpiles"]:
            top = None if sp["top"] is None else Card.parse(sp["top"]).index
            if top is not None:
                seen.add(top)
            rows.append((sp["size"], top))
        layout.append(rows)
    tops = []
    for sp in view["spit_piles"]:
        top = Card.parse(sp["top"]).index if sp["top"] is not None else None
        if top is not None:
            seen.add(top)
        tops.append(top)
    spits = [pv["spit_cards"] for pv in view["players"]]
    unseen = [c for c in range(52) if c not in seen]
    cands = list(plays)
    turn = next((a for a in legal if a["type"] == "turn_up"), None)
    if turn is not None:
        cands.append(turn)
    moves = [a for a in legal if a["type"] == "move"]
    if moves:
        cands.append(_dig(view, moves))
    if len(cands) == 1:
        return cands[0]
    totals = [0.0] * len(cands)
    for _ in range(bot.search):
        rng.shuffle(unseen)
        piles, up, spit, k = ([], []), ([], []), ([], []), 0
        for seat in (0, 1):
            for size, top in layout[seat]:
                hidden = size - (top is not None)
                pile = unseen[k : k + hidden]
                k += hidden
                if top is not None:
                    pile.append(top)
                piles[seat].append(pile)
                up[seat].append(top is not None)
            spit[seat].extend(unseen[k : k + spits[seat]])
            k += spits[seat]
        coins = [rng.random() for _ in range(2 * _HORIZON)]
        for j, a in enumerate(cands):
            p = [[list(x) for x in piles[0]], [list(x) for x in piles[1]]]
            u = [list(up[0]), list(up[1])]
            t = list(tops)
            mine, flags = p[you], u[you]
            if a["type"] == "play":
                t[a["to"]] = mine[a["from"]].pop()
                flags[a["from"]] = False
            elif a["type"] == "turn_up":
                flags[a["stockpile"]] = True
            else:
                mine[a["to"]].append(mine[a["from"]].pop())
                flags[a["from"]], flags[a["to"]] = False, True
            sp = [list(spit[0]), list(spit[1])]
            if any(mine):
                left = _rollout(p, u, sp, t, view["solo_pile"], fits, coins)
            else:  # its last stockpile card: E-2 or N-1a at once
                left = _left(p, sp, you)
            totals[j] += left[1 - you] - left[you]
    return cands[max(range(len(cands)), key=totals.__getitem__)]


def _rollout(piles, up, spit, tops, solo, fits, coins) -> tuple[float, float]:
    """Both seats play as the greedy baseline, for ``len(coins) // 2`` steps at most:
    the cards each would hold then (stockpiles and spit cards), a seat that won (E-2)
    holding ``-_WON``. A seat's next action is worked out again only when its piles or
    the spit piles' tops have changed. Changes its arguments."""
    n = len(coins)
    i = 0
    acts = [None, None]
    stale = [True, True]
    while i < n:
        if stale[0] or stale[1]:
            fit0 = fits[tops[0]] if tops[0] is not None else _NONE
            fit1 = fits[tops[1]] if tops[1] is not None else _NONE
            for seat in (0, 1):
                if stale[seat]:
                    acts[seat] = _next(piles[seat], up[seat], fit0, fit1, coins[i + 1])
                    stale[seat] = False
        if acts[0] is None and acts[1] is None:  # S-1
            need = [seat for seat in (0, 1) if spit[seat]]
            if not need:
                break  # N-1b
            if len(need) == 2:  # S-2
                for seat in need:
                    tops[seat] = spit[seat].pop()
            else:  # S-3
                seat = need[0]
                if solo is None:
                    solo = seat if tops[seat] is not None else 1 - seat
                tops[solo] = spit[seat].pop()
            stale[0] = stale[1] = True
            i += 2
            continue
        if acts[0] is not None and acts[1] is not None:
            seat = 1 if coins[i] < 0.5 else 0
        else:
            seat = 0 if acts[1] is None else 1
        k, q = acts[seat]
        pl, fl = piles[seat], up[seat]
        stale[seat] = True
        if q >= 0:  # P-1
            tops[q] = pl[k].pop()
            fl[k] = False
            stale[1 - seat] = True
            if not any(pl):  # N-1a, E-2
                return _left(piles, spit, seat)
        elif q == -1:  # P-2
            fl[k] = True
        else:  # P-3
            pl[-2 - q].append(pl[k].pop())
            fl[k], fl[-2 - q] = False, True
        i += 2
    return tuple(sum(map(len, piles[s])) + len(spit[s]) for s in (0, 1))


def _left(piles, spit, cleared: int) -> tuple[float, float]:
    """The cards each seat holds when ``cleared`` has played its last stockpile card: a
    seat that won the game by it (E-2, no spit cards left) holds ``-_WON``."""
    left = [sum(map(len, piles[s])) + len(spit[s]) for s in (0, 1)]
    if not spit[cleared]:
        left[cleared] = -_WON
    return left[0], left[1]


def _next(pl, fl, fit0, fit1, coin: float):
    """The greedy baseline's next action with stockpiles ``pl`` (face up: ``fl``): a play
    (pile, spit pile), else a turn-up (pile, -1), else a dig (pile, -2 - space), or None."""
    found = []
    turn = -1
    for k, pile in enumerate(pl):
        if pile:
            if fl[k]:
                c = pile[-1]
                if c in fit0:
                    found.append((k, 0))
                if c in fit1:
                    found.append((k, 1))
            else:
                turn = k
    if found:
        return found[int(coin * len(found))] if len(found) > 1 else found[0]
    if turn >= 0:
        return (turn, -1)
    space = dig = -1
    for k, pile in enumerate(pl):
        if not pile:
            space = k
        elif len(pile) >= 2 and (dig < 0 or len(pile) > len(pl[dig])):
            dig = k
    return (dig, -2 - space) if space >= 0 and dig >= 0 else None


EVOLVE = {
    SpitDealt: apply_dealt,
    SpitCardsTurned: apply_spit_turned,
    CardPlayed: apply_played,
    CardTurnedUp: apply_turned_up,
    CardMoved: apply_moved,
    SpitCalled: apply_called,
    RoundEnded: apply_round_ended,
    PilesTaken: apply_taken,
    PileSlapped: lambda s, e: {},
    PileChosen: lambda s, e: {},
}

DECIDE = {
    Play: decide_play,
    TurnUp: decide_turn_up,
    Move: decide_move,
    Spit: decide_spit,
    Slap: decide_slap,
    Choose: decide_choose,
}
