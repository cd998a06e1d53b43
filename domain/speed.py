"""Speed: the rules of section SPEED (Q-1..Q-9, V-3, V-4), in the shape of spit.py."""

from .actions import Draw, PlayCard, Ready, Spit
from .cards import DECK, FITS, may_land_on
from .errors import IllegalAction
from .events import (
    CardDrawn,
    CardPlayed,
    CentreStarted,
    GameEnded,
    GameScored,
    SideCardsTurned,
    SidePilesRebuilt,
    SpeedDealt,
    SpitCalled,
)
from .shuffle import shuffle
from .state import State, set_at, set_player
from .values import replace

HAND = 5


def deal(state: State, seed: bytes) -> SpeedDealt:
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


def apply_dealt(s: State, e: SpeedDealt) -> State:
    players = tuple(
        replace(p, hand=e.hands[i], draw=e.draw_piles[i], ready=False, called=False)
        for i, p in enumerate(s.players)
    )
    return replace(
        s,
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


def start(state: State) -> CentreStarted:
    """Q-2: the two middle cards are turned up and start the centre piles."""
    return CentreStarted(cards=state.middle)


def apply_started(s: State, e: CentreStarted) -> State:
    return replace(s, middle=(), piles=tuple((c,) for c in e.cards), phase="playing")


def decide_play(state: State, seat: int, a: PlayCard) -> list:
    """Q-3 (with C-2, V-3): a card from your hand onto an adjacent centre pile."""
    if a.card not in state.players[seat].hand:
        raise IllegalAction("Q-3", f"{a.card} is not in your hand")
    top = state.piles[a.to][-1]
    if not may_land_on(a.card, top, False):
        raise IllegalAction("Q-3", f"{a.card} is not adjacent to {top} on centre pile {a.to}")
    if not may_land_on(a.card, top, state.options.alternate_colors):
        raise IllegalAction("V-3", f"{a.card} is the same colour as {top} on centre pile {a.to}")
    return [CardPlayed(seat=seat, card=a.card, to=a.to)]


def decide_draw(state: State, seat: int, a: Draw) -> list:
    """Q-4: draw while your hand holds fewer than five cards."""
    p = state.players[seat]
    if len(p.hand) >= HAND:
        raise IllegalAction("Q-4", "your hand already holds five cards")
    if not p.draw:
        raise IllegalAction("Q-4", "your draw pile is empty")
    return [CardDrawn(seat=seat, card=p.draw[0])]


def apply_played(s: State, e: CardPlayed) -> State:
    p = s.players[e.seat]
    p = replace(p, hand=tuple(c for c in p.hand if c != e.card))
    return replace(
        s,
        players=set_player(s.players, e.seat, p),
        piles=set_at(s.piles, e.to, s.piles[e.to] + (e.card,)),
        rebuilt_idle=False,
    )


def apply_drawn(s: State, e: CardDrawn) -> State:
    p = s.players[e.seat]
    p = replace(p, hand=p.hand + (e.card,), draw=p.draw[1:])
    return replace(s, players=set_player(s.players, e.seat, p))


def has_moves(state: State, seat: int) -> bool:
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


def moves(state: State, seat: int) -> list:
    p = state.players[seat]
    fits = FITS[state.options.alternate_colors]
    targets = [(to, fits[pile[-1].index]) for to, pile in enumerate(state.piles) if pile]
    out: list = [PlayCard(c, to) for c in p.hand for to, fit in targets if c.index in fit]
    if len(p.hand) < HAND and p.draw:
        out.append(Draw())
    return out


def decide_spit(state: State, seat: int, a: Spit) -> list:
    """Q-5: both call in a stalemate; the second call turns the side piles up."""
    if state.phase != "stalemate":
        raise IllegalAction("Q-5", "there is no stalemate: spit may be called only in one")
    if state.players[seat].called:
        raise IllegalAction("Q-5", "you have already called in this stalemate")
    return [SpitCalled(seat=seat)]


def resolve(state: State, seed: bytes) -> list:
    """Q-5, Q-6, Q-9: turn the side piles up, rebuilding them from the centre if needed."""
    if any(state.side):
        return [SideCardsTurned(cards=tuple(sp[0] if sp else None for sp in state.side))]
    below = [c for pile in state.piles for c in pile[:-1]]
    # Q-9 ruling: nothing can supply a card; nor can a second rebuild with no card played
    # since the first, for every centre card has then been a top that no hand card fitted
    # (without this a dead position would cycle through for ever).
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


def apply_rebuilt(s: State, e: SidePilesRebuilt) -> State:
    return replace(
        s,
        side=e.side_piles,
        piles=tuple(p[-1:] for p in s.piles),
        nonce=e.nonce,
        rebuilt_idle=True,
    )


def apply_side_turned(s: State, e: SideCardsTurned) -> State:
    piles, side = list(s.piles), list(s.side)
    for i, card in enumerate(e.cards):
        if card is not None:
            piles[i] = piles[i] + (card,)
            side[i] = side[i][1:]
    players = tuple(replace(p, called=False) for p in s.players)
    return replace(s, piles=tuple(piles), side=tuple(side), players=players, phase="playing")


def game_over(state: State, winner: int | None, reason: str) -> list:
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


def apply_scored(s: State, e: GameScored) -> State:
    return replace(s, scores=e.scores, phase="dealing")


def follow(state: State, seed: bytes | None, at: float) -> list:
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


def can_act(state: State, seat: int) -> bool:
    phase = state.phase
    if phase == "playing":
        return has_moves(state, seat)
    if phase == "stalemate":
        return not state.players[seat].called
    if phase == "ready":
        return not state.players[seat].ready
    return False


def legal(state: State, seat: int) -> list:
    phase = state.phase
    if phase == "playing":
        return moves(state, seat)
    if phase in ("stalemate", "ready"):
        return ([Spit()] if phase == "stalemate" else [Ready()]) if can_act(state, seat) else []
    return []


EVOLVE = {
    SpeedDealt: apply_dealt,
    CentreStarted: apply_started,
    CardPlayed: apply_played,
    CardDrawn: apply_drawn,
    SidePilesRebuilt: apply_rebuilt,
    SideCardsTurned: apply_side_turned,
    GameScored: apply_scored,
}

DECIDE = {PlayCard: decide_play, Draw: decide_draw, Spit: decide_spit}
