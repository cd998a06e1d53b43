"""The lobby: games by status (open, running, finished), newest first, a page at a time,
filtered by the game, a seat's kind or a player."""

from .players import matches, summary
from .ports import GameStore

LOBBY_SCAN = 1000  # games a filtered lobby page looks at, at most


class Lobby:
    def __init__(self, store: GameStore):
        self.store = store

    def page(
        self,
        status: str,
        cursor: str | None,
        limit: int,
        *,
        game: str | None = None,
        kind: str | None = None,
        player: str | None = None,
    ) -> tuple[list[dict], str | None]:
        """A page of the lobby's ``status`` list, newest first, and the next cursor. With
        filters (the game, a seat's kind, a player's pkey), the list is read a page at a
        time until ``limit`` games match or ``LOBBY_SCAN`` were looked at: a page may hold
        fewer than ``limit`` games and still have a ``next``."""
        if game is None and kind is None and player is None:
            rows, nxt = self.store.lobby(status, cursor, limit)
            return [summary(r.id, r.record, r.version) for r in rows], nxt
        out, scanned, nxt = [], 0, cursor
        while True:
            rows, nxt = self.store.lobby(status, nxt, limit)
            for n, row in enumerate(rows):
                if matches(row.record, game, kind, player):
                    out.append(summary(row.id, row.record, row.version))
                    if len(out) == limit:
                        last = n == len(rows) - 1 and nxt is None
                        return out, None if last else row.cursor
            scanned += len(rows)
            if nxt is None or scanned >= LOBBY_SCAN:
                return out, nxt
