"""Structured logs and traces: JSON lines with each request's context, one
trace from an API request through Redis to the RQ job it caused (OpenTelemetry's
in-memory exporter; the job runs in this process on a real RQ worker), bad OTEL_*
settings refused by name, and no card in any log line of whole games."""

import io
import json
import logging
import os
import random
import re
import subprocess
import sys

import pytest
import redis

from service import logs, telemetry
from service.http.app import create_app
from tests.support import otel
from tests.support.api import act, app_settings, bearer, new_game, pick
from workers.schedule import Schedule, Scheduler

pytestmark = pytest.mark.redis
CARD = re.compile(r"\b(?:[2-9]|10|[AJQK])[CDHS]\b")


@pytest.fixture
def log_lines():
    """Every log line of this process, as the service writes them (JSON)."""
    out = io.StringIO()
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    logs.configure("DEBUG", "json", out)
    yield lambda: [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    root.handlers[:], _ = saved
    root.setLevel(saved[1])


def test_a_request_logs_one_json_line_with_its_context(redis_client, log_lines):
    client = create_app(app_settings(access_log=True), redis_client=redis_client).test_client()
    gid, t0, _t1 = new_game(client)
    act(client, gid, t0, {"type": "ready"}, **{"X-Request-Id": "req-under-test"})
    line = next(x for x in log_lines() if x.get("request_id") == "req-under-test")
    assert line["message"] == "request" and line["level"] == "INFO"
    assert line["route"] == "/v1/games/{game_id}/actions" and line["status"] == 201
    assert line["game"] == gid and line["seat"] == 0 and line["duration_ms"] >= 0
    assert "time" in line and "trace_id" not in line  # tracing is off


def test_no_card_in_any_log_line_of_whole_games(redis_client, log_lines):
    """The canary, for the logs: two whole games at DEBUG with every request logged,
    illegal actions among them, and not one card name in a line."""
    client = create_app(app_settings(access_log=True), redis_client=redis_client).test_client()
    rng = random.Random(5)
    for game in ("spit", "speed"):
        gid, t0, t1 = new_game(client, game, options={"max_rounds": 1} if game == "spit" else {})
        for step in range(3000):
            tok = (t0, t1)[step % 2]
            view = client.get(f"/v1/games/{gid}", headers=bearer(tok)).get_json()
            if view["status"] in ("finished", "aborted"):
                break
            a = pick(view, rng)
            if a is not None:
                act(client, gid, tok, a)
            if step % 17 == 0:  # a refused one: its problem is logged nowhere either
                act(client, gid, tok, {"type": "play", "card": "2C", "pile": 0})
    lines = log_lines()
    assert len(lines) > 200
    leaked = [x for x in lines if CARD.search(json.dumps(x))]
    assert leaked == []


def test_one_trace_from_the_api_through_redis_to_the_worker_job(redis_url, monkeypatch):
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from rq import SimpleWorker
    from rq.serializers import JSONSerializer

    from service.config import load
    from workers import jobs
    from workers.ticker import Ticker
    from workers.worker import make_queue

    r = redis.Redis.from_url(redis_url)
    r.flushall()
    exporter = InMemorySpanExporter()
    assert telemetry.setup("spitlog-test", exporter=exporter)
    try:
        s = load(warn=None, redis_url=redis_url, bot_pace=0.01)
        jobs.setup(s)  # the worker's runtime, in this process
        schedule = Schedule(r)
        client = create_app(app_settings(redis_url=redis_url),
                            scheduler=Scheduler(schedule, pace=0.01)).test_client()  # fmt: skip
        made = client.post(
            "/v1/games",
            json={"game": "speed", "opponent": "bot:easy"},
            headers={"traceparent": "00-" + "ab" * 16 + "-" + "cd" * 8 + "-01"},
        )
        gid, tok = made.get_json()["id"], made.get_json()["token"]
        act(client, gid, tok, {"type": "ready"})  # the bot has a decision to make now
        ticker = Ticker(schedule, make_queue(s, r), lead_ms=1000)
        for _ in range(50):
            if ticker.tick()[0]:
                break
            import time

            time.sleep(0.02)
        SimpleWorker([make_queue(s, r)], connection=r, serializer=JSONSerializer).work(burst=True)
        spans = exporter.get_finished_spans()
        api = [x for x in spans if x.name.startswith("POST /v1/games/{game_id}/actions")]
        job = [x for x in spans if x.name.startswith("job ")]
        store = [x for x in spans if x.kind.name == "CLIENT" and "redis" in x.name.lower()
                 or x.attributes.get("db.system") == "redis"]  # fmt: skip
        assert api and job and store, [x.name for x in spans]
        assert api[-1].context.trace_id == job[0].context.trace_id  # one trace, two halves
        assert any(x.context.trace_id == api[-1].context.trace_id for x in store)
        created = next(x for x in spans if x.name == "POST /v1/games")
        assert format(created.context.trace_id, "032x") == "ab" * 16  # the caller's trace
    finally:
        telemetry.shutdown()


@pytest.mark.parametrize("name, value", [
    ("OTEL_TRACES_EXPORTER", "carrier-pigeon"),
    ("OTEL_TRACES_SAMPLER", "sometimes"),
    ("OTEL_TRACES_SAMPLER_ARG", "lots"),
    ("OTEL_SDK_DISABLED", "maybe"),
    ("OTEL_PROPAGATORS", "tracecontext,b3"),
    ("OTEL_PROPAGATORS", "TraceContext"),  # looked up by its exact name: a crash at start
    ("OTEL_RESOURCE_ATTRIBUTES", "region"),
    ("OTEL_BSP_SCHEDULE_DELAY", "soon"),
    ("OTEL_BSP_MAX_QUEUE_SIZE", "-1"),
    ("OTEL_BSP_MAX_QUEUE_SIZE", "100"),  # below the batch's 512: the SDK's ValueError
    ("OTEL_BSP_SCHEDULE_DELAY", "0"),
    ("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"),
    ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://collector:99999/v1/traces"),
    ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
    ("OTEL_EXPORTER_OTLP_HEADERS", "api-key"),
    ("OTEL_EXPORTER_OTLP_HEADERS", 'x-api-key="abc"'),  # dropped by the exporter, warned
    ("OTEL_EXPORTER_OTLP_TIMEOUT", "ten"),
    ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "0"),
    ("OTEL_EXPORTER_OTLP_COMPRESSION", "zstd"),
    ("SPITLOG_LOG_FORMAT", "xml"),
])  # fmt: skip
def test_a_bad_tracing_or_log_setting_exits_2_naming_it(name, value):
    """Each bad value exits 2 naming its variable; the exporter's and the batch
    processor's are checked with tracing on (OTLP), where they are used."""
    env = {**os.environ, name: value}
    if name.startswith(("OTEL_BSP_", "OTEL_EXPORTER_OTLP_")):
        env["OTEL_TRACES_EXPORTER"] = "otlp"
    r = subprocess.run([sys.executable, "-m", "service.cli", "serve"], env=env,
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 2 and name in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_good_tracing_settings_pass_the_check(monkeypatch, caplog):
    """The same variables set right are taken (the check refuses the bad, not the odd),
    and the SDK builds its exporter from them without a warning or an error."""
    good = {
        "OTEL_TRACES_EXPORTER": "otlp", "OTEL_TRACES_SAMPLER": "parentbased_traceidratio",
        "OTEL_TRACES_SAMPLER_ARG": "0.25", "OTEL_SDK_DISABLED": "false",
        "OTEL_PROPAGATORS": "tracecontext, baggage",
        "OTEL_RESOURCE_ATTRIBUTES": "region=eu,team=games",
        "OTEL_BSP_SCHEDULE_DELAY": "500", "OTEL_BSP_MAX_QUEUE_SIZE": "4096",
        "OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector.internal:4318",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://[::1]:4318/v1/traces",
        "OTEL_EXPORTER_OTLP_HEADERS": "api-key=abc%20def, x-team=games,",
        "OTEL_EXPORTER_OTLP_TIMEOUT": "10",  # seconds (the Python exporter's unit)
        "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",  # not read: the TRACES_ one is set
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/protobuf",
        "OTEL_EXPORTER_OTLP_COMPRESSION": "GZIP",
        "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "256",
        "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "",  # empty: unset (the general ones count)
    }  # fmt: skip
    for k, v in good.items():
        monkeypatch.setenv(k, v)
    assert telemetry.check() == "otlp"
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    with caplog.at_level(logging.WARNING):
        exporter = OTLPSpanExporter()
        BatchSpanProcessor(exporter).shutdown()
        sampler = otel.sampler_from_env()
        resource = Resource.create({})
    said = [r.getMessage() for r in caplog.records if r.name.startswith("opentelemetry")]
    assert said == []
    assert otel.endpoint(exporter) == "http://[::1]:4318/v1/traces"
    assert "0.25" in sampler.get_description()
    assert resource.attributes["region"] == "eu"
