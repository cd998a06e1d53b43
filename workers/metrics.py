"""Prometheus metrics of a worker or scheduler process (the default registry; served on
``SPITLOG_METRICS_PORT`` when set: each process counts for itself, and Prometheus sums
them). The label of the job kind is ``task``: a label ``job`` would clash with the one
Prometheus gives every target (it would be renamed ``exported_job``)."""

from prometheus_client import Counter, Gauge, Histogram

_LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)

LAG = Histogram(
    "spitlog_worker_lag_seconds",
    "|job start - due time|: bot reactions (task=bot_turn), deadlines (task=fire_deadline), "
    "archiving (task=archive_game)",
    ["task"],
    buckets=_LAG_BUCKETS,
)
JOBS = Counter("spitlog_worker_jobs", "Jobs run, by outcome", ["task", "outcome"])
TIMEOUTS = Counter("spitlog_timeouts_fired", "Deadlines fired as log events (T-1..T-6)", ["rule"])
BOT_ACTIONS = Counter("spitlog_bot_actions", "Bot actions appended to a game's log", ["level"])
CLAIMED = Counter("spitlog_schedule_claimed", "Due decisions claimed and enqueued", ["kind"])
ENQUEUE_LAG = Histogram(
    "spitlog_schedule_enqueue_lag_seconds",
    "From a decision's due time to its job being on the queue",
    buckets=_LAG_BUCKETS,
)
REARMED = Counter(
    "spitlog_sweeper_rearmed", "Decisions the sweeper armed again (a crash lost them)", ["kind"]
)
DEPTH = Gauge("spitlog_schedule_depth", "Decision slots waiting in the schedule")
STALLED = Gauge("spitlog_sweeper_games_checked", "Games the last sweep looked into (unmoved)")
LIVE = Gauge("spitlog_games_live", "Games in Redis, open or running (the last sweep's count)",
             ["status"])  # fmt: skip
OVERDUE = Gauge(
    "spitlog_deadline_overdue_seconds",
    "How long ago the soonest deadline of the most overdue unmoved game fell due (0: none): "
    "beyond a few seconds no worker fires it",
)
ARCHIVE_FAILED = Gauge(
    "spitlog_archive_failed_games",
    "Finished games whose archiving failed for a reason no retry can fix (spitlog admin "
    "failed): they stay in Redis until an operator sees to them (the last sweep's count)",
)
