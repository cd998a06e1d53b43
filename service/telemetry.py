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
    and exits 2)."""
    name = (os.environ.get("OTEL_TRACES_EXPORTER") or "none").strip().lower()
    if name not in EXPORTERS:
        raise SettingsError(f"OTEL_TRACES_EXPORTER={name!r}: one of {', '.join(EXPORTERS)}")
    sampler = os.environ.get("OTEL_TRACES_SAMPLER")
    if sampler is not None and sampler.strip().lower() not in SAMPLERS:
        raise SettingsError(f"OTEL_TRACES_SAMPLER={sampler!r}: one of {', '.join(SAMPLERS)}")
    ratio = os.environ.get("OTEL_TRACES_SAMPLER_ARG")
    if ratio is not None:
        try:
            if not 0 <= float(ratio) <= 1:
                raise ValueError
        except ValueError:
            raise SettingsError(f"OTEL_TRACES_SAMPLER_ARG={ratio!r}: a ratio, 0 to 1") from None
    return name


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
