"""The tests' one way to find cards: in a document (JSON-like values), in a text (every
byte a client receives), and the cards a viewer may see in a state, worked out from the
full state rather than from ``domain.view`` (RULES H-1..H-4)."""

import re

import domain

_WIRE = re.compile(r"(A|[2-9]|10|J|Q|K)[CDHS]")
# a card's wire form standing alone in a text (not inside a word, an id or a hex string)
CARD_RE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")


def cards_in(doc) -> set[str]:
    """Every card in a JSON-like document: the strings that are a card's wire form."""
    if isinstance(doc, dict):
        return set().union(*(cards_in(v) for v in doc.values())) if doc else set()
    if isinstance(doc, list | tuple):
        return set().union(*(cards_in(v) for v in doc)) if doc else set()
    return {doc} if isinstance(doc, str) and _WIRE.fullmatch(doc) else set()


def cards_in_text(text: str) -> set[str]:
    """Every card standing alone in a text."""
    return {a + b for a, b in CARD_RE.findall(text)}


def visible_cards(state: domain.State, seat: int | None) -> set[str]:
    """The cards ``seat`` sees in ``state``, worked out from the full state (RULES H-1..H-4),
    not from domain.view: face-up stockpile tops, every card on a spit/centre pile (each
    was face up when it landed), and in Speed the seat's own hand."""
    full = domain.full_state(state)
    seen: set[str] = set()
    for i, p in enumerate(full["players"]):
        for pile in p.get("stockpiles", []):
            if pile["face_up"] and pile["cards"]:
                seen.add(pile["cards"][-1])
        if state.game == "speed" and i == seat:
            seen.update(p["hand"])
    for pile in full.get("spit_piles", []) + full.get("centre_piles", []):
        seen.update(pile["cards"])
    return seen
