"""The OpenTelemetry SDK's private names the tests read, all here: the sampler the
``OTEL_TRACES_SAMPLER*`` variables make, and the endpoint an OTLP exporter posts to. The
SDK has no public way to read either; ``tests/service/test_otel_private.py`` pins them,
so that an SDK that renames one fails that test first, by name."""

PRIVATE = (
    "opentelemetry.sdk.trace.sampling._get_from_env_or_default",
    "opentelemetry.exporter.otlp.proto.http.trace_exporter.OTLPSpanExporter._endpoint",
)


def sampler_from_env():
    """The sampler the SDK makes of the ``OTEL_TRACES_SAMPLER*`` variables."""
    from opentelemetry.sdk.trace.sampling import _get_from_env_or_default

    return _get_from_env_or_default()


def endpoint(exporter) -> str:
    """The URL an ``OTLPSpanExporter`` (HTTP) posts its spans to."""
    return exporter._endpoint
