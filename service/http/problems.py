"""Every error's one wire form: RFC 9457 ``application/problem+json``.

``problem(exc)`` turns any error (the domain's, the service's, the store's, werkzeug's
routing errors) into (status, body, headers): ``KINDS`` is the one table of the service's
errors (each a fact, ``service.errors``) with their status, problem type, title and
header fields (``WWW-Authenticate`` of a 401, ``Retry-After`` from the seconds an error
says to wait). ``type`` is a URI reference to the problem's entry on the ``/docs`` page.
Bodies carry ``rule`` (a rule ID; ``rule_url``: its entry at ``/docs/rules``) for illegal
moves, ``errors`` (field -> messages) for bad input and ``version`` where a game is
involved; never a card a caller may not see (RULES H-5): details come from the domain's
messages, which name only cards the caller sent or can see.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass

import redis
from werkzeug.exceptions import HTTPException

import domain

from ..apps import BadAppKey, NoSuchApp
from ..errors import (
    ArchiveUnavailable,
    ArchiveUnreadable,
    BadCredentials,
    BadRequest,
    Busy,
    CannotUpgrade,
    Forbidden,
    GameRunning,
    IdempotencyKeyReused,
    KeyInUse,
    NoSuchGame,
    NoSuchVersion,
    NotAcceptable,
    NotTheCreator,
    OtherGamesToken,
    PlayersOnly,
    PreconditionFailed,
    RatedPairCapped,
    RateLimited,
    RequestTimeout,
    SeatTaken,
    ServiceError,
    TooLarge,
    Unauthorized,
    Unconfirmed,
    UnsupportedMediaType,
    UpgradeRequired,
)
from ..players import NeedsAppKey, OtherAppsPlayer
from ..profiles import NoSuchPlayer
from ..rematch import RematchExpired
from ..rulebook import rule_url
from ..seeks import NoSuchSeek, OtherSeeksToken

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"

# Every problem type, for the /docs page: slug -> (status, what it means).
PROBLEM_TYPES = {
    "invalid-request": (
        400,
        "malformed body, unknown field, wrong type, unknown option or query parameter, a "
        "key given twice: `errors` maps each field to its messages",
    ),
    "unauthorized": (401, "no token, a token this service never issued, or an "
                     "`Authorization` header not of the form `Bearer <token>`"),
    "forbidden": (403, "refused for who asks, the `title` says what: a token of another "
                  "game or seek, a player of another app, the webhook deliveries for anyone "
                  "but the game's creator, a rated game's seat for anyone but an app's "
                  "player"),
    "not-found": (404, "no such game, version, player, seek or path (the `title` says "
                  "which)"),
    "method-not-allowed": (405, "the path exists, the method does not (see `Allow`)"),
    "not-acceptable": (406, "no media type of `Accept` is one the path answers in"),
    "request-timeout": (408, "the request body did not arrive in time"),
    "seat-unavailable": (409, "both seats are taken, or you already hold one"),
    "game-over": (409, "the game is finished or aborted"),
    "game-running": (409, "the audit or the export of a game that is not over"),
    "idempotency-key-in-use": (409, "the first request with this `Idempotency-Key` is "
                               "still in progress: retry after `Retry-After`"),
    "precondition-failed": (412, "`If-Match` names another version than the current one"),
    "too-large": (413, "the request body is too large"),
    "uri-too-long": (414, "the request line is over 4,094 bytes (the server's own answer, "
                     "before the API sees the request)"),
    "unsupported-media-type": (415, "the request body is not `application/json`"),
    "expectation-failed": (417, "an `Expect` field other than `100-continue` (the server's "
                           "own answer)"),
    "illegal-action": (422, "well formed but illegal now: `rule` names the rule it breaks, "
                       "`rule_url` links to its entry of the rules (`/docs/rules#<ID>`)"),
    "idempotency-key-reused": (422, "the `Idempotency-Key` was used with another body"),
    "rate-limited": (429, "over a rate limit, which `detail` names (the address's requests, "
                     "games or failed authentications, the seat's requests or actions): "
                     "retry after `Retry-After` seconds"),
    "rated-pair-cap": (429, "the two seats of this rated game started as many rated games "
                       "together in the last 24 hours as `SPITLOG_RATED_PAIR_CAP` allows: "
                       "retry after `Retry-After` seconds, or play it unrated"),
    "upgrade-required": (426, "a WebSocket path (`/v1/games/{id}/live`) asked for without "
                         "`Upgrade: websocket`"),
    "headers-too-large": (431, "more than 100 header fields, or one over 8,190 bytes (the "
                          "server's own answer)"),
    "internal": (500, "a bug: nothing was half done, the log is unchanged or complete"),
    "archive-unreadable": (502, "the game is archived, and its archived copy is corrupt or "
                           "truncated: `detail` names the game"),
    "not-implemented": (501, "a transfer coding the server does not know (`Transfer-Encoding`; "
                        "the server's own answer), or a WebSocket asked of a server that "
                        "cannot hand its connection over"),
    "busy": (503, "the game moved too fast to act on, the store is unreachable, or (strict "
             "durability) its replicas did not confirm a write in time: retry after "
             "`Retry-After`, with the same `Idempotency-Key`"),
}  # fmt: skip

_HTTP_SLUGS = {404: "not-found", 405: "method-not-allowed", 413: "too-large",
               415: "unsupported-media-type", 400: "invalid-request"}  # fmt: skip

BEARER = {"WWW-Authenticate": 'Bearer realm="spitlog"'}
API_KEY = {"WWW-Authenticate": 'ApiKey realm="spitlog", header="X-Api-Key"'}


def retry_after(seconds: float | None) -> dict[str, str]:
    """``Retry-After`` in whole seconds (rounded up) of an error that says when to come
    back; none when it does not say."""
    return {} if seconds is None else {"Retry-After": str(int(seconds + 0.999))}


def _rates(e: RateLimited) -> dict[str, str]:
    """A 429 of the rate limits: when to come back, and where the client stands (the
    charge's ``RateLimit-Policy`` and ``RateLimit`` fields)."""
    charged = e.charged.headers() if e.charged is not None else []
    return {**retry_after(e.wait_s), **dict(charged)}


@dataclass(frozen=True, slots=True)
class Kind:
    """How an error class is answered: status, problem type (``slug``), title, and the
    header fields made of the error (``headers``)."""

    status: int
    slug: str
    title: str
    headers: Callable[[ServiceError], dict[str, str]] | None = None


def _waits(e) -> dict[str, str]:
    return retry_after(getattr(e, "retry_after_s", None) or getattr(e, "wait_s", None))


# The one table: each error class of the service, its status, problem type, title and
# header fields. A class not listed is answered as its nearest listed base class.
KINDS: dict[type, Kind] = {
    BadRequest: Kind(400, "invalid-request", "Invalid request"),
    Unauthorized: Kind(401, "unauthorized", "No valid token", lambda e: BEARER),
    BadCredentials: Kind(401, "unauthorized", "No valid token", lambda e: BEARER),
    BadAppKey: Kind(401, "invalid-app-key", "Unknown or revoked API key", lambda e: API_KEY),
    NeedsAppKey: Kind(401, "app-key-required", "An API key is required", lambda e: API_KEY),
    Forbidden: Kind(403, "forbidden", "Forbidden"),
    OtherGamesToken: Kind(403, "forbidden", "Token of another game"),
    OtherSeeksToken: Kind(403, "forbidden", "Token of another seek"),
    OtherAppsPlayer: Kind(403, "forbidden", "Player of another app"),
    NotTheCreator: Kind(403, "forbidden", "Not the creator's token"),
    PlayersOnly: Kind(403, "forbidden", "A rated game seats only an app's player"),
    NoSuchGame: Kind(404, "not-found", "No such game"),
    NoSuchVersion: Kind(404, "not-found", "No such version"),
    NoSuchPlayer: Kind(404, "not-found", "No such player"),
    NoSuchSeek: Kind(404, "not-found", "No such seek"),
    NoSuchApp: Kind(404, "not-found", "No such app"),
    NotAcceptable: Kind(406, "not-acceptable", "Not acceptable"),
    RequestTimeout: Kind(408, "request-timeout", "Request timeout"),
    GameRunning: Kind(409, "game-running", "The game is not over"),
    SeatTaken: Kind(409, "seat-unavailable", "Seat unavailable"),
    KeyInUse: Kind(409, "idempotency-key-in-use", "Idempotency-Key in use", _waits),
    RematchExpired: Kind(409, "rematch-expired", "The rematch offer expired"),
    PreconditionFailed: Kind(412, "precondition-failed", "The game is at another version"),
    TooLarge: Kind(413, "too-large", "Request entity too large"),
    UnsupportedMediaType: Kind(415, "unsupported-media-type", "Unsupported media type"),
    IdempotencyKeyReused: Kind(422, "idempotency-key-reused", "Idempotency-Key reused"),
    UpgradeRequired: Kind(
        426, "upgrade-required", "Upgrade required", lambda e: {"Upgrade": "websocket"}
    ),  # fmt: skip
    RateLimited: Kind(429, "rate-limited", "Too many requests", _rates),
    RatedPairCapped: Kind(
        429, "rated-pair-cap", "Rated games between these seats are capped", _waits
    ),  # fmt: skip
    ArchiveUnreadable: Kind(
        502, "archive-unreadable", "The archive answered something unreadable"
    ),  # fmt: skip
    CannotUpgrade: Kind(501, "not-implemented", "Not implemented"),
    Busy: Kind(503, "busy", "Busy", _waits),
    ArchiveUnavailable: Kind(503, "busy", "Busy", _waits),
    Unconfirmed: Kind(503, "busy", "Busy", _waits),
}
INTERNAL = Kind(500, "internal", "Internal error")


def kind_of(exc: ServiceError) -> Kind:
    """The table's entry of ``exc``: its class's, else its nearest base class's."""
    for cls in type(exc).__mro__:
        found = KINDS.get(cls)
        if found is not None:
            return found
    return INTERNAL


def problem_type(slug: str) -> str:
    """The ``type`` of a problem: its entry on the ``/docs`` page."""
    return f"/docs#problem-{slug}"


def problem(exc: BaseException, version: int | None = None) -> tuple[int, dict, dict]:
    """(status, problem body, headers) for any exception."""
    headers: dict[str, str] = {}
    extra: dict = {}
    if version is None:
        version = getattr(exc, "version", None)
    if isinstance(exc, ServiceError):
        kind = kind_of(exc)
        status, slug, title = kind.status, kind.slug, kind.title
        detail = exc.detail or title
        if kind.headers is not None:
            headers.update(kind.headers(exc))
        if isinstance(exc, BadRequest):
            extra["errors"] = exc.errors
    elif isinstance(exc, domain.IllegalAction):
        status, slug, title, detail = 422, "illegal-action", "Illegal action", exc.detail
        extra["rule"], extra["rule_url"] = exc.rule, rule_url(exc.rule)
    elif isinstance(exc, domain.MalformedAction):  # InvalidOptions too
        status, slug, title = 400, "invalid-request", "Invalid request"
        detail, extra["errors"] = "the request is not valid: see errors", exc.errors
    elif isinstance(exc, domain.GameOver):
        status, slug, title, detail = 409, "game-over", "The game is over", str(exc)
    elif isinstance(exc, domain.SeatUnavailable):
        status, slug, title, detail = 409, "seat-unavailable", "Seat unavailable", str(exc)
    elif isinstance(exc, HTTPException):  # werkzeug's routing: 404, 405
        status = exc.code or 500
        slug = _HTTP_SLUGS.get(status, "internal" if status >= 500 else "invalid-request")
        title, detail = exc.name, exc.description or exc.name
        for k, v in exc.get_headers():
            if k.lower() != "content-type":
                headers[k] = v
    elif isinstance(exc, redis.ConnectionError | redis.TimeoutError | redis.BusyLoadingError):
        log.error("store unavailable: %s", type(exc).__name__)
        status, slug, title = 503, "busy", "Store unavailable"
        detail = "the game store is unreachable; nothing was half done: retry"
        headers["Retry-After"] = "1"
    else:
        log.exception("unexpected error")
        status, slug, title = 500, "internal", "Internal error"
        detail = "an unexpected error; the game log is unchanged or complete"
    if getattr(exc, "replayed", False):
        headers["Idempotent-Replayed"] = "true"
    body = {"type": problem_type(slug), "title": title, "status": status, "detail": detail, **extra}
    if version is not None:
        body["version"] = version
    return status, body, headers
