"""The optional parts of spitlog: each is an extra of its distribution (pyproject.toml's
``[project.optional-dependencies]``), and the server's own install (``spitlog serve``,
``worker``, ``scheduler``) needs none of them. Code that uses one imports it only where it
is used, after asking here whether it is installed; a command that needs one not installed
ends with one line naming the extra (exit 2).

>>> hint("s3")
"pip install 'spitlog[s3]'"
"""

import importlib.util

# extra -> the modules it brings (the first of each distribution it installs)
EXTRAS: dict[str, tuple[str, ...]] = {
    "dev": ("fakeredis", "lupa"),  # `spitlog dev`'s embedded Redis (Lua scripts: lupa)
    "bot": ("httpx", "httpx_sse"),  # `spitlog bot`
    "s3": ("boto3", "botocore"),  # an s3:// archive
    "otel": (  # traces (OTEL_TRACES_EXPORTER)
        "opentelemetry.trace",
        "opentelemetry.sdk.trace",
        "opentelemetry.exporter.otlp.proto.http.trace_exporter",
        "opentelemetry.instrumentation.redis",
    ),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a parent package is missing (ModuleNotFoundError)
        return False


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that are not installed ([] when it is)."""
    return [m for m in EXTRAS[extra] if not _installed(m)]


def hint(extra: str) -> str:
    """The command that installs ``extra``."""
    return f"pip install 'spitlog[{extra}]'"
