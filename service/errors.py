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
    # a credential presented and refused (a failed authentication): charged to the
    # client address's bucket of them (``service.limits.rates``)
    failed_auth = False

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


class BadCredentials(Unauthorized):
    """A credential was presented and is not one (a malformed header, an unknown token or
    key): a failed authentication. (No credential at all is a plain ``Unauthorized``.)"""

    failed_auth = True


class Forbidden(ServiceError):
    """A refusal of who asks; each subclass's title names what it refused."""

    status, slug, title = 403, "forbidden", "Forbidden"


class OtherGamesToken(Forbidden):
    """A token that holds a seat of another game: a failed authentication."""

    title = "Token of another game"
    failed_auth = True


class NotTheCreator(Forbidden):
    title = "Not the creator's token"


class PlayersOnly(Forbidden):
    title = "A rated game seats only an app's player"


class NoSuchGame(ServiceError):
    status, slug, title = 404, "not-found", "No such game"


class NoSuchVersion(ServiceError):
    status, slug, title = 404, "not-found", "No such version"


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
    """A limit refused the request (``service.limits.rates``). ``bucket`` names the one
    that refused (of several, the one that asks the longest wait): "requests" or "games"
    (the client address's, shared by everyone behind it), "actions" (the seat token's
    own), "streams" (the address's open streams) or "token streams" (the token's own);
    ``buckets``: every one that refused."""

    status, slug, title = 429, "rate-limited", "Too many requests"

    def __init__(self, detail: str = "", *, limits: tuple[str, ...] = (), **kw):
        super().__init__(detail, **kw)
        # the buckets that refused (``service.limits.rates``): "requests" and "auth" (the
        # client address's requests, failed authentications), "games" (its creations),
        # "seat" and "actions" (the seat's own), "streams" (a cap on open streams)
        self.limits = tuple(limits)


class RatedPairCapped(ServiceError):
    """A rated game the pair of its seats may not start now: they started the cap of
    rated games in the last day (``SPITLOG_RATED_PAIR_CAP``); ``Retry-After`` says when
    one leaves the window."""

    status, slug, title = 429, "rated-pair-cap", "Rated games between these seats are capped"


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


class UpgradeRequired(ServiceError):
    """A WebSocket path asked for without ``Upgrade: websocket``."""

    status, slug, title = 426, "upgrade-required", "Upgrade required"

    def __init__(self, detail: str = "", **kw):
        super().__init__(detail, **kw)
        self.headers.setdefault("Upgrade", "websocket")


class CannotUpgrade(ServiceError):
    """A server that cannot hand the connection over (a test client's)."""

    status, slug, title = 501, "not-implemented", "Not implemented"
