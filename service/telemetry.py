"""OpenTelemetry traces, configured by the standard ``OTEL_*`` variables and off unless
``OTEL_TRACES_EXPORTER`` names an exporter (``otlp``: OTLP over HTTP to
``OTEL_EXPORTER_OTLP_ENDPOINT``; ``console``). Off, nothing here does any work: ``span``
hands back a shared null context and ``carrier`` an empty dict.

On, one trace follows a request across processes: the API's span (``span``, from the
pipeline, continuing an incoming ``traceparent``) and its Redis calls (the redis
instrumentation); the scheduler hook keeps the ``traceparent`` of a game's latest append
beside its decisions; the ticker gives it to the RQ job it enqueues (the job's meta); the
job's span continues it, and a webhook delivery sends it on to its target.
"""

import contextlib
import os

from .config import SettingsError

_tracer = None  # set by ``setup`` when tracing is on
_NULL = contextlib.nullcontext()
EXPORTERS = ("none", "otlp", "console")


def enabled() -> bool:
    return _tracer is not None


SAMPLERS = ("always_on", "always_off", "traceidratio", "parentbased_always_on",
            "parentbased_always_off", "parentbased_traceidratio")  # fmt: skip


def check() -> str:
    """The exporter the ``OTEL_*`` variables name ("none": tracing off); SettingsError
    naming a variable whose value this service cannot use (every command checks them,
    and exits 2): the exporter, the sampler and its ratio, the SDK switch, the
    propagators, the resource's attributes; with tracing on, the batch processor's
    numbers; with ``otlp``, its endpoints, protocol, headers and timeouts. Where the SDK
    would log a bad value and carry on with its default, the operator hears it at once."""
    name = (os.environ.get("OTEL_TRACES_EXPORTER") or "none").strip().lower()
    if name not in EXPORTERS:
        raise SettingsError(f"OTEL_TRACES_EXPORTER={name!r}: one of {', '.join(EXPORTERS)}")
    _one_of("OTEL_TRACES_SAMPLER", SAMPLERS)
    _one_of("OTEL_SDK_DISABLED", ("true", "false"))
    propagators = os.environ.get("OTEL_PROPAGATORS")
    if propagators is not None:
        known = _propagators()
        for part in propagators.split(","):
            if part.strip().lower() not in known:
                raise SettingsError(f"OTEL_PROPAGATORS={propagators!r}: a list of "
                                    f"{', '.join(sorted(known))}")  # fmt: skip
    ratio = os.environ.get("OTEL_TRACES_SAMPLER_ARG")
    if ratio is not None:
        try:
            if not 0 <= float(ratio) <= 1:
                raise ValueError
        except ValueError:
            raise SettingsError(f"OTEL_TRACES_SAMPLER_ARG={ratio!r}: a ratio, 0 to 1") from None
    _pairs("OTEL_RESOURCE_ATTRIBUTES")
    if name != "none":
        for var in BSP_NUMBERS:
            _number(var, integer=True)
    if name == "otlp":
        for var in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
            _url(var)
        for var in ("OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"):
            _one_of(var, ("http/protobuf",))  # the exporter this service ships
        for var in ("OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"):
            _pairs(var)
        for var in ("OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"):
            _number(var)
    return name


def _propagators() -> set[str]:
    """The propagators installed (opentelemetry-api finds them by this entry point), and
    "none"."""
    from importlib.metadata import entry_points

    return {e.name.lower() for e in entry_points(group="opentelemetry_propagator")} | {"none"}


BSP_NUMBERS = ("OTEL_BSP_SCHEDULE_DELAY", "OTEL_BSP_EXPORT_TIMEOUT",
               "OTEL_BSP_MAX_QUEUE_SIZE", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE")  # fmt: skip


def _one_of(var: str, allowed: tuple[str, ...]) -> None:
    value = os.environ.get(var)
    if value is not None and value.strip().lower() not in allowed:
        raise SettingsError(f"{var}={value!r}: one of {', '.join(allowed)}")


def _number(var: str, integer: bool = False) -> None:
    """``var``, if set, is a number >= 0 (an integer if ``integer``)."""
    value = os.environ.get(var)
    if value is None:
        return
    try:
        ok = (int(value) if integer else float(value)) >= 0
    except ValueError:
        ok = False
    if not ok:
        raise SettingsError(f"{var}={value!r}: {'an integer' if integer else 'a number'} >= 0")


def _pairs(var: str) -> None:
    """``var``, if set, is a comma-separated list of ``key=value`` (W3C Baggage's form)."""
    value = os.environ.get(var)
    if value is None or not value.strip():
        return
    for part in value.split(","):
        key, eq, _v = part.partition("=")
        if not eq or not key.strip():
            raise SettingsError(f"{var}={value!r}: key=value pairs, comma-separated")


def _url(var: str) -> None:
    """``var``, if set, is an http(s) URL with a host (and, if any, a port that parses)."""
    value = os.environ.get(var)
    if value is None:
        return
    from urllib.parse import urlsplit

    try:
        u = urlsplit(value.strip())
        ok = u.scheme in ("http", "https") and bool(u.hostname)
        u.port  # noqa: B018 - raises ValueError on a port out of range or not a number
    except ValueError:
        ok = False
    if not ok:
        raise SettingsError(f"{var}={value!r}: an http:// or https:// URL with a host")


def setup(service: str, exporter=None) -> bool:
    """Turn tracing on for this process if the ``OTEL_*`` variables ask for it (or with
    ``exporter``, a span exporter: the tests' in-memory one); answers whether it is on.
    A bad ``OTEL_*`` value is a SettingsError naming it."""
    global _tracer
    if _tracer is not None:
        return True
    name = check() if exporter is None else "given"
    if os.environ.get("OTEL_SDK_DISABLED", "").lower() == "true" or (
        exporter is None and name == "none"
    ):
        return False
    from opentelemetry import trace
    from opentelemetry.instrumentation.redis import RedisInstrumentor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME", service)})
    provider = TracerProvider(resource=resource)  # the sampler: OTEL_TRACES_SAMPLER
    if exporter is not None:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    elif name == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        provider.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    with contextlib.suppress(Exception):  # instrumented already (a second setup)
        RedisInstrumentor().instrument(tracer_provider=provider)
    _tracer = provider.get_tracer("spitlog")
    return True


def shutdown() -> None:
    """Tracing off again in this process (the tests' in-memory exporter, between tests)."""
    global _tracer
    if _tracer is None:
        return
    from opentelemetry.instrumentation.redis import RedisInstrumentor

    with contextlib.suppress(Exception):
        RedisInstrumentor().uninstrument()
    _tracer = None


def span(name: str, carrier: dict | None = None, **attributes):
    """A span named ``name`` (a context manager), the child of the current one or of the
    context in ``carrier`` (``{"traceparent": ...}``); a null context when tracing is off."""
    if _tracer is None:
        return _NULL
    from opentelemetry.propagate import extract

    context = extract(carrier) if carrier else None
    attrs = {k: v for k, v in attributes.items() if v is not None}
    return _tracer.start_as_current_span(name, context=context, attributes=attrs)


def carrier() -> dict:
    """The current trace's context as W3C headers (``traceparent``), {} when off."""
    if _tracer is None:
        return {}
    from opentelemetry.propagate import inject

    out: dict = {}
    inject(out)
    return out


def trace_id() -> str | None:
    """The current trace's id (hex), for the log lines; None when off or outside a span."""
    if _tracer is None:
        return None
    from opentelemetry import trace

    ctx = trace.get_current_span().get_span_context()
    return format(ctx.trace_id, "032x") if ctx.is_valid else None
