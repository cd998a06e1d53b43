"""The OpenTelemetry SDK's private names the tests read (``tests.support.otel.PRIVATE``)
are there and mean what the tests take them to mean."""

from tests.support import otel


def test_the_sdk_makes_the_sampler_of_the_variables(monkeypatch):
    monkeypatch.setenv("OTEL_TRACES_SAMPLER", "traceidratio")
    monkeypatch.setenv("OTEL_TRACES_SAMPLER_ARG", "0.125")
    assert "0.125" in otel.sampler_from_env().get_description()
    monkeypatch.setenv("OTEL_TRACES_SAMPLER", "always_off")
    assert otel.sampler_from_env().get_description() == "AlwaysOffSampler"


def test_an_otlp_exporter_keeps_its_endpoint(monkeypatch):
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:9/v1/traces")
    assert otel.endpoint(OTLPSpanExporter()) == "http://127.0.0.1:9/v1/traces"
    assert otel.endpoint(OTLPSpanExporter(endpoint="http://x.example/t")) == "http://x.example/t"


def test_the_private_names_are_named_in_one_place():
    assert len(otel.PRIVATE) == 2 and all("._" in name for name in otel.PRIVATE)
