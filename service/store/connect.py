"""How a process connects to Redis (``options``, ``clients``), in one place: redis-py's
own parser and pools (docs/decisions/0006 says why nothing faster)."""

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry


def options() -> dict:
    """The connection options of every client the API makes."""
    return {
        "health_check_interval": 30,
        "socket_connect_timeout": 2,
        "socket_timeout": 10,  # above the live watchers' 2 s XREAD BLOCK
        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
    }


def clients(url: str, pool_size: int) -> tuple[redis.Redis, redis.Redis]:
    """(commands, live): commands share a bounded pool, so under gevent a burst waits for
    a connection (up to 5 s) instead of opening thousands; the live watchers (one
    blocking XREAD per watched game) have their own pool, so they never starve requests."""
    pool = redis.BlockingConnectionPool.from_url(
        url, max_connections=pool_size, timeout=5, **options()
    )
    live = redis.Redis.from_url(url, max_connections=100_000, **options())
    return redis.Redis(connection_pool=pool), live
