"""The workers' settings: the service's (``service.config``) plus their own, read from
``SPITLOG_*`` environment variables (README.md, *Workers*)."""

import os

from service import config as service_config

DEFAULTS = {
    "QUEUE_NAME": "spitlog",  # the RQ queue the scheduler feeds and the workers drain
    "BOT_PACE": 1.0,  # a factor on every bot's reaction time (tests and demos: < 1)
    "TICK_S": 0.005,  # the ticker's longest sleep: a newly armed due decision waits no more
    "LEAD_MS": 3.0,  # the ticker enqueues this early; a job that starts early waits
    "SWEEP_S": 1.0,  # how often the sweeper looks for stalled games
    "STALL_S": 2.0,  # a decision claimed this long ago with the game unmoved was lost
    "METRICS_PORT": 0,  # >0: serve this process's Prometheus metrics on that port
    "TRACE": 0,  # 1: jobs log every run to a Redis stream (bench/bench_workers.py, tests)
    "WORKER_LOG_LEVEL": "WARNING",  # RQ logs a line per job at INFO
}


def from_env(environ=None) -> dict:
    """The service's configuration and the workers' own, ``QUEUE_URL`` resolved."""
    env = os.environ if environ is None else environ
    cfg = service_config.from_env(env)
    for key, default in DEFAULTS.items():
        raw = env.get(f"SPITLOG_{key}")
        if raw is None or raw == "":
            cfg[key] = default
        elif isinstance(default, int | float):
            cfg[key] = type(default)(raw)
        else:
            cfg[key] = raw
    cfg["QUEUE_URL"] = cfg.get("QUEUE_URL") or cfg["REDIS_URL"]
    if cfg["BOT_PACE"] < 0:
        raise ValueError("SPITLOG_BOT_PACE must be >= 0")
    return cfg
