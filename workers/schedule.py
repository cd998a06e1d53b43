"""Due-time scheduling of a game's next decisions, on the queue Redis
(``SPITLOG_QUEUE_URL``; the keys' names are made by ``service.store.keys``).

RQ's own ``enqueue_in`` rounds to whole seconds and polls once a second
(ARCHITECTURE.md), far too coarse for a 300 ms bot reaction. Instead:

- ``DUE``  a sorted set of *decision slots* scored by due time in ms;
- ``PLAN``  a hash: slot -> ``<version>|<attempt>|<claimed ms, 0 if not yet>``;
- ``store_keys.sched_version(game)``  the highest game version armed (an hour's TTL once the
  game is over): an arm from an older version changes nothing;
- ``TRACE``  a Stream of job runs, only with ``SPITLOG_TRACE=1`` (bench, tests);
- ``WAKE``  a Pub/Sub channel: an arm that makes a slot the soonest in the set publishes
  its due time there, so that a ticker waiting for a later one (or for nothing) wakes at
  once (``workers.ticker``): an idle scheduler sleeps;
- ``store_keys.sched_context(game)``  the trace context (``traceparent``) of the game's latest
  append, when tracing is on (an hour's TTL): the jobs it arms continue that trace;
- ``store_keys.sched_beat(host)``  the time (ms) a scheduler on that host last ticked, for
  ``spitlog health scheduler`` (a minute's TTL);
- ``FAILED``  a hash: game -> JSON ``{at, why}`` (ms, the error), the finished games whose
  archive job failed for a reason no retry can fix (``service.archiving.permanent``):
  their archive slot is gone, the sweeper arms none again, and they stay in Redis until
  an operator sees to them (``spitlog admin failed``, ``spitlog admin archive``; the
  ``spitlog_archive_failed_games`` gauge).

A game has at most three slots, so the set holds a few members per live game whatever
the pace of play (and a finished game one, until it has left Redis):

- ``bot|<game>|<seat>``: a bot's next decision, planned at one version. After every
  append that leaves a bot able to act, its plan moves to the new version; after the
  bot's own action it is due at now + reaction, after any other append it keeps the
  due time of the plan it replaces if that is sooner (one waiting, or one claimed whose
  job has not ended: then at once, the job finding the game moved on), and the bot
  decides on the game as it is at that time. So an opponent who acts faster than the
  bot's reaction cannot keep it from ever acting while its idle clock (T-6) runs
  (``domain.simulate`` re-plans at every change instead: its games calibrate the
  levels). The version high-water mark makes the plans monotonic, so hooks from two
  processes that land out of order cannot put an older plan over a newer one.
- ``dl|<game>``: the game's deadlines (RULES T-1..T-5), all in one slot, due no later
  than the soonest of them. Its job (``workers.jobs.fire_deadline``) looks at the game as
  it is when it runs: it fires what is due then, and arms the slot again at the soonest
  deadline left. The invariant is *the slot is due no later than the game's soonest
  deadline* (or its job is running). An append's hook sets the slot to the soonest
  deadline exactly; a job or the sweeper only ever moves it sooner; both only from the
  latest version armed (so a job that looked at an older state cannot put back a slot
  the game's end removed). So in a game of humans an append arms it only when it brings a
  deadline sooner than every deadline the state before it had, or takes away (or puts
  later) one due within ``NEAR_S`` (30 s: a stalemate called, a round begun), which
  would otherwise wake a job for nothing: each action pushes that seat's idle deadline
  (T-4) back, so few appends arm anything, and most actions cost no round trip to the
  schedule. A slot left due too early (a far deadline met) costs one job that arms it
  again at the right time or finds nothing to do. A game with a bot arms at every
  append anyway, and sets the slot exactly.
- ``wh|<game>``: the game's webhook notifications (``workers.jobs.deliver_webhooks``),
  armed by an append that has something to notify, again by its job while a target
  fails (its backoff);
- ``arc|<game>``: a finished game's way out of Redis (``workers.jobs.archive_game``),
  armed by the append that ends it, due once its rematch asks are over (a rated game's
  at its end: its job rates it, then waits for them): archive it, delete it
  once the retention is over; its plan's version is 0, its attempt counts the failures
  in a row. A rated game is rated first, in the same job (``service.archiving``: never
  archived unrated).
- ``seek|<seek>``: a seek's bot fallback or expiry (``workers.jobs.seek_due``), armed
  when it is posted.

``claim`` (one script, so of several tickers only one wins a slot) pops the due slots,
stamps their plans with the claim time, and answers ``Decision``s for the ticker to
enqueue. A bot plan's version is its job's guard; a claim stamp that grows old while
the game has not moved tells the sweeper the job was lost (``workers.ticker``).
"""

import json
import math
import random
import time
from dataclasses import dataclass

import redis

import domain
from domain import State
from domain.bots import POLICIES
from service import telemetry
from service.config import Settings
from service.store import keys as store_keys
from service.store.connect import client, options

PREFIX = store_keys.SCHED
DUE, PLAN, TRACE = store_keys.SCHED_DUE, store_keys.SCHED_PLAN, store_keys.SCHED_TRACE
WAKE, FAILED = store_keys.SCHED_WAKE, store_keys.SCHED_FAILED
CTX_TTL_S = 3600  # a game's trace context (``store_keys.sched_context``)
BEAT_TTL_S = 60  # a host's beat (``store_keys.sched_beat``)
FINAL_TTL_S = 3600  # how long a finished game's high-water mark outlives it
# a human game's append that takes away a deadline due this soon sets the deadline slot
# to the next one (``Scheduler.on_appended``); a later one is left to fire its job
NEAR_S = 30.0

# KEYS: due, plan, high-water mark. ARGV: version, final ('1'/'0'), ttl, n bots, then n
# times (bot slot, due ms, attempt, keep: '1' to keep the due time of the slot's plan if
# sooner, the plan waiting or claimed and not done, '0' not), then (deadline slot, due ms
# or '', attempt, mode),
# then the slots to remove. Bot plans and removals apply only if no later version was
# armed. The deadline slot, also only if no later version was armed: mode 'exact' (an
# append's hook) sets it to the due time, or removes it without one; mode 'sooner' (a
# job, the sweeper) moves it sooner only (see the module's doc).
# When the set's soonest slot is sooner than before, its due time is published on the
# wake channel (the ticker waits for it). Answers 1 if the version was current, else 0.
_ARM = (
    """
local function soonest()
  local top = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if #top == 0 then return nil end
  return tonumber(top[2])
end
local before = soonest()
local v = tonumber(ARGV[1])
local hw = redis.call('GET', KEYS[3])
local current = not (hw and tonumber(hw) > v)
if current then
  if ARGV[2] == '1' then
    redis.call('SET', KEYS[3], ARGV[1], 'EX', tonumber(ARGV[3]))
  else
    redis.call('SET', KEYS[3], ARGV[1])
  end
end
local i = 5
for j = 1, tonumber(ARGV[4]) do
  if current then
    local due = ARGV[i + 1]
    if ARGV[i + 3] == '1' then
      local armed = redis.call('ZSCORE', KEYS[1], ARGV[i])
      if not armed then
        local p = redis.call('HGET', KEYS[2], ARGV[i])
        armed = p and string.match(p, '|([^|]*)$')
        if armed == '0' then armed = nil end
      end
      if armed and tonumber(armed) < tonumber(due) then due = armed end
    end
    redis.call('ZADD', KEYS[1], due, ARGV[i])
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[1] .. '|' .. ARGV[i + 2] .. '|0')
  end
  i = i + 4
end
local dslot, ddue, dplan = ARGV[i], ARGV[i + 1], ARGV[1] .. '|' .. ARGV[i + 2] .. '|0'
if ARGV[i + 3] == 'exact' then
  if current and ddue ~= '' then
    redis.call('ZADD', KEYS[1], ddue, dslot)
    redis.call('HSET', KEYS[2], dslot, dplan)
  elseif current then
    redis.call('ZREM', KEYS[1], dslot)
    redis.call('HDEL', KEYS[2], dslot)
  end
elseif current and ARGV[i + 3] == 'sooner' and ddue ~= '' then
  local armed = redis.call('ZSCORE', KEYS[1], dslot)
  if not armed or tonumber(ddue) < tonumber(armed) then
    redis.call('ZADD', KEYS[1], ddue, dslot)
    redis.call('HSET', KEYS[2], dslot, dplan)
  end
end
if current then
  for j = i + 4, #ARGV do
    redis.call('ZREM', KEYS[1], ARGV[j])
    redis.call('HDEL', KEYS[2], ARGV[j])
  end
  local after = soonest()
  if after and (not before or after < before) then
    redis.call('PUBLISH', '"""
    + WAKE
    + """', tostring(after))
  end
  return 1
end
return 0
"""
)

# KEYS: due, plan. ARGV: claim what is due by this time (ms), the most slots to claim,
# the time of the claim (ms). Answers {{slot, plan, due, ...}, the next due time or false}.
_CLAIM = """
local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES',
                         'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for i = 1, #items, 2 do
  local m = items[i]
  redis.call('ZREM', KEYS[1], m)
  local p = redis.call('HGET', KEYS[2], m)
  if p then
    local head = string.match(p, '^([^|]*|[^|]*)')
    redis.call('HSET', KEYS[2], m, head .. '|' .. ARGV[3])
    out[#out + 1] = m
    out[#out + 1] = p
    out[#out + 1] = items[i + 1]
  end
end
local nxt = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #nxt == 0 then return {out, false} end
return {out, nxt[2]}
"""


# KEYS: due, plan. ARGV: a slot, and a version ('' for any). Drops its plan unless it
# waits in the set again, or (with a version) it is a plan for a later version.
_DONE = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
if ARGV[2] ~= '' then
  local p = redis.call('HGET', KEYS[2], ARGV[1])
  if p and tonumber(string.match(p, '^([^|]*)')) > tonumber(ARGV[2]) then return 0 end
end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""


def bot_slot(game_id: str, seat: int) -> str:
    return f"bot|{game_id}|{seat}"


def deadline_slot(game_id: str) -> str:
    return f"dl|{game_id}"


def archive_slot(game_id: str) -> str:
    return f"arc|{game_id}"


def webhook_slot(game_id: str) -> str:
    return f"wh|{game_id}"


def seek_slot(seek_id: str) -> str:
    return f"seek|{seek_id}"


# slots a job re-arms itself, at version 0 (a seek's "game" is the seek's id)
_ONCE = {"arc": archive_slot, "wh": webhook_slot, "seek": seek_slot}


def all_slots(game_id: str) -> list[str]:
    """Every slot a running game can have (a finished one has its archive slot only)."""
    return [bot_slot(game_id, 0), bot_slot(game_id, 1), deadline_slot(game_id)]


def _s(b) -> str:
    return b.decode() if isinstance(b, bytes) else str(b)


def ms(t: float) -> int:
    """A time in seconds as whole milliseconds, rounded up (never before ``t``)."""
    return math.ceil(t * 1000)


@dataclass(frozen=True, slots=True)
class Decision:
    """A claimed slot: what a job must decide, at which version, due when."""

    kind: str  # "bot", "dl", "arc", "wh" or "seek"
    game_id: str
    seat: int | None  # bot: its seat
    version: int  # bot: the version it decides at; dl: the version that armed it
    attempt: int
    due_ms: float

    @property
    def slot(self) -> str:
        if self.kind == "bot":
            return bot_slot(self.game_id, self.seat)
        if self.kind in _ONCE:
            return _ONCE[self.kind](self.game_id)
        return deadline_slot(self.game_id)


def parse_slot(slot: str) -> tuple[str, str, int | None]:
    """(kind, game id, seat or None) of a slot."""
    parts = slot.split("|")
    if parts[0] == "bot":
        return "bot", parts[1], int(parts[2])
    return (parts[0] if parts[0] in _ONCE else "dl"), parts[1], None


def parse_plan(plan: str) -> tuple[int, int, int]:
    """(version, attempt, claimed ms or 0) of a plan."""
    v, a, c = plan.split("|")
    return int(v), int(a), int(float(c))


def plan_rng(game_id: str, version: int, seat: int, attempt: int = 0) -> random.Random:
    """The bot's randomness for one decision: its reaction time is the first draw, its
    choice the next ones. Seeded by the decision, so a run (or a re-run of a lost job)
    makes the same choice: games with bots are reproducible from their log."""
    return random.Random(f"{game_id}|{version}|{seat}|{attempt}")


def bot_level(state: State, seat: int):
    """The policy of a bot seat (``bot:<level>``), or None for a human or a free seat."""
    kind = state.players[seat].kind or ""
    return POLICIES.get(kind[4:]) if kind.startswith("bot:") else None


class Schedule:
    """The schedule's keys on the queue Redis."""

    def __init__(self, r: redis.Redis):
        self.r = r
        self._arm = r.register_script(_ARM)
        self._claim = r.register_script(_CLAIM)
        self._done = r.register_script(_DONE)

    def arm(
        self,
        game_id: str,
        version: int,
        bots: list[tuple[str, float, int]] = (),
        removes: list[str] = (),
        *,
        deadline: tuple[float, int] | None = None,
        exact: tuple[float | None] | None = None,
        final: bool = False,
        keep: frozenset[str] | set[str] = frozenset(),
    ) -> bool:
        """Set ``bots`` (slot, due ms, attempt) to plans at ``version`` and remove
        ``removes``, unless a later version of the game was armed (then False); a slot
        in ``keep`` keeps the due time of the plan it replaces if that is sooner (the
        plan waiting in the set, or claimed and its job not done: its claim time). The
        game's deadline slot: ``exact`` = (due ms or None,) sets it to that time (None:
        removes it); ``deadline`` = (due ms, attempt) moves it to that time if that is
        sooner; both also only if the version is current."""
        args: list = [version, "1" if final else "0", FINAL_TTL_S, len(bots)]
        for slot, due, attempt in bots:
            args += [slot, repr(float(due)), attempt, "1" if slot in keep else "0"]
        if exact is not None:
            due = exact[0]
            args += [deadline_slot(game_id), "" if due is None else repr(float(due)), 0, "exact"]
        elif deadline is not None:
            args += [deadline_slot(game_id), repr(float(deadline[0])), deadline[1], "sooner"]
        else:
            args += [deadline_slot(game_id), "", 0, "none"]
        args += list(removes)
        keys = [DUE, PLAN, store_keys.sched_version(game_id)]
        return bool(self._arm(keys=keys, args=args))

    def claim(
        self, until_ms: float, limit: int = 500, now_ms: float | None = None
    ) -> tuple[list[Decision], float | None]:
        """Pop the slots due by ``until_ms`` (at most ``limit``), stamped as claimed at
        ``now_ms`` (default: now): their decisions, and the due time of the next slot
        (None: the schedule is empty)."""
        now_ms = time.time() * 1000 if now_ms is None else now_ms
        out, nxt = self._claim(keys=[DUE, PLAN], args=[int(until_ms), limit, int(now_ms)])
        decisions = []
        for i in range(0, len(out), 3):
            kind, game_id, seat = parse_slot(_s(out[i]))
            version, attempt, _c = parse_plan(_s(out[i + 1]))
            decisions.append(Decision(kind, game_id, seat, version, attempt, float(out[i + 2])))
        return decisions, (float(nxt) if nxt is not None else None)

    def status(self, slots: list[str]) -> list[tuple[float | None, tuple[int, int, int] | None]]:
        """Per slot: its due time if it waits in the set, and its plan (or None)."""
        pipe = self.r.pipeline(transaction=False)
        for slot in slots:
            pipe.zscore(DUE, slot)
            pipe.hget(PLAN, slot)
        replies = pipe.execute()
        return [
            (replies[2 * i], parse_plan(_s(replies[2 * i + 1])) if replies[2 * i + 1] else None)
            for i in range(len(slots))
        ]

    def high_water(self, game_ids: list[str]) -> list[int | None]:
        """The highest version armed of each game (None: never armed or long over)."""
        if not game_ids:
            return []
        raw = self.r.mget(map(store_keys.sched_version, game_ids))
        return [int(v) if v is not None else None for v in raw]

    def arm_archive(self, game_id: str, due_ms: float, attempt: int = 0) -> None:
        """Arm the finished game's archive slot at ``due_ms`` (its plan's version is 0:
        nothing moves a finished game)."""
        self.arm_once(archive_slot(game_id), due_ms, attempt)

    def arm_webhooks(self, game_id: str, due_ms: float, attempt: int = 0, sooner=False) -> None:
        """Arm the game's webhook slot at ``due_ms`` (``sooner``: unless it is due sooner)."""
        self.arm_once(webhook_slot(game_id), due_ms, attempt, sooner=sooner)

    def arm_once(self, slot: str, due_ms: float, attempt: int = 0, sooner=False) -> None:
        """Arm a slot its job re-arms itself (``_ONCE``) at ``due_ms``."""
        pipe = self.r.pipeline(transaction=True)
        pipe.zadd(DUE, {slot: float(due_ms)}, lt=sooner)
        pipe.hset(PLAN, slot, f"0|{attempt}|0")
        pipe.publish(WAKE, repr(float(due_ms)))  # rare (once a game and step): always
        pipe.execute()

    def done(self, slot: str, version: int | None = None) -> None:
        """A job of a ``_ONCE`` slot (or a bot's of ``version``) has nothing left to do:
        its plan goes, unless the slot was armed again while the job ran (it waits in the
        set, or it is a bot's plan for a later version: kept)."""
        self._done(keys=[DUE, PLAN], args=[slot, "" if version is None else version])

    def arm_seek(self, seek_id: str, due_ms: float) -> None:
        """Arm the seek's slot at ``due_ms``."""
        self.arm_once(seek_slot(seek_id), due_ms)

    def forget_seek(self, seek_id: str) -> None:
        slot = seek_slot(seek_id)
        pipe = self.r.pipeline(transaction=True)
        pipe.zrem(DUE, slot)
        pipe.hdel(PLAN, slot)
        pipe.execute()

    def forget(self, game_id: str) -> None:
        """The game is out of Redis: drop its archive slot, any other slot of it (left by
        a hook that never ran after its last append: a worker killed between the two),
        its high-water mark, and its archive failure if one was recorded."""
        slots = [archive_slot(game_id), *all_slots(game_id)]
        pipe = self.r.pipeline(transaction=True)
        pipe.zrem(DUE, *slots)
        pipe.hdel(PLAN, *slots)
        pipe.delete(store_keys.sched_version(game_id))
        pipe.hdel(FAILED, game_id)
        pipe.execute()

    # ---------------------------------------------------------------- archive failures

    def fail_archive(self, game_id: str, why: str, at_ms: float) -> bool:
        """Record that archiving the game failed for good (``why``), and drop its archive
        slot: nothing runs it again. Answers whether this is news (not recorded before)."""
        slot = archive_slot(game_id)
        entry = json.dumps({"at": int(at_ms), "why": why[:500]}, sort_keys=True)
        pipe = self.r.pipeline(transaction=True)
        pipe.hsetnx(FAILED, game_id, entry)
        pipe.zrem(DUE, slot)
        pipe.hdel(PLAN, slot)
        return bool(pipe.execute()[0])

    def archive_failures(self) -> dict[str, dict]:
        """The games recorded as failed for good: game -> ``{at, why}``."""
        return {_s(g): json.loads(v) for g, v in self.r.hgetall(FAILED).items()}

    def archive_failure(self, game_id: str) -> dict | None:
        raw = self.r.hget(FAILED, game_id)
        return json.loads(raw) if raw is not None else None

    def clear_failure(self, game_id: str) -> bool:
        """Forget the game's archive failure (an operator saw to it): whether there was one."""
        return bool(self.r.hdel(FAILED, game_id))

    def archive_plans(self, kind: str = "arc") -> list[str]:
        """The games with a ``kind`` slot planned (waiting, or claimed and not done)."""
        return [_s(f).split("|", 1)[1] for f, _p in self.r.hscan_iter(PLAN, match=f"{kind}|*")]

    def trace_of(self, game_ids: list[str]) -> list[str | None]:
        """The traceparent kept for each game (``Scheduler.remember_trace``), or None."""
        if not game_ids:
            return []
        return [_s(v) if v is not None else None
                for v in self.r.mget([store_keys.sched_context(g) for g in game_ids])]  # fmt: skip

    def depth(self) -> int:
        return int(self.r.zcard(DUE))

    def next_due(self) -> float | None:
        top = self.r.zrange(DUE, 0, 0, withscores=True)
        return top[0][1] if top else None

    # ---------------------------------------------------------------- waking, beating

    def subscribe(self) -> redis.client.PubSub:
        """A Pub/Sub connection on the wake channel: a message each time an arm makes a
        slot the soonest (its due time, ms)."""
        ps = self.r.pubsub(ignore_subscribe_messages=True)
        ps.subscribe(WAKE)
        return ps

    def beat(self, host: str, now_ms: float) -> None:
        """A scheduler on ``host`` is alive at ``now_ms``."""
        self.r.set(store_keys.sched_beat(host), int(now_ms), ex=BEAT_TTL_S)

    def last_beat(self, host: str) -> float | None:
        """When a scheduler on ``host`` last said it was alive (ms), or None."""
        raw = self.r.get(store_keys.sched_beat(host))
        return float(raw) if raw is not None else None

    # ---------------------------------------------------------------- the trace

    def trace(self, fields: dict) -> None:
        self.r.xadd(TRACE, {k: str(v) for k, v in fields.items()}, maxlen=1_000_000)

    def read_trace(self) -> list[dict]:
        return [{_s(k): _s(v) for k, v in f.items()} for _id, f in self.r.xrange(TRACE)]

    def clear_trace(self) -> None:
        self.r.delete(TRACE)


class Scheduler:
    """The service's hook (``service.ports.Scheduler``): after every append, arm the
    game's next decisions. Runs in every process that appends: the API and the workers."""

    def __init__(self, schedule: Schedule, *, pace: float = 1.0, clock=time.time,
                 archive_after_s: float = 0.0):  # fmt: skip
        self.schedule = schedule
        self.pace = pace
        self.clock = clock
        # a finished game's archive slot is armed this long after its end (its rematch
        # asks' time and the archiver's grace: ``Archiver.step`` waits for them anyway)
        self.archive_after_s = archive_after_s
        # game -> (version, soonest deadline ms) of the state last seen after an append:
        # the next append's ``before`` is that state, so its deadlines are not re-derived
        self._soonest: dict[str, tuple[int, int | None]] = {}

    @classmethod
    def from_settings(cls, s: Settings) -> "Scheduler":
        from service.archiving import Archiver

        opts = {**options(), "socket_connect_timeout": 1, "socket_timeout": 2}
        after = s.rematch_s + Archiver.CLOSE_GRACE_S if s.rematch_s > 0 else 0.0
        return cls(Schedule(client(s.queue, **opts)), pace=s.bot_pace, archive_after_s=after)

    def _soonest_ms(self, game_id: str, state: State) -> int | None:
        """``soonest_ms(state)``, remembered per game for the state's version (a version
        names one state of a game: its log is append-only)."""
        known = self._soonest.get(game_id)
        if known is not None and known[0] == state.version:
            return known[1]
        due = soonest_ms(state)
        if len(self._soonest) >= 10_000:
            self._soonest.clear()
        self._soonest[game_id] = (state.version, due)
        return due

    def reaction_ms(self, policy, rng) -> float:
        return self.pace * policy.reaction(rng) * 1000

    def bot_plans(self, game_id: str, state: State, now: float) -> list[tuple[str, float, int]]:
        """The bot decisions ``state`` calls for: (slot, due ms, attempt 0)."""
        out = []
        for seat in (0, 1):
            policy = bot_level(state, seat)
            if policy is not None and state.can_act[seat]:
                rng = plan_rng(game_id, state.version, seat)
                out.append((bot_slot(game_id, seat), now * 1000 + self.reaction_ms(policy, rng), 0))
        return out

    def remember_trace(self, game_id: str) -> None:
        """Keep the current trace's context beside the game's decisions (tracing on only),
        for the ticker to hand to the jobs they become (``trace_of``)."""
        carrier = telemetry.carrier()
        if carrier.get("traceparent"):
            key = store_keys.sched_context(game_id)
            self.schedule.r.set(key, carrier["traceparent"], ex=CTX_TTL_S)

    def on_appended(
        self, game_id: str, state: State, before: State | None = None, *, rated: bool = False
    ) -> None:
        """Arm what ``state`` calls for; ``before``: the state the append was decided on
        (None: unknown), so that in a game of humans a deadline that did not come sooner
        arms nothing, unless one due within ``NEAR_S`` went away or later (then the slot
        is set to the new soonest, instead of a job at the old time finding nothing). A
        game with a bot arms at every append anyway (the bot re-plans): then the
        deadline slot is set to the soonest deadline exactly, so that no early job runs
        for a deadline that went away (100 bot games dealt at once would otherwise wake
        100 such jobs at once, 10 s later: T-2, long since met). A finished game's
        archive slot is armed once its rematch asks are over (``archive_after_s``), a
        ``rated`` one's at its end (its job rates it first)."""
        if telemetry.enabled():
            self.remember_trace(game_id)
        if state.over:
            self._soonest.pop(game_id, None)
            self.schedule.arm(game_id, state.version, [], all_slots(game_id), final=True)
            # out to the archive, once a finished game's rematch asks are over; a rated
            # game's job at once (it rates the game, then waits for them)
            at = self.clock()
            if state.status == "finished" and self.archive_after_s > 0 and not rated:
                at = max(at, state.phase_since + self.archive_after_s)
            self.schedule.arm_archive(game_id, at * 1000)
            return
        was = None if before is None else self._soonest_ms(game_id, before)
        due = self._soonest_ms(game_id, state)
        bot_seats = [s for s in (0, 1) if bot_level(state, s) is not None]
        now = self.clock()
        if not bot_seats:
            if was is None and due is None:
                return  # nothing runs, and nothing is known to have run
            # the slot is due no later than ``due`` already (the invariant): nothing to
            # arm, unless a deadline of the state before, due within ``NEAR_S``, went away
            # or later (a stalemate called, a round begun): then the slot goes to the new
            # soonest, one arm instead of a job that would find nothing to do
            later = was is not None and (due is None or was <= due)
            if later and (was == due or was > ms(now + NEAR_S)):
                return
        bots = self.bot_plans(game_id, state, now)
        planned = {slot for slot, _d, _a in bots}
        removes = [bot_slot(game_id, s) for s in bot_seats if bot_slot(game_id, s) not in planned]
        # a bot that did not act in this append keeps the due time of its plan: the game
        # moving on (an opponent acting) does not put its decision off
        keep = frozenset(
            bot_slot(game_id, s)
            for s in bot_seats
            if before is not None and before.acted_at[s] == state.acted_at[s]
        )
        # a deadline may start overdue (T-4 of a seat that was forced and has a move
        # again): it is due now, the moment it exists
        at = None if due is None else max(due, ms(now))
        self.schedule.arm(game_id, state.version, bots, removes, exact=(at,), keep=keep)

    def rearm(self, game_id: str, version: int, slot: str, due_ms: float, attempt: int) -> bool:
        """Arm a bot's decision again at ``version`` (it passed, or a crash lost it);
        refused once the game has moved past ``version``."""
        return self.schedule.arm(game_id, version, [(slot, due_ms, attempt)])

    def arm_webhooks(self, game_id: str) -> None:
        """Deliver the game's webhook notifications now (or when already planned sooner)."""
        self.schedule.arm_webhooks(game_id, self.clock() * 1000, sooner=True)

    def arm_seek(self, seek_id: str, due_ms: float) -> None:
        """The seek's due job at ``due_ms`` (``service.ports.Scheduler``)."""
        self.schedule.arm_seek(seek_id, due_ms)

    def arm_deadline(self, game_id: str, version: int, due_ms: float, attempt: int = 0) -> None:
        """Arm the game's deadline slot at ``due_ms`` unless it is armed sooner."""
        self.schedule.arm(game_id, version, deadline=(due_ms, attempt))


def soonest_ms(state: State) -> int | None:
    """When ``state``'s soonest deadline falls due (ms), or None if it has none."""
    ds = domain.deadlines(state)
    return ms(ds[0].at) if ds else None
