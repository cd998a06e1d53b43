"""The one composition root: every part a process runs, built once from the settings.

A ``Root`` holds the Redis clients, the stores (games, players, seeks), the archive, the
outbound deliveries, the metrics, the scheduler hook and each use case on them. The API
(``service.http.app.create_app``), the workers and the scheduler's sweeper
(``workers.runtime.Runtime``) and the command line (``service.cli``) all take their parts
from one; none assembles its own. A part is made the first time it is asked for and kept
(a process asks only for what it uses: the API never makes the archiver, a worker never
makes the limits).

The seams the tests use are the constructor's arguments: ``redis_client`` (fakeredis, or
a client of a test's server), ``scheduler`` (a fake or a recording hook), ``clock`` and
``entropy`` (``ports.Clock``, ``ports.Entropy``), ``archive`` (a ``ports.Archive``).
"""

from functools import cached_property

import redis

from . import webhooks
from .apps import Apps
from .archive import open_archive
from .archiving import Archiver
from .assembly import GameCases
from .audit import Audits
from .config import Settings
from .deliveries import Deliverer, DeliveryLog
from .limits import GameGate, Limits
from .metrics import Metrics
from .outbound.webhooks import HttpOutbound
from .ports import SYSTEM_ENTROPY, Clock, Entropy, Scheduler, ms_now
from .profiles import Profiles
from .rating import Rater
from .rematch import Rematches
from .seeks import Seeks
from .store import connect
from .store.live import Hub
from .store.players import PlayerStore
from .store.redis import RedisStore
from .store.seeks import SeekStore

API = "api"  # a pool of connections for requests, another for blocking reads
WORKER = "worker"  # one client with short timeouts (a job, the sweeper, a command)


def queue_scheduler(s: Settings) -> Scheduler:
    """The hook that arms bots, deadlines, webhooks and archiving after each append: the
    schedule on the queue Redis (``workers.schedule``)."""
    from workers.schedule import Scheduler as QueueScheduler

    return QueueScheduler.from_settings(s)


class Root:
    """The parts of one process, on ``settings``.

    ``role``: ``API`` (the commands' client shares a bounded pool, blocking reads another)
    or ``WORKER`` (one client that gives up within seconds); ``redis_client`` replaces the
    clients made from ``redis_url``; ``scheduler``: told of every append (None: nothing;
    ``queue_scheduler(settings)``: the workers' schedule); ``clock``, ``entropy``: the use
    cases' (the system's by default); ``archive``: where finished games are read and
    written (default: the one ``archive_url`` names)."""

    def __init__(
        self,
        settings: Settings,
        *,
        role: str = API,
        redis_client: redis.Redis | None = None,
        scheduler: Scheduler | None = None,
        clock: Clock = ms_now,
        entropy: Entropy = SYSTEM_ENTROPY,
        archive=None,
    ):
        if role not in (API, WORKER):
            raise ValueError(f"a root's role is {API!r} or {WORKER!r}, not {role!r}")
        self.settings = settings
        self.role = role
        self.scheduler = scheduler
        self.clock = clock
        self.entropy = entropy
        self._redis_client = redis_client
        self._archive = archive

    # the adapters -------------------------------------------------------------------

    @cached_property
    def _clients(self) -> tuple[redis.Redis, redis.Redis | None]:
        s = self.settings
        if self._redis_client is not None:
            return self._redis_client, self._redis_client
        if self.role == API:
            return connect.clients(s.redis_url, s.redis_pool)
        one = connect.client(
            s.redis_url, socket_connect_timeout=2, socket_timeout=10, health_check_interval=30
        )
        return one, None

    @property
    def client(self) -> redis.Redis:
        """The game store's Redis client (commands)."""
        return self._clients[0]

    @cached_property
    def store(self) -> RedisStore:
        s = self.settings
        return RedisStore(
            self.client, live=self._clients[1], durability=s.durability,
            idempotency_ttl_s=s.idempotency_ttl_s, replicas=s.replicas,
            wait_s=s.durability_wait_s,
        )  # fmt: skip

    @cached_property
    def players(self) -> PlayerStore:
        return PlayerStore(self.client)

    @cached_property
    def seek_store(self) -> SeekStore:
        return SeekStore(self.client)

    @cached_property
    def archive(self):
        if self._archive is not None:
            return self._archive
        s = self.settings
        return open_archive(s.archive_url, s3_endpoint_url=s.s3_endpoint_url)

    @cached_property
    def outbound(self) -> HttpOutbound:
        return HttpOutbound()

    @cached_property
    def metrics(self) -> Metrics:
        return Metrics()

    @cached_property
    def hooks(self) -> webhooks.Settings:
        """The webhooks' settings (``service.webhooks``)."""
        return webhooks.Settings.from_settings(self.settings)

    @cached_property
    def limits(self) -> Limits:
        return Limits.from_settings(self.client, self.settings, registry=self.metrics.registry)

    @cached_property
    def gate(self) -> GameGate:
        return GameGate(self.settings.game_concurrency, self.settings.game_gate_wait_s)

    @cached_property
    def hub(self) -> Hub:
        return Hub(self.store, seeks=self.seek_store)

    # the use cases ------------------------------------------------------------------

    @cached_property
    def cases(self) -> GameCases:
        """A game's use cases (``reading``, ``tokens``, ``seating``, ``joining``,
        ``acting``, ``lobby``, ``deadlines``, ...) on one store and one cache."""
        s = self.settings
        return GameCases.build(
            self.store, players=self.players, scheduler=self.scheduler, metrics=self.metrics,
            archive=self.archive, webhooks=self.hooks, outbound=self.outbound,
            clock=self.clock, entropy=self.entropy, snapshot_every=s.snapshot_every,
            cache_size=s.state_cache, retries=s.append_retries, rematch_s=s.rematch_s,
            rated_pair_cap=s.rated_pair_cap,
        )  # fmt: skip

    @cached_property
    def apps(self) -> Apps:
        return Apps(self.players, entropy=self.entropy)

    @cached_property
    def profiles(self) -> Profiles:
        return Profiles(self.store, self.players, self.archive)

    @cached_property
    def seeks(self) -> Seeks:
        return Seeks(self.cases.seating, self.seek_store, self.players, self.scheduler,
                     self.settings.seek_max_s, clock=self.clock, entropy=self.entropy)  # fmt: skip

    @cached_property
    def rematches(self) -> Rematches:
        c = self.cases
        return Rematches(c.reading, c.tokens, c.seating, c.pairs, self.store, clock=self.clock,
                         rematch_s=self.settings.rematch_s, entropy=self.entropy)  # fmt: skip

    @cached_property
    def deliveries(self) -> DeliveryLog:
        return DeliveryLog(self.cases.reading, self.cases.tokens, self.store)

    @cached_property
    def audits(self) -> Audits:
        return Audits(self.cases.reading)

    @cached_property
    def rater(self) -> Rater:
        return Rater(self.cases.reading, self.store, self.players)

    @cached_property
    def deliverer(self) -> Deliverer:
        s, hooks = self.settings, self.hooks
        return Deliverer(
            self.cases.reading, self.store, self.outbound, deployment=hooks.deployment,
            allow_private=hooks.allow_private, timeout_s=s.webhook_timeout_s,
            retry_s=s.webhook_retry_s,
        )  # fmt: skip

    @cached_property
    def archiver(self) -> Archiver:
        s = self.settings
        return Archiver(
            self.store, self.archive, s.retain_s, hold=self.deliverer.pending,
            hold_max_s=s.webhook_retry_s + 3600,  # the give-ups take their time too
            rater=self.rater, players=self.players, rematch_s=s.rematch_s,
            settle=self.rematches.settle,
        )  # fmt: skip
