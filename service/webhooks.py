"""Signed webhooks (docs/webhooks.md): a game's lifecycle, and if asked every event, POSTed
as JSON to the game's URL (``webhook: {url}`` at creation) and/or the deployment's
(``SPITLOG_WEBHOOK_URL``), signed Stripe-style.

The log is the outbox: what a game's webhooks say is a function of its log, so nothing
is written beside an append and nothing acknowledged can be lost. Per game and target,
a cursor (the store's ``hooks`` record) says how far deliveries went; the delivery job
(``deliveries.Deliverer.step``, ``workers.jobs.deliver_webhooks``) reads the log after it and
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
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import domain
from domain import State

from .ports import SYSTEM_ENTROPY, Entropy
from .records import GameRecord

MAX_URL = 2048
KINDS = ("seat.joined", "game.started", "game.finished", "game.event")


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
