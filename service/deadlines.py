"""Deadlines and RULES T-4's accounting: the deadline of a game to fire first
(``Deadlines.due``), once a seat's T-4 is pushed back by the time the service refused
that seat's requests for no excess of its own (a 503, a 429 of its address's limits:
``refused`` remembers each such window, ``excused`` sums them)."""

import domain

from .cache import Game, GameCache
from .ports import GameStore
from .tokens import token_hash


class Deadlines:
    def __init__(self, store: GameStore, cache: GameCache):
        self.store = store
        self.cache = cache  # the games this process knows (``refused`` asks it only)

    def refused(self, game_id: str, token: str, start: float, end: float) -> None:
        """The service refused a request of ``token`` from ``start`` to ``end`` for no excess
        of the seat's own (a 503, a 429 of its address's limits): RULES T-4 does not count
        that window against the token's seat. Only a token of a seat of the game as this
        process knows it counts (a refusal may come before the game is loaded: no window is
        kept for a token that may be no seat's), and only while the game runs: T-4 is over
        with it, and an archived game has no keys in Redis to add to."""
        game = self.cache.get(game_id)
        h = token_hash(token)
        if game is None or game.state.over:
            return
        if h in game.record.token_hashes:
            self.store.refused(game_id, h, start, end)

    def due(self, game: Game, now: float) -> tuple | None:
        """The deadline to fire first and when it falls due, once a seat's T-4 is pushed
        back by the time the service refused that seat's requests (RULES T-4:
        ``excused``); None when no deadline runs. Only a T-4 already due can be pushed
        past now, so only those are asked about (a Redis read each). A seat excused for
        ``idle_forfeit_s`` or more since its own last action stalled the game through
        the service's refusals: its deadline is then T-6, due at once (the game is
        aborted, RULES T-4 and T-6), so that no game hangs for as long as its seat is
        refused. At the same time a T-6 goes first (``domain.game.first``)."""
        cap = game.state.options.idle_forfeit_s
        timed = []
        for i, d in enumerate(domain.deadlines(game.state)):
            at = d.at
            if d.rule == "T-4" and d.at <= now:
                excused = self.excused(game, d.seat, now)
                if excused >= cap:
                    d = domain.Deadline("T-6", d.at, d.seat)
                else:
                    at = d.at + excused
            timed.append((at, 0 if d.rule == "T-6" else 1, i, d))
        if not timed:
            return None
        at, _first, _i, d = min(timed)
        return d, at

    def excused(self, game: Game, seat: int, now: float) -> float:
        """The seconds, since ``seat``'s own last action and up to ``now``, in which the
        service refused its requests (each window counted once)."""
        h = game.record.seats[seat].token_hash
        if not h:
            return 0.0
        since = game.state.acted_at[seat]
        windows = sorted(self.store.refused_windows(game.id, h, since))
        total, reach = 0.0, since
        for a, b in windows:
            a, b = max(a, reach), min(b, now)
            if b > a:
                total += b - a
                reach = b
        return total
