"""How a process connects to Redis (``options``, ``client``, ``clients``), in one place:
redis-py's own parser and pools, on a connection whose check at checkout is cheap under
gevent (``Connection``; docs/decisions/0006 says why, and why nothing more).

A ``redis+sentinel://`` URL (``config.sentinel_url``) names Sentinels and a master
instead of a Redis: every connection asks the Sentinels for the current primary when it
connects (redis-py's ``Sentinel``), so that after a failover the connections a command
finds broken, or on the old primary turned replica (``READONLY``), connect again to the
new one (docs/decisions/0028)."""

import select

import redis
from gevent import get_hub, monkey
from redis.backoff import ExponentialBackoff
from redis.retry import Retry
from redis.sentinel import Sentinel, SentinelConnectionPool, SentinelManagedConnection

from ..config import SentinelURL, sentinel_url

_os_poll = monkey.get_original("select", "poll")  # the OS's, whether or not gevent patched it


def readable_now(sock) -> bool:
    """Whether ``sock`` has something to read (or was closed) at this instant, asked of the
    OS's ``poll``: never a wait, never a switch to gevent's loop, no limit on the
    descriptor's number (``select`` refuses those past 1024)."""
    poller = _os_poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


class Connection(redis.Connection):
    """redis-py's connection, whose ``can_read(0)`` (the pool's check that a connection it
    hands out holds no stale reply) asks the OS's ``poll`` instead of gevent's emulation of
    it, then yields to the event loop for one iteration as that emulation did (``_yield``):
    the same answer and the same fairness for ~3 us of CPU instead of ~11 (decision 0006).
    When the parser holds unread bytes, or the socket has something (a stale reply, or
    the server closed it), redis-py's own check decides what it is; a parser other than
    hiredis's (whose buffer this cannot see) always gets redis-py's own check.
    tests/service/test_contracts.py checks that redis-py still calls it as it expects
    (pyproject.toml pins redis-py below its next major version)."""

    def can_read(self, timeout: float = 0) -> bool:
        sock = self._sock
        reader = getattr(self._parser, "_reader", None)  # hiredis's
        if timeout != 0 or sock is None or not hasattr(reader, "has_data"):
            return super().can_read(timeout)
        if reader.has_data():
            return super().can_read(0)
        ready = readable_now(sock)
        if monkey.is_module_patched("select"):
            _yield()
        return super().can_read(0) if ready else False


def _yield() -> None:
    """Let the gevent loop run one iteration (poll its sockets, run every greenlet that is
    ready) before going on, as a zero timeout does: ``gevent.sleep(0)`` may come back before
    the loop polls, and ``gevent.idle()`` waits for a moment with nothing pending, which
    under steady traffic may never come."""
    hub = get_hub()
    with hub.loop.timer(0) as timer:
        hub.wait(timer)


class SentinelConnection(SentinelManagedConnection, Connection):
    """A connection to the primary the Sentinels name (redis-py's), with ``Connection``'s
    cheap check at checkout."""


class SentinelBlockingPool(SentinelConnectionPool, redis.BlockingConnectionPool):
    """redis-py's pool of connections to the Sentinels' primary, bounded as
    ``redis.BlockingConnectionPool`` is (a burst waits for a connection); a connection to
    a former primary is not taken back (``SentinelConnectionPool.owns_connection``)."""


def options() -> dict:
    """The connection options of every client the API makes."""
    return {
        "health_check_interval": 30,
        "socket_connect_timeout": 2,
        "socket_timeout": 10,
        "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
    }


def _connection(url: str) -> dict:
    """``Connection`` for a ``redis://`` URL; redis-py's own for the others (``rediss://``,
    ``unix://``), whose connection classes it picks itself."""
    return {"connection_class": Connection} if url.startswith("redis://") else {}


def _sentinel(found: SentinelURL, opts: dict) -> Sentinel:
    """redis-py's Sentinel client of ``found``'s Sentinels, with ``opts``' timeouts (and
    ``found``'s credentials for the Sentinels, if it has them)."""
    own = {k: v for k, v in opts.items() if k in ("socket_connect_timeout", "socket_timeout")}
    if found.sentinel_password is not None:
        own["password"] = found.sentinel_password
    return Sentinel(list(found.sentinels), sentinel_kwargs=own)


def _master(found: SentinelURL, opts: dict, **pool) -> redis.Redis:
    """A client of ``found``'s current primary (followed through failovers)."""
    return _sentinel(found, opts).master_for(
        found.service, connection_class=SentinelConnection, db=found.db,
        username=found.username, password=found.password, **opts, **pool,
    )  # fmt: skip


def client(url: str, **opts) -> redis.Redis:
    """A client of ``url`` with redis-py's pool and ``opts`` (redis-py's), by ``Connection``;
    of the current primary for a ``redis+sentinel://`` URL."""
    found = sentinel_url(url)
    if found is not None:
        return _master(found, opts)
    return redis.Redis.from_url(url, **_connection(url), **opts)


def clients(url: str, pool_size: int) -> tuple[redis.Redis, redis.Redis]:
    """(commands, live): commands share a bounded pool, so under gevent a burst waits for
    a connection (up to 5 s) instead of opening thousands; blocking reads have their own
    pool, so they never starve requests; the live hub's Pub/Sub connection is made from
    the latter's settings, apart from both (``RedisStore.live_connect``). For a
    ``redis+sentinel://`` URL, both of the current primary."""
    found = sentinel_url(url)
    if found is not None:
        commands = _master(found, options(), connection_pool_class=SentinelBlockingPool,
                           max_connections=pool_size, timeout=5)  # fmt: skip
        return commands, _master(found, options())
    pool = redis.BlockingConnectionPool.from_url(
        url, max_connections=pool_size, timeout=5, **_connection(url), **options()
    )
    return redis.Redis(connection_pool=pool), client(url, **options())
