"""The cap on rated games between the same two seats (``SPITLOG_RATED_PAIR_CAP``): a pair
of seats (two players, or a player and a hosted level) starts at most ``cap`` rated games
in ``PAIR_WINDOW_S``; a game over it is refused (a 429 that says when one leaves the
window) or made unrated, as its maker chooses."""

import logging
import math

from .errors import RatedPairCapped
from .ports import Clock, PlayerStore

log = logging.getLogger(__name__)

PAIR_WINDOW_S = 86_400  # the rated games of a pair of seats are counted over a day


class RatedPairs:
    """Counts the rated games of pairs of seats (``PlayerStore.take_pair``)."""

    def __init__(self, players: PlayerStore | None, cap: int, clock: Clock):
        self.players = players  # None: no players, no cap
        self.cap = cap  # 0: no cap
        self.clock = clock

    def take(self, ids: tuple, game_id: str, refuse: bool = True, take: bool = True,
             version: int | None = None) -> str:  # fmt: skip
        """Count the rated game ``game_id`` among those its pair of seats ``ids`` (pkeys or
        hosted levels) started in the last ``PAIR_WINDOW_S``, if that keeps them within
        the cap: ``taken`` (counted now), ``had`` (counted before), ``open`` (no cap, no
        player store, or ``take=False`` and room for it); over the cap, a 429 (``refuse``;
        ``version``: the game's, for the refusal) or ``full``."""
        if not self.cap or self.players is None:
            return "open"
        got, n = self.players.take_pair(
            ids[0], ids[1], game_id, int(self.clock() * 1000), PAIR_WINDOW_S * 1000, self.cap,
            take,
        )  # fmt: skip
        if got != "full" or not refuse:
            return got
        names = " and ".join(i.split(":", 1)[1] if ":" in i else i for i in ids)
        wait = math.ceil(n / 1000)
        raise RatedPairCapped(
            f"{names} started {self.cap} rated games together in the last 24 hours, the cap: "
            f"this game is rated; retry in {wait} s, or play an unrated one",
            wait_s=wait, version=version,
        )  # fmt: skip

    def release(self, pair: tuple, game_id: str) -> None:
        """Forget the pair's count of a game that did not start after all."""
        try:
            self.players.release_pair(*pair, game_id)
        except Exception:  # the count stays: one game too many for the pair, for a day
            log.exception("could not forget %s among the rated games of %s", game_id, pair)
