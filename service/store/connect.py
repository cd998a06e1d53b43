"""How a process connects to Redis (``options``, ``clients``), in one place.

redis-py's own parser, unchanged. A parser whose idle-connection check at checkout
asked the OS's ``poll`` instead of gevent's emulation of it saved ~15-25 us of CPU a
command, and was tried: gevent's ``poll(0)`` is also a yield to the event loop at every
command, and without it a flood of one game (limits on, bench/flood.py) held the other
games' actions up to 0.2-2 s at p99 instead of ~15 ms. Not worth it.
"""

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
