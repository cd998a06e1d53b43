"""What a worker or scheduler process holds: the use cases (``Games``, ``Archiver``,
``Rater``) on
the game store and the archive, with the scheduler hook plugged in, and the schedule on
the queue Redis."""

from service import webhooks
from service.archive import open_archive
from service.archiving import Archiver
from service.config import Settings
from service.games import Games
from service.metrics import Metrics
from service.outbound.webhooks import HttpOutbound
from service.rating import Rater
from service.rematch import Rematches
from service.seeks import Seeks
from service.store import connect
from service.store.players import PlayerStore
from service.store.redis import RedisStore
from service.store.seeks import SeekStore

from .schedule import Schedule, Scheduler


class Runtime:
    def __init__(self, s: Settings):
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
        self.games = Games(
            self.store,
            scheduler=self.scheduler,
            metrics=Metrics(),
            snapshot_every=s.snapshot_every,
            cache_size=s.state_cache,
            retries=s.append_retries,
            archive=self.archive,
            webhooks=hooks,
            players=self.players,
            rematch_s=s.rematch_s,
            rated_pair_cap=s.rated_pair_cap,
            outbound=HttpOutbound(),
        )
        self.rater = Rater(self.games, self.store, self.players)
        self.seeks = Seeks(
            self.games, SeekStore(client), self.players, self.scheduler, s.seek_max_s
        )
        self.deliverer = webhooks.Deliverer(
            self.games, self.store, HttpOutbound(), deployment=hooks.deployment,
            allow_private=hooks.allow_private, timeout_s=s.webhook_timeout_s,
            retry_s=s.webhook_retry_s,
        )  # fmt: skip
        self.archiver = Archiver(
            self.store, self.archive, s.retain_s, hold=self.deliverer.pending,
            hold_max_s=s.webhook_retry_s + 3600,  # the give-ups take their time too
            rater=self.rater, players=self.players, rematch_s=s.rematch_s,
            settle=Rematches(self.games, self.store).settle,
        )  # fmt: skip
        self.trace = s.trace
