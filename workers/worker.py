"""The RQ worker of ``spitlog worker``: bots and timeouts.

It runs each job in its own process, between two dequeues (RQ's ``SimpleWorker``, not a
fork per job): a job that raises is marked failed and the worker goes on; a job that
hangs is stopped by RQ's timeout (SIGALRM in this process); a worker that dies takes one
decision with it, which the sweeper re-arms (``workers.sweeper``). ``BotWorker`` sends
its heartbeat at most once a second and its state only when it changes (the worker's key
lives for minutes, ``worker_ttl``, so that loses nothing). docs/decisions/0007 says why,
with the figures; tests/service/test_contracts.py holds RQ to what the overrides expect.
"""

import logging
import time

import redis
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer

from service.config import Settings, sentinel_url
from service.store.connect import client

from . import jobs

log = logging.getLogger(__name__)

HEARTBEAT_EVERY_S = 1.0
MAINTENANCE_S = 60  # RQ's registries cleaned this often (its default: 10 min), so that
# the finished jobs' registry holds about a minute of them (workers.ticker.RESULT_TTL_S)
RETRY_FIRST_S, RETRY_MAX_S = 0.5, 5.0  # waits for the queue Redis after it went away


class QueueUnreachable(Exception):
    """The queue Redis did not answer when the worker started (the message says where:
    the setting, and a Sentinel URL's master; never a password)."""


def where(s: Settings) -> str:
    """The queue Redis as its setting names it, for an operator: the variable, and for a
    ``redis+sentinel://`` URL the Sentinels and the master name asked for."""
    var = "SPITLOG_QUEUE_URL" if s.queue_url else "SPITLOG_REDIS_URL"
    found = sentinel_url(s.queue)
    if found is None:
        return var
    hosts = ",".join(f"{h}:{p}" for h, p in found.sentinels)
    return f"{var}: the Sentinels {hosts}, master {found.service!r}"


class BotWorker(SimpleWorker):
    _beat_at = 0.0
    _state_sent = None

    def heartbeat(self, timeout=None, pipeline=None):
        mono = time.monotonic()
        if pipeline is None and timeout is None and mono - self._beat_at < HEARTBEAT_EVERY_S:
            return
        self._beat_at = mono
        super().heartbeat(timeout, pipeline)

    def _set_ip_address(self, connection) -> None:
        # RQ reads CLIENT INFO, whose reply from fakeredis's TCP server (`spitlog dev`)
        # redis-py cannot parse (RQ 3.0, fakeredis 2.41): the address is only shown.
        try:
            super()._set_ip_address(connection)
        except ValueError:
            self.ip_address = "unknown"

    def set_state(self, state, pipeline=None):
        if pipeline is None and state == self._state_sent:
            return
        self._state_sent = state
        super().set_state(state, pipeline)


def make_queue(s: Settings, connection: redis.Redis | None = None) -> Queue:
    conn = connection or client(s.queue)
    return Queue(s.queue_name, connection=conn, serializer=JSONSerializer)


def run(s: Settings, *, burst: bool = False, name: str | None = None) -> int:
    """Work the queue until stopped (SIGTERM: after the job at hand).

    RQ's worker waits for a queue Redis that is down while it waits for a job, but quits
    when Redis goes away in the middle of one (it cannot record the job's end). Then this
    works again, under the same name, once Redis answers: the same one back, or the
    primary the Sentinels promoted (``redis+sentinel://``). The job's decision is the
    sweeper's to arm again, as when a worker dies. A queue Redis that does not answer when
    it starts (no primary the Sentinels name, say) is ``QueueUnreachable``."""
    jobs.setup(s)  # the game store, the schedule, a warm cache: before the first job
    queue = make_queue(s)
    backoff = RETRY_FIRST_S
    started = False
    while True:
        try:  # registers its name: a command to the queue Redis
            worker = BotWorker(
                [queue],
                connection=queue.connection,
                serializer=JSONSerializer,
                name=name,
                log_job_description=False,
                maintenance_interval=MAINTENANCE_S,
            )
        except (redis.ConnectionError, redis.TimeoutError) as e:
            why = " ".join(str(e).split(" : <")[0].split())[:200]  # not redis-py's repr
            if not started:
                raise QueueUnreachable(
                    f"the queue Redis does not answer ({where(s)}): {why}"
                ) from None
            log.warning("the queue Redis does not answer (%s): trying again", why)
            time.sleep(backoff)
            backoff = min(backoff * 2, RETRY_MAX_S)
            continue
        started = True
        try:
            worker.work(burst=burst, logging_level=s.worker_log_level, with_scheduler=False)
            return 0
        except (redis.ConnectionError, redis.TimeoutError) as e:
            log.warning("the queue Redis went away during a job (%s): working again", e)
        name = worker.name
        while True:  # its registration says it died, so that the name is free again
            time.sleep(backoff)
            backoff = min(backoff * 2, RETRY_MAX_S)
            try:
                worker.register_death()
                break
            except (redis.ConnectionError, redis.TimeoutError):
                continue
        backoff = RETRY_FIRST_S
