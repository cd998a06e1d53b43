"""What each viewer may see (RULES H-1..H-6): state views and redacted events.

A seat sees face-up cards, its own Speed hand, and the sizes of everything else; a
spectator (``seat=None``) sees what both players see in common (H-4). Once a game is
over everything is public (H-6): ``view`` then returns the full state.
"""

from datetime import UTC, datetime
from functools import lru_cache

from .actions import action_to_dict
from .cards import fmt
from .events import (
    CardDrawn,
    Event,
    SidePilesRebuilt,
    SpeedDealt,
    SpitDealt,
    event_to_dict,
)
from .game import deadlines, legal_actions
from .state import State


@lru_cache(maxsize=1024)  # a game's deadlines repeat from view to view
def iso(t: float) -> str:
    """Seconds since the epoch as an RFC 3339 UTC time with milliseconds."""
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _top(pile, up: bool = True):
    return pile[-1].name if pile and up else None


def view(state: State, seat: int | None) -> dict:
    """The state as ``seat`` may see it (None: a spectator); the full state once over."""
    if state.over:
        return full_state(state, seat)
    out = _common(state, seat)
    for i, p in enumerate(state.players):
        pv = out["players"][i]
        if state.game == "spit":
            pv["spit_cards"] = len(p.spit)
            pv["stockpiles"] = [
                {"size": len(pile), "top": _top(pile, p.face_up[k])}
                for k, pile in enumerate(p.stockpiles)
            ]
        else:
            pv["hand_size"] = len(p.hand)
            pv["draw_pile"] = len(p.draw)
            if i == seat:
                pv["hand"] = fmt(p.hand)  # H-2
    if state.game == "spit":
        out["spit_piles"] = [
            {"size": len(p or ()), "top": _top(p), "exists": p is not None} for p in state.piles
        ]
    else:
        out["side_piles"] = [{"size": len(sp)} for sp in state.side]
        out["centre_piles"] = _centre(state, lambda p: {"size": len(p), "top": _top(p)})
    return out


def _centre(state: State, show) -> list:
    if state.middle:  # face down until both are ready
        return [{"size": 1, "top": None, "face_down": True} for _ in state.middle]
    return [show(p or ()) for p in state.piles]


def _common(state: State, seat: int | None) -> dict:
    # H-5: the viewer's own deadlines and the game-wide ones, never another seat's T-4
    # (in Speed it tells whether that seat's hidden hand can play)
    shown = [d for d in deadlines(state) if d.seat is None or d.seat == seat][:1]
    out = {
        "id": state.id,
        "game": state.game,
        "version": state.version,
        "status": state.status,
        "phase": state.phase,
        "options": state.options.public(state.game),
        "round": state.round,
        "you": seat,
        "players": [
            {
                "seat": i,
                "kind": p.kind,
                "cards": p.cards,
                "ready": p.ready,
                "called": p.called,
            }
            for i, p in enumerate(state.players)
        ],
        "stalemate": state.stalemate,
        "legal_actions": [action_to_dict(a) for a in legal_actions(state, seat)],
        "deadline": (
            {"rule": shown[0].rule, "at": iso(shown[0].at), "seat": shown[0].seat}
            if shown
            else None
        ),
        "winner": state.winner,
        "result": state.result,
        "commitment": state.commitment,
    }
    if state.game == "spit":
        out["solo_pile"] = state.solo_pile
    else:
        out["scores"] = list(state.scores)
    return out


def full_state(state: State, seat: int | None = None) -> dict:
    """Every card where it lies (for finished games, audits and tests)."""
    out = _common(state, seat)
    for i, p in enumerate(state.players):
        pv = out["players"][i]
        if state.game == "spit":
            pv["stockpiles"] = [
                {"cards": fmt(pile), "face_up": int(bool(pile) and up)}
                for pile, up in zip(p.stockpiles, p.face_up, strict=True)
            ]
            pv["spit_cards"] = fmt(p.spit)
            if p.pool:
                pv["pool"] = fmt(p.pool)
        else:
            pv["hand"] = fmt(p.hand)
            pv["draw_pile"] = fmt(p.draw)
    if state.game == "spit":
        out["spit_piles"] = [{"cards": fmt(p or ()), "exists": p is not None} for p in state.piles]
    else:
        out["side_piles"] = [{"cards": fmt(sp)} for sp in state.side]
        out["middle"] = fmt(state.middle)
        out["centre_piles"] = [{"cards": fmt(p or ())} for p in state.piles]
    return out


def redact(event: Event, seat: int | None, public: bool = False) -> dict:
    """The wire form of ``event`` as ``seat`` may see it; in full when ``public`` (H-6)."""
    d = event_to_dict(event)
    if public:
        return d
    if isinstance(event, SpitDealt):  # D-2: only the top of each stockpile is face up
        d["stockpiles"] = [
            [{"size": len(pile), "top": _top(pile)} for pile in layout]
            for layout in event.stockpiles
        ]
        d["spit_cards"] = [len(sc) for sc in event.spit_cards]
    elif isinstance(event, SpeedDealt):  # H-1, H-2
        d["side_piles"] = [len(sp) for sp in event.side_piles]
        d["middle"] = len(event.middle)
        d["draw_piles"] = [len(dp) for dp in event.draw_piles]
        d["hands"] = [fmt(h) if i == seat else len(h) for i, h in enumerate(event.hands)]
    elif isinstance(event, CardDrawn) and event.seat != seat:  # H-2
        d["card"] = None
    elif isinstance(event, SidePilesRebuilt):  # H-1
        d["side_piles"] = [len(sp) for sp in event.side_piles]
    return d
