"""What each viewer may see (RULES H-1..H-6): state views and redacted events.

A seat sees face-up cards, its own Speed hand, and the sizes of everything else; a
spectator (``seat=None``) sees what both players see in common (H-4). Once a game is
over everything is public (H-6): ``view`` then returns the full state. The shape every
game shares is made here; each game adds its own things (``Rules.view``,
``Rules.full_view``, ``Rules.REDACT``).
"""

from datetime import UTC, datetime
from functools import lru_cache

from . import registry
from .codec import event_to_dict
from .events import Event
from .game import action_to_dict, deadlines, legal_actions
from .state import State


def _hiders(games: dict) -> dict:
    """Event type -> how it is hidden, of every game (``registry.derived``)."""
    out: dict = {}
    for rules in games.values():
        out.update(rules.REDACT)
    return out


@lru_cache(maxsize=1024)  # a game's deadlines repeat from view to view
def iso(t: float) -> str:
    """Seconds since the epoch as an RFC 3339 UTC time with milliseconds."""
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def view(state: State, seat: int | None) -> dict:
    """The state as ``seat`` may see it (None: a spectator); the full state once over."""
    if state.over:
        return full_state(state, seat)
    out = _common(state, seat)
    registry.get(state.game).view(state, seat, out)
    return out


def full_state(state: State, seat: int | None = None) -> dict:
    """Every card where it lies (for finished games, audits and tests)."""
    out = _common(state, seat)
    registry.get(state.game).full_view(state, out)
    return out


def _common(state: State, seat: int | None) -> dict:
    # H-5: the viewer's own deadlines and the game-wide ones, never another seat's T-4
    # (in Speed it tells whether that seat's hidden hand can play)
    shown = [d for d in deadlines(state) if d.seat is None or d.seat == seat][:1]
    return {
        "id": state.id,
        "game": state.game,
        "version": state.version,
        "status": state.status,
        "phase": state.phase,
        "options": state.options.public(),
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
        "aborted": (
            {"by": state.aborted_by, "why": state.aborted_why} if state.aborted_by else None
        ),
        "commitment": state.commitment,
    }


def redact(event: Event, seat: int | None, public: bool = False, wire: dict | None = None) -> dict:
    """The wire form of ``event`` as ``seat`` may see it; in full when ``public`` (H-6).
    ``wire``: its full wire form, made already (not changed: a copy is redacted)."""
    hide = None if public else registry.derived("redact", _hiders).get(type(event))
    d = event_to_dict(event) if wire is None else dict(wire) if hide is not None else wire
    if hide is not None:
        hide(event, seat, d)
    return d
