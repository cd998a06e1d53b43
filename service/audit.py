"""The audit of a finished game (RULES H-6): a read model over the log, kept for the games
asked about lately. ``domain.audit.verify`` re-judges every event and re-derives every
deal from the revealed seed; this adds what the document shows around it."""

from collections import OrderedDict

import domain
from domain.audit import verify
from domain.shuffle import VERSION as SHUFFLE_VERSION

from .cache import Game
from .errors import GameRunning


class Audits:
    """The audit documents of finished games (the latest ``keep`` kept decoded)."""

    def __init__(self, games, keep: int = 64):
        self.games = games  # service.reading.Reading: where a game's log is read
        self.keep = keep
        self._done: OrderedDict[str, dict] = OrderedDict()

    def clear(self) -> None:
        self._done.clear()

    def audit(self, game: Game) -> dict:
        """The whole log in full, the seed, and every deal re-derived from it; 409 while
        the game runs (the seed is secret until then)."""
        if not game.state.over:
            raise GameRunning(
                "the audit opens when the game is over: the seed is secret until then",
                version=game.version,
            )
        done = self._done.get(game.id)
        if done is not None:
            return done
        seed = game.seed
        entries = self.games.entries(game)
        events = [domain.event_from_dict(d) for _v, d in entries]
        state = domain.replay(events)
        rules = verify(events, seed).as_dict()
        deals = []
        for x in rules["deals"]:
            e = events[x["version"] - 1]
            nonces = list(getattr(e, "nonces", None) or [e.nonce])
            deals.append({"version": x["version"], "type": x["type"], "verified": x["ok"],
                          "nonces": nonces})  # fmt: skip
        out = {
            "id": game.id,
            "game": state.game,
            "status": state.status,
            "version": state.version,
            "winner": state.winner,
            "result": state.result,
            "commitment": state.commitment,
            "server_seed": seed.hex(),
            "commitment_verified": domain.commitment(seed) == state.commitment,
            "client_seeds": list(state.client_seeds),
            "shuffle": SHUFFLE_VERSION,
            "deals": deals,
            "events": [{"version": v, **d} for v, d in entries],
            "rules": rules,
        }
        out["verified"] = out["commitment_verified"] and rules["ok"]
        self._done[game.id] = out
        while len(self._done) > self.keep:
            self._done.popitem(last=False)
        return out
