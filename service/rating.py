"""Rating a finished rated game (Glicko-2, ``domain.ratings``), exactly once.

Lichess rates each game as a rating period of its own; so does this: each named player
is rated against the other's rating before the game (a hosted level's is the constant
its game's rules hold, ``BOT_RATINGS``, with RD ``players.BOT_RD``; a level's rating does
not move, it is a calibrated anchor). A player is rated against an established
opponent only: a hosted level, or a player whose rating is not provisional
(``players.provisional``); against a provisional player its rating stays, so that
throwaway players lift no one (docs/decisions/0036). An aborted game is not rated, and
neither is a game that ended inside its abort window (``domain.game.unplayed_result``:
a seat had not moved, and the window was open; a resignation or a T-4 forfeit inside it
aborts a rated game already, ``domain.game.UNPLAYED``, and this catches a game won by
play inside it): its outcome says ``unrated: unplayed`` and applies nothing
(docs/decisions/0027). A player whose rating is provisional is rated but kept off the
leaderboard.

Exactly once, whatever runs ``step`` how often (a job retried, duplicated, re-armed after
its worker was SIGKILLed): ``step`` reads the game's marker and each player's guard (a
count of rated games, bumped by every rating applied to that player) at one instant
(one script), then the game's record, then computes, then applies everything in one script
(``PlayerStore.apply_rating``) only if the game has no marker and every guard is still
what it read. So of two runs, the one that applies second finds the marker, or a guard
moved (the first run's apply bumped it) and starts over: then it finds the marker, or the
outcome in the game's record (``rating``, written right after the apply; a run that finds
the marker copies it there), or no game. The marker outlives the apply until the game
leaves Redis; the game leaves only once archived, and it is archived only once its
outcome is in its record (``service.archiving``): so no run can find neither.
"""

import json
import logging

from domain import RULES
from domain.game import unplayed_result
from domain.ratings import Rating, update

from .players import BOT_RD, NEWCOMER, provisional, rating_of
from .ports import GameStore, PlayerStore

log = logging.getLogger(__name__)

RETRIES = 20  # guards that moved (other games of the same players rated meanwhile)


class Rater:
    """Apply a finished rated game's rating, exactly once."""

    def __init__(self, games, store: GameStore, players: PlayerStore):
        self.games = games  # service.reading.Reading: a game's state
        self.store = store
        self.players = players

    def step(self, game_id: str) -> str:
        """``rated`` (applied now), ``done`` (applied before), ``unrated`` (not a rated
        game, or aborted), ``unplayed`` (it ended inside its abort window, a seat not having
        moved: nothing applied, the outcome says so), ``running`` (not over) or ``gone``
        (not in Redis)."""
        for _attempt in range(RETRIES):
            record = self.store.game_record(game_id)
            if record is None:
                return "gone"
            if not record.rated or record.status == "aborted":
                return "unrated"
            if record.rating is not None:
                return "done"
            if record.status != "finished":
                return "running"
            state = self.games.load(game_id).state
            if state.status != "finished":
                return "running"
            seats = record.pkeys
            if unplayed_result(state):
                outcome = {"game": record.game, "unrated": "unplayed", "seats": [
                    {"who": seats[s] or record.seats[s].kind, "moved": state.moved[s]}
                    for s in (0, 1)]}  # fmt: skip
                self.store.set_rating(game_id, outcome)
                return "unplayed"
            named = [p for p in seats if p is not None]
            marker, guards = self.players.read_for_rating(game_id, record.game, named)
            record = self.store.game_record(game_id)  # after the marker: see the module's doc
            if record is None:
                return "gone"
            if record.rating is not None:
                return "done"
            if marker is not None:  # applied by a run that stopped before the record
                self.store.set_rating(game_id, json.loads(marker))
                return "done"
            outcome, updates = self._outcome(state, record, seats, named, guards)
            applied, marker = self.players.apply_rating(
                game_id, record.game, json.dumps(outcome, sort_keys=True), updates
            )
            if applied == "moved":
                continue
            self.store.set_rating(game_id, json.loads(marker) if marker else outcome)
            return "rated" if applied == "ok" else "done"
        raise RuntimeError(f"the players of {game_id} kept being rated meanwhile: again later")

    def _outcome(self, state, record, seats, named, guards):
        """The outcome (per seat: who, the rating before and, for a player rated by it,
        after) and the players' updates. A player is rated against an established
        opponent only (a hosted level, or a player whose rating is not provisional):
        against a provisional one its rating stays, and its seat says ``unchanged``."""
        kind = record.game
        stored = dict(zip(named, guards, strict=True))
        before: list[Rating] = []
        for s in (0, 1):
            if seats[s] is not None:
                before.append(rating_of(stored[seats[s]][1]))
            else:
                level = (record.seats[s].kind or "")[4:]
                bot = RULES[kind].BOT_RATINGS.get(level)
                before.append(Rating(bot, BOT_RD) if bot is not None else NEWCOMER)
        score0 = 0.5 if state.winner is None else float(state.winner == 0)
        scores = (score0, 1.0 - score0)
        outcome = {"game": kind, "seats": []}
        updates = []
        for s in (0, 1):
            seat = {"who": seats[s] or record.seats[s].kind, "before": _wire(before[s])}
            if seats[s] is not None and seats[1 - s] is not None and provisional(before[1 - s]):
                seat["unchanged"] = "provisional opponent"
            elif seats[s] is not None:
                after = update(before[s], [(before[1 - s], scores[s])])
                seat["after"] = _wire(after)
                guard, old = stored[seats[s]]
                old = old or {}
                new = {**_wire(after), "games": old.get("games", 0) + 1,
                       "wins": old.get("wins", 0) + (scores[s] == 1.0),
                       "losses": old.get("losses", 0) + (scores[s] == 0.0),
                       "draws": old.get("draws", 0) + (scores[s] == 0.5)}  # fmt: skip
                updates.append((seats[s], guard, new, not provisional(after)))
            outcome["seats"].append(seat)
        return outcome, updates


def _wire(r: Rating) -> dict:
    return {"rating": r.rating, "rd": r.rd, "vol": r.vol}
