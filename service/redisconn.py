"""The API's Redis clients: how a process connects (``clients``), in one place.

redis-py checks every connection it hands out for unread data (``can_read()``, a
zero-timeout poll of the socket). Under gevent, ``select.poll`` is gevent's emulation,
which builds a watcher and runs the event loop once: about 15 us of CPU on every
command (``bench/bench_service.py --part throughput`` runs the floor on redis-py's
default connections and on these, side by side). A poll with a zero timeout never
blocks, so the parser here asks the operating system's own ``poll`` first and hands
over to redis-py only when the socket is readable (then redis-py's own checks run,
unchanged).
"""

import select

import redis
from redis._parsers import _HiredisParser
from redis.backoff import ExponentialBackoff
from redis.retry import Retry
from redis.utils import HIREDIS_AVAILABLE


def _os_poll():
    """``select.poll`` as the operating system has it, even when gevent patched it."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return select.poll
    return monkey.get_original("select", "poll")


_POLL = _os_poll()


class Parser(_HiredisParser):
    """hiredis, with the idle connection's check made by the OS's ``poll``."""

    def can_read(self, timeout: float = 0) -> bool:
        if timeout == 0 and self._reader is not None and not self._reader.has_data():
            poller = _POLL()
            poller.register(self._sock, select.POLLIN)
            if not poller.poll(0):
                return False  # nothing pending: the common case, decided here
        return super().can_read(timeout)


def options() -> dict:
    """The connection options of every client the API makes."""
    opts = {
        "health_check_interval": 30,
        "socket_connect_timeout": 2,
        "socket_timeout": 10,  # above the live watchers' 2 s XREAD BLOCK
        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
    }
    if HIREDIS_AVAILABLE:
        opts["parser_class"] = Parser
    return opts


def clients(url: str, pool_size: int) -> tuple[redis.Redis, redis.Redis]:
    """(commands, live): commands share a bounded pool, so under gevent a burst waits for
    a connection (up to 5 s) instead of opening thousands; the live watchers (one
    blocking XREAD per watched game) have their own pool, so they never starve requests."""
    pool = redis.BlockingConnectionPool.from_url(
        url, max_connections=pool_size, timeout=5, **options()
    )
    live = redis.Redis.from_url(url, max_connections=100_000, **options())
    return redis.Redis(connection_pool=pool), live
