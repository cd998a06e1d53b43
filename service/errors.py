"""The errors of the service's use cases and of the requests that reach them: facts, one
class each, raised complete. How each looks on the wire (its status, title, problem type
and header fields) is the HTTP adapter's: ``service.http.problems`` holds the one table.

Every error that concerns a game may carry ``version`` (the game's version when it was
refused); none carries a card its receiver may not see (RULES H-5). An error that says
when to come back says it in seconds (``retry_after_s``, ``wait_s``).
"""

import domain


class ServiceError(Exception):
    """An error the service raises on purpose; ``detail`` says what happened in words (empty:
    the problem's title says it all)."""

    # a credential presented and refused (a failed authentication): charged to the
    # client address's bucket of them (``service.limits.rates``)
    failed_auth = False

    def __init__(self, detail: str = "", *, version: int | None = None):
        super().__init__(detail or type(self).__name__)
        self.detail = detail
        self.version = version


class BadRequest(ServiceError):
    """Bad input: ``errors`` maps each field (or parameter, or header) to its messages."""

    def __init__(self, errors: dict[str, list[str]], detail: str = "", **kw):
        super().__init__(detail or "the request is not valid: see errors", **kw)
        self.errors = errors


class Unauthorized(ServiceError):
    """No credential where one is needed."""


class BadCredentials(Unauthorized):
    """A credential was presented and is not one (a malformed header, an unknown token or
    key): a failed authentication. (No credential at all is a plain ``Unauthorized``.)"""

    failed_auth = True


class Forbidden(ServiceError):
    """A refusal of who asks; each subclass names what it refused."""


class OtherGamesToken(Forbidden):
    """A token that holds a seat of another game: a failed authentication."""

    failed_auth = True


class NotTheCreator(Forbidden):
    """The webhook deliveries of a game, asked for by another than its creator."""


class PlayersOnly(Forbidden):
    """A rated game's seat, asked for by another than an app's player."""


class NoSuchGame(ServiceError):
    """No game by that id (in Redis or in the archive)."""


class NoSuchVersion(ServiceError):
    """A version the game never reached."""


class RequestTimeout(ServiceError):
    """The request's body did not arrive in time."""


class GameRunning(ServiceError):
    """What opens only once the game is over (its seed: the audit, the export)."""


class NotAcceptable(ServiceError):
    """No media type the request accepts is one the answer comes in."""


class SeatTaken(ServiceError):
    """No free seat for this request: both taken, or the caller holds one."""


class KeyInUse(ServiceError):
    """The first request of an Idempotency-Key is still in progress."""

    def __init__(self, detail: str = "", *, retry_after_s: float = 1.0, **kw):
        super().__init__(detail, **kw)
        self.retry_after_s = retry_after_s


class PreconditionFailed(ServiceError):
    """``If-Match`` named another version than the game's."""


class TooLarge(ServiceError):
    """A request body over the limit."""


class UnsupportedMediaType(ServiceError):
    """A request body that is not JSON."""


class IdempotencyKeyReused(ServiceError):
    """An Idempotency-Key sent again with another body."""


class RateLimited(ServiceError):
    """A limit refused the request (``service.limits.rates``) for ``wait_s`` more seconds.
    ``limits``: every bucket that refused: "requests" and "auth" (the client address's
    requests, failed authentications), "games" (its creations), "seat" and "actions" (the
    seat's own), "streams" (the address's open streams) or "token streams" (the token's
    own). ``charged``: what the limits charged (``limits.rates.Charged``), when told."""

    def __init__(self, detail: str = "", *, wait_s: float = 1.0, limits: tuple[str, ...] = (),
                 charged=None, **kw):  # fmt: skip
        super().__init__(detail, **kw)
        self.wait_s = wait_s
        self.limits = tuple(limits)
        self.charged = charged


class RatedPairCapped(ServiceError):
    """A rated game the pair of its seats may not start now: they started the cap of
    rated games in the last day (``SPITLOG_RATED_PAIR_CAP``); one leaves the window in
    ``wait_s`` seconds."""

    def __init__(self, detail: str = "", *, wait_s: float, **kw):
        super().__init__(detail, **kw)
        self.wait_s = wait_s


class ArchiveUnreadable(ServiceError):
    """An archived game whose copy is corrupt or truncated."""


class Busy(ServiceError):
    """The service could not do it now (the game moved too fast, a store did not answer);
    a retry after ``retry_after_s`` (None: at once) may."""

    default_retry_s: float | None = None

    def __init__(self, detail: str = "", *, retry_after_s: float | None = None, **kw):
        super().__init__(detail, **kw)
        self.retry_after_s = retry_after_s if retry_after_s is not None else self.default_retry_s


class ArchiveUnavailable(Busy):
    """The archive did not answer (or refused): the caller retries later; nothing was
    deleted."""

    default_retry_s = 5.0


class Unconfirmed(Busy):
    """Strict durability: the write is in the primary's log, but its replicas (or its AOF)
    did not confirm it in time, so it is not answered as done. A retry with the same
    ``Idempotency-Key`` answers it once they hold it, or makes it anew if a failover lost
    it."""

    default_retry_s = 1.0

    def __init__(self, detail: str = "", **kw):
        detail = detail or (
            "written, but the game store's replicas did not confirm it in time: retry "
            "with the same Idempotency-Key"
        )
        super().__init__(detail, **kw)


class IllegalActionAt(domain.IllegalAction):
    """The rules refused an action (``rule``, ``detail``) at the game's ``version``;
    ``replayed``: the first answer of its Idempotency-Key, given again."""

    def __init__(self, rule: str, detail: str, *, version: int, replayed: bool = False):
        super().__init__(rule, detail)
        self.version = version
        self.replayed = replayed


class GameOverAt(domain.GameOver):
    """Nothing more can happen in the game: over at ``version`` (``replayed`` as
    ``IllegalActionAt``)."""

    def __init__(self, detail: str, *, version: int, replayed: bool = False):
        super().__init__(detail)
        self.version = version
        self.replayed = replayed


def at_version(e: domain.DomainError, version: int, replayed: bool = False) -> domain.DomainError:
    """The rules' refusal ``e`` as the use cases raise it: at the game's ``version``."""
    if isinstance(e, domain.IllegalAction):
        return IllegalActionAt(e.rule, e.detail, version=version, replayed=replayed)
    return GameOverAt(str(e), version=version, replayed=replayed)


class ArchiveCorrupt(Exception):
    """An archived object that is not what its record (or its format) says: ``key`` names
    it, the message says how."""

    def __init__(self, key: str, why: str):
        super().__init__(f"{key}: {why}")
        self.key = key
        self.why = why


class ArchiveConflict(Exception):
    """An object already in the archive differs from what this game would write there: it
    is left as it is (never overwritten) and the game stays in Redis."""


class NotArchived(Exception):
    """A game asked to leave Redis that was never archived: it stays."""


class UpgradeRequired(ServiceError):
    """A WebSocket path asked for without ``Upgrade: websocket``."""


class CannotUpgrade(ServiceError):
    """A WebSocket asked of a server that cannot hand its connection over (a test's)."""
