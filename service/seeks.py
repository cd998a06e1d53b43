"""Seeks and quick pairing: ``post`` a seek (a game, its options, rated or not, the ratings
it accepts, a bot fallback), ``read`` it (or wait for it) until it is paired or expired,
``cancel`` it; ``due`` is the scheduler's job at its fallback or expiry time.

Pairing is atomic in Redis (``SeekStore.pair``: one script): the new seek takes the
oldest open seek of the same game, options and ``rated`` whose rating range holds its
rating and whose rating its own range holds; both leave the pool and turn ``making`` with
the id of the game to be, in the same script, so no seek is ever paired twice. The
process that paired them then makes the game (Python: the domain's events) and
``finish``es the pairing. If it dies in between, the pairing waits in ``making`` and the
next reader of either seek, or the seek's scheduler job, or the sweeper finishes it: making
a game is an append at version 0 under the id the script chose, so two finishers make one
game.

A seek's token is the seat's token of the game it is paired into (the game's meta holds
its SHA-256 as the seat's): nothing secret is stored, and whoever makes the game, the
seeker's token works in it.
"""

import hashlib
import hmac
import time
from typing import Protocol

import domain

from .errors import Forbidden, NoSuchGame, SeatTaken, Unauthorized
from .players import ANONYMOUS, NEWCOMER, Who
from .ports import SYSTEM_ENTROPY, Clock, Entropy, PlayerStore, Scheduler, SeekStore, ms_now
from .records import Pairing, SeekRecord
from .seating import Seating
from .tokens import token_hash

RANGE = (0, 4000)  # the ratings a range may name
JOB_GRACE_S = 1.0  # a waiting read does a seek's job once it is this late (its scheduler's)
MAKING_GRACE_S = 1.0  # ... and finishes a pairing its maker left making this long
MIN_WAIT_S = 0.05  # the shortest wait of a waiting read


class Waiter(Protocol):
    """How a long-poll of a seek waits (``service.http.live``: on the live hub)."""

    over: bool  # no use waiting on (its client left, the process stops): answer now

    def wait(self, seek_id: str, after: int, timeout_s: float) -> bool:
        """Block until the seek's version (``v``: how many times its status changed)
        passes ``after`` (True), or ``timeout_s`` passes, or ``over`` turns true (False)."""
        ...


class NoSuchSeek(NoSuchGame):
    """No such seek."""


class OtherSeeksToken(Forbidden):
    """Another seek's token: a failed authentication."""

    failed_auth = True


def pool_of(game: str, options: dict, rated: bool) -> str:
    text = f"{game}|{sorted(options.items())}|{int(rated)}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def nearest_level(game: str, rating: float) -> str:
    """The hosted level whose rating in ``game`` is nearest ``rating`` (``BOT_RATINGS``)."""
    levels = domain.RULES[game].BOT_RATINGS
    return "bot:" + min(levels, key=lambda lv: (abs(levels[lv] - rating), levels[lv]))


class Seeks:
    def __init__(self, seating: Seating, store: SeekStore, players: PlayerStore | None = None,
                 scheduler: Scheduler | None = None, max_s: float = 300.0, *,
                 clock: Clock = ms_now, entropy: Entropy = SYSTEM_ENTROPY):  # fmt: skip
        self.seating = seating  # makes the paired games
        self.store = store
        self.players = players
        self.scheduler = scheduler  # arms a seek's due job (workers.schedule); None: readers
        self.max_s = max_s
        self.clock = clock
        self.entropy = entropy

    def post(
        self, game: str, options: dict | None, *, rated: bool = False,
        rating_range: tuple[int, int] | None = None, bot_fallback_s: float | None = None,
        expires_s: float | None = None, who: Who = ANONYMOUS,
    ) -> dict:  # fmt: skip
        """A new seek: ``{id, token, status, ...}`` (paired already if a compatible seek
        was waiting). Raises MalformedAction naming the field for impossible options,
        ranges or times."""
        opts = domain.options_for(game, options, rated=rated).public()
        expires_s = self.max_s if expires_s is None else expires_s
        errors = {}
        if not 0 < expires_s <= self.max_s:
            errors["expires_s"] = [f"must be more than 0 and at most {self.max_s:g}"]
        if bot_fallback_s is not None and not 0 <= bot_fallback_s < expires_s:
            errors["bot_fallback_s"] = [f"must be at least 0 and less than expires_s "
                                        f"({expires_s:g}): the seek expires first"]  # fmt: skip
        lo, hi = rating_range if rating_range is not None else RANGE
        if not RANGE[0] <= lo <= hi <= RANGE[1]:
            errors["rating_range"] = [f"[low, high] with {RANGE[0]} <= low <= high <= {RANGE[1]}"]
        if rated and who.pkey is None:
            errors["rated"] = ["a rated seek is a player's: name yours (player, X-Api-Key)"]
        if errors:
            raise domain.MalformedAction(errors)
        rating = NEWCOMER.rating
        if who.pkey is not None and self.players is not None:
            self.players.touch_player(who.pkey, who.name, int(self.clock() * 1000))
            (stored,) = self.players.ratings([who.pkey], game)
            rating = stored["rating"] if stored else rating
        now = self.clock()
        seek_id, token = self.entropy.ident("s_"), self.entropy.token()
        expires = int((now + expires_s) * 1000)
        fallback = None if bot_fallback_s is None else int((now + bot_fallback_s) * 1000)
        seek = SeekRecord(
            game=game, options=opts, rated=rated, low=lo, high=hi, rating=round(rating),
            kind=who.kind, name=who.name, pkey=who.pkey, token_hash=token_hash(token),
            created_ms=int(now * 1000), expires_ms=expires, fallback_ms=fallback,
            pool=pool_of(game, opts, rated),
        )  # fmt: skip
        due = fallback if fallback is not None else expires
        self.store.add(seek_id, seek, due)
        if self.scheduler is not None:
            self.scheduler.arm_seek(seek_id, due)
        got, _other = self.store.pair(seek_id, seek.pool, int(now * 1000), self._game_id())
        found = self._settle(seek_id) if got == "paired" else self.store.get(seek_id)
        return {**self._answer(seek_id, found), "token": token}

    def read(
        self, seek_id: str, token: str | None, wait_s: float = 0.0, waiter: "Waiter | None" = None
    ) -> dict:
        """The seek as its holder sees it: open, paired (the game and the seat: the seek's
        token is the seat's), expired or cancelled. With ``wait_s`` and a ``waiter``, a
        long-poll: while the seek is open, the waiter waits for its status to change (no
        read of the store in between), up to ``wait_s``. A seek found due (its scheduler's
        job late) has its fallback or expiry done here: at once when the seek is read, and
        a waiting read wakes for it ``JOB_GRACE_S`` after the due time when a scheduler
        was given (its job comes first). A pairing found making is finished here (the
        process that paired it died), by a waiting read once its maker has had
        ``MAKING_GRACE_S`` to finish it."""
        seek = self._owned(seek_id, token)
        end = time.monotonic() + wait_s
        patient = waiter is not None  # a pairing making: its maker finishes it, first
        while True:
            if seek.status == "making" and not patient:
                seek = self._settle(seek_id)
            elif seek.status == "open" and self._due_ms(seek) <= self.clock() * 1000:
                self.due(seek_id)  # its job is late: do it now
                seek = self.store.get(seek_id)
            left = end - time.monotonic()
            status = seek.status
            if status not in ("open", "making") or waiter is None or waiter.over or left <= 0:
                return self._answer(seek_id, seek)
            if status == "making":
                timeout = min(left, MAKING_GRACE_S)
            else:
                grace = JOB_GRACE_S if self.scheduler is not None else 0.0
                due_in = self._due_ms(seek) / 1000 - self.clock() + grace
                timeout = min(left, max(due_in, MIN_WAIT_S))
            moved = waiter.wait(seek_id, seek.version, timeout)
            if status == "making" and not moved:
                patient = False  # its maker did not finish it in time: this read does
            seek = self.store.get(seek_id)

    def cancel(self, seek_id: str, token: str | None) -> None:
        """Cancel an open seek (or one cancelled or expired: nothing to do); 409 once paired."""
        seek = self._owned(seek_id, token)
        status = self.store.cancel(seek_id, seek.pool)
        if status in ("making", "paired"):
            if status == "making":
                self._settle(seek_id)
            raise SeatTaken(f"the seek is paired already: game {self.store.get(seek_id).game_id}")

    def due(self, seek_id: str) -> tuple[str, int | None]:
        """The seek's job: its bot fallback or its expiry, if due (the outcome, and the next
        due time when it is not yet); a pairing left making is finished."""
        seek = self.store.get(seek_id)
        if seek is None:
            return "gone", None
        if seek.status == "making":
            self._settle(seek_id)
            return "settled", None
        level = nearest_level(seek.game, seek.rating)
        now = int(self.clock() * 1000)
        got, nxt = self.store.due(seek_id, seek.pool, now, self._game_id(), level)
        if got == "fallback":
            self._settle(seek_id)
        elif got == "later" and self.scheduler is not None:
            self.scheduler.arm_seek(seek_id, nxt)
        return got, nxt

    def settle_stale(self, older_than_ms: int) -> int:
        """Finish the pairings left making before ``older_than_ms`` (a crash): how many."""
        pairings = self.store.making(older_than_ms)
        for pairing in pairings:
            self._make(pairing)
        return len(pairings)

    # ---------------------------------------------------------------- internals

    def _game_id(self) -> str:
        return self.entropy.ident("g_")

    @staticmethod
    def _due_ms(seek: SeekRecord) -> int:
        """When an open seek's job is due: its bot fallback, else its expiry (ms)."""
        return seek.fallback_ms if seek.fallback_ms is not None else seek.expires_ms

    def _owned(self, seek_id: str, token: str | None) -> SeekRecord:
        seek = self.store.get(seek_id)
        if seek is None:
            raise NoSuchSeek(f"no seek {seek_id}")
        if token is None:
            raise Unauthorized("send the seek's token as Authorization: Bearer <token>")
        if not hmac.compare_digest(token_hash(token), seek.token_hash):
            raise OtherSeeksToken("not this seek's token")
        return seek

    def _settle(self, seek_id: str) -> SeekRecord:
        """Make the game of a seek left making (idempotent), and record it on its seeks."""
        seek = self.store.get(seek_id)
        if seek.status == "making":
            pair = (seek_id, seek.opponent) if seek.seat == 0 else (seek.opponent, seek_id)
            self._make(Pairing(seek.game_id, *pair))
            seek = self.store.get(seek_id)
        return seek

    def _make(self, pairing: Pairing) -> None:
        first = self.store.get(pairing.first)
        b = pairing.second
        second = None if b.startswith("bot:") else self.store.get(b)
        seats = [Who(first.kind, first.name, first.pkey), b]
        hashes = [first.token_hash, None]
        if second is not None:
            seats[1] = Who(second.kind, second.name, second.pkey)
            hashes[1] = second.token_hash
        self.seating.make(pairing.game_id, first.game, first.options, tuple(seats),
                        tuple(hashes), rated=first.rated)  # fmt: skip
        self.store.finish(pairing)

    def _answer(self, seek_id: str, seek: SeekRecord) -> dict:
        iso = domain.views.iso
        paired = seek.status == "paired"
        fallback = seek.fallback_ms
        return {
            "id": seek_id,
            "status": seek.status,
            "game": seek.game,
            "rated": seek.rated,
            "rating_range": [seek.low, seek.high],
            "expires_at": iso(seek.expires_ms / 1000),
            "bot_fallback_at": iso(fallback / 1000) if fallback is not None else None,
            "game_id": seek.game_id if paired else None,
            "seat": seek.seat if paired else None,
            "opponent": (seek.opponent if seek.opponent.startswith("bot:") else "seek")
            if paired else None,
        }  # fmt: skip
