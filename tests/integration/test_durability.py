"""Issue 6: no acknowledged action is lost when Redis is SIGKILLed (strict mode).

Runs bench/fault_durability.py's scenario: 20 kills of a real redis-server with AOF
(``appendfsync always``) while four clients play through the service's append path;
each restart recovers from the AOF. The figures print with ``-s``.
"""

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="needs redis-server (apt-get install redis-server)"
)


def test_strict_mode_loses_no_acknowledged_action_across_20_kills():
    from fault_durability import run

    r = run("strict", kills=20, clients=4, every=0.3)
    print(r)
    assert r["acknowledged"] > 500  # the clients really played through the kills
    assert r["lost"] == 0
    assert r["logs_with_gaps"] == 0


def test_default_mode_survives_process_kills_too():
    """everysec write()s before replying, so a killed process loses nothing either; only a
    host crash can cost up to a second (README, Deploying)."""
    from fault_durability import run

    r = run("default", kills=5, clients=2, every=0.3)
    print(r)
    assert r["lost"] == 0
    assert r["logs_with_gaps"] == 0
