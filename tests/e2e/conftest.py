"""End to end: the real process tree (gunicorn + gevent workers on the session's real
redis-server, or `spitlog dev` on its embedded Redis), driven over HTTP with requests."""

import pytest

from tests.support.processes import free_port, start, stop, wait_ready

# an integrator's programs on the installed clients (test_client_packages.py): not tests,
# and importable only where the clients are installed
collect_ignore = ["consumers"]


@pytest.fixture(scope="session")
def served_with_metrics(redis_url):
    """`spitlog serve`: gunicorn, two gevent workers, on the real Redis: (the API's base
    URL, its metrics' URL)."""
    port, metrics_port = free_port(), free_port()
    env = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
           "SPITLOG_METRICS_BIND": f"127.0.0.1:{metrics_port}",
           "SPITLOG_WORKERS": "2", "SPITLOG_SSE_MAX_S": "30",
           "SPITLOG_RATE_REQUESTS": "0", "SPITLOG_RATE_ACTIONS": "0",
           "SPITLOG_RATE_GAMES": "0", "SPITLOG_RATE_SEAT": "0",
           "SPITLOG_LIVE_FRAMES_PER_S": "10000"}  # fmt: skip
    proc = start(["serve"], env)  # the test plays flat out from one address: no rate limits
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc)
    except RuntimeError:
        pytest.fail(stop(proc))
    yield base, f"http://127.0.0.1:{metrics_port}/metrics"
    stop(proc)


@pytest.fixture(scope="session")
def served(served_with_metrics):
    """The base URL of `spitlog serve` (``served_with_metrics``)."""
    return served_with_metrics[0]
