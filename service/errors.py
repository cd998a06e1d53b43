"""The service's errors and their one wire form, RFC 9457 ``application/problem+json``.

``problem(exc)`` turns any error (the domain's, the service's, the store's, werkzeug's)
into (status, body, headers). ``type`` is a URI reference to the problem's entry on the
``/docs`` page. Bodies carry ``rule`` (a RULES.md ID) for illegal moves, ``errors``
(field -> messages) for bad input and ``version`` where a game is involved; never a
card a caller may not see (RULES H-5): details come from the domain's messages, which
name only cards the caller sent or can see.
"""

import logging

import redis
from werkzeug.exceptions import HTTPException

import domain

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"


class ServiceError(Exception):
    """An error the service raises on purpose; subclasses set status, slug and title."""

    status = 500
    slug = "internal"
    title = "Internal error"

    def __init__(self, detail: str = "", *, version: int | None = None, headers=None):
        super().__init__(detail or self.title)
        self.detail = detail or self.title
        self.version = version
        self.headers = headers or {}


class Unauthorized(ServiceError):
    status, slug, title = 401, "unauthorized", "No valid token"

    def __init__(self, detail: str = "", **kw):
        super().__init__(detail, **kw)
        self.headers.setdefault("WWW-Authenticate", 'Bearer realm="spitlog"')


class Forbidden(ServiceError):
    status, slug, title = 403, "forbidden", "Token of another game"


class NoSuchGame(ServiceError):
    status, slug, title = 404, "not-found", "Not found"


class NoSuchVersion(ServiceError):
    status, slug, title = 404, "not-found", "Not found"


class GameRunning(ServiceError):
    status, slug, title = 409, "game-running", "The game is not over"


class SeatTaken(ServiceError):
    status, slug, title = 409, "seat-unavailable", "Seat unavailable"


class PreconditionFailed(ServiceError):
    status, slug, title = 412, "precondition-failed", "The game is at another version"


class UnsupportedMediaType(ServiceError):
    status, slug, title = 415, "unsupported-media-type", "Unsupported media type"


class IdempotencyKeyReused(ServiceError):
    status, slug, title = 422, "idempotency-key-reused", "Idempotency-Key reused"


class BadRequest(ServiceError):
    status, slug, title = 400, "invalid-request", "Invalid request"

    def __init__(self, errors: dict[str, list[str]], detail: str = "", **kw):
        super().__init__(detail or "the request is not valid: see errors", **kw)
        self.errors = errors


class RateLimited(ServiceError):
    status, slug, title = 429, "rate-limited", "Too many requests"


class Busy(ServiceError):
    status, slug, title = 503, "busy", "Busy"


# Every problem type, for the /docs page: slug -> (status, what it means).
PROBLEM_TYPES = {
    "invalid-request": (
        400,
        "malformed body, unknown field, wrong type, unknown option: "
        "`errors` maps each field to its messages",
    ),
    "unauthorized": (401, "no token, or a token this service never issued"),
    "forbidden": (403, "a token of another game"),
    "not-found": (404, "no such game, version or path"),
    "method-not-allowed": (405, "the path exists, the method does not (see `Allow`)"),
    "not-acceptable": (406, "the server cannot answer in a type the request accepts"),
    "seat-unavailable": (409, "both seats are taken, or you already hold one"),
    "game-over": (409, "the game is finished or aborted"),
    "game-running": (409, "the audit of a game that is not over"),
    "precondition-failed": (412, "`If-Match` names another version than the current one"),
    "too-large": (413, "the request body is too large"),
    "unsupported-media-type": (415, "the request body is not `application/json`"),
    "illegal-action": (422, "well formed but illegal now: `rule` names the RULES.md ID"),
    "idempotency-key-reused": (422, "the `Idempotency-Key` was used with another body"),
    "rate-limited": (429, "over the rate limit: retry after `Retry-After` seconds"),
    "internal": (500, "a bug: nothing was half done, the log is unchanged or complete"),
    "busy": (503, "the game moved too fast to act on, or the store is unreachable: retry"),
}

_HTTP_SLUGS = {
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    413: "too-large",
    415: "unsupported-media-type",
    400: "invalid-request",
}


def _type(slug: str) -> str:
    return f"/docs#problem-{slug}"


def _flatten(messages, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested error dicts as ``{"a.b": [...]}``."""
    out: dict[str, list[str]] = {}
    if isinstance(messages, dict):
        for k, v in messages.items():
            name = f"{prefix}.{k}" if prefix else str(k)
            if isinstance(v, dict):
                out.update(_flatten(v, name))
            else:
                out[name] = [str(m) for m in v] if isinstance(v, list) else [str(v)]
    else:
        out[prefix or "_body"] = [str(m) for m in messages]
    return out


def _webargs_errors(messages) -> dict[str, list[str]]:
    """webargs' ``{location: {field: [...]}}`` (or ``{location: [...]}``) as field -> messages."""
    if isinstance(messages, dict) and set(messages) <= {"json", "query", "headers", "form"}:
        out: dict[str, list[str]] = {}
        for loc, part in messages.items():
            if isinstance(part, dict):
                out.update(_flatten(part))
            else:
                out["_body" if loc == "json" else loc] = [str(m) for m in part]
        return out
    return _flatten(messages)


def problem(exc: BaseException, version: int | None = None) -> tuple[int, dict, dict]:
    """(status, problem body, headers) for any exception."""
    headers: dict[str, str] = {}
    extra: dict = {}
    if version is None:
        version = getattr(exc, "version", None)
    if isinstance(exc, ServiceError):
        status, slug, title, detail = exc.status, exc.slug, exc.title, exc.detail
        headers.update(exc.headers)
        version = exc.version if exc.version is not None else version
        if isinstance(exc, BadRequest):
            extra["errors"] = exc.errors
    elif isinstance(exc, domain.IllegalAction):
        status, slug, title, detail = 422, "illegal-action", "Illegal action", exc.detail
        extra["rule"] = exc.rule
    elif isinstance(exc, domain.MalformedAction):  # InvalidOptions too
        status, slug, title = 400, "invalid-request", "Invalid request"
        detail, extra["errors"] = "the request is not valid: see errors", exc.errors
    elif isinstance(exc, domain.GameOver):
        status, slug, title, detail = 409, "game-over", "The game is over", str(exc)
    elif isinstance(exc, domain.SeatUnavailable):
        status, slug, title, detail = 409, "seat-unavailable", "Seat unavailable", str(exc)
    elif isinstance(exc, HTTPException):
        status = exc.code or 500
        data = getattr(exc, "data", None) or {}
        if status in (400, 422) and "messages" in data:  # webargs: input the schema refuses
            status, slug, title = 400, "invalid-request", "Invalid request"
            detail = "the request is not valid: see errors"
            extra["errors"] = _webargs_errors(data["messages"])
        else:
            slug = _HTTP_SLUGS.get(status, "internal" if status >= 500 else "invalid-request")
            title, detail = exc.name, exc.description or exc.name
            if status == 400:  # werkzeug's own (an empty or unreadable body): name it too
                extra["errors"] = {"_body": ["Invalid JSON body."]}
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
    body = {"type": _type(slug), "title": title, "status": status, "detail": detail, **extra}
    if version is not None:
        body["version"] = version
    return status, body, headers
