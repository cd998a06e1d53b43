"""What a worker or scheduler process holds: the game's use cases (``reading``,
``acting``, ``deadlines``, ...), the archive's (``archiver``), the rating's (``rater``),
the seeks' and the webhooks' deliveries, on the game store and the archive, with the
scheduler hook plugged in, and the schedule on the queue Redis."""

from service import webhooks
from service.archive import open_archive
from service.archiving import Archiver
from service.assembly import GameCases
from service.config import Settings
from service.deliveries import Deliverer
from service.metrics import Metrics
from service.outbound.webhooks import HttpOutbound
from service.ports import SYSTEM_ENTROPY, Clock, Entropy, ms_now
from service.rating import Rater
from service.rematch import Rematches
from service.seeks import Seeks
from service.store import connect
from service.store.players import PlayerStore
from service.store.redis import RedisStore
from service.store.seeks import SeekStore

from .schedule import Schedule, Scheduler


class Runtime:
    def __init__(self, s: Settings, *, clock: Clock = ms_now,
                 entropy: Entropy = SYSTEM_ENTROPY):  # fmt: skip
        """``clock`` and ``entropy``: the use cases' (the system's, unless a test gives
        its own)."""
        self.settings = s
        client = connect.client(
            s.redis_url, socket_connect_timeout=2, socket_timeout=10, health_check_interval=30
        )
        self.store = RedisStore(
            client, durability=s.durability, idempotency_ttl_s=s.idempotency_ttl_s,
            replicas=s.replicas, wait_s=s.durability_wait_s,
        )  # fmt: skip
        self.archive = open_archive(s.archive_url, s3_endpoint_url=s.s3_endpoint_url)
        hooks = webhooks.Settings.from_settings(s)
        self.players = PlayerStore(client)
        self.scheduler = Scheduler.from_settings(s)
        self.schedule: Schedule = self.scheduler.schedule
        outbound = HttpOutbound()
        cases = GameCases.build(
            self.store, players=self.players, scheduler=self.scheduler, metrics=Metrics(),
            archive=self.archive, webhooks=hooks, outbound=outbound,
            clock=clock, entropy=entropy, snapshot_every=s.snapshot_every,
            cache_size=s.state_cache, retries=s.append_retries, rematch_s=s.rematch_s,
            rated_pair_cap=s.rated_pair_cap,
        )  # fmt: skip
        self.reading, self.acting, self.seating = cases.reading, cases.acting, cases.seating
        self.joining, self.deadlines = cases.joining, cases.deadlines
        self.rater = Rater(self.reading, self.store, self.players)
        self.seeks = Seeks(self.seating, SeekStore(client), self.players, self.scheduler,
                           s.seek_max_s, clock=clock, entropy=entropy)  # fmt: skip
        self.deliverer = Deliverer(
            self.reading, self.store, outbound, deployment=hooks.deployment,
            allow_private=hooks.allow_private, timeout_s=s.webhook_timeout_s,
            retry_s=s.webhook_retry_s,
        )  # fmt: skip
        rematches = Rematches(cases.reading, cases.tokens, cases.seating, cases.pairs, self.store,
                              clock=clock, rematch_s=s.rematch_s, entropy=entropy)  # fmt: skip
        self.archiver = Archiver(
            self.store, self.archive, s.retain_s, hold=self.deliverer.pending,
            hold_max_s=s.webhook_retry_s + 3600,  # the give-ups take their time too
            rater=self.rater, players=self.players, rematch_s=s.rematch_s,
            settle=rematches.settle,
        )  # fmt: skip
        self.trace = s.trace
