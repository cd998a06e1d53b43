"""The ports the use cases call out through: the game store (``GameStore``, what
``service.store.redis.RedisStore`` implements, and the results of its calls), the
archive of finished games (``Archive``, ``service.archive.games.GameArchive``) and the
scheduler hook called after every successful append, the seam for bots and timeouts.

The entry points plug the workers' scheduler in (``workers.schedule.Scheduler``, given to
``Games`` and to ``create_app``): after each append it learns the game's new state (and
the one before) and arms what ``domain.deadlines(state)`` and the bots' turns require.
By default nothing happens.
"""

from dataclasses import dataclass
from typing import Protocol

from domain import State

from .records import GameRecord

LOBBY_STATUSES = ("open", "running", "finished")
_LOBBY = {"waiting": "open", "running": "running"}


def lobby_status(status: str) -> str:
    """The lobby list of a game in the domain's ``status``."""
    return _LOBBY.get(status, "finished")


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game as read in one round trip: ``tail`` continues the state at ``base``, which is
    the caller's own cached state (``snapshot`` None) or ``snapshot`` (None and base 0:
    replay from the start)."""

    record: GameRecord
    version: int
    base: int
    snapshot: dict | None
    tail: list[tuple[int, dict]]
    idem: tuple[dict | None, dict | None]  # the probed key's record, per seat


@dataclass(frozen=True, slots=True)
class Appended:
    """The events are in the log, up to ``version``. ``confirmed`` False: strict durability
    asked for replicas (or an fsync) to hold them and they did not say so in time: the
    append may still be lost in a failover, so it is not to be answered as done."""

    version: int
    confirmed: bool = True


@dataclass(frozen=True, slots=True)
class Clash:
    """The log was no longer at the expected version. When the caller was not far behind,
    ``record`` and ``tail`` (the events it missed) come along, to re-decide without a load."""

    version: int
    record: GameRecord | None = None
    tail: list[tuple[int, dict]] | None = None


@dataclass(frozen=True, slots=True)
class Listed:
    """A game as a list shows it (the lobby): its id, its record (the public fields only:
    no seed, token hashes, secret or webhook), its version, and the cursor that pages on
    after it."""

    id: str
    record: GameRecord
    version: int
    cursor: str


@dataclass(frozen=True, slots=True)
class Listing:
    """A game in a player's list of games (newest first): the cursor that pages on after
    it (cursors of one list sort as its games were created, whichever store they come
    from), its id, and when it was made (ms)."""

    cursor: str
    game_id: str
    created_ms: int


@dataclass(frozen=True, slots=True)
class Replayed:
    """The idempotency key already had an answer: nothing was appended."""

    record: dict


class GameStore(Protocol):
    """Games as append-only logs (``service.store.redis`` tells how they are kept)."""

    def append(self, game_id: str, expected: int, events: list[dict], *, idem=None,
               snapshot=None, record: GameRecord | None = None,
               before: GameRecord | None = None,
               bill=None) -> "Appended | Clash | Replayed": ...  # fmt: skip

    def load(
        self, game_id: str, known: int = -1, idem_key: str | None = None, bill=None
    ) -> "Loaded | None": ...

    def confirm(self) -> bool:
        """Strict durability: whether everything read so far from the store is held as an
        append must be before its answer (a replayed answer's record, say); True when
        there is nothing to wait for."""
        ...

    def read_after(self, game_id: str, after: int, limit: int | None = None,
                   upto: int | None = None) -> list[tuple[int, dict]]: ...  # fmt: skip

    def snapshot_at(self, game_id: str, version: int) -> dict | None: ...

    def record(self, game_id: str, field: str, record: dict) -> dict | None: ...

    def refused(self, game_id: str, token_hash: str, start: float, end: float) -> None: ...

    def refused_windows(self, game_id: str, token_hash: str,
                        since: float) -> list[tuple[float, float]]: ...  # fmt: skip

    def index(self, game_id: str, *, status: str, created_ms: int, tokens=None) -> None: ...

    def token_owner(self, token_hash: str) -> tuple[str, int] | None: ...

    def lobby(self, status: str, cursor: str | None,
              limit: int) -> tuple[list[Listed], str | None]: ...  # fmt: skip

    def version(self, game_id: str) -> int: ...

    def find_record(self, game_id: str, field: str) -> dict | None: ...

    def claim_create(self, key_hash: str, game_id: str, fp: str,
                     now_ms: int) -> tuple[str, str, int] | None: ...  # fmt: skip

    def release_create(self, key_hash: str, game_id: str) -> None: ...

    def lock(self, game_id: str, what: str, ttl_ms: int) -> str | None: ...

    def unlock(self, game_id: str, what: str, token: str) -> None: ...

    def game_record(self, game_id: str) -> GameRecord | None: ...

    def set_rating(self, game_id: str, outcome: dict) -> bool: ...

    def close_rematch(self, game_id: str) -> None: ...

    def mark_archived(self, game_id: str, version: int, at_ms: int, retain_s: float) -> None: ...

    def delete_game(self, game_id: str, version: int) -> bool: ...


class Archive(Protocol):
    """The archive of finished games (``service.archive``: in a directory, on S3), which
    knows what it keeps of a game and where (docs/archive.md). Errors:
    ``errors.ArchiveUnavailable`` (it does not answer), ``errors.ArchiveCorrupt`` (an
    object there is not what it should be), ``errors.ArchiveConflict`` (an object there
    is another game's)."""

    url: str

    def pack(self, game_id: str, record: GameRecord, entries: list[tuple[int, dict]]):
        """What archiving the finished game writes (``ndjson``: its export; ``record``: the
        archive's record of it): the same bytes from the same log and record."""

    def write(self, packed) -> None:
        """Write a packed game, each object once (one already there is left alone)."""

    def read(self, game_id: str):
        """The archived game (None: not there): its ``record``, its export (``ndjson``,
        ``header``, ``entries``) and ``game()``, the game as the use cases know it."""

    def record_keys(self, month: str | None = None) -> list[str]:
        """The keys of the archived games' records (of ``month``, ``YYYY-MM``), sorted."""

    def read_listed(self, key: str):
        """The archived game whose record is at ``key`` (of ``record_keys``), as ``read``."""

    def player_games(self, pkey: str, before: str | None, limit: int) -> list[Listing]:
        """A player's archived games, newest first, older than the cursor ``before``."""

    def player_game(self, pkey: str, listed: Listing) -> dict | None:
        """A player's archived game as its list shows it (None: not there)."""


class Scheduler(Protocol):
    def on_appended(
        self, game_id: str, state: State, before: State | None = None, *, rated: bool = False
    ) -> None:
        """Called once per successful append, after it, with the state it produced and
        the state it was decided on (None for a new game); ``rated``: the game is rated
        (given for the append that ends it)."""

    def arm_webhooks(self, game_id: str) -> None:
        """Called after an append that has something to notify (``service.webhooks``)."""

    def arm_seek(self, seek_id: str, due_ms: float) -> None:
        """Have the seek's due job (its bot fallback, its expiry: ``service.seeks``) run
        at ``due_ms``."""


class NoScheduler:
    """The default: no bots play, no timeouts fire, no webhook is delivered."""

    def on_appended(
        self, game_id: str, state: State, before: State | None = None, *, rated: bool = False
    ) -> None:
        return None

    def arm_webhooks(self, game_id: str) -> None:
        return None

    def arm_seek(self, seek_id: str, due_ms: float) -> None:
        return None  # a reader of the seek does what is due (``Seeks.read``)
