"""The errors of the service's use cases and of the requests that reach them: one class
each, with the status and problem type the HTTP adapter answers them with
(``service.http.problems`` turns them, and the domain's errors, into problem+json).

Every error that concerns a game may carry ``version`` (the game's version when it was
refused); none carries a card its receiver may not see (RULES H-5).
"""


class ServiceError(Exception):
    """An error the service raises on purpose; subclasses set status, slug and title."""

    status = 500
    slug = "internal"
    title = "Internal error"

    def __init__(self, detail: str = "", *, version: int | None = None, headers=None):
        super().__init__(detail or self.title)
        self.detail = detail or self.title
        self.version = version
        self.headers = dict(headers or {})


class BadRequest(ServiceError):
    status, slug, title = 400, "invalid-request", "Invalid request"

    def __init__(self, errors: dict[str, list[str]], detail: str = "", **kw):
        super().__init__(detail or "the request is not valid: see errors", **kw)
        self.errors = errors


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


class RequestTimeout(ServiceError):
    status, slug, title = 408, "request-timeout", "Request timeout"


class GameRunning(ServiceError):
    status, slug, title = 409, "game-running", "The game is not over"


class NotAcceptable(ServiceError):
    status, slug, title = 406, "not-acceptable", "Not acceptable"


class SeatTaken(ServiceError):
    status, slug, title = 409, "seat-unavailable", "Seat unavailable"


class KeyInUse(ServiceError):
    status, slug, title = 409, "idempotency-key-in-use", "Idempotency-Key in use"


class PreconditionFailed(ServiceError):
    status, slug, title = 412, "precondition-failed", "The game is at another version"


class TooLarge(ServiceError):
    status, slug, title = 413, "too-large", "Request entity too large"


class UnsupportedMediaType(ServiceError):
    status, slug, title = 415, "unsupported-media-type", "Unsupported media type"


class IdempotencyKeyReused(ServiceError):
    status, slug, title = 422, "idempotency-key-reused", "Idempotency-Key reused"


class RateLimited(ServiceError):
    status, slug, title = 429, "rate-limited", "Too many requests"


class ArchiveUnreadable(ServiceError):
    status, slug, title = 502, "archive-unreadable", "The archive answered something unreadable"


class Busy(ServiceError):
    status, slug, title = 503, "busy", "Busy"


class ArchiveUnavailable(Busy):
    """The archive did not answer (or refused): the caller retries later; nothing was
    deleted."""

    def __init__(self, detail: str = "", **kw):
        super().__init__(detail, **kw)
        self.headers.setdefault("Retry-After", "5")


class Unconfirmed(Busy):
    """Strict durability: the write is in the primary's log, but its replicas (or its AOF)
    did not confirm it in time, so it is not answered as done. A retry with the same
    ``Idempotency-Key`` answers it once they hold it, or makes it anew if a failover lost
    it."""

    def __init__(self, detail: str = "", **kw):
        detail = detail or (
            "written, but the game store's replicas did not confirm it in time: retry "
            "with the same Idempotency-Key"
        )
        super().__init__(detail, **kw)
        self.headers.setdefault("Retry-After", "1")
