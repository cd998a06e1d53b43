"""Acting: a seat's action (``Acting.act``, a request's, with its Idempotency-Key and
``If-Match``) and the system's (``Acting.submit``: the workers' bots and deadlines), each
decided by the rules on the game now and appended (``appending.Appender``).

An action is decided first on this process's cached state, so that a current cache costs
one round trip (the append, whose version check proves the state was current). On a
version clash the append's reply carries the events missed: re-decided on them, a bounded
number of times (a move that lost its race gets the 422 it now earns).
"""

import time
from dataclasses import dataclass

import domain
from domain import State

from . import idempotency
from .appending import Appender
from .cache import Game
from .errors import Busy, Forbidden, PreconditionFailed, Unauthorized, Unconfirmed, at_version
from .metrics import Metrics
from .ports import SYSTEM_ENTROPY, Appended, Entropy, GameStore, Replayed
from .reading import Reading
from .records import IdemKey, KeptAnswer
from .tokens import Tokens


@dataclass(frozen=True, slots=True)
class Acted:
    """An answer that wrote to a game (an action's ``{version, events, state}``, a seat
    taken, a game made); ``replayed`` when it is the first answer of its
    Idempotency-Key, given again."""

    body: dict
    replayed: bool = False


class Acting:
    """Seats' and the system's actions."""

    def __init__(self, store: GameStore, reading: Reading, tokens: Tokens, appender: Appender,
                 *, metrics: Metrics, retries: int = 8,
                 entropy: Entropy = SYSTEM_ENTROPY):  # fmt: skip
        self.store = store
        self.reading = reading
        self.cache = reading.cache
        self.tokens = tokens
        self.appender = appender
        self.metrics = metrics
        self.retries = retries  # appends that lost a race to another, at most
        self.entropy = entropy

    def act(
        self,
        game_id: str,
        token: str | None,
        body,
        *,
        idem_key: str | None = None,
        if_match: frozenset[int] | None = None,
    ) -> Acted:
        """A seat's action (the seat is the token's, the action its game's wire form):
        its answer, or the error that refuses it.

        Anything refused on a cached state is judged again on a freshly loaded one. With
        ``idem_key`` the first answer is kept (its record: ``idempotency``) and given
        again, even while the first is in flight; with another body, a 422. Nothing is
        written before the first load or append (a refusal's record comes after a fresh
        load).
        """
        fp = idempotency.fingerprint(body) if idem_key else ""
        game, idem, fresh = self.cache.get(game_id), (None, None), False
        if game is None:
            (game, idem), fresh = self.reading.load_keyed(game_id, idem_key), True
        action = domain.parse_action(game.state.game, body)  # the only validator: 400 first
        for attempt in range(self.retries + 1):
            try:
                seat = self.tokens.seat(game, token, required=True, lookup=fresh)
            except (Unauthorized, Forbidden):
                if fresh:
                    raise
                (game, idem), fresh = self.reading.load_keyed(game_id, idem_key), True
                continue
            keyed = IdemKey(seat, idem_key) if idem_key else None
            if fresh and keyed and idem[seat] is not None:
                return self._replay(game, seat, idem[seat], fp)
            if if_match is not None and game.version not in if_match:
                if fresh:
                    raise PreconditionFailed(
                        f"the game is at version {game.version}", version=game.version
                    )
                (game, idem), fresh = self.reading.load_keyed(game_id, idem_key), True
                continue
            try:
                events, state = self.appender.decide(game, seat, action)
            except (domain.IllegalAction, domain.GameOver) as e:
                if not fresh:
                    (game, idem), fresh = self.reading.load_keyed(game_id, idem_key), True
                    continue
                self.metrics.action(game.state.game, "refused")
                if keyed:  # the first answer is the answer, refusals included
                    prior = self.store.record(
                        game_id, keyed, idempotency.refused(fp, e, game.version)
                    )
                    if prior is not None:
                        return self._replay(game, seat, prior, fp)
                raise at_version(e, game.version) from None
            record = idempotency.appended(fp, game.version + 1, state.version) if keyed else None
            wire = [domain.event_to_dict(e) for e in events]
            result = self.appender.append(
                game, events, state, idem=(keyed, record) if keyed else None, wire=wire
            )
            if isinstance(result, Appended):
                if not result.confirmed:
                    raise Unconfirmed(version=state.version)
                self.metrics.action(game.state.game, "appended")
                return Acted(self._answer(game, game.version, events, state, seat, wire))
            if isinstance(result, Replayed):
                return self._replay(game, seat, result.record, fp)
            if if_match is not None:
                raise PreconditionFailed(
                    f"the game is at version {result.version}", version=result.version
                )
            self.metrics.append_retries.inc()
            # a random pause, growing up to 20 ms: two seats acting in lockstep take turns
            # losing
            time.sleep(self.entropy.jitter(min(0.001 * (attempt + 1), 0.02)))
            game, fresh = self.reading.caught_up(game, result), True
        self.metrics.action("any", "busy")
        raise Busy("the game changed too fast to act on: retry", retry_after_s=1)

    def _answer(self, game: Game, base: int, events, state: State, seat: int, wire=None) -> dict:
        """``{version, events, state}`` of events appended to ``game`` at version ``base``
        as ``seat`` may see them (``wire``: their full wire forms, if made already)."""
        over = state.over
        return {
            "version": state.version,
            "events": [
                {
                    "version": base + i + 1,
                    **domain.redact(e, seat, public=over, wire=wire[i] if wire else None),
                }
                for i, e in enumerate(events)
            ],  # fmt: skip
            "state": self.reading.view(game, seat, state),
        }

    def _replay(self, game: Game, seat: int, record: KeptAnswer, fp: str) -> Acted:
        """The first answer of an Idempotency-Key, rebuilt from the log (or raised again)."""
        idempotency.check(record.fp, fp)
        if record.whole is not None:  # a record of older code, which kept the whole answer
            self.appender.confirm(game.version)
            return Acted(record.whole, replayed=True)
        if record.appended is None:
            raise idempotency.error_of(record)
        first, last = record.appended
        if last > game.version:  # appended by another process since this one looked
            game = self.reading.load(game.id)
        self.appender.confirm(game.version)
        state = self.reading.past(game, last)
        entries = self.reading.entries(game, first - 1, upto=last)
        events = [domain.event_from_dict(d) for _v, d in entries]
        return Acted(self._answer(game, first - 1, events, state, seat), replayed=True)

    def submit(self, game_id: str, seat: int | None, action, expected: int | None = None,
               *, known: Game | None = None) -> State | None:  # fmt: skip
        """The system's path for the workers (bots, timeouts): decide ``action`` for
        ``seat`` on the current state and append it; returns the new state, or None when
        the game has moved past ``expected`` or the action is no longer legal. ``known``:
        the game as the caller just loaded it, decided on first (the append's version
        check proves it current, as a load would; one round trip fewer)."""
        for attempt in range(self.retries + 1):
            game = known if attempt == 0 and known is not None else self.reading.load(game_id)
            if expected is not None and game.version != expected:
                return None
            try:
                events, state = self.appender.decide(game, seat, action)
            except (domain.IllegalAction, domain.GameOver):
                return None
            if isinstance(self.appender.append(game, events, state), Appended):
                return state  # (confirmed or not: no one to answer)
            if expected is not None:
                return None
            self.metrics.append_retries.inc()
        return None
