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
import math
import os
import re

from . import extras
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
    numbers; with ``otlp``, its endpoint, protocol, compression, headers and timeout
    (each the ``..._TRACES_...`` variable, or the general one where that is unset, as
    the exporter reads them). Where the SDK would log a bad value and go on with its
    default, or fail at start, the operator hears it at once. An empty value is unset,
    as it is for the SDK. Each value is read the SDK's way (case, spaces)."""
    name = (os.environ.get("OTEL_TRACES_EXPORTER") or "none").strip().lower()
    if name not in EXPORTERS:
        raise SettingsError(f"OTEL_TRACES_EXPORTER={name!r}: one of {', '.join(EXPORTERS)}")
    _one_of("OTEL_TRACES_SAMPLER", SAMPLERS, strip=False)  # the SDK does not strip it
    _one_of("OTEL_SDK_DISABLED", ("true", "false"))
    if name != "none" and not _disabled() and extras.missing("otel"):
        raise SettingsError(f"OTEL_TRACES_EXPORTER={name!r}: tracing needs OpenTelemetry: "
                            f"{extras.hint('otel')}")  # fmt: skip
    _check_propagators()
    ratio = _value("OTEL_TRACES_SAMPLER_ARG")
    if ratio is not None:
        try:
            if not 0 <= float(ratio) <= 1:
                raise ValueError
        except ValueError:
            raise SettingsError(f"OTEL_TRACES_SAMPLER_ARG={ratio!r}: a ratio, 0 to 1") from None
    _pairs("OTEL_RESOURCE_ATTRIBUTES")
    if name != "none":
        _check_batches()
    if name == "otlp":
        _url(_signal("ENDPOINT"))
        _one_of(_signal("PROTOCOL"), ("http/protobuf",))  # the exporter this service ships
        _one_of(_signal("COMPRESSION"), ("none", "gzip", "deflate"))
        _pairs(_signal("HEADERS"), headers=True)
        _number(_signal("TIMEOUT"), positive=True)  # seconds, as the Python exporter reads it
    return name


def _disabled() -> bool:
    """``OTEL_SDK_DISABLED=true``: the SDK does nothing, whatever the exporter."""
    return os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true"


def _value(var: str) -> str | None:
    """``var``'s value, None when unset or empty (the SDK's ``environ.get(var) or ...``)."""
    value = os.environ.get(var)
    return value if value else None


def _signal(part: str) -> str:
    """The variable the OTLP trace exporter reads for ``part``: its own
    (``OTEL_EXPORTER_OTLP_TRACES_<part>``), or the general one where that is unset."""
    own = f"OTEL_EXPORTER_OTLP_TRACES_{part}"
    return own if _value(own) is not None else f"OTEL_EXPORTER_OTLP_{part}"


def _one_of(var: str, allowed: tuple[str, ...], strip: bool = True) -> None:
    value = _value(var)
    if value is not None and (value.strip() if strip else value).lower() not in allowed:
        raise SettingsError(f"{var}={value!r}: one of {', '.join(allowed)}")


def _check_propagators() -> None:
    """Each name of ``OTEL_PROPAGATORS`` an installed propagator's, exactly as
    opentelemetry-api looks it up (by its entry point; "none" in any case)."""
    value = _value("OTEL_PROPAGATORS")
    if value is None or extras.missing("otel"):
        return  # (without OpenTelemetry nothing reads it; tracing on needs it, above)
    from importlib.metadata import entry_points

    known = {e.name for e in entry_points(group="opentelemetry_propagator")}
    for part in value.split(","):
        part = part.strip()
        if part.lower() != "none" and part not in known:
            raise SettingsError(f"OTEL_PROPAGATORS={value!r}: a list of "
                                f"{', '.join(sorted(known | {'none'}))}")  # fmt: skip


BSP_DEFAULTS = {"OTEL_BSP_SCHEDULE_DELAY": 5000, "OTEL_BSP_EXPORT_TIMEOUT": 30000,
                "OTEL_BSP_MAX_QUEUE_SIZE": 2048, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": 512}  # fmt: skip


def _check_batches() -> None:
    """The batch processor's numbers: integers > 0, a batch no larger than the queue
    (the SDK refuses anything else at start, with a traceback)."""
    got = {var: _number(var, integer=True, positive=True) for var in BSP_DEFAULTS}
    queue = got["OTEL_BSP_MAX_QUEUE_SIZE"] or BSP_DEFAULTS["OTEL_BSP_MAX_QUEUE_SIZE"]
    batch = got["OTEL_BSP_MAX_EXPORT_BATCH_SIZE"] or BSP_DEFAULTS["OTEL_BSP_MAX_EXPORT_BATCH_SIZE"]
    if batch > queue:
        raise SettingsError(f"OTEL_BSP_MAX_EXPORT_BATCH_SIZE={batch}: at most "
                            f"OTEL_BSP_MAX_QUEUE_SIZE ({queue})")  # fmt: skip


def _number(var: str, integer: bool = False, positive: bool = False) -> float | None:
    """``var``'s number (None if unset), finite and >= 0 (> 0 if ``positive``; an
    integer if ``integer``)."""
    value = _value(var)
    if value is None:
        return None
    try:
        n = int(value) if integer else float(value)
        ok = math.isfinite(n) and (n > 0 if positive else n >= 0)
    except ValueError:
        ok = False
    if not ok:
        kind = "an integer" if integer else "a number"
        raise SettingsError(f"{var}={value!r}: {kind} {'>' if positive else '>='} 0")
    return n


# The OTLP exporter's reading of a headers variable: comma-separated (spaces and tabs
# around a comma are part of it), each ``key=value`` with optional spaces and tabs around
# both, the key an HTTP token (RFC 9110), the value printable US-ASCII but ``",;\``
# (W3C Baggage's value, spaces allowed). tests/service/test_contracts.py holds it to the
# exporter's own parser: what this refuses, it drops with a warning.
_OWS = "[ \t]*"
_TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
_VALUE = r'(?:(?![",;\\])[\x20-\x7e])*'
_HEADER = re.compile(f"{_OWS}{_TOKEN}{_OWS}={_OWS}{_VALUE}{_OWS}")
_COMMA = re.compile(r"[ \t]*,[ \t]*")


def _pairs(var: str, headers: bool = False) -> None:
    """``var``, if set, is a comma-separated list of ``key=value`` (W3C Baggage's form);
    for ``headers``, each one as the OTLP exporter takes it (``_HEADER``: a header it
    would drop with a warning, e.g. a quoted value or a space in the name, is refused)."""
    value = _value(var)
    if value is None:
        return
    for part in _COMMA.split(value):
        if headers:  # (an empty part is skipped, one of spaces is not)
            ok = not part or _HEADER.fullmatch(part.strip()) is not None
        elif not part.strip():
            continue  # skipped by the SDK
        else:
            key, eq, _v = part.partition("=")
            ok = bool(eq and key.strip())
        if not ok:
            raise SettingsError(f"{var}={value!r}: key=value pairs, comma-separated")


def _url(var: str) -> None:
    """``var``, if set, is an http(s) URL with a host (and, if any, a port that parses)."""
    value = _value(var)
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
    if _disabled() or (exporter is None and name == "none"):
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
