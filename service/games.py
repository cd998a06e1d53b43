"""The use cases: create, join, act, read, and what the workers submit — plain Python
over the game store, the only path from a request (or a job) to the domain and back.

The HTTP adapter (``service.http``) and the workers (``workers/``) both call these.
Every answer that shows cards goes through ``domain.view`` / ``domain.redact`` for the
caller's seat (RULES H-1..H-5). Errors are the service's (``service.errors``) and the
domain's; the adapters say how they look on the wire.
"""

import base64
import contextlib
import functools
import hashlib
import hmac
import logging
import math
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

import domain
from domain import Ctx, State
from domain import export as export_formats

from . import archiving, idempotency
from . import webhooks as webhooks_module
from .cache import Game, GameCache
from .errors import (
    ArchiveUnreadable,
    BadCredentials,
    BadRequest,
    Busy,
    Forbidden,
    GameRunning,
    KeyInUse,
    NoSuchGame,
    NoSuchVersion,
    NotTheCreator,
    OtherGamesToken,
    PlayersOnly,
    PreconditionFailed,
    RatedPairCapped,
    SeatTaken,
    Unauthorized,
    Unconfirmed,
)
from .metrics import Metrics
from .players import (
    ANONYMOUS,
    Who,
    decorate,
    matches,
    pkeys,
    seat_meta,
    summary,
    with_players,
)
from .ports import (
    Appended,
    Archive,
    Clash,
    GameStore,
    NoScheduler,
    Replayed,
    Scheduler,
    lobby_status,
)

log = logging.getLogger(__name__)

_TOKEN_FIELDS = ((0, "tok0"), (1, "tok1"))  # the meta fields of the seats' token hashes
PAIR_WINDOW_S = 86_400  # the rated games of a pair of seats are counted over a day
# the meta fields written after a game's end that its views show (service.rematch's asks
# and new game, service.rating's outcome)
AFTER_END = ("rm0", "rm1", "rmg", "rating")


def ms_now() -> float:
    """The time events are stamped with: now, rounded up to the millisecond (what the
    export notation keeps, docs/export.md; up, so a deadline is never fired early)."""
    return math.ceil(time.time() * 1000) / 1000


@functools.lru_cache(maxsize=8192)  # every request of a seat hashes its token
def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _derived(secret: str, seat: int, idem_key: str) -> str:
    """The token of a seat taken with an Idempotency-Key: an HMAC of the key under the
    game's secret (meta ``ik``, never shown), so that a retry gets the same token while
    neither the token nor the key is stored (the records keep a hash of the key)."""
    mac = hmac.new(bytes.fromhex(secret), f"{seat}:{idem_key}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


@dataclass(frozen=True, slots=True)
class Acted:
    """An action's answer, ``{version, events, state}``; ``replayed`` when it is the first
    answer of its Idempotency-Key, given again."""

    body: dict
    replayed: bool = False


class Games:
    """Create, join, act, read: the use cases, over a ``GameStore``."""

    def __init__(
        self,
        store: GameStore,
        *,
        scheduler: Scheduler | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = ms_now,
        snapshot_every: int = 50,
        cache_size: int = 2048,
        retries: int = 8,
        archive: Archive | None = None,
        webhooks: "webhooks_module.Settings | None" = None,
        players=None,
        rematch_s: float = 60.0,
        rated_pair_cap: int = 10,
    ):
        self.store = store
        self.players = players  # service.store.players.PlayerStore (None: no named players)
        self.rematch_s = rematch_s  # how long after its end a game may be rematched
        # rated games a pair of seats may start in PAIR_WINDOW_S (0: no cap)
        self.rated_pair_cap = rated_pair_cap
        self.archive = archive  # where finished games go once out of Redis (None: nowhere)
        self.webhooks = webhooks or webhooks_module.Settings()
        self.scheduler = scheduler or NoScheduler()
        self.metrics = metrics or Metrics()
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.retries = retries
        self.cache = GameCache(cache_size)

    # ---------------------------------------------------------------- reading

    def load(self, game_id: str, bill=None) -> Game:
        """The game now (404 if there is none). ``bill``: the request's rate buckets, charged
        in the same call as the load (``limits.rates.Bill``; a cached archived game needs
        no call: then it is left to the caller)."""
        return self._load(game_id, bill=bill)[0]

    def view(self, game: Game, seat: int | None, state: State | None = None) -> dict:
        """``state`` (default: the game's now) as ``seat`` may see it (``domain.view``),
        with the game's players, whether it is rated, and its rematch links."""
        state = game.state if state is None else state
        return decorate(domain.view(state, seat), game.meta, self.rematch_of(game, state))

    def rematch_of(self, game: Game, state: State | None = None) -> dict | None:
        """The rematch of a finished game (``service.rematch``): who asked for it, the new
        game once made, and until when it may be asked for; None before the end."""
        state = game.state if state is None else state
        if state.status != "finished":
            return None
        m = game.meta
        return {
            "game": m.get("rmg"),
            "asked": [m.get("rm0") is not None, m.get("rm1") is not None],
            "until": domain.views.iso(state.phase_since + self.rematch_s),
        }

    @staticmethod
    def changed_after_end(game: Game) -> bool:
        """Whether the game's views may have changed after its last event: a rematch asked
        for or made, its rating applied, or the game read from the archive (a record
        written before its rematch was archived with it, decision 0019, holds none: its
        view lost one if there was). Its version
        (the ETag) no longer tells those views apart, so a read of it is never answered
        304."""
        return game.log is not None or any(game.meta.get(k) is not None for k in AFTER_END)

    def _load(self, game_id: str, idem_key: str | None = None, bill=None):
        """The game now and, with ``idem_key``, that key's records for both seats: the
        cached state or the latest snapshot, plus the events after it, in one round trip
        (``bill``: and the request's rate buckets)."""
        cached = self.cache.get(game_id)
        if cached is not None and cached.log is not None:
            return cached, (None, None)  # archived: it never changes again
        loaded = self.store.load(game_id, cached.version if cached else -1, idem_key, bill=bill)
        if loaded is None:
            return self._archived(game_id), (None, None)
        state, tail = State(), loaded.tail
        if loaded.snapshot is not None:
            try:
                state = domain.state_from_dict(loaded.snapshot)
            except (ValueError, KeyError, TypeError):  # a format of older code: the log rules
                log.warning("snapshot of %s unreadable: replaying its log", game_id)
                tail = self.store.read_after(game_id, 0)
        elif cached is not None and loaded.base == cached.version:
            state = cached.state
        game = self._advance(Game(game_id, state, loaded.meta), tail, loaded.version)
        return game, loaded.idem

    def _archived(self, game_id: str) -> Game:
        """A game that is no longer in Redis, from the archive (404 if it is not there);
        502 naming the game if its archived copy is unreadable."""
        try:
            found = archiving.read(self.archive, game_id) if self.archive is not None else None
        except archiving.ArchiveCorrupt as e:
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
        game = Game(game.id, state, game.meta)
        self.cache.put(game)
        return game

    def seat(
        self, game: Game, token: str | None, *, required: bool = False, lookup: bool = True
    ) -> int | None:
        """The seat ``token`` holds in ``game``: None without a token (a spectator, unless
        ``required``); 401 for an unknown token, 403 for a token of another game (which
        the token's index tells: ``lookup=False`` answers 401 without asking it)."""
        if token is None:
            if required:
                raise Unauthorized(
                    "send the seat's token as Authorization: Bearer <token>", version=game.version
                )
            return None
        h = token_hash(token)
        found = None
        for seat, field in _TOKEN_FIELDS:
            stored = game.meta.get(field)
            if stored and hmac.compare_digest(stored, h):
                found = seat
        if found is not None:
            return found
        if lookup and self.store.token_owner(h) is not None:
            raise OtherGamesToken("this token holds a seat of another game", version=game.version)
        raise BadCredentials("unknown token", version=game.version)

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
            game = self._archived(game.id)  # deleted from Redis since it was loaded
        end = last if limit is None else min(last, after + limit)
        return list(game.log[max(0, after) : max(0, end)])

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

    @staticmethod
    def redacted(entries, seat: int | None, public: bool, meta=None) -> list[dict]:
        """Stored entries as ``seat`` may see them (in full when ``public``: the game is over);
        with ``meta``, the events that seat someone name the seat's player
        (``_with_players``)."""
        out = [
            {"version": v, **domain.redact(domain.event_from_dict(d), seat, public=public)}
            for v, d in entries
        ]
        return with_players(out, meta) if meta else out

    def state_at(self, game: Game, seat: int | None, version: int) -> dict:
        """The state after ``version`` events: ``seat``'s view during the game, the full
        state once it is over (RULES H-5, H-6)."""
        if not 1 <= version <= game.version:
            raise NoSuchVersion(
                f"versions of this game run from 1 to {game.version}", version=game.version
            )
        state = self._state_at(game, version)
        if game.state.over:
            out = domain.full_state(state, seat)
            return decorate(out, game.meta, self.rematch_of(game, state))
        return self.view(game, seat, state)

    def deliveries(self, game: Game, token: str | None) -> dict:
        """The webhook of a game and its latest deliveries, for its creator (seat 0's token)."""
        if self.seat(game, token, required=True) != 0:
            raise NotTheCreator("only the game's creator (seat 0) reads its webhook deliveries",
                                version=game.version)  # fmt: skip
        if not game.meta.get("wh"):
            return {"webhook": None, "deliveries": []}
        cursor = self.store.hooks(game.id, "g") if game.log is None else None
        done = cursor is None or cursor["v"] > game.version
        return {
            "webhook": {"url": game.meta["wh"],
                        "events": "all" if game.meta.get("wha") == "1" else "lifecycle"},
            "pending": not done,
            "deliveries": [d for d in (self.store.deliveries(game.id, 100) if cursor else [])
                           if d.get("target") == "g"],
        }  # fmt: skip

    def state_of(self, game: Game, version: int) -> State:
        """The game's state after ``version`` events (0: before the first)."""
        return self._state_at(game, version) if version > 0 else State()

    def _state_at(self, game: Game, version: int) -> State:
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

    def lobby(
        self,
        status: str,
        cursor: str | None,
        limit: int,
        *,
        game: str | None = None,
        kind: str | None = None,
        player: str | None = None,
    ) -> tuple[list[dict], str | None]:
        """A page of the lobby's ``status`` list, newest first, and the next cursor. With
        filters (the game, a seat's kind, a player's pkey), the list is read a page at a
        time until ``limit`` games match or ``LOBBY_SCAN`` were looked at: a page may hold
        fewer than ``limit`` games and still have a ``next``."""
        if game is None and kind is None and player is None:
            rows, nxt = self.store.lobby(status, cursor, limit)
            return [summary(gid, meta, version) for gid, meta, version in rows], nxt
        out, scanned, nxt = [], 0, cursor
        while True:
            rows, nxt = self.store.lobby(status, nxt, limit)
            for n, (gid, meta, version) in enumerate(rows):
                if matches(meta, game, kind, player):
                    out.append(summary(gid, meta, version))
                    if len(out) == limit:
                        last = n == len(rows) - 1 and nxt is None
                        return out, None if last else f"{int(meta['created']):013d}:{gid}"
            scanned += len(rows)
            if nxt is None or scanned >= LOBBY_SCAN:
                return out, nxt

    # ---------------------------------------------------------------- writing

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
        from it (``_derived``), never stored. ``webhook``: where its
        notifications go (``service.webhooks``).

        ``who`` takes seat 0 (a human, a client's bot, an app's player); ``rated`` (only
        for an app's player, against another or a hosted bot) has the game rated when it
        ends (``service.rating``). Against a hosted level, a rated game is one of the
        pair's (``take_pair``): over its cap, a 429."""
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
            try:
                webhooks_module.resolve(webhook["url"], self.webhooks.allow_private)
            except webhooks_module.WebhookRefused as e:
                raise BadRequest({"webhook.url": [str(e)]}) from None
        game_id = "g_" + secrets.token_hex(8)
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

    def _create(self, game_id, game, options, opponent, client_seed, seat0, idem_key, key_hash,
                webhook=None, made=None, who: Who = ANONYMOUS, rated: bool = False,
                extra_meta=None, hashes=None, seat1: Who | None = None,
                over_cap: str = "refuse"):  # fmt: skip
        """Make the game ``game_id``; ``seat1``: who takes seat 1 at once (a rematch, a
        pairing), ``hashes``: the SHA-256 of the seats' tokens, which the caller holds
        (None: a token made here for seat 0, shown once); ``made[0]`` turns true once
        the game is in the log. A rated game with both seats known is one of the pair's
        (``take_pair``); over the cap it is refused (``over_cap="refuse"``, a 429) or made
        unrated (``"unrated"``)."""
        seed = secrets.token_bytes(32)  # revealed only by the audit (RULES H-6)
        commitment = domain.commitment(seed)
        now = self.clock()
        if rated:
            ids = (who.pkey or (seat0 if seat0 in domain.HOSTED else None),
                   seat1.pkey if seat1 is not None
                   else opponent if opponent in domain.HOSTED else None)  # fmt: skip
            if None not in ids and self.take_pair(ids, game_id, over_cap == "refuse") == "full":
                rated = False
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
        secret = secrets.token_hex(16)  # derives the tokens of keyed requests (``_derived``)
        token = None
        if seat0 == "human":
            token = _derived(secret, 0, idem_key) if idem_key else secrets.token_urlsafe(32)
        if hashes is not None:
            token = None
        meta = {
            "game": game, "seed": seed.hex(), "commitment": commitment,
            "created": str(int(now * 1000)), "kind0": state.players[0].kind, "ik": secret,
            "cv": str(state.version), **self._seat_meta(0, who, game), **(extra_meta or {}),
        }  # fmt: skip
        if rated:
            meta["rated"] = "1"
        if key_hash is not None:
            meta["ck"] = key_hash
        if webhook is not None:
            meta.update(wh=webhook["url"], whs=webhooks_module.new_secret(),
                        wha="1" if webhook.get("events") == "all" else "0")  # fmt: skip
        if token is not None:
            meta["tok0"] = token_hash(token)
        if hashes is not None and hashes[0] is not None:
            meta["tok0"] = hashes[0]
        if opponent != "human":
            meta["kind1"] = opponent
        if seat1 is not None:
            meta.update(kind1=seat1.kind, tok1=hashes[1], **self._seat_meta(1, seat1, game))
        empty = Game(game_id, State(), meta)
        result = self._append(empty, events, state, meta=meta, made=made)
        if not isinstance(result, Appended):
            raise Busy("could not create the game: retry")  # a 64-bit id collided
        self.metrics.games_created.labels(game).inc()
        self._index_players(game_id, meta)
        if not result.confirmed:
            raise Unconfirmed(version=state.version)
        return self._created(Game(game_id, state, meta), token)

    def make(
        self, game_id: str, game: str, options: dict, seats: tuple, hashes: tuple, *,
        rated: bool = False, extra_meta: dict | None = None,
    ) -> Game:  # fmt: skip
        """Make the game ``game_id`` with both seats taken (a rematch, a pairing), unless it
        exists: the one append at version 0 under a chosen id, so two processes that
        race to make it make one. ``seats``: per seat a ``Who`` or a hosted level
        (``bot:<level>``); ``hashes``: the SHA-256 of the seats' tokens (None: a level's).
        A rated game whose pair of seats is over its cap (``take_pair``) is made unrated:
        the seats asked for it already, and there is no request left to refuse.
        Answers the game."""
        hosted = [isinstance(w, str) for w in seats]
        if rated:
            try:
                domain.options_for(game, options, rated=True)
            except domain.InvalidOptions:  # a rated table of older code, too short a clock
                rated = False  # to rate (``RATED_IDLE_MIN_S``): its rematch is unrated
        with contextlib.suppress(Busy):  # Busy: made meanwhile by another process
            self._create(
                game_id, game, options, seats[1] if hosted[1] else "human", "",
                seats[0] if hosted[0] else "human", None, None,
                who=ANONYMOUS if hosted[0] else seats[0], rated=rated, extra_meta=extra_meta,
                hashes=hashes, seat1=None if hosted[1] else seats[1], over_cap="unrated",
            )  # fmt: skip
        game = self.load(game_id)
        self._confirm(game.version)  # (made here unconfirmed, or by another process)
        return game

    def take_pair(self, ids: tuple, game_id: str, refuse: bool = True, take: bool = True) -> str:
        """Count the rated game ``game_id`` among those its pair of seats ``ids`` (pkeys or
        hosted levels) started in the last ``PAIR_WINDOW_S``, if that keeps them within
        ``rated_pair_cap``: ``taken`` (counted now), ``had`` (counted before), ``open``
        (no cap, no player store, or ``take=False`` and room for it); over the cap, a 429
        (``refuse``) or ``full``."""
        if not self.rated_pair_cap or self.players is None:
            return "open"
        got, n = self.players.take_pair(
            ids[0], ids[1], game_id, int(self.clock() * 1000), PAIR_WINDOW_S * 1000,
            self.rated_pair_cap, take,
        )  # fmt: skip
        if got != "full" or not refuse:
            return got
        names = " and ".join(i.split(":", 1)[1] if ":" in i else i for i in ids)
        raise RatedPairCapped(
            f"{names} started {self.rated_pair_cap} rated games together in the last 24 "
            f"hours, the cap: this game is rated; retry in {math.ceil(n / 1000)} s, or play "
            "an unrated one", headers={"Retry-After": str(math.ceil(n / 1000))},
        )  # fmt: skip

    def _seat_meta(self, seat: int, who: Who, game: str) -> dict[str, str]:
        """The meta of a seat ``who`` takes in a game of ``game`` (the player is made or
        renamed, and its rating read: shown with the seat)."""
        if who.pkey is None or self.players is None:
            return seat_meta(seat, who, None)
        self.players.touch_player(who.pkey, who.name, int(self.clock() * 1000))
        (stored,) = self.players.ratings([who.pkey], game)
        return seat_meta(seat, who, stored)

    def _index_players(self, game_id: str, meta: dict[str, str]) -> None:
        """List the game among its players' games (after the append that seated them)."""
        found = [p for p in pkeys(meta) if p is not None]
        if found and self.players is not None:
            self.players.index_game(found, game_id, int(meta["created"]))

    def _created(self, game: Game, token: str | None) -> dict:
        seat = 0 if token is not None else None
        out = {
            "id": game.id,
            "seat": seat,
            "token": token,
            "commitment": game.meta["commitment"],
            "state": self.view(game, seat),
        }
        meta = game.meta
        if meta.get("wh"):  # the signing secret, shown here only
            events = "all" if meta.get("wha") == "1" else "lifecycle"
            out["webhook"] = {"url": meta["wh"], "secret": meta["whs"], "events": events}
        return out

    @staticmethod
    def _secret(game: Game) -> str:
        """The game's secret, which a seat's token made again derives from; a game read
        from the archive has none (it is not kept there): its first answer is a 409."""
        secret = game.meta.get("ik")
        if secret is None:
            e = domain.GameOver(f"the game {game.id} has left Redis for the archive: the "
                                "first answer of this Idempotency-Key (its token) is not "
                                "kept there")  # fmt: skip
            e.version = game.version
            raise e
        return secret

    def _created_again(self, prior: tuple[str, str, int], fp: str, idem_key: str) -> Acted:
        """The first answer of a create's Idempotency-Key, made again from the game."""
        game_id, first_fp, _at = prior
        idempotency.check({"fp": first_fp}, fp)
        try:
            game = self.load(game_id)
        except NoSuchGame:
            raise KeyInUse(
                "a request with this Idempotency-Key is still in progress: retry",
                headers={"Retry-After": "1"},
            ) from None
        made = int(game.meta.get("cv", "1"))
        self._confirm(game.version)
        token = None
        if game.meta.get("kind0", "human") == "human":
            token = _derived(self._secret(game), 0, idem_key)
        return Acted(
            self._created(Game(game_id, self._state_at(game, made), game.meta), token),
            replayed=True,
        )

    def join(
        self, game_id: str, client_seed: str, token: str | None = None, *,
        idem_key: str | None = None, body=None, who: Who = ANONYMOUS, caller: str = "",
    ) -> Acted:  # fmt: skip
        """Take the free seat: ``{seat, token, state}``; 409 when there is none. With
        ``idem_key``, as ``create``: the same key and body answer the same seat and token
        to the same ``caller``.
        ``who`` takes it; a rated game takes only an app's player (403 for anyone else),
        not the one at seat 0 (409), and not one whose pair with seat 0 is over its cap of
        rated games (``take_pair``: 429)."""
        field = fp = None
        if idem_key is not None:
            field = "j:" + idempotency.scoped(caller, idem_key)
            fp = idempotency.fingerprint(body)
            prior = self.store.find_record(game_id, field)
            if prior is not None:
                return self._joined_again(self.load(game_id), prior, fp, idem_key)
        taken: list = []  # the pair this call counted the game for (``take_pair``)
        try:
            return self._join(game_id, client_seed, token, field, fp, idem_key, who, taken)
        finally:
            if taken:  # counted, and not joined: the seat went to another, or an error
                self._untake(game_id, taken[0], who)

    def _untake(self, game_id: str, pair: tuple, who: Who) -> None:
        """Forget the pair's count of a game ``who`` did not join (unless ``who`` sits at
        seat 1 all the same: a request of its own that raced this one)."""
        try:
            if pkeys(self.store.meta(game_id) or {})[1] != who.pkey:
                self.players.release_pair(*pair, game_id)
        except Exception:  # the count stays: one game too many for the pair, for a day
            log.exception("could not forget %s among the rated games of %s", game_id, pair)

    def _join(self, game_id, client_seed, token, field, fp, idem_key, who, taken) -> Acted:
        for _attempt in range(self.retries + 1):
            game = self.load(game_id)
            if token is not None:
                held = self.seat(game, token)
                raise SeatTaken(f"you already hold seat {held} of this game", version=game.version)
            if game.state.over:
                e = domain.GameOver(f"the game is {game.state.status}")
                e.version = game.version
                raise e
            if game.state.status != "waiting":
                raise SeatTaken("both seats are taken", version=game.version)
            if game.rated and who.pkey is None:
                raise PlayersOnly("this game is rated: join as an app's player (X-Api-Key and "
                                  "player)", version=game.version)  # fmt: skip
            if who.pkey is not None and who.pkey == pkeys(game.meta)[0]:
                raise SeatTaken(f"player {who.id} holds seat 0 of this game", version=game.version)
            if game.rated and not taken:
                pair = (pkeys(game.meta)[0], who.pkey)
                try:
                    if self.take_pair(pair, game_id) == "taken":
                        taken.append(pair)
                except RatedPairCapped as e:
                    e.version = game.version
                    raise
            ctx = Ctx(seat=1, now=self.clock(), server_seed=game.seed)
            events, state = domain.run(game.state, domain.Join(who.kind, client_seed), ctx)
            meta = {"kind1": who.kind, **self._seat_meta(1, who, game.state.game)}
            if field is not None:
                secret = game.meta.get("ik") or secrets.token_hex(16)  # (older games: none)
                meta["ik"] = secret
                new_token = _derived(secret, 1, idem_key)
                idem = (field, idempotency.appended(fp, game.version + 1, state.version))
            else:
                new_token, idem = secrets.token_urlsafe(32), None
            meta["tok1"] = token_hash(new_token)
            result = self._append(game, events, state, meta=meta, idem=idem)
            if isinstance(result, Appended):
                taken.clear()  # the game is the pair's now
                joined = Game(game_id, state, {**game.meta, **meta})
                self._index_players(game_id, joined.meta)
                if not result.confirmed:
                    raise Unconfirmed(version=state.version)
                return Acted({"seat": 1, "token": new_token, "state": self.view(joined, 1)})
            if isinstance(result, Replayed):
                return self._joined_again(self.load(game_id), result.record, fp, idem_key)
            self.metrics.append_retries.inc()
        raise Busy("the game changed too fast to join: retry", headers={"Retry-After": "1"})

    def _joined_again(self, game: Game, record: dict, fp: str, idem_key: str) -> Acted:
        idempotency.check(record, fp)
        _first, last = record["v"]
        if last > game.version:
            game = self.load(game.id)
        self._confirm(game.version)
        state = self._state_at(game, last)
        token = _derived(self._secret(game), 1, idem_key)
        return Acted({"seat": 1, "token": token, "state": self.view(game, 1, state)}, replayed=True)

    def act(
        self,
        game_id: str,
        token: str | None,
        body,
        *,
        idem_key: str | None = None,
        if_match: frozenset[int] | None = None,
        bill=None,
    ) -> Acted:
        """A seat's action (the seat is the token's, the action its game's wire form):
        its answer, or the error that refuses it.

        Decided first on this process's cached state, so that a current cache costs one
        round trip (the append, whose version check proves the state was current). On a
        version clash the append's reply carries the events missed: re-decide on them, a
        bounded number of times (a move that lost its race gets the 422 it now earns).
        Anything refused on a cached state is judged again on a freshly loaded one. With
        ``idem_key`` the first answer is kept (its record: ``idempotency``) and given
        again, even while the first is in flight; with another body, a 422.

        ``bill``: the request's rate buckets (``limits.rates.Bill``), charged in the first
        load or append this makes, before anything is written (a refusal's record comes
        after a fresh load); a 429 from it goes up as it is. Decided on the cache and
        refused by the rules, or malformed, it makes none: the caller charges it then.
        """
        fp = idempotency.fingerprint(body) if idem_key else ""
        game, idem, fresh = self.cache.get(game_id), (None, None), False
        if game is None:
            (game, idem), fresh = self._load(game_id, idem_key, bill), True
        action = domain.parse_action(game.state.game, body)  # the only validator: 400 first
        for attempt in range(self.retries + 1):
            try:
                seat = self.seat(game, token, required=True, lookup=fresh)
            except (Unauthorized, Forbidden):
                if fresh:
                    raise
                (game, idem), fresh = self._load(game_id, idem_key, bill), True
                continue
            field = f"{seat}:{idem_key}" if idem_key else None
            if fresh and field and idem[seat] is not None:
                return self._replay(game, seat, idem[seat], fp)
            if if_match is not None and game.version not in if_match:
                if fresh:
                    raise PreconditionFailed(
                        f"the game is at version {game.version}", version=game.version
                    )
                (game, idem), fresh = self._load(game_id, idem_key, bill), True
                continue
            try:
                events, state = self._run(game, seat, action)
            except (domain.IllegalAction, domain.GameOver) as e:
                if not fresh:
                    (game, idem), fresh = self._load(game_id, idem_key, bill), True
                    continue
                self.metrics.action(game.state.game, "refused")
                if field:  # the first answer is the answer, refusals included
                    prior = self.store.record(
                        game_id, field, idempotency.refused(fp, e, game.version)
                    )
                    if prior is not None:
                        return self._replay(game, seat, prior, fp)
                e.version = game.version  # for the problem's `version`
                raise
            record = idempotency.appended(fp, game.version + 1, state.version) if field else None
            wire = [domain.event_to_dict(e) for e in events]
            result = self._append(
                game, events, state, idem=(field, record) if field else None, wire=wire,
                bill=bill,
            )  # fmt: skip
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
            # a random pause, growing: two seats acting in lockstep take turns losing
            time.sleep(random.uniform(0, 0.001 * (attempt + 1)))
            game, fresh = self._caught_up(game, result), True
        self.metrics.action("any", "busy")
        raise Busy("the game changed too fast to act on: retry", headers={"Retry-After": "1"})

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
            "state": self.view(game, seat, state),
        }

    def _replay(self, game: Game, seat: int, record: dict, fp: str) -> Acted:
        """The first answer of an Idempotency-Key, rebuilt from the log (or raised again)."""
        idempotency.check(record, fp)
        if "body" in record:  # a record of older code, which kept the whole answer
            if record["status"] == 201:
                self._confirm(game.version)
                return Acted(record["body"], replayed=True)
            b = record["body"]
            record = {"s": record["status"], "v": b.get("version"), "r": b.get("rule"),
                      "d": b.get("detail")}  # fmt: skip
        if record["s"] != 201:
            raise idempotency.error_of(record)
        first, last = record["v"]
        if last > game.version:  # appended by another process since this one looked
            game = self.load(game.id)
        self._confirm(game.version)
        state = self._state_at(game, last)
        entries = self.entries(game, first - 1, upto=last)
        events = [domain.event_from_dict(d) for _v, d in entries]
        return Acted(self._answer(game, first - 1, events, state, seat), replayed=True)

    def _caught_up(self, game: Game, clash: Clash) -> Game:
        if clash.tail is None:
            return self.load(game.id)
        return self._advance(Game(game.id, game.state, clash.meta), clash.tail, clash.version)

    def _append(self, game: Game, events, state: State, *, idem=None, meta=None, wire=None,
                made: list | None = None, bill=None):  # fmt: skip
        """Append the events of a decision on ``game`` (``wire``: their wire forms, if made
        already); on success, the follow-ups (cache, lobby and token indexes, the
        scheduler hook)."""
        meta = dict(meta or {})
        if state.status != game.state.status:
            meta["status"] = state.status
        result = self.store.append(
            game.id, game.version, wire or [domain.event_to_dict(e) for e in events], idem=idem,
            snapshot=self._snapshot(game.version, events, game.state), meta=meta, bill=bill,
        )  # fmt: skip
        if isinstance(result, Appended):
            if made is not None:  # in the log: whatever fails next, it exists
                made[0] = True
            new = Game(game.id, state, {**game.meta, **meta} if meta else game.meta)
            if result.confirmed:
                self.cache.put(new)
            tokens = {s: meta[f] for s, f in _TOKEN_FIELDS if f in meta} if meta else {}
            before = lobby_status(game.state.status) if game.version else None
            if tokens or lobby_status(state.status) != before:
                self.store.index(
                    game.id,
                    status=lobby_status(state.status),
                    created_ms=int(new.meta["created"]),
                    tokens=tokens,
                )
            before = game.state if game.version else None
            try:
                self.scheduler.on_appended(game.id, state, before, rated=state.over and new.rated)
                if self.webhooks.notifies(new.meta, before, state):
                    self.scheduler.arm_webhooks(game.id)
            except Exception:  # the action is in the log: answer it; the sweeper re-arms
                log.exception("the scheduler failed after an append to %s", game.id)
            if not result.confirmed:  # in the primary's log and followed up: not answered
                self.metrics.action(state.game, "unconfirmed")
        return result

    def _confirm(self, version: int | None = None) -> None:
        """Before an answer made again from the store (an ``Idempotency-Key``'s record),
        strict durability's confirmation that the store's replicas hold what it answers
        (``Unconfirmed`` if not)."""
        if not self.store.confirm():
            raise Unconfirmed(version=version)

    def submit(self, game_id: str, seat: int | None, action, expected: int | None = None,
               *, known: Game | None = None):  # fmt: skip
        """The system's path for the workers (bots, timeouts): decide ``action`` for
        ``seat`` on the current state and append it; returns the new state, or None when
        the game has moved past ``expected`` or the action is no longer legal. ``known``:
        the game as the caller just loaded it, decided on first (the append's version
        check proves it current, as a load would; one round trip fewer)."""
        for attempt in range(self.retries + 1):
            game = known if attempt == 0 and known is not None else self.load(game_id)
            if expected is not None and game.version != expected:
                return None
            try:
                events, state = self._run(game, seat, action)
            except (domain.IllegalAction, domain.GameOver):
                return None
            if isinstance(self._append(game, events, state), Appended):
                return state  # (confirmed or not: no one to answer)
            if expected is not None:
                return None
            self.metrics.append_retries.inc()
        return None

    def _run(self, game: Game, seat: int | None, action):
        return domain.run(
            game.state, action, Ctx(seat=seat, now=self.clock(), server_seed=game.seed)
        )

    def _snapshot(self, version: int, events, state: State) -> tuple[int, dict] | None:
        """The snapshot to store with an append from ``version``: the state at the last
        multiple of ``snapshot_every`` the append reaches, if it reaches one."""
        n = self.snapshot_every
        end = version + len(events)
        mark = end // n * n
        if n <= 0 or mark <= version:
            return None
        return mark, domain.state_to_dict(domain.replay(events[: mark - version], state))

    # ---------------------------------------------------------------- refusals and T-4

    def refused(self, game_id: str, token: str, start: float, end: float) -> None:
        """The service refused a request of ``token`` from ``start`` to ``end`` for no excess
        of the seat's own (a 503, a 429 of its address's limits): RULES T-4 does not count
        that window against the token's seat. Only a token of a seat of the game as this
        process knows it counts (a refusal may come before the game is loaded: no window is
        kept for a token that may be no seat's), and only while the game runs: T-4 is over
        with it, and an archived game has no keys in Redis to add to."""
        game = self.cache.get(game_id)
        h = token_hash(token)
        if game is None or game.state.over:
            return
        if h in (game.meta.get("tok0"), game.meta.get("tok1")):
            self.store.refused(game_id, h, start, end)

    def due(self, game: Game, now: float) -> tuple | None:
        """The deadline to fire first and when it falls due, once a seat's T-4 is pushed
        back by the time the service refused that seat's requests (RULES T-4:
        ``excused``); None when no deadline runs. Only a T-4 already due can be pushed
        past now, so only those are asked about (a Redis read each). A seat excused for
        ``idle_forfeit_s`` or more since its own last action stalled the game through
        the service's refusals: its deadline is then T-6, due at once (the game is
        aborted, RULES T-4 and T-6), so that no game hangs for as long as its seat is
        refused. At the same time a T-6 goes first (``domain.game.first``)."""
        cap = game.state.options.idle_forfeit_s
        timed = []
        for i, d in enumerate(domain.deadlines(game.state)):
            at = d.at
            if d.rule == "T-4" and d.at <= now:
                excused = self.excused(game, d.seat, now)
                if excused >= cap:
                    d = domain.Deadline("T-6", d.at, d.seat)
                else:
                    at = d.at + excused
            timed.append((at, 0 if d.rule == "T-6" else 1, i, d))
        if not timed:
            return None
        at, _first, _i, d = min(timed)
        return d, at

    def excused(self, game: Game, seat: int, now: float) -> float:
        """The seconds, since ``seat``'s own last action and up to ``now``, in which the
        service refused its requests (each window counted once)."""
        h = game.meta.get(f"tok{seat}")
        if not h:
            return 0.0
        since = game.state.acted_at[seat]
        windows = sorted(self.store.refused_windows(game.id, h, since))
        total, reach = 0.0, since
        for a, b in windows:
            a, b = max(a, reach), min(b, now)
            if b > a:
                total += b - a
                reach = b
        return total


LOBBY_SCAN = 1000  # games a filtered lobby page looks at, at most
