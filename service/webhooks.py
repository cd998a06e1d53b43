"""Signed webhooks (docs/webhooks.md): a game's lifecycle, and if asked every event, POSTed
as JSON to the game's URL (``webhook: {url}`` at creation) and/or the deployment's
(``SPITLOG_WEBHOOK_URL``), signed Stripe-style.

The log is the outbox: what a game's webhooks say is a function of its log, so nothing
is written beside an append and nothing acknowledged can be lost. Per game and target,
a cursor (the store's ``hooks`` record) says how far deliveries went; the delivery job
(``Deliverer.step``, ``workers.jobs.deliver_webhooks``) reads the log after it and
delivers each notification in order, one at a time: a failure (no 2xx, no answer within
the timeout) is retried with exponential backoff, the later ones wait behind it, for up
to ``SPITLOG_WEBHOOK_RETRY_S`` (a day) after its first try; then it is given up (logged
as such) and the next goes. Each notification has an id (``evt_<game>_<version>_<kind>``)
that stays the same across retries: a receiver that gets one twice (at least once) drops
the second.

Notifications (``type``): ``seat.joined`` (a seat taken, bots at creation too),
``game.started`` (the game running), ``game.finished`` (finished or aborted), and with
``events: "all"`` one ``game.event`` per event of the log, redacted as a spectator sees it
until the game is over (RULES H-1..H-6: a webhook is no seat).

Signature: ``Spitlog-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">``
under the game's secret (made at creation, shown once in its answer) or the deployment's
(``SPITLOG_WEBHOOK_SECRET``). Targets must be ``https`` and resolve to public addresses
only (no loopback, private, link-local, ...: SSRF) unless ``SPITLOG_WEBHOOK_ALLOW_PRIVATE``
is set; they are checked at creation and again at each delivery, which connects to the
address it checked.
"""

import hashlib
import hmac
import ipaddress
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import domain
from domain import State

from . import telemetry
from .errors import NotTheCreator
from .players import with_players
from .ports import SYSTEM_ENTROPY, Clock, Entropy, Outbound, WebhookStore
from .records import GameRecord

log = logging.getLogger(__name__)

MAX_URL = 2048
KINDS = ("seat.joined", "game.started", "game.finished", "game.event")
RETRY_FIRST_S = 1.0
RETRY_MAX_S = 3600.0  # a failing target is tried at least hourly, for the retry window
LOG_KEEP = 200  # deliveries kept in a game's delivery log
LOCK_S = 60.0  # a delivery job holds its game's lock at most this long (RQ stops it at 30)
STEP_BUDGET_S = 20.0  # a job delivers for this long at most, then the next one goes on


class WebhookRefused(ValueError):
    """A target this service will not deliver to; the message says why."""


def new_secret(entropy: Entropy = SYSTEM_ENTROPY) -> str:
    return "whsec_" + entropy.token()


def sign(secret: str, t: int, body: bytes) -> str:
    """The ``Spitlog-Signature`` of ``body`` sent at ``t``.

    >>> sign("whsec_test", 1700000000, b'{"a":1}')[:13]
    't=1700000000,'
    """
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def verify(secret: str, header: str, body: bytes, now: float, tolerance_s: float = 300) -> bool:
    """Whether ``header`` signs ``body`` under ``secret``, sent within ``tolerance_s`` of
    ``now``: what a receiver does (docs/webhooks.md)."""
    try:
        parts = dict(p.split("=", 1) for p in header.split(","))
        t, given = int(parts["t"]), parts["v1"]
    except (ValueError, KeyError):
        return False
    if abs(now - t) > tolerance_s:
        return False
    return hmac.compare_digest(sign(secret, t, body), f"t={t},v1={given}")


_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_COMPAT = ipaddress.ip_network("::/96")


def _refused_address(ip) -> bool:
    """Whether a target must not be reached at ``ip``: not a global unicast address, or an
    IPv6 one that carries an IPv4 address that is not (mapped, 6to4, NAT64, compatible)."""
    if not ip.is_global or ip.is_multicast:
        return True
    if ip.version == 6:
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is None and (ip in _NAT64 or ip in _COMPAT):
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if inner is not None:
            return _refused_address(inner)
    return False


def resolve(
    url: str, allow_private: bool, lookup: Callable[[str, int], list[str]]
) -> tuple[str, int, list[str]]:
    """(host in ASCII, port, addresses) of a target, every address allowed (``lookup``:
    the addresses a host resolves to, ``Outbound.lookup``); WebhookRefused if it is not a
    URL this service delivers to (not https, too long, an address refused)."""
    if len(url) > MAX_URL:
        raise WebhookRefused(f"longer than {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:
        raise WebhookRefused(f"not a URL: {e}") from None
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise WebhookRefused("must be an https:// URL with a host")
    if parts.username or parts.password:
        raise WebhookRefused("must not carry credentials")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        host = parts.hostname.encode("idna").decode("ascii")  # what DNS, TLS and Host use
    except UnicodeError as e:
        raise WebhookRefused(f"its host is not a domain name ({e})") from None
    try:
        addresses = list(dict.fromkeys(lookup(host, port)))
    except (OSError, UnicodeError) as e:
        raise WebhookRefused(f"its host does not resolve ({e})") from None
    if not allow_private:
        for a in addresses:
            if _refused_address(ipaddress.ip_address(a.split("%")[0])):
                raise WebhookRefused(f"its host resolves to {a}, a private or reserved address")
    return host, port, addresses


@dataclass(frozen=True, slots=True)
class Target:
    """Where a game's notifications go: ``key`` names it in the store ("g": the game's
    own, "d": the deployment's)."""

    key: str
    url: str
    secret: str
    all_events: bool


def targets(record: GameRecord, deployment: "Target | None") -> list[Target]:
    """The targets of a game (its record's ``webhook``, and the deployment's)."""
    out = []
    hook = record.webhook
    if hook is not None:
        out.append(Target("g", hook.url, hook.secret, hook.all_events))
    if deployment is not None:
        out.append(deployment)
    return out


def notifications(state: State, event: domain.Event, version: int, all_events: bool):
    """The notifications of one event of the log, landing on ``state`` (the state before
    it): (kind, data) pairs, in order."""
    after = domain.evolve(state, event)
    out = []
    wire = domain.event_to_dict(event)
    if all_events:
        shown = domain.redact(event, None, public=after.over)
        out.append(("game.event", {"version": version, **shown}))
    if wire["type"] == "seat_taken":
        out.append(("seat.joined", {"seat": wire["seat"], "kind": wire["kind"]}))
    if after.status == "running" and state.status != "running" and not after.over:
        out.append(("game.started", {"players": [p.kind for p in after.players]}))
    if after.over and not state.over:
        out.append(("game.finished", {"status": after.status, "winner": after.winner,
                                      "result": after.result}))  # fmt: skip
    return after, out


def produces(before: State | None, after: State, all_events: bool) -> bool:
    """Whether an append that took the game from ``before`` to ``after`` has anything to
    notify (cheap: the hook after every append asks)."""
    if all_events or before is None:
        return True
    if after.over != before.over or after.status != before.status:
        return True
    return [p.kind for p in after.players] != [p.kind for p in before.players]


def body_of(game_id: str, version: int, n: int, kind: str, game: str, data: dict,
            at: float) -> bytes:  # fmt: skip
    """A notification as sent: the same bytes at every try."""
    return json.dumps({
        "id": f"evt_{game_id}_{version}_{n}", "type": kind, "created": int(at),
        "game_id": game_id, "game": game, "version": version, "data": data,
    }, separators=(",", ":")).encode()  # fmt: skip


@dataclass(frozen=True, slots=True)
class Settings:
    """What the use cases need to know of webhooks: private targets allowed, and the
    deployment's target (``SPITLOG_WEBHOOK_URL``), if any."""

    allow_private: bool = False
    deployment: Target | None = None

    def notifies(self, record: GameRecord, before: State | None, after: State) -> bool:
        """Whether an append of a game (its record) has something to notify."""
        return any(produces(before, after, t.all_events)
                   for t in targets(record, self.deployment))  # fmt: skip

    @classmethod
    def from_settings(cls, s) -> "Settings":
        deployment = None
        if s.webhook_url:
            deployment = Target("d", s.webhook_url, s.webhook_secret or "",
                                s.webhook_events == "all")  # fmt: skip
        return cls(allow_private=s.webhook_allow_private, deployment=deployment)


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
        done = cursor is None or cursor["v"] > game.version
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
        return any(self.store.hooks(game_id, t.key)["v"] <= version
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
        """Deliver ``target``'s notifications from its cursor on: None once up to date,
        else when to go on. The cursor (``store.hooks``): every notification of the
        versions before ``v`` delivered (or given up), and the first ``n`` of version
        ``v``; ``a`` tries of the next one failed; the target has failed since ``f``
        (0: it has not), and is not to be tried before ``next``. A try is counted before
        it is made, so a job killed during one (a hanging target) still counts it."""
        cursor = self.store.hooks(game.id, target.key)
        now = self.clock()
        if cursor["v"] > game.version:
            return None
        if cursor["next"] > now:
            return cursor["next"]
        state = self.games.state_of(game, cursor["v"] - 1)
        for version, wire in self.games.entries(game, cursor["v"] - 1):
            event = domain.event_from_dict(wire)
            state, notes = notifications(state, event, version, target.all_events)
            for n, (kind, data) in enumerate(notes):
                if version == cursor["v"] and n < cursor["n"]:
                    continue  # delivered before
                if self.clock() >= budget:  # a long backlog goes on in the next job
                    self.store.set_hooks(game.id, target.key, {**cursor, "v": version, "n": n})
                    return self.clock()
                if kind == "game.event":  # the seat's player, as the API's events show it
                    data = with_players([data], game.record)[0]
                body = body_of(game.id, version, n, kind, game.state.game, data, event.at)
                wait = min(RETRY_FIRST_S * 2 ** cursor["a"], RETRY_MAX_S)
                failing = {"v": version, "n": n, "a": cursor["a"] + 1, "f": cursor["f"] or now,
                           "next": now + self.timeout_s + wait}  # fmt: skip
                self.store.set_hooks(game.id, target.key, failing)  # until it is taken
                problem = self._send(game.id, target, body)
                now = self.clock()  # the backoff counts from the failure, not the start
                if problem is None:
                    cursor = {"v": version, "n": n + 1, "a": 0, "f": 0, "next": 0}
                elif not self._give_up(failing, now):
                    cursor = {**failing, "next": now + wait}
                    self.store.set_hooks(game.id, target.key, cursor)
                    return now + wait
                else:  # failing for the whole retry window: given up, the next one goes
                    log.warning("webhook evt_%s_%d_%d given up after %d tries: %s",
                                game.id, version, n, failing["a"], problem)  # fmt: skip
                    self.store.log_delivery(game.id, target.key, {
                        "id": f"evt_{game.id}_{version}_{n}", "outcome": "given up"},
                        LOG_KEEP)  # fmt: skip
                    # the target still fails since ``f``: the next notification is given
                    # up at its first failure, not after a day of its own
                    cursor = {"v": version, "n": n + 1, "a": 0, "f": failing["f"], "next": 0}
                self.store.set_hooks(game.id, target.key, cursor)
            # (a version without notifications writes nothing: a job killed on the way
            # walks those again from the cursor and finds nothing to send)
            cursor = {**cursor, "v": version + 1, "n": 0}
        self.store.set_hooks(game.id, target.key, cursor)  # up to date
        return None

    def _give_up(self, cursor: dict, now: float) -> bool:
        """Whether the target has been failing for the whole retry window."""
        return bool(cursor["f"]) and now - cursor["f"] >= self.retry_s

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
