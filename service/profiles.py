"""Reading players: a player's page (its ratings per game kind), its games (newest first,
in Redis and in the archive alike) and the leaderboards."""

import domain
from domain.views import iso

from .errors import NoSuchGame
from .players import provisional, rating_of, shown, summary


class NoSuchPlayer(NoSuchGame):
    """No such player in the app."""


def _split(pkey: str) -> dict:
    app, pid = pkey.split(":", 1)
    return {"app": app, "id": pid}


class Profiles:
    def __init__(self, store, players, archive=None):
        self.store = store  # the game store (service.ports.GameStore)
        self.players = players  # service.store.players.PlayerStore
        self.archive = archive

    def profile(self, pkey: str) -> dict:
        """``{app, id, name, created_at, ratings: {game: {rating, rd, ...}}}``; 404 if the
        player never sat at a game."""
        found = self.players.player(pkey)
        if found is None:
            raise NoSuchPlayer(f"no player {pkey.split(':', 1)[1]} in this app")
        ratings = {g: shown(found.ratings.get(g)) for g in domain.RULES}
        return {**_split(pkey), "name": found.name,
                "created_at": iso(found.created_ms / 1000), "ratings": ratings}  # fmt: skip

    def games(self, pkey: str, cursor: str | None, limit: int) -> tuple[list[dict], str | None]:
        """A page of the player's games, newest first (those still in Redis and those in
        the archive, merged), and the next cursor."""
        if self.players.player(pkey) is None:
            raise NoSuchPlayer(f"no player {pkey.split(':', 1)[1]} in this app")
        live = {g.cursor: g for g in self.players.player_games(pkey, cursor, limit + 1)}
        archived = {}
        if self.archive is not None:
            archived = {g.cursor: g for g in self.archive.player_games(pkey, cursor, limit + 1)}
        cursors = sorted(set(live) | set(archived), reverse=True)
        page, more = cursors[:limit], len(cursors) > limit
        rows = []
        for c in page:
            listed = live.get(c) or archived[c]
            record = self.store.game_record(listed.game_id) if c in live else None
            if record is not None and record.status != "new":
                rows.append(summary(listed.game_id, record, self.store.version(listed.game_id)))
            elif self.archive is not None:  # (left Redis since it was listed: archived)
                row = self.archive.player_game(pkey, listed)
                if row is not None:
                    rows.append(row)
        return rows, (page[-1] if more and page else None)

    def leaderboard(self, game: str, cursor: str | None, limit: int):
        """A page of ``game``'s leaderboard, highest rating first, and the next cursor.
        Established ratings only: a provisional one (``players.provisional``) is never put
        on it, and one found there (listed by data written before that rule) is skipped;
        a read writes nothing (``unlist_provisional`` takes those off, once). A rank counts
        the established players before it on its page, and every player listed before the
        page (those to skip too, until they are taken off)."""
        rows: list[dict] = []
        last, more = None, True
        while more and len(rows) < limit:
            listed, more = self.players.leaderboard(game, last or cursor, limit - len(rows))
            if not listed:
                break
            pkeys = [pkey for _m, pkey in listed]
            found = self.players.players(pkeys)
            first = self.players.rank(game, listed[0][0]) + 1
            skipped = 0
            for n, ((member, pkey), f) in enumerate(zip(listed, found, strict=True)):
                last = member
                r = f.ratings.get(game) if f is not None else None
                if r is None or provisional(rating_of(r)):
                    skipped += 1
                    continue
                rows.append({"rank": first + n - skipped, **_split(pkey), "name": f.name,
                             "rating": round(r["rating"]), "rd": round(r["rd"], 1),
                             "provisional": False, "games": r.get("games", 0)})  # fmt: skip
        return rows, (last if more and last else None)

    def unlist_provisional(self) -> int:
        """Take every provisional rating off the leaderboards (listed by data written before
        they were kept off): run once, by ``spitlog admin unlist-provisional``; how many."""
        gone = 0
        for game in domain.RULES:
            cursor, more = None, True
            while more:
                listed, more = self.players.leaderboard(game, cursor, 500)
                found = self.players.players([pkey for _m, pkey in listed])
                for (member, _pkey), f in zip(listed, found, strict=True):
                    r = f.ratings.get(game) if f is not None else None
                    if r is None or provisional(rating_of(r)):
                        self.players.unlist(game, member)
                        gone += 1
                cursor = listed[-1][0] if listed else None  # those after it come next
        return gone
