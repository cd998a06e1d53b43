"""The archive job's use case (``Archiver``): a finished game, once its rematch asks are
over and its rating applied, is written to the archive (``ports.Archive``: docs/archive.md
tells what it keeps, ``service.archive`` where), read back and checked, and after its
retention deleted from Redis.

A failure is one a retry may get past (``ArchiveUnavailable``: the archive does not
answer) or one it cannot (``permanent``: an object there that is not this game's, a log
or record that cannot be packed, a key refused): the job records the latter once and stops
(``workers.jobs.archive_game``).
"""

import logging
import time

from .errors import ArchiveConflict, ArchiveCorrupt, NotArchived
from .ports import Archive, GameStore
from .records import GameRecord

__all__ = ["ArchiveConflict", "ArchiveCorrupt", "Archiver", "NotArchived", "permanent"]

log = logging.getLogger(__name__)

OVER = ("finished", "aborted")  # the statuses of a game that is over (``State.over``)


def permanent(e: BaseException) -> bool:
    """Whether an archive job that raised ``e`` would raise it again however often it
    ran, nothing else changing: an object of the archive that is not this game's
    (ArchiveConflict, ArchiveCorrupt: never overwritten), a log or record that cannot be
    packed, a key of no grammar (ValueError, KeyError, TypeError). The archive not
    answering (``ArchiveUnavailable``), or Redis not, is not."""
    return isinstance(e, ArchiveConflict | ArchiveCorrupt | ValueError | KeyError | TypeError)


class Archiver:
    """The archive job's use case: write a finished game to the archive, read it back and
    check it, and after ``retain_s`` delete it from Redis (RULES: nothing is deleted
    before it is safely stored elsewhere). A rated game is rated first (``rater``,
    ``service.rating``): its record holds the outcome, and it never leaves Redis unrated.
    A finished game is archived once its rematch asks are over (``rematch_s`` after its
    end, ``service.rematch``), and closed to any late one first: its record holds its
    rematch as it stays."""

    HOLD_S = 30.0  # a game held by undelivered notifications is looked at again this often
    CLOSE_GRACE_S = 5.0  # rematch asks are closed this long after their time is over

    def __init__(self, store: GameStore, archive: Archive, retain_s: float, clock=time.time,
                 hold=None, hold_max_s: float = 2 * 86_400, *, rater=None,
                 players=None, rematch_s: float = 0.0, settle=None):  # fmt: skip
        self.store = store
        self.archive = archive
        self.retain_s = retain_s
        self.clock = clock
        self.hold = hold  # (game id, record, version) -> whether something keeps it in Redis
        self.hold_max_s = hold_max_s  # ... for this long past the retention at most
        self.rater = rater  # service.rating.Rater (None: a rated game waits, unarchived)
        self.players = players  # service.store.players.PlayerStore: the players' lists
        self.rematch_s = rematch_s  # how long after its end a game's rematch may be asked
        self.settle = settle  # game id -> None: make its rematch if named, not made

    def step(self, game_id: str) -> tuple[str, float | None]:
        """Do the next step for ``game_id``: (outcome, when to run again or None).

        - ``waiting``: a finished game whose rematch may still be asked for; again when
          it may not (then closed to late asks, and archived);
        - ``archived``: written, read back, checked; again when retention ends;
        - ``retained``: archived, retention not over yet; again when it is;
        - ``held``: retention over, but ``hold`` keeps it (webhook notifications left to
          deliver, for their retry window at most); again a little later;
        - ``deleted``: the archived copy checked once more against Redis, then every
          Redis key of the game deleted; done;
        - ``gone``: not in Redis (deleted already); ``running``: not over (nothing to do);
        - ``unrated``: a rated game whose rating is not applied, with no rater here.
        Raises ArchiveUnavailable, ArchiveConflict or ArchiveCorrupt: the game stays in
        Redis and the caller tries again later.
        """
        found = self._finished(game_id)
        if isinstance(found, str):
            return found, (self.clock() + 1.0 if found == "unrated" else None)
        record, version = found
        now = self.clock()
        archived = record.archived
        if archived is None:
            asks_until = self._asks_until(game_id, record, version)
            if now < asks_until:
                return "waiting", asks_until
            record = self._closed(game_id, record)
            self._write(game_id, self._pack(game_id, record, version))
            self.store.mark_archived(game_id, version, int(now * 1000), self.retain_s)
            return "archived", now + self.retain_s
        at = archived.at_ms / 1000
        if now < at + self.retain_s:
            return "retained", at + self.retain_s
        held_until = at + self.retain_s + self.hold_max_s
        if self.hold is not None and now < held_until and self.hold(game_id, record, version):
            return "held", now + self.HOLD_S  # webhooks to deliver (from Redis's log)
        self._delete(game_id, version, self._pack(game_id, record, version), record)
        return "deleted", None

    def archive_now(self, game_id: str) -> str:
        """Archive a finished game now, whatever the schedule (``spitlog admin archive``):
        ``archived`` (written, read back, checked), or ``verified`` (it was archived
        already: checked again); ``gone`` or ``running`` as ``step``. The retention still
        runs from the first archiving: nothing is deleted here."""
        found = self._finished(game_id)
        if isinstance(found, str):
            return found
        record, version = found
        if record.archived is None:
            record = self._closed(game_id, record)  # its rematch offer ends here
        packed = self._pack(game_id, record, version)
        if record.archived is not None:
            self._check(game_id, packed)
            return "verified"
        self._write(game_id, packed)
        self.store.mark_archived(game_id, version, int(self.clock() * 1000), self.retain_s)
        return "archived"

    def delete_now(self, game_id: str) -> str:
        """Delete an archived game from Redis now, its retention over or not (``spitlog
        admin delete``), once its archived copy is checked once more against Redis:
        ``deleted``; ``gone`` or ``running`` as ``step``. A game never archived is left
        whole: NotArchived."""
        found = self._finished(game_id)
        if isinstance(found, str):
            return found
        record, version = found
        if record.archived is None:
            raise NotArchived(f"game {game_id} is not archived yet: it stays in Redis")
        self._delete(game_id, version, self._pack(game_id, record, version), record)
        return "deleted"

    def _finished(self, game_id: str) -> tuple[GameRecord, int] | str:
        """(record, version) of a finished game in Redis, rated first if it is a rated game
        (exactly once: ``service.rating``): its record keeps the outcome. Else ``gone``
        (not in Redis), ``running`` (not over) or ``unrated`` (a rated game, and no rater
        here). Its log is read only by a step that needs it (``_pack``)."""
        record = self.store.game_record(game_id)
        if record is None:
            return "gone"
        if record.status not in OVER:
            return "running"
        version = self.store.version(game_id)
        if record.rated and record.status == "finished" and record.rating is None:
            if self.rater is None:
                return "unrated"
            self.rater.step(game_id)  # exactly once, however often it runs
            record = self.store.game_record(game_id) or record
            if record.rating is None:
                raise ValueError(f"game {game_id}: rated, and still no outcome")
        return record, version

    def _asks_until(self, game_id: str, record: GameRecord, version: int) -> float:
        """When to close the game to rematch asks: ``CLOSE_GRACE_S`` after they end (its
        last event's time plus ``rematch_s``, by the API's clock, which the rematch script
        holds them to: the grace covers a clock here a little ahead); 0 for a game that
        cannot have one (aborted)."""
        if record.status != "finished" or self.rematch_s <= 0:
            return 0.0
        last = self.store.read_after(game_id, version - 1)
        return last[-1][1]["at"] + self.rematch_s + self.CLOSE_GRACE_S if last else 0.0

    def _closed(self, game_id: str, record: GameRecord) -> GameRecord:
        """Close the finished game to rematch asks (``close_rematch``), then its record
        as it stays: the rematch in it is the one archived."""
        if record.status != "finished":
            return record
        self.store.close_rematch(game_id)
        now = self.store.game_record(game_id)
        if self.settle is not None and now is not None and now.rematch.game is not None:
            self.settle(game_id)
        return self.store.game_record(game_id) or record

    def _pack(self, game_id: str, record: GameRecord, version: int):
        """The archive objects of the finished game's whole log (``Archive.pack``)."""
        entries = self.store.read_after(game_id, 0)
        if len(entries) != version or not entries:
            raise ValueError(f"game {game_id}: the log is not whole")
        return self.archive.pack(game_id, record, entries)

    def _delete(self, game_id: str, version: int, packed, record: GameRecord) -> None:
        self._check(game_id, packed)  # once more, right before the delete
        named = [p for p in record.pkeys if p is not None]
        if self.players is not None and (named or record.rated):
            # its index entries before its keys, as delete_game does (the archive lists it)
            self.players.forget_game(game_id, named, record.created_ms)
        if not self.store.delete_game(game_id, version):
            raise ValueError(f"game {game_id} changed since it was archived: not deleted")

    def _write(self, game_id: str, packed) -> None:
        self.archive.write(packed)
        self._check(game_id, packed)

    def _check(self, game_id: str, packed) -> None:
        """Read the game back from the archive: its export must be the one Redis makes."""
        got = self.archive.read(game_id)
        if got is None:
            raise ArchiveCorrupt(packed.pointer, "missing after it was written")
        if got.ndjson != packed.ndjson:
            raise ArchiveCorrupt(got.record["export"]["key"], "not the export Redis makes")
