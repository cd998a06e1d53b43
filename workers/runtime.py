"""What a worker or scheduler process holds: the use cases (``Games``, ``Archiver``,
``Rater``) on
the game store and the archive, with the scheduler hook plugged in, and the schedule on
the queue Redis."""

import redis

from service.archive import open_archive
from service.archiving import Archiver
from service.config import Settings
from service.games import Games
from service.metrics import Metrics
from service.rating import Rater
from service.seeks import Seeks
from service.store.players import PlayerStore
from service.store.redis import RedisStore
from service.store.seeks import SeekStore

from .schedule import Schedule, Scheduler


class Runtime:
    def __init__(self, s: Settings):
        self.settings = s
        client = redis.Redis.from_url(
            s.redis_url, socket_connect_timeout=2, socket_timeout=10, health_check_interval=30
        )
        self.store = RedisStore(
            client, durability=s.durability, idempotency_ttl_s=s.idempotency_ttl_s
        )
        self.archive = open_archive(s.archive_url, s3_endpoint_url=s.s3_endpoint_url)
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
            players=self.players,
            rematch_s=s.rematch_s,
        )
        self.rater = Rater(self.games, self.players)
        self.seeks = Seeks(
            self.games, SeekStore(client), self.players, self.scheduler, s.seek_max_s
        )
        self.archiver = Archiver(
            self.store, self.archive, s.retain_s, rater=self.rater, players=self.players
        )
        self.trace = s.trace
