"""Seating: a new game with its seats (``Seating.create``: the caller takes seat 0;
``Seating.make``: both seats taken at once, for a rematch or a pairing); the free seat is
``joining``'s. A seat's token is shown once and kept only as its SHA-256
(``service.tokens``); with an Idempotency-Key a retry answers the same game and token.
"""

import contextlib
from dataclasses import replace

import domain
from domain import Ctx, State

from . import idempotency
from . import webhooks as webhooks_module
from .acting import Acted
from .appending import Appender
from .cache import Game
from .errors import BadRequest, Busy, GameOverAt, KeyInUse, NoSuchGame, Unconfirmed
from .metrics import Metrics
from .players import ANONYMOUS, Who, seated
from .ports import SYSTEM_ENTROPY, Appended, Clock, Entropy, GameStore, Outbound, PlayerStore
from .reading import Reading
from .records import GameRecord, Seat, Webhook
from .tokens import derived, token_hash


class Seated:
    """What seating and joining share: a seat made for who takes it (its player made or
    renamed, its rating read), the game listed among its players', the secret a keyed
    seat's token derives from."""

    def __init__(self, players: PlayerStore | None, clock: Clock):
        self.players = players  # None: no named players
        self.clock = clock

    def seat(self, who: Who, game: str) -> Seat:
        """The seat ``who`` takes in a game of ``game`` (no token yet; the player is made
        or renamed, and its rating read: shown with the seat)."""
        if who.pkey is None or self.players is None:
            return seated(who, None)
        self.players.touch_player(who.pkey, who.name, int(self.clock() * 1000))
        (stored,) = self.players.ratings([who.pkey], game)
        return seated(who, stored)

    def list(self, game_id: str, record: GameRecord) -> None:
        """List the game among its players' games (after the append that seated them)."""
        found = [p for p in record.pkeys if p is not None]
        if found and self.players is not None:
            self.players.index_game(found, game_id, record.created_ms)

    @staticmethod
    def secret(game: Game) -> str:
        """The game's secret, which a seat's token made again derives from; a game read
        from the archive has none (it is not kept there): its first answer is a 409."""
        secret = game.record.secret
        if secret is None:
            raise GameOverAt(f"the game {game.id} has left Redis for the archive: the first "
                             "answer of this Idempotency-Key (its token) is not kept there",
                             version=game.version)  # fmt: skip
        return secret


class Seating:
    """New games: ``create`` (a request's), ``make`` (both seats known)."""

    def __init__(self, store: GameStore, reading: Reading, appender: Appender, seated: Seated,
                 pairs, *, clock: Clock, metrics: Metrics, outbound: Outbound | None = None,
                 webhooks: webhooks_module.Settings | None = None,
                 entropy: Entropy = SYSTEM_ENTROPY):  # fmt: skip
        self.store = store
        self.reading = reading
        self.appender = appender
        self.seated = seated
        self.pairs = pairs  # service.pairs.RatedPairs
        self.clock = clock
        self.metrics = metrics
        self.outbound = outbound  # resolves a game's webhook (None: no webhooks)
        self.webhooks = webhooks or webhooks_module.Settings()
        self.entropy = entropy

    def create(
        self, game: str, options: dict | None, opponent: str, client_seed: str,
        seat0: str = "human", *, idem_key: str | None = None, body=None,
        webhook: dict | None = None, who: Who = ANONYMOUS, rated: bool = False,
        caller: str = "",
    ) -> Acted:  # fmt: skip
        """A new game with the caller at seat 0: ``{id, seat, token, commitment, state}``.
        With a bot at seat 0 (``seat0``, e.g. bot against bot) the caller only watches:
        seat and token are None, the state is the spectator's.

        With ``idem_key``, the same key and ``body`` again answer the same game and token
        (``replayed``), another body is a 422, and a key whose first request is still in
        flight a 409; all of it only to the same ``caller`` (``idempotency.scoped``: the
        app, else the client's address): another caller's same key is another key. The
        key is a secret as much as the token it gives back: the seat's token is derived
        from it (``tokens.derived``), never stored. ``webhook``: where its notifications
        go (``service.webhooks``).

        ``who`` takes seat 0 (a human, a client's bot, an app's player); ``rated`` (only
        for an app's player, against another or a hosted bot) has the game rated when it
        ends (``service.rating``). Against a hosted level, a rated game is one of the
        pair's (``pairs.RatedPairs``): over its cap, a 429."""
        if seat0 != "human" and seat0 not in domain.HOSTED:
            raise domain.MalformedAction(
                {"seat0": [f"must be one of human, {', '.join(domain.HOSTED)}"]}
            )
        if seat0 != "human" and who != ANONYMOUS:
            raise BadRequest({"seat0": ["you watch a game whose seat 0 is a hosted bot: no "
                                        "kind, name or player of yours"]})  # fmt: skip
        if rated and who.pkey is None:
            raise BadRequest({"rated": ["a rated game is between players: name yours "
                                        "(player, with an app's X-Api-Key)"]})  # fmt: skip
        if rated:  # before anything is counted (a rated table's clock: at least 30 s)
            domain.options_for(game, options, rated=True)
        if webhook is not None:
            self._check(webhook["url"])
        game_id = self.entropy.ident("g_")
        key_hash = fp = None
        if idem_key is not None:
            key_hash = token_hash(idempotency.scoped(caller, idem_key))[:32]
            fp = idempotency.fingerprint(body)
            prior = self.store.claim_create(key_hash, game_id, fp, int(self.clock() * 1000))
            if prior is not None:
                return self._created_again(prior, fp, idem_key)
        made: list[bool] = [False]
        try:
            return Acted(self._create(game_id, game, options, opponent, client_seed, seat0,
                                      idem_key, key_hash, webhook, made, who,
                                      rated))  # fmt: skip
        except BaseException:
            if key_hash is not None and not made[0]:  # nothing was made: the key is free
                self.store.release_create(key_hash, game_id)
            raise

    def _check(self, url: str) -> None:
        """400 for a webhook URL this service will not deliver to."""
        try:
            if self.outbound is None:
                raise webhooks_module.WebhookRefused("this service delivers no webhooks")
            webhooks_module.resolve(url, self.webhooks.allow_private, self.outbound.lookup)
        except webhooks_module.WebhookRefused as e:
            raise BadRequest({"webhook.url": [str(e)]}) from None

    def make(
        self, game_id: str, game: str, options: dict, seats: tuple, hashes: tuple, *,
        rated: bool = False, rematch_of: str | None = None,
    ) -> Game:  # fmt: skip
        """Make the game ``game_id`` with both seats taken (a rematch, a pairing), unless it
        exists: the one append at version 0 under a chosen id, so two processes that
        race to make it make one. ``seats``: per seat a ``Who`` or a hosted level
        (``bot:<level>``); ``hashes``: the SHA-256 of the seats' tokens (None: a level's).
        A rated game whose pair of seats is over its cap is made unrated: the seats asked
        for it already, and there is no request left to refuse. Answers the game."""
        hosted = [isinstance(w, str) for w in seats]
        if rated:
            try:
                domain.options_for(game, options, rated=True)
            except domain.InvalidOptions:  # a rated table whose clock is too short to rate
                rated = False  # (``RATED_IDLE_MIN_S``): its rematch is unrated
        with contextlib.suppress(Busy):  # Busy: made meanwhile by another process
            self._create(
                game_id, game, options, seats[1] if hosted[1] else "human", "",
                seats[0] if hosted[0] else "human", None, None,
                who=ANONYMOUS if hosted[0] else seats[0], rated=rated, rematch_of=rematch_of,
                hashes=hashes, seat1=None if hosted[1] else seats[1], over_cap="unrated",
            )  # fmt: skip
        game = self.reading.load(game_id)
        self.appender.confirm(game.version)  # (made here unconfirmed, or by another process)
        return game

    def _create(self, game_id, game, options, opponent, client_seed, seat0, idem_key, key_hash,
                webhook=None, made=None, who: Who = ANONYMOUS, rated: bool = False,
                rematch_of=None, hashes=None, seat1: Who | None = None,
                over_cap: str = "refuse"):  # fmt: skip
        """Make the game ``game_id``; ``seat1``: who takes seat 1 at once (a rematch, a
        pairing), ``hashes``: the SHA-256 of the seats' tokens, which the caller holds
        (None: a token made here for seat 0, shown once); ``made[0]`` turns true once
        the game is in the log. A rated game with both seats known is one of the pair's;
        over the cap it is refused (``over_cap="refuse"``, a 429) or made unrated
        (``"unrated"``)."""
        seed = self.entropy.seed()  # revealed only by the audit (RULES H-6)
        commitment = domain.commitment(seed)
        now = self.clock()
        pair = None  # counted for this game: given back if the game is not made
        if rated:
            ids = (who.pkey or (seat0 if seat0 in domain.HOSTED else None),
                   seat1.pkey if seat1 is not None
                   else opponent if opponent in domain.HOSTED else None)  # fmt: skip
            if None not in ids:
                got = self.pairs.take(ids, game_id, over_cap == "refuse")
                rated = got != "full"
                pair = ids if got == "taken" else None
        made = made if made is not None else [False]
        try:
            return self._seat_and_append(
                game_id,
                game,
                options,
                opponent,
                client_seed,
                seat0,
                idem_key,
                key_hash,
                webhook,
                made,
                who,
                rated,
                rematch_of,
                hashes,
                seat1,
                seed,
                commitment,
                now,
            )
        except BaseException:
            if pair is not None and not made[0] and self._absent(game_id):
                self.pairs.release(pair, game_id)
            raise

    def _absent(self, game_id: str) -> bool:
        """Whether no process made the game ``game_id`` (False when that cannot be read: its
        pair's count is kept, one game too many rather than one too few)."""
        try:
            return self.store.game_record(game_id) is None
        except Exception:
            return False

    def _seat_and_append(self, game_id, game, options, opponent, client_seed, seat0, idem_key,
                         key_hash, webhook, made, who, rated, rematch_of, hashes, seat1, seed,
                         commitment, now):  # fmt: skip
        """``_create``'s game made and appended, once its pair of seats is counted."""
        events = domain.create_game(
            game_id=game_id, game=game, now=now, server_seed=seed, commitment=commitment,
            options=options, opponent=opponent, client_seed=client_seed,
            kind=seat0 if seat0 != "human" else who.kind, rated=rated,
        )  # fmt: skip
        state = domain.replay(events)
        if seat1 is not None:
            more, state = domain.run(state, domain.Join(seat1.kind, ""),
                                     Ctx(seat=1, now=now, server_seed=seed))  # fmt: skip
            events = events + more
        secret = self.entropy.secret()  # derives the tokens of keyed requests (``derived``)
        token = None
        if seat0 == "human" and hashes is None:
            token = derived(secret, 0, idem_key) if idem_key else self.entropy.token()
        hash0 = token_hash(token) if token is not None else None
        if hashes is not None and hashes[0] is not None:
            hash0 = hashes[0]
        first = replace(self.seated.seat(who, game), kind=state.players[0].kind,
                        token_hash=hash0)  # fmt: skip
        if seat1 is not None:
            second = replace(self.seated.seat(seat1, game), token_hash=hashes[1])
        else:
            second = Seat(kind=opponent if opponent != "human" else None)
        hook = None
        if webhook is not None:
            hook = Webhook(webhook["url"], webhooks_module.new_secret(self.entropy),
                           webhook.get("events") == "all")  # fmt: skip
        record = GameRecord(
            game=game, created_ms=int(now * 1000), status=state.status, seats=(first, second),
            seed=seed, commitment=commitment, rated=rated, rematch_of=rematch_of, webhook=hook,
            secret=secret, create_key=key_hash, created_version=state.version,
        )  # fmt: skip
        empty = Game(game_id, State(), record)
        result = self.appender.append(empty, events, state, record=record, made=made)
        if not isinstance(result, Appended):
            raise Busy("could not create the game: retry")  # a 64-bit id collided
        self.metrics.games_created.labels(game).inc()
        self.seated.list(game_id, record)
        if not result.confirmed:
            raise Unconfirmed(version=state.version)
        return self._created(Game(game_id, state, record), token)

    def _created(self, game: Game, token: str | None) -> dict:
        seat = 0 if token is not None else None
        out = {
            "id": game.id,
            "seat": seat,
            "token": token,
            "commitment": game.record.commitment,
            "state": self.reading.view(game, seat),
        }
        hook = game.record.webhook
        if hook is not None:  # the signing secret, shown here only
            events = "all" if hook.all_events else "lifecycle"
            out["webhook"] = {"url": hook.url, "secret": hook.secret, "events": events}
        return out

    def _created_again(self, prior: tuple[str, str, int], fp: str, idem_key: str) -> Acted:
        """The first answer of a create's Idempotency-Key, made again from the game."""
        game_id, first_fp, _at = prior
        idempotency.check(first_fp, fp)
        try:
            game = self.reading.load(game_id)
        except NoSuchGame:
            raise KeyInUse(
                "a request with this Idempotency-Key is still in progress: retry",
                retry_after_s=1,
            ) from None
        made = game.record.created_version
        self.appender.confirm(game.version)
        token = None
        if (game.record.seats[0].kind or "human") == "human":
            token = derived(self.seated.secret(game), 0, idem_key)
        past = Game(game_id, self.reading.past(game, made), game.record)
        return Acted(self._created(past, token), replayed=True)
