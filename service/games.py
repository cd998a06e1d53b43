"""The application service: requests become domain decisions and appends to the store.

One path for every caller: the HTTP views call it now, the workers (bots, timeouts)
will call ``submit`` the same way. Every answer that shows cards goes through
``domain.view`` / ``domain.redact`` for the caller's seat (RULES H-1..H-5).
"""

import hashlib
import hmac
import json
import logging
import math
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

import domain
from domain import Ctx, State
from domain.audit import verify
from domain.shuffle import VERSION as SHUFFLE_VERSION

from .errors import (
    Busy,
    Forbidden,
    GameRunning,
    IdempotencyKeyReused,
    NoSuchGame,
    NoSuchVersion,
    PreconditionFailed,
    SeatTaken,
    Unauthorized,
    problem,
)
from .hooks import NoScheduler, Scheduler
from .metrics import Metrics
from .store import Appended, Clash, RedisStore, Replayed, lobby_status

log = logging.getLogger(__name__)


def ms_now() -> float:
    """The time events are stamped with: now, rounded up to the millisecond (what the
    export notation keeps, docs/export.md; up, so a deadline is never fired early)."""
    return math.ceil(time.time() * 1000) / 1000


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def fingerprint(body) -> str:
    """What an Idempotency-Key is bound to: the request body, canonically."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


_TOKEN_FIELDS = ((0, "tok0"), (1, "tok1"))  # the meta fields of the seats' token hashes


@dataclass(frozen=True, slots=True)
class Game:
    id: str
    state: State
    meta: dict[str, str]
    idem: tuple[dict | None, dict | None] = (None, None)

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.meta["seed"])


@dataclass(frozen=True, slots=True)
class Answer:
    """An action's answer: a status and a body (201 or a recorded refusal)."""

    status: int
    body: dict
    replayed: bool = False


class _GameCache:
    """The latest state (and meta) of recently used games, per process: a read decodes
    only the events it has not seen, and an action is decided on it straight away (the
    append's version check says whether it was still current)."""

    def __init__(self, size: int):
        self.size = size
        self._d: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> "Game | None":
        with self._lock:
            g = self._d.get(game_id)
            if g is not None:
                self._d.move_to_end(game_id)
            return g

    def put(self, g: "Game") -> None:
        if self.size <= 0:
            return
        if g.idem != (None, None):
            g = replace(g, idem=(None, None))
        with self._lock:
            old = self._d.get(g.id)
            if old is None or old.version <= g.version:
                self._d[g.id] = g
                self._d.move_to_end(g.id)
            while len(self._d) > self.size:
                self._d.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._d.clear()


class Games:
    """Create, join, act, read: the use cases, over a ``RedisStore``."""

    def __init__(
        self,
        store: RedisStore,
        *,
        scheduler: Scheduler | None = None,
        metrics: Metrics | None = None,
        clock: Callable[[], float] = ms_now,
        snapshot_every: int = 50,
        cache_size: int = 2048,
        retries: int = 8,
    ):
        self.store = store
        self.scheduler = scheduler or NoScheduler()
        self.metrics = metrics or Metrics()
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.retries = retries
        self.cache = _GameCache(cache_size)
        self._audits: OrderedDict[str, dict] = OrderedDict()

    # ---------------------------------------------------------------- reading

    def load(self, game_id: str, idem_key: str | None = None) -> Game:
        """The game now: the cached state or the latest snapshot, plus the events after it,
        in one round trip (with ``idem_key``: the records of that key for both seats)."""
        cached = self.cache.get(game_id)
        loaded = self.store.load(game_id, cached.version if cached else -1, idem_key)
        if loaded is None:
            raise NoSuchGame(f"no game {game_id}")
        if loaded.snapshot is not None:
            state = domain.state_from_dict(loaded.snapshot)
        elif cached is not None and loaded.base == cached.version:
            state = cached.state
        else:
            state = State()
        game = self._advance(
            Game(game_id, state, loaded.meta), loaded.meta, loaded.tail, loaded.version
        )
        return replace(game, idem=loaded.idem)

    def _advance(self, game: Game, meta: dict, tail, version: int) -> Game:
        """``game`` moved on by the events it missed (``tail``), checked against ``version``."""
        state = game.state
        if tail:
            state = domain.replay((domain.event_from_dict(d) for _v, d in tail), state)
        if state.version != version:  # a snapshot or cache out of step: the log rules
            entries = self.store.read_after(game.id, 0)
            state = domain.replay(domain.event_from_dict(d) for _v, d in entries)
        game = Game(game.id, state, meta)
        self.cache.put(game)
        return game

    def seat(self, game: Game, token: str | None, *, required: bool = False) -> int | None:
        """The seat ``token`` holds in ``game``: None without a token (a spectator, unless
        ``required``); 401 for an unknown token, 403 for a token of another game."""
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
        if self.store.token_owner(h) is not None:
            raise Forbidden("this token holds a seat of another game", version=game.version)
        raise Unauthorized("unknown token", version=game.version)

    def view(self, game: Game, seat: int | None) -> dict:
        return domain.view(game.state, seat)

    def events_after(self, game: Game, seat: int | None, after: int, limit: int) -> list[dict]:
        """The log after ``after``, redacted for ``seat`` (in full once the game is over)."""
        return self.redacted(self.store.read_after(game.id, after, limit), seat, game.state.over)

    @staticmethod
    def redacted(entries, seat: int | None, public: bool) -> list[dict]:
        return [
            {"version": v, **domain.redact(domain.event_from_dict(d), seat, public=public)}
            for v, d in entries
        ]

    def state_at(self, game: Game, seat: int | None, version: int) -> dict:
        """The state after ``version`` events: ``seat``'s view during the game, the full
        state once it is over (RULES H-5, H-6)."""
        if not 1 <= version <= game.version:
            raise NoSuchVersion(
                f"versions of this game run from 1 to {game.version}", version=game.version
            )
        if version == game.version:
            state = game.state
        else:
            base = version // self.snapshot_every * self.snapshot_every
            snap = self.store.snapshot_at(game.id, base) if base > 0 else None
            state, base = (domain.state_from_dict(snap), base) if snap else (State(), 0)
            entries = self.store.read_after(game.id, base, upto=version)
            state = domain.replay((domain.event_from_dict(d) for _v, d in entries), state)
        if game.state.over:
            return domain.full_state(state, seat)
        return domain.view(state, seat)

    def lobby(self, status: str, cursor: str | None, limit: int) -> tuple[list[dict], str | None]:
        rows, nxt = self.store.lobby(status, cursor, limit)
        games = []
        for gid, meta, version in rows:
            kinds = [meta.get("kind0"), meta.get("kind1")]
            games.append(
                {
                    "id": gid,
                    "game": meta["game"],
                    "status": meta["status"],
                    "version": version,
                    "created_at": domain.views.iso(int(meta["created"]) / 1000),
                    "players": [{"seat": i, "kind": k} for i, k in enumerate(kinds)],
                }
            )
        return games, nxt

    # ---------------------------------------------------------------- writing

    def create(
        self, game: str, options: dict | None, opponent: str, client_seed: str,
        seat0: str = "human",
    ) -> dict:  # fmt: skip
        """A new game with the caller at seat 0: ``{id, seat, token, commitment, state}``.
        With a bot at seat 0 (``seat0``, e.g. bot against bot) the caller only watches:
        seat and token are None, the state is the spectator's."""
        if seat0 not in domain.KINDS:
            raise domain.MalformedAction({"seat0": [f"must be one of {', '.join(domain.KINDS)}"]})
        game_id = "g_" + secrets.token_hex(8)
        seed = secrets.token_bytes(32)  # revealed only by the audit (RULES H-6)
        commitment = domain.commitment(seed)
        now = self.clock()
        events = domain.create_game(
            game_id=game_id, game=game, now=now, server_seed=seed, commitment=commitment,
            options=options, opponent=opponent, client_seed=client_seed, kind=seat0,
        )  # fmt: skip
        state = domain.replay(events)
        token = secrets.token_urlsafe(32) if seat0 == "human" else None
        meta = {
            "game": game, "seed": seed.hex(), "commitment": commitment,
            "created": str(int(now * 1000)), "kind0": seat0,
        }  # fmt: skip
        if token is not None:
            meta["tok0"] = token_hash(token)
        if opponent != "human":
            meta["kind1"] = opponent
        empty = Game(game_id, State(), meta)
        if not isinstance(self._append(empty, events, state, meta=meta), Appended):
            raise Busy("could not create the game: retry")  # a 64-bit id collided
        self.metrics.games_created.labels(game).inc()
        seat = 0 if token is not None else None
        return {
            "id": game_id,
            "seat": seat,
            "token": token,
            "commitment": commitment,
            "state": domain.view(state, seat),
        }

    def join(self, game_id: str, client_seed: str, token: str | None = None) -> dict:
        """Take the free seat: ``{seat, token, state}``; 409 when there is none."""
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
            ctx = Ctx(seat=1, now=self.clock(), server_seed=game.seed)
            events, state = domain.run(game.state, domain.Join("human", client_seed), ctx)
            new_token = secrets.token_urlsafe(32)
            meta = {"tok1": token_hash(new_token), "kind1": "human"}
            if isinstance(self._append(game, events, state, meta=meta), Appended):
                return {"seat": 1, "token": new_token, "state": domain.view(state, 1)}
            self.metrics.append_retries.inc()
        raise Busy("the game changed too fast to join: retry", headers={"Retry-After": "1"})

    def act(
        self,
        game_id: str,
        token: str | None,
        body,
        *,
        idem_key: str | None = None,
        if_match: frozenset[int] | None = None,
        read: dict | None = None,
    ) -> Answer:
        """A seat's action (the seat is the token's); its answer, 201 or a refusal.

        Decided first on this process's cached state, so that a current cache costs one
        round trip (the append, whose version check proves the state was current). On a
        version clash the append's reply carries the events missed: re-decide on them, a
        bounded number of times (a move that lost its race gets the 422 it now earns).
        Anything refused on a cached state is judged again on a freshly loaded one. With
        ``idem_key`` the first answer is kept and given again (422 with another body).
        ``read``: the body as the rules of a game already read it (``{game: action}``).
        """
        fp = fingerprint(body) if idem_key else ""
        game, fresh = self.cache.get(game_id), False
        if game is None:
            game, fresh = self.load(game_id, idem_key), True
        for attempt in range(self.retries + 1):
            try:
                seat = self.seat(game, token, required=True)
            except (Unauthorized, Forbidden):
                if fresh:
                    raise
                game, fresh = self.load(game_id, idem_key), True
                continue
            field = f"{seat}:{idem_key}" if idem_key else None
            if fresh and field and game.idem[seat] is not None:
                return self._replay(game.idem[seat], fp)
            if if_match is not None and game.version not in if_match:
                if fresh:
                    raise PreconditionFailed(
                        f"the game is at version {game.version}", version=game.version
                    )
                game, fresh = self.load(game_id, idem_key), True
                continue
            action = (read or {}).get(game.state.game) or domain.parse_action(
                game.state.game, body
            )
            try:
                events, state = self._run(game, seat, action)
            except (domain.IllegalAction, domain.GameOver) as e:
                if not fresh:
                    game, fresh = self.load(game_id, idem_key), True
                    continue
                self.metrics.action(game.state.game, "refused")
                if field:  # the first answer is the answer, refusals included
                    status, pbody, _h = problem(e, game.version)
                    prior = self.store.record(
                        game_id, field, {"fp": fp, "status": status, "body": pbody}
                    )
                    if prior is not None:
                        return self._replay(prior, fp)
                e.version = game.version  # for the problem's `version`
                raise
            answer = {
                "version": state.version,
                "events": [
                    {"version": game.version + i + 1, **domain.redact(e, seat, public=state.over)}
                    for i, e in enumerate(events)
                ],
                "state": domain.view(state, seat),
            }
            result = self._append(
                game, events, state, idem=(field, {"fp": fp, "status": 201, "body": answer})
                if field else None,
            )  # fmt: skip
            if isinstance(result, Appended):
                self.metrics.action(game.state.game, "appended")
                return Answer(201, answer)
            if isinstance(result, Replayed):
                return self._replay(result.record, fp)
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

    def _caught_up(self, game: Game, clash: Clash) -> Game:
        if clash.tail is None:
            return self.load(game.id)
        return self._advance(game, clash.meta, clash.tail, clash.version)

    def _append(self, game: Game, events, state: State, *, idem=None, meta=None):
        """Append the events of a decision on ``game``; on success, the follow-ups (cache,
        lobby and token indexes, the scheduler hook)."""
        meta = dict(meta or {})
        if state.status != game.state.status:
            meta["status"] = state.status
        result = self.store.append(
            game.id, game.version, [domain.event_to_dict(e) for e in events], idem=idem,
            snapshot=self._snapshot(game.version, events, game.state), meta=meta,
        )  # fmt: skip
        if isinstance(result, Appended):
            new = Game(game.id, state, {**game.meta, **meta} if meta else game.meta)
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
            try:
                self.scheduler.on_appended(game.id, state, game.state if game.version else None)
            except Exception:  # the action is in the log: answer it; the sweeper re-arms
                log.exception("the scheduler failed after an append to %s", game.id)
        return result

    def submit(self, game_id: str, seat: int | None, action, expected: int | None = None):
        """The system's path for the workers (bots, timeouts): decide ``action`` for
        ``seat`` on the current state and append it; returns the new state, or None when
        the game has moved past ``expected`` or the action is no longer legal."""
        for _attempt in range(self.retries + 1):
            game = self.load(game_id)
            if expected is not None and game.version != expected:
                return None
            try:
                events, state = self._run(game, seat, action)
            except (domain.IllegalAction, domain.GameOver):
                return None
            if isinstance(self._append(game, events, state), Appended):
                return state
            if expected is not None:
                return None
            self.metrics.append_retries.inc()
        return None

    def _run(self, game: Game, seat: int | None, action):
        return domain.run(
            game.state, action, Ctx(seat=seat, now=self.clock(), server_seed=game.seed)
        )

    @staticmethod
    def _replay(record: dict, fp: str) -> Answer:
        if record.get("fp") != fp:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was first used with another body: use a new key"
            )
        return Answer(record["status"], record["body"], replayed=True)

    def _snapshot(self, version: int, events, state: State) -> tuple[int, dict] | None:
        """The snapshot to store with an append from ``version``: the state at the last
        multiple of ``snapshot_every`` the append reaches, if it reaches one."""
        n = self.snapshot_every
        end = version + len(events)
        mark = end // n * n
        if n <= 0 or mark <= version:
            return None
        return mark, domain.state_to_dict(domain.replay(events[: mark - version], state))

    # ---------------------------------------------------------------- the audit (H-6)

    def audit(self, game: Game) -> dict:
        """The whole log in full, the seed, and every deal re-derived from it (RULES H-6)."""
        if not game.state.over:
            raise GameRunning(
                "the audit opens when the game is over: the seed is secret until then",
                version=game.version,
            )
        done = self._audits.get(game.id)
        if done is not None:
            return done
        seed = game.seed
        entries = self.store.read_after(game.id, 0)
        events = [domain.event_from_dict(d) for _v, d in entries]
        state = domain.replay(events)
        # One pass re-judges every event and re-derives every deal (domain/audit.py).
        rules = verify(events, seed).as_dict()
        deals = [
            {"version": x["version"], "type": x["type"], "verified": x["ok"],
             "nonces": list(getattr(events[x["version"] - 1], "nonces", None)
                            or [events[x["version"] - 1].nonce])}
            for x in rules["deals"]
        ]  # fmt: skip
        out = {
            "id": game.id,
            "game": state.game,
            "status": state.status,
            "version": state.version,
            "winner": state.winner,
            "result": state.result,
            "commitment": state.commitment,
            "server_seed": seed.hex(),
            "commitment_verified": domain.commitment(seed) == state.commitment,
            "client_seeds": list(state.client_seeds),
            "shuffle": SHUFFLE_VERSION,
            "deals": deals,
            "events": [{"version": v, **d} for v, d in entries],
            "rules": rules,
        }
        out["verified"] = out["commitment_verified"] and rules["ok"]
        self._audits[game.id] = out
        while len(self._audits) > 64:
            self._audits.popitem(last=False)
        return out
