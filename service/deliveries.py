"""Delivering a game's webhook notifications (``webhooks`` tells what they are), and its
creator's view of them: the delivery job's use case (``Deliverer``) and the log of the
latest tries (``DeliveryLog``).

Per game and target, a cursor (``WebhookStore.hooks``) says how far deliveries went; the
job reads the log after it and delivers each notification in order, one at a time: a
failure (no 2xx, no answer within the timeout) is retried with exponential backoff, the
later ones wait behind it, for up to ``retry_s`` after its first try; then it is given up
(logged as such) and the next goes.
"""

import json
import logging
import time
from dataclasses import replace

import domain

from . import telemetry
from .errors import NotTheCreator
from .players import with_players
from .ports import Clock, Outbound, WebhookStore
from .records import GameRecord, HookCursor
from .webhooks import Target, WebhookRefused, body_of, notifications, resolve, sign, targets

log = logging.getLogger(__name__)

RETRY_FIRST_S = 1.0
RETRY_MAX_S = 3600.0  # a failing target is tried at least hourly, for the retry window
LOG_KEEP = 200  # deliveries kept in a game's delivery log
LOCK_S = 60.0  # a delivery job holds its game's lock at most this long (RQ stops it at 30)
STEP_BUDGET_S = 20.0  # a job delivers for this long at most, then the next one goes on


class DeliveryLog:
    """A game's webhook and its latest deliveries, as its creator reads them."""

    def __init__(self, reading, tokens, store: WebhookStore):
        self.reading = reading  # service.reading.Reading
        self.tokens = tokens  # service.tokens.Tokens
        self.store = store

    def read(self, game_id: str, token: str | None) -> dict:
        """The webhook of a game and its latest deliveries, for its creator (seat 0's
        token: 403 for another)."""
        game = self.reading.load(game_id)
        if self.tokens.seat(game, token, required=True) != 0:
            raise NotTheCreator("only the game's creator (seat 0) reads its webhook deliveries",
                                version=game.version)  # fmt: skip
        hook = game.record.webhook
        if hook is None:
            return {"webhook": None, "deliveries": []}
        cursor = self.store.hooks(game.id, "g") if game.log is None else None
        done = cursor is None or cursor.version > game.version
        return {
            "webhook": {"url": hook.url, "events": "all" if hook.all_events else "lifecycle"},
            "pending": not done,
            "deliveries": [d for d in (self.store.deliveries(game.id, 100) if cursor else [])
                           if d.get("target") == "g"],
        }  # fmt: skip


class Deliverer:
    """The delivery job's use case (see the module's doc)."""

    def __init__(self, games, store: WebhookStore, outbound: Outbound, *,
                 deployment: Target | None = None, allow_private: bool = False,
                 timeout_s: float = 5.0, retry_s: float = 86_400,
                 clock: Clock = time.time):  # fmt: skip
        self.games = games  # service.reading.Reading: the game, its log, its past states
        self.store = store
        self.outbound = outbound
        self.deployment = deployment
        self.allow_private = allow_private
        self.timeout_s = timeout_s
        self.retry_s = retry_s
        self.clock = clock

    def pending(self, game_id: str, record: GameRecord, version: int) -> bool:
        """Whether a target of the game has notifications left to try."""
        return any(self.store.hooks(game_id, t.key).version <= version
                   for t in targets(record, self.deployment))  # fmt: skip

    def step(self, game_id: str) -> tuple[str, float | None]:
        """Deliver what is due of ``game_id``'s notifications, in order: (outcome, when to
        run again or None). ``done``: every target is up to date; ``retry``: a
        notification failed and waits for its next try."""
        game = self.games.load(game_id)
        if game.log is not None:  # archived: delivered (or given up) before it left Redis
            return "done", None
        lock = self.store.lock(game_id, "hooks", int(LOCK_S * 1000))
        if lock is None:  # another job delivers this game's now: one at a time, in order
            return "busy", self.clock() + 1.0
        try:
            again = None
            budget = self.clock() + STEP_BUDGET_S
            for target in targets(game.record, self.deployment):
                at = self._deliver(game, target, budget)
                if at is not None:
                    again = at if again is None else min(again, at)
        finally:
            self.store.unlock(game_id, "hooks", lock)
        return ("retry" if again is not None else "done"), again

    def _deliver(self, game, target: Target, budget: float) -> float | None:
        """Deliver ``target``'s notifications from its cursor (``HookCursor``) on: None
        once up to date, else when to go on. A try is counted before it is made, so a
        job killed during one (a hanging target) still counts it."""
        cursor = self.store.hooks(game.id, target.key)
        now = self.clock()
        if cursor.version > game.version:
            return None
        if cursor.next_at > now:
            return cursor.next_at
        state = self.games.state_of(game, cursor.version - 1)
        for version, wire in self.games.entries(game, cursor.version - 1):
            event = domain.event_from_dict(wire)
            state, notes = notifications(state, event, version, target.all_events)
            for n, (kind, data) in enumerate(notes):
                if version == cursor.version and n < cursor.sent:
                    continue  # delivered before
                if self.clock() >= budget:  # a long backlog goes on in the next job
                    self.store.set_hooks(
                        game.id, target.key, replace(cursor, version=version, sent=n)
                    )
                    return self.clock()
                if kind == "game.event":  # the seat's player, as the API's events show it
                    data = with_players([data], game.record)[0]
                body = body_of(game.id, version, n, kind, game.state.game, data, event.at)
                wait = min(RETRY_FIRST_S * 2**cursor.tries, RETRY_MAX_S)
                failing = HookCursor(version, n, cursor.tries + 1, cursor.failing_since or now,
                                     now + self.timeout_s + wait)  # fmt: skip
                self.store.set_hooks(game.id, target.key, failing)  # until it is taken
                problem = self._send(game.id, target, body)
                now = self.clock()  # the backoff counts from the failure, not the start
                if problem is None:
                    cursor = HookCursor(version, n + 1)
                elif not self._give_up(failing, now):
                    cursor = replace(failing, next_at=now + wait)
                    self.store.set_hooks(game.id, target.key, cursor)
                    return now + wait
                else:  # failing for the whole retry window: given up, the next one goes
                    log.warning("webhook evt_%s_%d_%d given up after %d tries: %s",
                                game.id, version, n, failing.tries, problem)  # fmt: skip
                    self.store.log_delivery(game.id, target.key, {
                        "id": f"evt_{game.id}_{version}_{n}", "outcome": "given up"},
                        LOG_KEEP)  # fmt: skip
                    # the target still fails since then: the next notification is given
                    # up at its first failure, not after a day of its own
                    cursor = HookCursor(version, n + 1, failing_since=failing.failing_since)
                self.store.set_hooks(game.id, target.key, cursor)
            # (a version without notifications writes nothing: a job killed on the way
            # walks those again from the cursor and finds nothing to send)
            cursor = replace(cursor, version=version + 1, sent=0)
        self.store.set_hooks(game.id, target.key, cursor)  # up to date
        return None

    def _give_up(self, cursor: HookCursor, now: float) -> bool:
        """Whether the target has been failing for the whole retry window."""
        return bool(cursor.failing_since) and now - cursor.failing_since >= self.retry_s

    def _send(self, game_id: str, target: Target, body: bytes) -> str | None:
        """POST one notification; None when the target took it (2xx), else what went
        wrong. Every try goes to the game's delivery log."""
        t0 = self.clock()
        ident = json.loads(body)
        entry = {"id": ident["id"], "type": ident["type"], "target": target.key,
                 "at": round(t0, 3)}  # fmt: skip
        try:
            host, _port, addresses = resolve(target.url, self.allow_private,
                                             self.outbound.lookup)  # fmt: skip
            headers = {"Content-Type": "application/json", "User-Agent": "spitlog-webhooks",
                       "Spitlog-Signature": sign(target.secret, int(t0), body),
                       "Spitlog-Event-Id": ident["id"], **telemetry.carrier()}  # fmt: skip
            status = self.outbound.post(target.url, host, addresses, body, headers,
                                        self.timeout_s)  # fmt: skip
            entry["status"] = status
            problem = None if 200 <= status < 300 else f"answered {status}"
        except WebhookRefused as e:
            problem = f"refused target: {e}"
        except Exception as e:  # refused, reset, timed out, TLS, a malformed answer
            problem = f"{type(e).__name__}: {e}"[:200]
        entry["ms"] = round((self.clock() - t0) * 1000)
        if problem:
            entry["error"] = problem
        self.store.log_delivery(game_id, target.key, entry, LOG_KEEP)
        return problem
