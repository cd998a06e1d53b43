"""Every error's one wire form: RFC 9457 ``application/problem+json``.

``problem(exc)`` turns any error (the domain's, the service's, the store's, werkzeug's
routing errors) into (status, body, headers). ``type`` is a URI reference to the
problem's entry on the ``/docs`` page. Bodies carry ``rule`` (a rule ID; ``rule_url``: its
entry at ``/docs/rules``) for illegal moves, ``errors`` (field -> messages) for bad input
and ``version`` where a game is involved; never a card a caller may not see (RULES H-5):
details come from the domain's messages, which name only cards the caller sent or can see.
"""

import logging

import redis
from werkzeug.exceptions import HTTPException

import domain

from ..errors import BadRequest, ServiceError
from ..rulebook import rule_url

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
        status, slug, title, detail = exc.status, exc.slug, exc.title, exc.detail
        headers.update(exc.headers)
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
