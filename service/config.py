"""Settings: every ``SPITLOG_*`` variable of the API, the workers and the scheduler, read
by pydantic-settings. The README's tables of variables are made from here (a test
compares them); ``load`` is what every process calls.

A bad value is a ``SettingsError`` naming the variable (the command line exits 2 with
it); a ``SPITLOG_*`` variable that no setting reads is warned about.
"""

import os
import re
import sys
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, unquote

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from . import extras

PREFIX = "SPITLOG_"


class SettingsError(ValueError):
    """A setting with a value it cannot take; the message names the variable."""


SENTINEL_SCHEME = "redis+sentinel://"
SENTINEL_PORT = 26379


@dataclass(frozen=True)
class SentinelURL:
    """A ``redis+sentinel://`` URL: ``[[user]:password@]host[:port][,host[:port]...]/
    <master name>[/<db>][?sentinel_password=...]``. The Sentinels (port 26379 unless
    given) name the current primary of ``service``; ``username``/``password`` are the
    Redis nodes', ``sentinel_password`` the Sentinels' own (unset: none)."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    username: str | None = None
    password: str | None = None
    sentinel_password: str | None = None


def sentinel_url(url: str) -> SentinelURL | None:
    """``url`` read as a ``redis+sentinel://`` URL (``SentinelURL``); None for a URL of
    another scheme. ValueError saying what is wrong with one that is not well formed."""
    if not url.startswith(SENTINEL_SCHEME):
        return None
    rest, _q, query = url[len(SENTINEL_SCHEME) :].partition("?")
    netloc, _slash, path = rest.partition("/")
    userinfo, at, hosts = netloc.rpartition("@")
    if not at:
        userinfo, hosts = "", netloc
    username = password = None
    if userinfo:
        user, colon, pw = userinfo.partition(":")
        username, password = (unquote(user) or None), (unquote(pw) if colon else None)
    sentinels = []
    for part in hosts.split(","):
        m = re.fullmatch(r"(\[[0-9A-Fa-f:.]+\]|[^\s:\[\]/]+)(?::(\d{1,5}))?", part)
        if m is None or not 0 < int(m.group(2) or SENTINEL_PORT) < 65536:
            raise ValueError(f"{part!r} is not a Sentinel's host[:port]")
        sentinels.append((m.group(1).strip("[]"), int(m.group(2) or SENTINEL_PORT)))
    parts = path.split("/") if path else []
    if not 1 <= len(parts) <= 2 or not parts[0]:
        raise ValueError(
            "a redis+sentinel:// URL names its master after the hosts: "
            "redis+sentinel://host:26379[,host:26379...]/<master name>[/<db>]"
        )
    db = 0
    if len(parts) == 2 and parts[1] != "":
        if not parts[1].isdigit():
            raise ValueError(f"the database {parts[1]!r} is not a number")
        db = int(parts[1])
    params = parse_qs(query, keep_blank_values=True, strict_parsing=False)
    unknown = sorted(set(params) - {"sentinel_password"})
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r} (only sentinel_password)")
    sentinel_password = params.get("sentinel_password", [None])[-1]
    return SentinelURL(tuple(sentinels), unquote(parts[0]), db, username, password,
                       sentinel_password)  # fmt: skip


def _f(default, text: str, **kw):
    return Field(default, description=text, **kw)


class Settings(BaseSettings):
    """The settings of every spitlog process (README.md lists them by group)."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX, extra="ignore", frozen=True, env_ignore_empty=True
    )

    # ---------------------------------------------------------------- the game store
    redis_url: str = _f(
        "redis://127.0.0.1:6379/0",
        "the game logs (Streams, snapshots, idempotency records); every key of a game "
        "shares one Cluster hash tag. A primary with replicas under Redis Sentinel: "
        "`redis+sentinel://host:26379[,host:26379...]/<master name>[/<db>]` (the "
        "processes ask the Sentinels for the primary, and again after a failover)",
    )
    queue_url: str | None = _f(
        None, "the RQ job queue of the workers: a plain Redis (RQ does not support Cluster); "
        "unset: `SPITLOG_REDIS_URL`",
    )  # fmt: skip
    durability: Literal["default", "strict"] = _f(
        "default",
        "`strict`: answer an action only once Redis has fsynced it to its AOF and "
        "`SPITLOG_DURABILITY_REPLICAS` replicas hold it (`WAITAOF 1 <n>`, Redis 7.2+; "
        "on older servers, or with AOF off, `WAIT <n>` and `appendfsync always`); not "
        "confirmed in `SPITLOG_DURABILITY_WAIT_S`: a `503`. `default`: answer at once "
        "(`appendfsync everysec`): a Redis host that dies can lose about a second of "
        "acknowledged actions, a failover what the replica had not received (README, "
        "*Durability and failover*)",
    )
    durability_replicas: int | None = _f(
        None, "`strict`: the replicas that must hold an append before it is answered; "
        "unset: 1 with a `redis+sentinel://` URL, else 0", ge=0,
    )  # fmt: skip
    durability_wait_s: float = _f(
        1.0, "`strict`: how long an append waits for its replicas; past it the action "
        "answers `503` (`Retry-After: 1`), and a retry with the same `Idempotency-Key` "
        "answers it once they hold it", gt=0, le=5,
    )  # fmt: skip
    redis_pool: int = _f(
        64, "Redis connections per process for requests (a burst waits for one); the live "
        "hub's one Pub/Sub connection (subscribed to the games that have SSE or long-poll "
        "clients on the process; on a Cluster, one per node) is apart", ge=1,
    )  # fmt: skip
    snapshot_every: int = _f(
        50, "events between two snapshots of a game's state (a request's cost does not grow "
        "with the game)", ge=1,
    )  # fmt: skip
    state_cache: int = _f(2048, "games whose latest state each process keeps decoded", ge=0)
    append_retries: int = _f(
        32, "re-decisions after a version clash before a `503` (`Retry-After: 1`)", ge=0
    )
    idempotency_ttl_s: float = _f(
        86_400, "how long an `Idempotency-Key`'s record is kept (as Stripe keeps keys)", gt=0
    )
    # ---------------------------------------------------------------- the archive
    archive_url: str = _f(
        "spitlog-archive",
        "where finished games go (docs/archive.md): a directory (relative to the working "
        "directory, or `file:///abs/path`), or `s3://bucket/prefix` on any S3 endpoint "
        "(the `[s3]` extra; credentials: the standard `AWS_ACCESS_KEY_ID`/"
        "`AWS_SECRET_ACCESS_KEY` variables)",
    )
    s3_endpoint_url: str | None = _f(
        None, "the S3 endpoint of an `s3://` archive (unset: AWS's); e.g. SeaweedFS's "
        "`http://127.0.0.1:8333`",
    )  # fmt: skip
    retain_s: float = _f(
        3600, "how long a finished game stays in Redis once its archived copy is checked; "
        "then every key of it is deleted and the API reads it from the archive", ge=0,
    )  # fmt: skip
    # ---------------------------------------------------------------- webhooks
    webhook_url: str | None = _f(
        None, "every game's notifications also go here (docs/webhooks.md); needs "
        "`SPITLOG_WEBHOOK_SECRET`",
    )  # fmt: skip
    webhook_secret: str | None = _f(
        None, "signs the notifications to `SPITLOG_WEBHOOK_URL` (`Spitlog-Signature`)"
    )
    webhook_events: Literal["lifecycle", "all"] = _f(
        "lifecycle", "what `SPITLOG_WEBHOOK_URL` gets: `lifecycle` (seat.joined, game.started, "
        "game.finished) or `all` (every event too, as a spectator sees it)",
    )  # fmt: skip
    webhook_allow_private: bool = _f(
        False, "`1`: webhook targets may be http:// and on loopback, private or link-local "
        "addresses (a test, a private network); by default only https:// to public addresses",
    )  # fmt: skip
    webhook_timeout_s: float = _f(
        5.0, "a target that has not answered a notification in this long failed it", gt=0
    )
    webhook_retry_s: float = _f(
        86_400, "how long a failing notification is retried (backoff from 1 s, doubling, at "
        "most hourly) before it is given up and the next one goes", gt=0,
    )  # fmt: skip
    # ---------------------------------------------------------------- players
    rematch_s: float = _f(
        60.0, "how long after a game's end either seat may ask for a rematch "
        "(`POST /v1/games/{id}/rematch`); an ask after it, or an offer not taken up by "
        "then, is a `409`. The workers read it too: they archive a finished game a few "
        "seconds after it", ge=0,
    )  # fmt: skip
    seek_max_s: float = _f(
        300.0, "the longest a seek waits for an opponent (`POST /v1/seeks`, its `expires_s` "
        "at most); then it expires", gt=0,
    )  # fmt: skip
    rated_pair_cap: int = _f(
        10, "rated games one pair of seats (two players, or a player and a hosted level) may "
        "start in any 24 hours; beyond, a create against a level, a join or a rematch ask "
        "of a rated game is a `429` (`rated-pair-cap`), and a pairing of seeks is made "
        "unrated. The workers read it too (they finish pairings and rematches). `0`: no cap",
        ge=0,
    )  # fmt: skip
    # ---------------------------------------------------------------- HTTP
    bind: str = _f(
        "127.0.0.1:8000",
        "where `spitlog serve` (and `spitlog dev`) listens; `0.0.0.0:8000` in a container",
    )
    metrics_bind: str | None = _f(
        None, "`host:port` where `spitlog serve` (and `spitlog dev`) answers `GET /metrics` "
        "(Prometheus text, every gunicorn process's summed), and nothing else; the API's "
        "listener never does. Unset: the API's metrics are served nowhere. Keep it off the "
        "public network (e.g. `0.0.0.0:9100` in a container whose port is not published)",
    )  # fmt: skip
    workers: int = _f(2, "gunicorn processes (gevent: one per core is plenty)", ge=1)
    worker_connections: int = _f(2000, "open connections per process, SSE streams included", ge=1)
    gc_every_s: float = _f(
        60, "`spitlog serve`: each process collects cyclic garbage every this many seconds "
        "(at least 1) instead of whenever Python's thresholds say (docs/decisions/0016); "
        "`0`: Python's way",
        ge=0, le=3600, allow_inf_nan=False,
    )  # fmt: skip
    access_log: bool = _f(
        False, "`1`: a log line per request (method, route, status, duration, request id, "
        "game, seat)",
    )  # fmt: skip
    log_format: Literal["json", "text"] = _f(
        "json", "every process's log lines: one JSON object each (with the request's or the "
        "job's context, and the trace id when tracing is on), or plain `text`",
    )  # fmt: skip
    log_level: Literal["debug", "info", "warning", "error", "critical"] = _f(
        "info", "gunicorn's log level"
    )
    max_content_length: int = _f(16_384, "request body limit in bytes (`413` beyond)", ge=256)
    body_timeout_s: float = _f(
        5.0, "a request body must arrive whole within this (`408` past it); it is read before "
        "the request takes anything of its game", gt=0,
    )  # fmt: skip
    longpoll_max_s: float = _f(60.0, "cap on `?wait=`", gt=0)
    sse_max_s: float = _f(
        300.0, "an SSE stream closes after this; `EventSource` reconnects with `Last-Event-ID` "
        "and misses nothing", gt=0,
    )  # fmt: skip
    sse_keepalive_s: float = _f(
        15.0, "a comment line this often keeps proxies from closing idle streams", gt=0
    )
    live_queue_bytes: int = _f(
        262_144, "a seat channel's (WebSocket's) bytes waiting for a client that reads slowly, "
        "beyond the kernel's buffer of as many; more, and the channel closes (`1008`)",
        ge=4096,
    )  # fmt: skip
    live_frames_per_s: float = _f(
        20.0, "frames a seat channel's client may send per second, sustained (twice as many "
        "at once); beyond, each message is answered `429` unread, and after as many again "
        "the channel closes (`1008`)", gt=0,
    )  # fmt: skip
    lobby_page_max: int = _f(100, "the largest lobby page", ge=1, le=100)
    cors_origins: str = _f(
        "", "origins whose browser apps may call the API (CORS), comma-separated, each "
        "`scheme://host[:port]`; `*`: any origin. Unset: none (same-origin only)",
    )  # fmt: skip
    # ---------------------------------------------------------------- limits
    rate_actions: float = _f(
        20.0, "actions per second per seat token, sustained; beyond: `429` with `Retry-After`. "
        "`0`: no limit", ge=0,
    )  # fmt: skip
    rate_actions_burst: int = _f(40, "actions a token may send at once", ge=1)
    rate_requests: float = _f(
        100.0, "requests per second per client address (an IPv6 address counts by its /64; "
        "`/healthz` and `/readyz` never count). `0`: no limit", ge=0,
    )  # fmt: skip
    rate_requests_burst: int = _f(200, "requests an address may send at once", ge=1)
    rate_games: float = _f(
        1.0, "games created (`POST /v1/games`; a seek, `POST /v1/seeks`, and a rematch ask, "
        "`POST /v1/games/{id}/rematch`, count as one each) per second per client address, "
        "sustained. `0`: no limit", ge=0,
    )  # fmt: skip
    rate_games_burst: int = _f(30, "games an address may create at once", ge=1)
    rate_seat: float = _f(
        60.0, "requests per second per seat token, sustained: a request with the token of a "
        "seat of the game it names (a read, an action, a stream) counts against the seat's "
        "own bucket, and against its address's with the seats' reserve "
        "(`SPITLOG_RATE_SEAT_RESERVE`). `0`: no limit", ge=0,
    )  # fmt: skip
    rate_seat_burst: int = _f(120, "requests a seat may send at once", ge=1)
    rate_seat_reserve: int = _f(
        100, "requests beyond `SPITLOG_RATE_REQUESTS_BURST` that an address's seats may still "
        "take of its bucket, where its other requests (no token, a bad one) are refused: a "
        "flood from the seats' own address (a spectator, a shared NAT) leaves them their "
        "pace. `0`: seats count like any request", ge=0,
    )  # fmt: skip
    rate_auth_failures: float = _f(
        1.0, "failed authentications per second per client address, sustained: an unknown or "
        "revoked `X-Api-Key`, a token that holds no seat of the game it names (or is no "
        "seek's), a malformed credential. Beyond, the address's requests that present an "
        "app key or such a token get `429` before the credential is looked up (a seat's "
        "own token goes on). `0`: no limit", ge=0,
    )  # fmt: skip
    rate_auth_failures_burst: int = _f(
        20, "failed authentications an address may have at once", ge=1
    )
    streams_per_client: int = _f(
        32, "open SSE streams and long-polls per seat token; beyond: `429`. `0`: no cap", ge=0
    )
    streams_per_address: int = _f(
        64, "open SSE streams and long-polls per client address, tokens or not. `0`: no cap",
        ge=0,
    )  # fmt: skip
    game_concurrency: int = _f(
        4, "requests of one game in progress at once in a process (streams aside); more wait "
        "their turn, up to 2 s, then `503` with `Retry-After: 1`. `0`: no gate", ge=0,
    )  # fmt: skip
    game_gate_wait_s: float = _f(
        2.0, "how long a request waits for a place at its game's gate before its `503`", gt=0
    )
    trusted_proxies: int = _f(
        0, "reverse proxies in front of the service that append to `X-Forwarded-For`: with "
        "`n`, the client address is the one the `n`-th proxy from the service saw", ge=0,
    )  # fmt: skip
    # ---------------------------------------------------------------- workers and scheduler
    queue_name: str = _f("spitlog", "the RQ queue the scheduler feeds and the workers drain")
    bot_pace: float = _f(
        1.0, "a factor on every bot's reaction time (set it alike on the API, the workers and "
        "the scheduler: all of them arm bots)", ge=0,
    )  # fmt: skip
    tick_s: float = _f(
        1.0, "the scheduler's longest wait between two claims: it waits for the next due "
        "time, or a wake-up when an arm brings a sooner one, so this bounds only what a lost "
        "wake-up costs", gt=0,
    )  # fmt: skip
    lead_ms: float = _f(
        3.0, "the scheduler enqueues a decision this early; a job that starts before its due "
        "time waits for it", ge=0,
    )  # fmt: skip
    sweep_s: float = _f(1.0, "how often the sweeper looks for stalled games", gt=0)
    stall_s: float = _f(
        2.0, "a decision claimed this long ago in a game that has not moved since is armed "
        "again", gt=0,
    )  # fmt: skip
    metrics_port: int = _f(
        0, "`>0`: a worker or the scheduler serves Prometheus metrics on this port (the "
        "scheduler's sweeper on the next one)", ge=0, le=65535,
    )  # fmt: skip
    worker_log_level: str = _f(
        "WARNING", "log level of workers and scheduler (RQ logs a line per job at `INFO`)"
    )
    trace: bool = _f(
        False, "`1`: every job records its due time, start and outcome in the schedule's "
        "trace stream on the queue Redis (benchmarks, tests)",
    )  # fmt: skip
    parent_pid: int | None = _f(
        None, "set by `spitlog dev` for its worker and scheduler: they stop when it does"
    )

    @field_validator("cors_origins")
    @classmethod
    def _origins(cls, v: str) -> str:
        for origin in (o.strip() for o in v.split(",") if o.strip()):
            if origin != "*" and not re.fullmatch(r"https?://[^/\s:]+(:\d{1,5})?", origin):
                raise ValueError(f"{origin!r} is not an origin: scheme://host[:port], no path")
        return v

    @field_validator("redis_url", "queue_url")
    @classmethod
    def _redis_url(cls, v: str | None) -> str | None:
        if v is not None:
            sentinel_url(v)  # a ValueError says what is wrong with it
        return v

    @field_validator("archive_url")
    @classmethod
    def _archive_url(cls, v: str) -> str:
        if v.startswith("s3://") and extras.missing("s3"):
            raise ValueError(f"an s3:// archive needs boto3: {extras.hint('s3')}")
        return v

    @field_validator("metrics_bind")
    @classmethod
    def _metrics_bind(cls, v: str | None) -> str | None:
        if v is not None and tcp_port(v) is None:
            raise ValueError(f"{v!r} is not host:port (a port of 1 to 65535)")
        return v

    @model_validator(mode="after")
    def _metrics_apart(self):
        if self.metrics_bind is not None and tcp_port(self.metrics_bind) == tcp_port(self.bind):
            raise ValueError("SPITLOG_METRICS_BIND needs a port of its own, not SPITLOG_BIND's")
        return self

    @field_validator("gc_every_s")
    @classmethod
    def _gc_every(cls, v: float) -> float:
        if 0 < v < 1:
            raise ValueError("0 (Python's way) or at least 1 second")
        return v

    @model_validator(mode="after")
    def _webhook_secret(self):
        if self.webhook_url and not self.webhook_secret:
            raise ValueError("SPITLOG_WEBHOOK_URL needs SPITLOG_WEBHOOK_SECRET")
        return self

    @property
    def origins(self) -> frozenset[str]:
        """``cors_origins`` as a set, lower case."""
        return frozenset(o.strip().lower() for o in self.cors_origins.split(",") if o.strip())

    @property
    def replicas(self) -> int:
        """The replicas strict durability waits for (``durability_replicas`` resolved)."""
        if self.durability_replicas is not None:
            return self.durability_replicas
        return 1 if sentinel_url(self.redis_url) else 0

    @property
    def queue(self) -> str:
        """The queue Redis: ``queue_url``, else the game store's."""
        return self.queue_url or self.redis_url


def tcp_port(bind: str) -> int | None:
    """The port of a ``host:port`` address (``[v6]:port`` too), or None if it is none.

    >>> tcp_port("0.0.0.0:9100"), tcp_port("[::1]:80"), tcp_port("unix:/run/s"), tcp_port(":0")
    (9100, 80, None, None)
    """
    host, _, port = bind.rpartition(":")
    if not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        return None
    return int(port)


def env_name(field: str) -> str:
    return PREFIX + field.upper()


def load(warn=sys.stderr, **overrides) -> Settings:
    """The settings from the process's ``SPITLOG_*`` variables, under ``overrides`` (field
    names). Raises SettingsError naming a variable with a bad value; warns on ``warn`` of
    every ``SPITLOG_*`` variable that no setting reads."""
    if warn is not None:
        known = {env_name(f) for f in Settings.model_fields}
        for name in sorted(n for n in os.environ if n.startswith(PREFIX) and n not in known):
            warn.write(f"spitlog: {name} is not a setting of spitlog: ignored\n")
    try:
        return Settings(**overrides)
    except ValidationError as e:
        first = e.errors()[0]
        if not first["loc"]:  # a check of several settings: its message names them
            raise SettingsError(first["msg"].removeprefix("Value error, ")) from None
        field = str(first["loc"][0])
        if field in overrides:
            raise SettingsError(f"{field}={overrides[field]!r}: {first['msg']}") from None
        name = env_name(field)
        raise SettingsError(f"{name}={os.environ.get(name)!r}: {first['msg']}") from None


# ---------------------------------------------------------------- README's tables

SERVICE = (
    "redis_url", "queue_url", "durability", "durability_replicas", "durability_wait_s",
    "redis_pool", "bind", "metrics_bind", "workers",
    "worker_connections", "gc_every_s", "access_log", "log_format", "log_level", "snapshot_every",
    "state_cache",
    "append_retries", "idempotency_ttl_s", "archive_url", "s3_endpoint_url", "retain_s",
    "webhook_url", "webhook_secret", "webhook_events", "webhook_allow_private",
    "webhook_timeout_s", "webhook_retry_s",
    "rematch_s", "seek_max_s", "rated_pair_cap",
    "max_content_length", "body_timeout_s", "longpoll_max_s", "sse_max_s", "sse_keepalive_s",
    "live_queue_bytes", "live_frames_per_s", "lobby_page_max", "cors_origins", "rate_actions",
    "rate_actions_burst", "rate_requests", "rate_requests_burst", "rate_games",
    "rate_games_burst", "rate_seat", "rate_seat_burst",
    "rate_seat_reserve", "rate_auth_failures", "rate_auth_failures_burst", "streams_per_client",
    "streams_per_address", "game_concurrency", "game_gate_wait_s", "trusted_proxies",
)  # fmt: skip
WORKERS = ("queue_name", "bot_pace", "tick_s", "lead_ms", "sweep_s", "stall_s", "metrics_port",
           "worker_log_level", "trace", "parent_pid")  # fmt: skip


def _shown(v) -> str:
    if v is None:
        return "unset"
    if isinstance(v, bool):
        return "`1`" if v else "`0`"
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    return f"`{v}`"


def table(names: tuple[str, ...]) -> str:
    """The Markdown table of the settings ``names``, as README.md has it."""
    rows = ["| variable | default | what |", "|---|---|---|"]
    for name in names:
        f = Settings.model_fields[name]
        rows.append(f"| `{env_name(name)}` | {_shown(f.default)} | {f.description} |")
    return "\n".join(rows) + "\n"
