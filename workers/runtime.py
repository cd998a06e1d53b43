"""What a worker or scheduler process holds: the application service (``Games``) on the
game store, with the scheduler hook plugged in, and the schedule on the queue Redis."""

import redis

from service.games import Games
from service.metrics import Metrics
from service.store import RedisStore

from .schedule import Schedule, Scheduler


class Runtime:
    def __init__(self, cfg: dict):
        self.cfg = cfg
        client = redis.Redis.from_url(
            cfg["REDIS_URL"], socket_connect_timeout=2, socket_timeout=10, health_check_interval=30
        )
        self.store = RedisStore(client, durability=cfg["DURABILITY"])
        self.scheduler = Scheduler.from_settings(cfg)
        self.schedule: Schedule = self.scheduler.schedule
        self.games = Games(
            self.store,
            scheduler=self.scheduler,
            metrics=Metrics(),
            snapshot_every=int(cfg["SNAPSHOT_EVERY"]),
            cache_size=int(cfg["STATE_CACHE"]),
            retries=int(cfg["APPEND_RETRIES"]),
        )
        self.trace = bool(int(cfg.get("TRACE") or 0))
