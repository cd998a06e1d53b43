"""Rematches: after a finished game, either seat asks; once both have, a new game of the
same kind and options, seats swapped, players, names and ``rated`` kept, linked from both
games (the old game's view: ``rematch.game``; the new one's: ``rematch_of``).

The protocol (README.md, *Rematch*): ``POST /v1/games/{id}/rematch`` with a seat's token
records that seat's ask and answers ``202`` (waiting for the other, until ``until``) or,
once both have asked, ``201`` with the new game, the caller's new seat and its token. The
first asker learns its own by ``GET /v1/games/{id}/rematch`` with its old token (or by
asking again: an ask is idempotent). A hosted bot always agrees: against one, the first ask
makes the game. Asks count until ``SPITLOG_REMATCH_S`` after the game's end; after that, or
once the archive job closed them (``service.archiving``: a few seconds later, or at once
by ``spitlog admin archive``), a ``409``.

Exactly one new game: the asks are recorded by one script on the old game's record
(``RedisStore.rematch``), which names the new game's id once, in the ask that completes
the pair. Whoever finds it named and the game not there yet (that ask's process, or one
that crashed before it made it, then any later ask or read, or at the latest the archive
job, ``settle``) makes it: an append at version 0, which only one can do. The new seats'
tokens are derived from the old game's secret (an HMAC of the new id and the old seat),
so each seat gets the same one whoever made the game, and neither is stored.
"""

import base64
import hashlib
import hmac

import domain

from .cache import Game
from .errors import GameRunning, NoSuchGame, ServiceError
from .pairs import RatedPairs
from .players import Who
from .ports import SYSTEM_ENTROPY, Clock, Entropy, RematchStore
from .reading import Reading
from .records import GameRecord
from .seating import Seating
from .tokens import Tokens, token_hash


class RematchExpired(ServiceError):
    """A rematch asked for too late: its time is over, or the game is being archived."""


def new_token(secret: str, new_id: str, old_seat: int) -> str:
    mac = hmac.new(bytes.fromhex(secret), f"rematch:{new_id}:{old_seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def _occupant(record: GameRecord, seat: int) -> Who:
    s = record.seats[seat]
    kind = s.kind or "human"
    if s.player is not None:
        return Who(kind, s.player.name, s.player.pkey)
    return Who(kind, s.name, None)


def _hosted(record: GameRecord, seat: int) -> bool:
    return (record.seats[seat].kind or "").startswith("bot:")


class Rematches:
    def __init__(self, reading: Reading, tokens: Tokens, seating: Seating, pairs: RatedPairs,
                 store: RematchStore, *, clock: Clock, rematch_s: float = 60.0,
                 entropy: Entropy = SYSTEM_ENTROPY):  # fmt: skip
        self.reading = reading
        self.tokens = tokens
        self.seating = seating  # makes the new game
        self.pairs = pairs
        self.store = store
        self.clock = clock
        self.rematch_s = rematch_s  # how long after its end a game's rematch may be asked
        self.entropy = entropy

    def _finished(self, game_id: str, token: str | None, required: bool):
        game = self.reading.load(game_id)
        seat = self.tokens.seat(game, token, required=required)
        if game.state.status != "finished":
            what = "aborted" if game.state.over else "not over"
            raise GameRunning(f"the game is {what}: no rematch", version=game.version)
        return game, seat

    def ask(self, game_id: str, token: str) -> tuple[int, dict]:
        """A seat's ask: (201, the new game) once both asked, else (202, the offer). The
        rematch of a rated game is rated: while it is not named yet, an ask is a 429 if
        the pair of seats is over its cap of rated games (``pairs.RatedPairs``)."""
        game, seat = self._finished(game_id, token, required=True)
        if game.log is not None:
            raise RematchExpired("the game has left Redis: its rematch time is over")
        record = game.record
        if game.rated and record.rematch.game is None:
            ids = tuple(_occupant(record, s).pkey or record.seats[s].kind for s in (0, 1))
            self.pairs.take(ids, "", take=False, version=game.version)
        now = self.clock()
        until = game.state.phase_since + self.rematch_s
        agrees = tuple(_hosted(record, s) for s in (0, 1))
        got, new_id = self.store.rematch(
            game_id, seat, int(now * 1000), int(until * 1000), self.entropy.ident("g_"), agrees
        )
        if got == "closed":
            raise RematchExpired(
                "the game's rematch asks are closed: it is being archived", version=game.version
            )
        if got == "expired":
            raise RematchExpired(
                f"a rematch could be asked for until {domain.views.iso(until)}",
                version=game.version,
            )
        if got == "gone":
            raise RematchExpired("the game has left Redis: its rematch time is over")
        if got == "waiting":
            return 202, self._offer(self.reading.load(game_id), seat)
        return 201, self._made(game, seat, new_id)

    def asks_anew(self, game_id: str, token: str) -> bool:
        """Whether ``token``'s seat asking now would be a new ask, one that may make a game
        (the seat has not asked, and no game is named): what the game-creation rate
        charges. Asking again only reads what the first ask did."""
        game, seat = self._finished(game_id, token, required=True)
        rematch = game.record.rematch
        return rematch.game is None and rematch.asked_ms[seat] is None

    def read(self, game_id: str, token: str | None) -> dict:
        """The rematch as ``token``'s seat (or a spectator) sees it: the offer, or the new
        game (with the caller's new seat and token)."""
        game, seat = self._finished(game_id, token, required=False)
        new_id = game.record.rematch.game
        if new_id is not None and seat is not None:
            return self._made(game, seat, new_id)
        return self._offer(game, seat)

    def _offer(self, game: Game, seat: int | None) -> dict:
        info = self.reading.rematch_of(game) or {}
        expired = game.log is not None or game.record.rematch.closed or self.clock() > \
            game.state.phase_since + self.rematch_s  # fmt: skip
        status = "made" if info.get("game") else "expired" if expired else (
            "offered" if any(info.get("asked", ())) else "none")  # fmt: skip
        return {"status": status, **info, "seat": seat}

    def settle(self, game_id: str) -> None:
        """Make the rematch of a game closed to asks (``service.archiving``) if it was
        named but not made (the ask that named it did not live to, and no one asked or
        read since): the archived game never links a game that does not exist."""
        old = self.reading.load(game_id)
        new_id = old.record.rematch.game
        if new_id is None or old.log is not None:
            return
        try:
            self.reading.load(new_id)
        except NoSuchGame:
            self._make(old, new_id)

    def _made(self, old: Game, seat: int, new_id: str) -> dict:
        """The new game (made here if the ask that named it did not live to), as ``seat``
        of the old game sees it: its new seat and token. Of an old game read from the
        archive, no token: it derives from the game's secret, which the archive does not
        keep (and a new game it does not find, which ``settle`` makes before the archive,
        is the offer as a spectator sees it). In strict durability, a new game found or
        made is answered only once the store confirms its replicas hold it (else
        ``Unconfirmed``, a 503: the ask or read is retried)."""
        archived = old.log is not None
        try:
            game = self.reading.load(new_id)
        except NoSuchGame:
            if archived:
                return self._offer(old, None)
            game = self._make(old, new_id)
        else:  # made before, maybe by an ask answered 503 (strict durability): confirmed
            self.seating.appender.confirm(game.version)
        new_seat = 1 - seat
        view = self.reading.view(game, new_seat)
        token = {} if archived else {"token": new_token(old.record.secret, new_id, seat)}
        return {"status": "made", "game": new_id, "seat": new_seat, **token, "state": view}

    def _make(self, old: Game, new_id: str) -> Game:
        record, state = old.record, old.state
        seats, hashes = [], []
        for s in (1, 0):  # swapped
            hosted = _hosted(record, s)
            seats.append(record.seats[s].kind if hosted else _occupant(record, s))
            hashes.append(None if hosted
                          else token_hash(new_token(record.secret, new_id, s)))  # fmt: skip
        options = state.options.public()
        return self.seating.make(
            new_id,
            state.game,
            options,
            tuple(seats),
            tuple(hashes),
            rated=record.rated,
            rematch_of=old.id,
        )
