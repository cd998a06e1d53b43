"""Reading a game: the game now (``Reading.load``: this process's cached state, or the
latest snapshot, plus the events after it, in one round trip; from the archive once the
game has left Redis), its views as a seat may see them (RULES H-1..H-5: every answer
that shows cards goes through ``domain.view`` / ``domain.redact`` for the caller's seat),
its log, its past states and its export."""

import logging

import domain
from domain import State
from domain import export as export_formats

from .cache import Game, GameCache
from .errors import ArchiveCorrupt, ArchiveUnreadable, GameRunning, NoSuchGame, NoSuchVersion
from .players import decorate, with_players
from .ports import Archive, Clash, GameStore

log = logging.getLogger(__name__)

# the events after which a game's record is no longer the one before them: a seat taken
# names its player; the end applies the rating and opens the rematch
RECORD_EVENTS = frozenset({"seat_taken", "game_ended", "game_aborted"})


class Reading:
    """The game now, its views, its log and its past states."""

    def __init__(self, store: GameStore, cache: GameCache, *, archive: Archive | None = None,
                 snapshot_every: int = 50, rematch_s: float = 60.0):  # fmt: skip
        self.store = store
        self.cache = cache
        self.archive = archive  # where finished games go once out of Redis (None: nowhere)
        self.snapshot_every = snapshot_every
        self.rematch_s = rematch_s  # how long after its end a game may be rematched

    # ---------------------------------------------------------------- the game now

    def load(self, game_id: str) -> Game:
        """The game now (404 if there is none), in one round trip (none for a cached
        archived game)."""
        return self.load_keyed(game_id)[0]

    def load_keyed(self, game_id: str, idem_key: str | None = None):
        """The game now and, with ``idem_key``, that key's records for both seats: the
        cached state or the latest snapshot, plus the events after it, in one round
        trip."""
        cached = self.cache.get(game_id)
        if cached is not None and cached.log is not None:
            return cached, (None, None)  # archived: it never changes again
        loaded = self.store.load(game_id, cached.version if cached else -1, idem_key)
        if loaded is None:
            return self.archived(game_id), (None, None)
        state, tail = State(), loaded.tail
        if loaded.snapshot is not None:
            try:
                state = domain.state_from_dict(loaded.snapshot)
            except (ValueError, KeyError, TypeError):  # a format of older code: the log rules
                log.warning("snapshot of %s unreadable: replaying its log", game_id)
                tail = self.store.read_after(game_id, 0)
        elif cached is not None and loaded.base == cached.version:
            state = cached.state
        game = self._advance(Game(game_id, state, loaded.record), tail, loaded.version)
        return game, loaded.idem

    def moved_on(self, game: Game, entries) -> Game | None:
        """``game`` moved on by the log's ``entries`` (as the live hub or the store gave
        them; those it already holds are passed over) with the reducer, without a read;
        this process's cached game instead when it is already there. None, and the
        caller loads the game, when they do not follow on from it, when one of them
        changes the game's record (``RECORD_EVENTS``), or for an archived game."""
        fresh = [e for e in entries if e[0] > game.version]
        if not fresh:
            return game
        if game.log is not None or fresh[0][0] != game.version + 1:
            return None
        if any(d["type"] in RECORD_EVENTS for _v, d in fresh):
            return None
        target = fresh[-1][0]
        cached = self.cache.get(game.id)
        if cached is not None and cached.version == target and cached.log is None:
            return cached
        try:
            state = domain.replay((domain.event_from_dict(d) for _v, d in fresh), game.state)
        except (ValueError, KeyError, TypeError, domain.DomainError, domain.CardError) as e:
            log.warning("entries of %s did not move its game on (%s)", game.id, type(e).__name__)
            return None
        if state.version != target:
            return None
        # (the record's status moves only with a seat taken or the end, both read anew)
        moved = Game(game.id, state, game.record)
        self.cache.put(moved)
        return moved

    def caught_up(self, game: Game, clash: Clash) -> Game:
        """``game`` after an append that found it behind: moved on by the events the clash
        brought (or loaded again, when it was too far behind for them)."""
        if clash.tail is None:
            return self.load(game.id)
        return self._advance(Game(game.id, game.state, clash.record), clash.tail, clash.version)

    def archived(self, game_id: str) -> Game:
        """A game that is no longer in Redis, from the archive (404 if it is not there);
        502 naming the game if its archived copy is unreadable."""
        try:
            found = self.archive.read(game_id) if self.archive is not None else None
        except ArchiveCorrupt as e:
            log.error("archived game %s unreadable: %s", game_id, e)
            raise ArchiveUnreadable(
                f"game {game_id} is archived, and its archived copy is unreadable "
                f"({e.key}: {e.why})"
            ) from None
        if found is None:
            raise NoSuchGame(f"no game {game_id}")
        game = found.game()
        self.cache.put(game)
        return game

    def _advance(self, game: Game, tail, version: int) -> Game:
        """``game`` moved on by the events it missed (``tail``), checked against ``version``."""
        state = game.state
        if tail:
            state = domain.replay((domain.event_from_dict(d) for _v, d in tail), state)
        if state.version != version:  # a snapshot or cache out of step: the log rules
            entries = self.store.read_after(game.id, 0)
            state = domain.replay(domain.event_from_dict(d) for _v, d in entries)
        game = Game(game.id, state, game.record)
        self.cache.put(game)
        return game

    # ---------------------------------------------------------------- views

    def view(self, game: Game, seat: int | None, state: State | None = None) -> dict:
        """``state`` (default: the game's now) as ``seat`` may see it (``domain.view``),
        with the game's players, whether it is rated, and its rematch links."""
        state = game.state if state is None else state
        return decorate(domain.view(state, seat), game.record, self.rematch_of(game, state))

    def rematch_of(self, game: Game, state: State | None = None) -> dict | None:
        """The rematch of a finished game (``service.rematch``): who asked for it, the new
        game once made, and until when it may be asked for; None before the end."""
        state = game.state if state is None else state
        if state.status != "finished":
            return None
        rematch = game.record.rematch
        return {
            "game": rematch.game,
            "asked": [a is not None for a in rematch.asked_ms],
            "until": domain.views.iso(state.phase_since + self.rematch_s),
        }

    @staticmethod
    def changed_after_end(game: Game) -> bool:
        """Whether the game's views may have changed after its last event: a rematch asked
        for or made, its rating applied, or the game read from the archive (a record
        written before its rematch was archived with it, decision 0019, holds none: its
        view lost one if there was). Its version (the ETag) no longer tells those views
        apart, so a read of it is never answered 304."""
        record = game.record
        return game.log is not None or record.rematch.any or record.rating is not None

    # ---------------------------------------------------------------- the log

    def entries(
        self, game: Game, after: int = 0, limit: int | None = None, upto: int | None = None
    ) -> list[tuple[int, dict]]:
        """The log's entries with versions ``after+1 .. upto`` (at most ``limit``), as stored:
        (version, event's wire form); from the archive once the game has left Redis."""
        last = game.version if upto is None else min(upto, game.version)
        if game.log is None:
            entries = self.store.read_after(game.id, after, limit, upto)
            want = max(0, last - after) if limit is None else min(limit, max(0, last - after))
            if len(entries) >= want or not game.state.over:
                return entries
            game = self.archived(game.id)  # deleted from Redis since it was loaded
        end = last if limit is None else min(last, after + limit)
        return list(game.log[max(0, after) : max(0, end)])

    @staticmethod
    def redacted(entries, seat: int | None, public: bool, record=None) -> list[dict]:
        """Stored entries as ``seat`` may see them (in full when ``public``: the game is
        over); with ``record``, the events that seat someone name the seat's player
        (``players.with_players``)."""
        out = [
            {"version": v, **domain.redact(domain.event_from_dict(d), seat, public=public)}
            for v, d in entries
        ]
        return with_players(out, record) if record is not None else out

    def export(self, game: Game, notation: bool = False) -> str:
        """A finished game, complete, with its seed: the NDJSON log or the notation
        (docs/export.md); 409 while it runs (the seed is secret until then)."""
        if not game.state.over:
            raise GameRunning(
                "the export opens when the game is over: the seed is secret until then",
                version=game.version,
            )
        events = [domain.event_from_dict(d) for _v, d in self.entries(game)]
        write = export_formats.to_notation if notation else export_formats.to_ndjson
        return write(events, game.seed)

    # ---------------------------------------------------------------- past states

    def state_at(self, game: Game, seat: int | None, version: int) -> dict:
        """The state after ``version`` events: ``seat``'s view during the game, the full
        state once it is over (RULES H-5, H-6)."""
        if not 1 <= version <= game.version:
            raise NoSuchVersion(
                f"versions of this game run from 1 to {game.version}", version=game.version
            )
        state = self.past(game, version)
        if game.state.over:
            out = domain.full_state(state, seat)
            return decorate(out, game.record, self.rematch_of(game, state))
        return self.view(game, seat, state)

    def state_of(self, game: Game, version: int) -> State:
        """The game's state after ``version`` events (0: before the first)."""
        return self.past(game, version) if version > 0 else State()

    def past(self, game: Game, version: int) -> State:
        """The game's state after ``version`` events (1 or more): from the latest snapshot
        at or before it, and the events since."""
        if version == game.version:
            return game.state
        base = version // self.snapshot_every * self.snapshot_every
        snap = self.store.snapshot_at(game.id, base) if base > 0 else None
        state = State()
        if snap is not None:
            try:
                state = domain.state_from_dict(snap)
            except (ValueError, KeyError, TypeError):
                base = 0
        else:
            base = 0
        entries = self.entries(game, base, upto=version)
        return domain.replay((domain.event_from_dict(d) for _v, d in entries), state)
