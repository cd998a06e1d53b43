"""The ports the use cases call out through, each with the adapter that implements it:

- ``GameStore``, ``RematchStore``, ``WebhookStore``: ``service.store.redis.RedisStore``
  (and the results of its calls: ``Loaded``, ``Appended``, ``Clash``, ``Replayed``,
  ``Listed``);
- ``PlayerStore``, ``AppStore``: ``service.store.players.PlayerStore``;
- ``SeekStore``: ``service.store.seeks.SeekStore``;
- ``Archive``: ``service.archive.games.GameArchive`` (a directory, S3);
- ``Outbound``: ``service.outbound.webhooks.HttpOutbound`` (DNS, and the webhooks' POSTs);
- ``Clock`` and ``Entropy``: the system's (``time.time``, ``SystemEntropy``) unless a test
  gives its own;
- ``Scheduler``: the hook called after every successful append, the seam for bots and
  timeouts.

Each has an in-memory fake in tests/support/fakes.py, on which the use cases' tests run.

The entry points plug the workers' scheduler in (``workers.schedule.Scheduler``, given to
the composition root, ``service.bootstrap.Root``): after each append it learns the
game's new state (and the one before) and arms what ``domain.deadlines(state)`` and the
bots' turns require.
By default nothing happens.
"""

import math
import random
import secrets
import time
from dataclasses import dataclass
from typing import Protocol

from domain import State

from .records import (
    AppRecord,
    GameRecord,
    HookCursor,
    IdemKey,
    KeptAnswer,
    Pairing,
    PlayerRecord,
    SeekRecord,
)

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
    idem: tuple[KeptAnswer | None, KeptAnswer | None]  # the probed key's, per seat


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

    record: KeptAnswer


class GameStore(Protocol):
    """Games as append-only logs beside their records (``service.store.redis`` tells how
    they are kept), the idempotency records of their requests, the lobby's and the
    tokens' indexes, and the windows in which the service refused a seat (RULES T-4)."""

    def append(self, game_id: str, expected: int, events: list[dict], *,
               idem: tuple[IdemKey, KeptAnswer] | None = None,
               snapshot: tuple[int, dict] | None = None,
               record: GameRecord | None = None,
               before: GameRecord | None = None) -> "Appended | Clash | Replayed":  # fmt: skip
        """Append ``events`` if the log holds exactly ``expected`` events, all or nothing,
        with ``idem`` (key, record: kept unless the key has one, then ``Replayed``),
        ``snapshot`` (version, state) and ``record`` (the game's, written where it differs
        from ``before``; None before: a new game's, whole)."""
        ...

    def load(self, game_id: str, known: int = -1,
             idem_key: str | None = None) -> "Loaded | None":  # fmt: skip
        """The game in one round trip (None: no such game): its record, its version, and
        the events after the newest useful base (``known``: the version the caller holds);
        with ``idem_key``, that key's records for both seats."""
        ...

    def confirm(self) -> bool:
        """Strict durability: whether everything read so far from the store is held as an
        append must be before its answer (a replayed answer's record, say); True when
        there is nothing to wait for."""
        ...

    def read_after(self, game_id: str, after: int, limit: int | None = None,
                   upto: int | None = None) -> list[tuple[int, dict]]: ...  # fmt: skip

    def snapshot_at(self, game_id: str, version: int) -> dict | None: ...

    def version(self, game_id: str) -> int: ...

    def game_record(self, game_id: str) -> GameRecord | None: ...

    def record(self, game_id: str, key: IdemKey, record: KeptAnswer) -> KeptAnswer | None:
        """Keep an idempotency record unless ``key`` has one (answered: that one is
        returned), or the game is gone."""
        ...

    def find_record(self, game_id: str, key: IdemKey) -> KeptAnswer | None: ...

    def claim_create(self, key_hash: str, game_id: str, fp: str,
                     now_ms: int) -> tuple[str, str, int] | None:  # fmt: skip
        """Bind a create's key to the game about to be made: None, or the (game,
        fingerprint, ms) it was bound to first."""
        ...

    def release_create(self, key_hash: str, game_id: str) -> None: ...

    def index(self, game_id: str, *, status: str, created_ms: int,
              tokens: dict[int, str] | None = None) -> None: ...  # fmt: skip

    def token_owner(self, token_hash: str) -> tuple[str, int] | None: ...

    def lobby(self, status: str, cursor: str | None,
              limit: int) -> tuple[list[Listed], str | None]: ...  # fmt: skip

    def refused(self, game_id: str, token_hash: str, start: float, end: float) -> None: ...

    def refused_windows(self, game_id: str, token_hash: str,
                        since: float) -> list[tuple[float, float]]: ...  # fmt: skip

    def set_rating(self, game_id: str, outcome: dict) -> bool:
        """Record the rating's outcome of a game that exists (False if it does not)."""
        ...

    def mark_archived(self, game_id: str, version: int, at_ms: int, retain_s: float) -> None: ...

    def delete_game(self, game_id: str, version: int) -> bool: ...


class RematchStore(Protocol):
    """The asks for a finished game's rematch, kept with the game (``service.rematch``)."""

    def rematch(self, game_id: str, seat: int, now_ms: int, until_ms: int, new_id: str,
                agrees: tuple[bool, bool]) -> tuple[str, str | None]:  # fmt: skip
        """Record ``seat``'s ask, all at once: (``made``, the new game's id, named by the
        ask that completed the pair), (``waiting``, None), (``expired``, None),
        (``closed``, None) or (``gone``, None)."""
        ...

    def close_rematch(self, game_id: str) -> None:
        """Refuse any further ask (the game is being archived)."""
        ...


class WebhookStore(Protocol):
    """What the webhook deliveries of a game keep (``service.webhooks``): per target, a
    cursor (``HookCursor``; a target never tried: its first), the latest deliveries, and
    a lock that lets one job at a time deliver a game's notifications."""

    def hooks(self, game_id: str, target: str) -> HookCursor: ...

    def set_hooks(self, game_id: str, target: str, cursor: HookCursor) -> None: ...

    def log_delivery(self, game_id: str, target: str, entry: dict, keep: int) -> None: ...

    def deliveries(self, game_id: str, count: int) -> list[dict]: ...

    def lock(self, game_id: str, what: str, ttl_ms: int) -> str | None: ...

    def unlock(self, game_id: str, what: str, token: str) -> None: ...


class PlayerStore(Protocol):
    """Apps' players, their ratings, the leaderboards, their lists of games and the rated
    games of each pair of seats (``service.store.players``)."""

    def touch_player(self, pkey: str, name: str | None, now_ms: int) -> None: ...

    def player(self, pkey: str) -> PlayerRecord | None: ...

    def players(self, pkeys: list[str]) -> list[PlayerRecord | None]: ...

    def ratings(self, pkeys: list[str], kind: str) -> list[dict | None]: ...

    def index_game(self, pkeys: list[str], game_id: str, created_ms: int) -> None: ...

    def player_games(self, pkey: str, before: str | None, limit: int) -> list[Listing]: ...

    def forget_game(self, game_id: str, pkeys: list[str], created_ms: int) -> None: ...

    def read_for_rating(self, game_id: str, kind: str,
                        pkeys: list[str]) -> tuple[str | None, list]:  # fmt: skip
        """(the game's rating marker or None, [(guard, rating or None) per player]), read
        at one instant."""
        ...

    def apply_rating(
        self, game_id: str, kind: str, outcome: str, updates: list[tuple[str, str, dict, bool]]
    ) -> tuple[str, str | None]:
        """Apply every update and mark the game, all at once, unless it is marked
        (``done``) or a guard moved (``moved``): ``ok``."""
        ...

    def leaderboard(self, kind: str, cursor: str | None,
                    limit: int) -> tuple[list[tuple[str, str]], bool]: ...  # fmt: skip

    def rank(self, kind: str, member: str) -> int: ...

    def unlist(self, kind: str, member: str) -> None: ...

    def take_pair(self, a: str, b: str, game_id: str, now_ms: int, window_ms: int, cap: int,
                  take: bool = True) -> tuple[str, int]: ...  # fmt: skip

    def release_pair(self, a: str, b: str, game_id: str) -> None: ...


class AppStore(Protocol):
    """Apps and the hashes of their keys (``service.store.players``)."""

    def add_app(self, app_id: str, key_hash: str, name: str, created_ms: int) -> None: ...

    def app_by_hash(self, key_hash: str) -> AppRecord | None: ...

    def apps(self) -> list[AppRecord]: ...

    def revoke_app(self, app_id: str, at_ms: int) -> AppRecord | None: ...


class SeekStore(Protocol):
    """Seeks and their pairing (``service.store.seeks``): each change of a seek's status
    at once, so that no seek is ever paired twice."""

    def add(self, seek_id: str, seek: SeekRecord, due_ms: int) -> None: ...

    def get(self, seek_id: str) -> SeekRecord | None: ...

    def pair(self, seek_id: str, pool: str, now_ms: int, game_id: str) -> tuple[str, str | None]:
        """Pair the new open seek with the oldest compatible one of its pool, both turning
        ``making`` (``paired``, the other), or queue it (``queued``), or ``not-open``."""
        ...

    def due(self, seek_id: str, pool: str, now_ms: int, game_id: str,
            level: str) -> tuple[str, int | None]:  # fmt: skip
        """Its bot fallback (``fallback``: paired with ``level``, making) or its expiry
        (``expired``) if due, else (``later``, the next due ms), or ``not-open``."""
        ...

    def finish(self, pairing: Pairing) -> None: ...

    def cancel(self, seek_id: str, pool: str) -> str | None: ...

    def making(self, older_than_ms: int) -> list[Pairing]: ...

    def overdue(self, now_ms: int, limit: int = 500) -> list[str]: ...


class Outbound(Protocol):
    """The outside world webhooks reach (``service.outbound``): names to addresses, and a
    notification POSTed to an address already checked."""

    def lookup(self, host: str, port: int) -> list[str]:
        """The addresses ``host`` resolves to (OSError or UnicodeError if none)."""
        ...

    def post(self, url: str, host: str, addresses: list[str], body: bytes, headers: dict,
             timeout_s: float) -> int:  # fmt: skip
        """POST ``body`` to ``url`` at one of ``addresses``: the status (OSError if none
        came in ``timeout_s``)."""
        ...


class Clock(Protocol):
    """Now, in seconds since the epoch (``time.time``, ``ms_now`` or a test's)."""

    def __call__(self) -> float: ...


def ms_now() -> float:
    """The time events are stamped with: now, rounded up to the millisecond (what the
    export notation keeps, docs/export.md; up, so a deadline is never fired early)."""
    return math.ceil(time.time() * 1000) / 1000


class Entropy(Protocol):
    """What the use cases draw at random: games' seeds, tokens, secrets and ids."""

    def seed(self) -> bytes:
        """A game's server seed: 32 bytes (revealed only by its audit, RULES H-6)."""
        ...

    def token(self) -> str:
        """A bearer token (a seat's, a seek's, an API key's): 256 bits, URL-safe."""
        ...

    def secret(self) -> str:
        """A secret others derive from (a game's keyed seats' tokens): 128 bits, hex."""
        ...

    def ident(self, prefix: str, nbytes: int = 8) -> str:
        """A new id: ``prefix`` and ``nbytes`` random bytes in hex (``g_``, ``s_``, ...)."""
        ...

    def jitter(self, high: float) -> float:
        """A random pause, between 0 and ``high`` seconds."""
        ...


class SystemEntropy:
    """The ``Entropy`` of the running service: the OS's (``secrets``; ``random`` for the
    pauses, which need no secrecy)."""

    def seed(self) -> bytes:
        return secrets.token_bytes(32)

    def token(self) -> str:
        return secrets.token_urlsafe(32)

    def secret(self) -> str:
        return secrets.token_hex(16)

    def ident(self, prefix: str, nbytes: int = 8) -> str:
        return prefix + secrets.token_hex(nbytes)

    def jitter(self, high: float) -> float:
        return random.uniform(0, high)


SYSTEM_ENTROPY = SystemEntropy()


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
