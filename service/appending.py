"""The append of a decision and what follows it: the one path by which events enter a
game's log (``Appender.append``), for every use case that writes (seating, acting).

After an append that went in: the process's cache holds the new state (if the store
confirmed it), the lobby's and the tokens' indexes follow, and the scheduler hook
learns of it (bots, deadlines; ``webhooks``: notifications to deliver). The snapshot an
append carries is the state at the last multiple of ``snapshot_every`` it reaches.
"""

import logging
from dataclasses import replace

import domain
from domain import Ctx, State

from .cache import Game, GameCache
from .errors import Unconfirmed
from .metrics import Metrics
from .ports import Appended, Clash, Clock, GameStore, Replayed, Scheduler, lobby_status
from .records import GameRecord
from .webhooks import Settings as Webhooks

log = logging.getLogger(__name__)


class Appender:
    """Appends decisions to games' logs, and does what follows."""

    def __init__(self, store: GameStore, cache: GameCache, scheduler: Scheduler, *,
                 metrics: Metrics, clock: Clock, webhooks: Webhooks | None = None,
                 snapshot_every: int = 50):  # fmt: skip
        self.store = store
        self.cache = cache
        self.scheduler = scheduler
        self.metrics = metrics
        self.clock = clock
        self.webhooks = webhooks or Webhooks()
        self.snapshot_every = snapshot_every

    def decide(self, game: Game, seat: int | None, action):
        """The events of ``seat``'s ``action`` on ``game`` now, and the state after them
        (``domain.run``: IllegalAction or GameOver when the rules refuse it)."""
        return domain.run(
            game.state, action, Ctx(seat=seat, now=self.clock(), server_seed=game.seed)
        )

    def append(self, game: Game, events, state: State, *, idem=None,
               record: GameRecord | None = None, wire=None,
               made: list | None = None) -> Appended | Clash | Replayed:  # fmt: skip
        """Append the events of a decision on ``game`` (``wire``: their wire forms, if made
        already; ``record``: the game's record with them, default its own, the status
        brought up to date); on success, the follow-ups (cache, lobby and token indexes,
        the scheduler hook). ``made[0]`` turns true once the events are in the log."""
        record = game.record if record is None else record
        if record.status != state.status:
            record = replace(record, status=state.status)
        if state.over and record.won is None:
            record = replace(record, won=won(state))
        before = game.record if game.version else None  # (a new game's is written whole)
        result = self.store.append(
            game.id, game.version, wire or [domain.event_to_dict(e) for e in events], idem=idem,
            snapshot=self._snapshot(game.version, events, game.state), record=record,
            before=before,
        )  # fmt: skip
        if isinstance(result, Appended):
            if made is not None:  # in the log: whatever fails next, it exists
                made[0] = True
            self._followed(game, Game(game.id, state, record), before, result.confirmed)
        return result

    def _followed(self, game: Game, new: Game, before: GameRecord | None, confirmed: bool):
        """The follow-ups of an append that took ``game`` to ``new``."""
        state = new.state
        if confirmed:
            self.cache.put(new)
        had = before.token_hashes if before is not None else (None, None)
        tokens = {s: h for s, h in enumerate(new.record.token_hashes)
                  if h is not None and h != had[s]}  # fmt: skip
        listed = lobby_status(game.state.status) if game.version else None
        if tokens or lobby_status(state.status) != listed:
            self.store.index(game.id, status=lobby_status(state.status),
                             created_ms=new.record.created_ms, tokens=tokens)  # fmt: skip
        prior = game.state if game.version else None
        try:
            self.scheduler.on_appended(game.id, state, prior, rated=state.over and new.rated)
            if self.webhooks.notifies(new.record, prior, state):
                self.scheduler.arm_webhooks(game.id)
        except Exception:  # the action is in the log: answer it; the sweeper re-arms
            log.exception("the scheduler failed after an append to %s", game.id)
        if not confirmed:  # in the primary's log and followed up: not answered
            self.metrics.action(state.game, "unconfirmed")

    def confirm(self, version: int | None = None) -> None:
        """Before an answer made again from the store (an ``Idempotency-Key``'s record),
        strict durability's confirmation that the store's replicas hold what it answers
        (``Unconfirmed`` if not)."""
        if not self.store.confirm():
            raise Unconfirmed(version=version)

    def _snapshot(self, version: int, events, state: State) -> tuple[int, dict] | None:
        """The snapshot to store with an append from ``version``: the state at the last
        multiple of ``snapshot_every`` the append reaches, if it reaches one."""
        n = self.snapshot_every
        end = version + len(events)
        mark = end // n * n
        if n <= 0 or mark <= version:
            return None
        return mark, domain.state_to_dict(domain.replay(events[: mark - version], state))


def won(state: State) -> str:
    """What a game's record keeps of the end of ``state``: its winner's seat (``"0"``,
    ``"1"``) or ``"-"`` (none: a draw, an abort)."""
    return "-" if state.winner is None else str(state.winner)
