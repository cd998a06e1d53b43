"""What a worker or scheduler process holds: the parts of ``service.bootstrap.Root`` it
uses (the game's use cases ``reading``, ``acting``, ``deadlines``, ..., the archive's
``archiver``, the rating's ``rater``, the seeks' and the webhooks' deliveries) on a
worker's Redis client, with the schedule on the queue Redis as the scheduler hook."""

from service.bootstrap import WORKER, Root, queue_scheduler
from service.config import Settings
from service.ports import SYSTEM_ENTROPY, Clock, Entropy, ms_now

from .schedule import Schedule, Scheduler


class Runtime:
    def __init__(self, s: Settings, *, clock: Clock = ms_now,
                 entropy: Entropy = SYSTEM_ENTROPY):  # fmt: skip
        """``clock`` and ``entropy``: the use cases' (the system's, unless a test gives
        its own)."""
        root = Root(s, role=WORKER, scheduler=queue_scheduler(s), clock=clock, entropy=entropy)
        self.root = root
        self.settings = s
        self.store = root.store
        self.archive = root.archive
        self.players = root.players
        self.scheduler: Scheduler = root.scheduler
        self.schedule: Schedule = self.scheduler.schedule
        cases = root.cases
        self.reading, self.acting, self.seating = cases.reading, cases.acting, cases.seating
        self.joining, self.deadlines = cases.joining, cases.deadlines
        self.rater = root.rater
        self.seeks = root.seeks
        self.deliverer = root.deliverer
        self.archiver = root.archiver
        self.trace = s.trace
