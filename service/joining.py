"""Joining: the free seat of a game (seat 1) taken by a request (``Joining.join``), with
the same Idempotency-Key as a create's: a retry answers the same seat and token."""

import logging
from dataclasses import replace

import domain
from domain import Ctx

from . import idempotency
from .acting import Acted
from .appending import Appender
from .cache import Game
from .errors import Busy, GameOverAt, PlayersOnly, SeatTaken, Unconfirmed
from .metrics import Metrics
from .players import ANONYMOUS, Who
from .ports import SYSTEM_ENTROPY, Appended, Clock, Entropy, GameStore, Replayed
from .reading import Reading
from .records import IdemKey, KeptAnswer
from .seating import Seated
from .tokens import Tokens, derived, token_hash

log = logging.getLogger(__name__)


class Joining:
    """The free seat of a game."""

    def __init__(self, store: GameStore, reading: Reading, tokens: Tokens, appender: Appender,
                 seated: Seated, pairs, *, clock: Clock, metrics: Metrics, retries: int = 8,
                 entropy: Entropy = SYSTEM_ENTROPY):  # fmt: skip
        self.store = store
        self.reading = reading
        self.tokens = tokens
        self.appender = appender
        self.seated = seated
        self.pairs = pairs  # service.pairs.RatedPairs
        self.clock = clock
        self.metrics = metrics
        self.retries = retries  # appends that lost a race to another, at most
        self.entropy = entropy

    def join(
        self, game_id: str, client_seed: str, token: str | None = None, *,
        idem_key: str | None = None, body=None, who: Who = ANONYMOUS, caller: str = "",
    ) -> Acted:  # fmt: skip
        """Take the free seat: ``{seat, token, state}``; 409 when there is none. With
        ``idem_key``, as a create: the same key and body answer the same seat and token
        to the same ``caller``. ``who`` takes it; a rated game takes only an app's player
        (403 for anyone else), not the one at seat 0 (409), and not one whose pair with
        seat 0 is over its cap of rated games (``pairs.RatedPairs``: 429)."""
        keyed = fp = None
        if idem_key is not None:
            keyed = IdemKey(None, idempotency.scoped(caller, idem_key))
            fp = idempotency.fingerprint(body)
            prior = self.store.find_record(game_id, keyed)
            if prior is not None:
                return self._joined_again(self.reading.load(game_id), prior, fp, idem_key)
        taken: list = []  # the pair this call counted the game for (``RatedPairs.take``)
        try:
            return self._join(game_id, client_seed, token, keyed, fp, idem_key, who, taken)
        finally:
            if taken:  # counted, and not joined: the seat went to another, or an error
                self._untake(game_id, taken[0], who)

    def _untake(self, game_id: str, pair: tuple, who: Who) -> None:
        """Forget the pair's count of a game ``who`` did not join (unless ``who`` sits at
        seat 1 all the same: a request of its own that raced this one)."""
        try:
            now = self.store.game_record(game_id)
        except Exception:  # the count stays: one game too many for the pair, for a day
            log.exception("could not forget %s among the rated games of %s", game_id, pair)
            return
        if (now.pkeys[1] if now is not None else None) != who.pkey:
            self.pairs.release(pair, game_id)

    def _join(self, game_id, client_seed, token, keyed, fp, idem_key, who, taken) -> Acted:
        for _attempt in range(self.retries + 1):
            game = self.reading.load(game_id)
            self._check(game, token, who)
            if game.rated and not taken:
                pair = (game.record.pkeys[0], who.pkey)
                if self.pairs.take(pair, game_id, version=game.version) == "taken":
                    taken.append(pair)
            ctx = Ctx(seat=1, now=self.clock(), server_seed=game.seed)
            events, state = domain.run(game.state, domain.Join(who.kind, client_seed), ctx)
            record = game.record
            if keyed is not None:
                secret = record.secret or self.entropy.secret()  # (older games: none)
                record = replace(record, secret=secret)
                new_token = derived(secret, 1, idem_key)
                idem = (keyed, idempotency.appended(fp, game.version + 1, state.version))
            else:
                new_token, idem = self.entropy.token(), None
            seat = self.seated.seat(who, game.state.game)
            record = record.with_seat(1, replace(seat, token_hash=token_hash(new_token)))
            result = self.appender.append(game, events, state, record=record, idem=idem)
            if isinstance(result, Appended):
                taken.clear()  # the game is the pair's now
                self.seated.list(game_id, record)
                if not result.confirmed:
                    raise Unconfirmed(version=state.version)
                joined = self.reading.view(Game(game_id, state, record), 1)
                return Acted({"seat": 1, "token": new_token, "state": joined})
            if isinstance(result, Replayed):
                return self._joined_again(self.reading.load(game_id), result.record, fp, idem_key)
            self.metrics.append_retries.inc()
        raise Busy("the game changed too fast to join: retry", retry_after_s=1)

    def _check(self, game: Game, token: str | None, who: Who) -> None:
        """Refuse a join the game's seat 1 is not for."""
        if token is not None:
            held = self.tokens.seat(game, token)
            raise SeatTaken(f"you already hold seat {held} of this game", version=game.version)
        if game.state.over:
            raise GameOverAt(f"the game is {game.state.status}", version=game.version)
        if game.state.status != "waiting":
            raise SeatTaken("both seats are taken", version=game.version)
        if game.rated and who.pkey is None:
            raise PlayersOnly("this game is rated: join as an app's player (X-Api-Key and "
                              "player)", version=game.version)  # fmt: skip
        if who.pkey is not None and who.pkey == game.record.pkeys[0]:
            raise SeatTaken(f"player {who.id} holds seat 0 of this game", version=game.version)

    def _joined_again(self, game: Game, record: KeptAnswer, fp: str, idem_key: str) -> Acted:
        idempotency.check(record.fp, fp)
        _first, last = record.appended
        if last > game.version:
            game = self.reading.load(game.id)
        self.appender.confirm(game.version)
        state = self.reading.past(game, last)
        token = derived(self.seated.secret(game), 1, idem_key)
        view = self.reading.view(game, 1, state)
        return Acted({"seat": 1, "token": token, "state": view}, replayed=True)
