"""What the browser tests and bench/page_latency.py share about the web page: the selectors
of the player's own cards and the table's targets, and a move of the other seat through the
API."""

import requests

ENABLED = ":not([aria-disabled=true])"  # an enabled control (a disabled one says so)
MINE = "[data-testid=table] .area-me .card"  # the page's seat's cards
ONE_PILE = f"{MINE}[aria-label*='plays on pile']{ENABLED}"  # a card that fits one pile
TURN_UP = f"{MINE}[aria-label*='turn it up']{ENABLED}"  # a face-down stockpile top
MOVABLE = f"{MINE}.legal{ENABLED}"  # a card with a move
TARGET = f"[data-testid=table] .card.target{ENABLED}"  # where the picked card can go


def other_seat_moves(base: str, gid: str, token: str) -> bool:
    """The seat of `token` makes its first legal move but resigning, if it has one (whether
    it had)."""
    auth = {"Authorization": f"Bearer {token}"}
    view = requests.get(f"{base}/v1/games/{gid}", headers=auth, timeout=5).json()
    acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
    if acts:
        requests.post(f"{base}/v1/games/{gid}/actions", json=acts[0], headers=auth, timeout=5)
    return bool(acts)
