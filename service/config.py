"""Configuration: a plain dict for ``create_app``, read from ``SPITLOG_*`` environment
variables by ``from_env`` (README.md, *Deploying*, lists them)."""

import os

DEFAULTS = {
    "REDIS_URL": "redis://127.0.0.1:6379/0",  # game logs (may be a Redis Cluster later)
    "QUEUE_URL": None,  # the RQ job queue (plain Redis); None: the same as REDIS_URL
    "DURABILITY": "default",  # "strict": acknowledge an action only once it is fsynced
    "REDIS_POOL": 64,  # connections per process for commands (live watchers aside)
    "SNAPSHOT_EVERY": 50,  # events between two snapshots of a game's state
    "STATE_CACHE": 2048,  # games whose latest state each process keeps decoded
    "APPEND_RETRIES": 8,  # re-decisions after a version clash before answering 503
    "MAX_CONTENT_LENGTH": 16 * 1024,  # bytes of a request body (413 beyond)
    "LONGPOLL_MAX_S": 60.0,  # cap on ?wait= (the schema allows up to 60)
    "SSE_MAX_S": 300.0,  # a stream ends after this; EventSource resumes with Last-Event-ID
    "SSE_KEEPALIVE_S": 15.0,  # a comment line this often keeps proxies from closing streams
    "LOBBY_PAGE_MAX": 100,
    # Limits (service/limits.py; 0 turns one off), far above a human's or a bot's pace:
    "RATE_ACTIONS": 20.0,  # actions per second per seat token, sustained (429 beyond)
    "RATE_ACTIONS_BURST": 40,  # actions a token may send at once
    "RATE_REQUESTS": 100.0,  # requests per second per client address (probes aside)
    "RATE_REQUESTS_BURST": 200,  # requests an address may send at once
    "RATE_GAMES": 1.0,  # games created per second per client address, sustained
    "RATE_GAMES_BURST": 30,  # games an address may create at once
    "STREAMS_PER_CLIENT": 32,  # open SSE streams + long-polls per token (or address)
    "GAME_CONCURRENCY": 4,  # requests of one game in progress at once, per process
    "TRUSTED_PROXIES": 0,  # proxies in front adding X-Forwarded-For (the address is theirs)
}


def from_env(environ=None) -> dict:
    """The service's configuration from ``SPITLOG_*`` variables over ``DEFAULTS``."""
    env = os.environ if environ is None else environ
    cfg = dict(DEFAULTS)
    for key, default in DEFAULTS.items():
        raw = env.get(f"SPITLOG_{key}")
        if raw is None or raw == "":
            continue
        cfg[key] = type(default)(raw) if isinstance(default, int | float) else raw
    if cfg["DURABILITY"] not in ("default", "strict"):
        raise ValueError("SPITLOG_DURABILITY must be 'default' or 'strict'")
    return cfg
