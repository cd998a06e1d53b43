"""``spitlog serve``'s garbage collection (``service.cli.serve.collect_every``), in a
process of its own monkey-patched as gunicorn's gevent workers are: what the worker holds
at start is frozen, Python's automatic collections are off, and cyclic garbage is still
collected, every period, by a greenlet; with a period of 0 nothing changes."""

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    from gevent import monkey; monkey.patch_all()
    import gc, sys, weakref, gevent
    from service.cli.serve import collect_every

    class Node:
        pass

    gc.collect()
    period = float(sys.argv[1])
    collect_every(period)
    gone = []
    a, b = Node(), Node()
    a.b, b.a = b, a  # a cycle: only the cyclic collector frees it
    weakref.finalize(a, gone.append, "a")
    del a, b
    kept = [[] for _ in range(5000)]  # far past the automatic collection's threshold
    before = bool(gone)
    gevent.sleep(0.6)
    print(gc.isenabled(), gc.get_freeze_count() > 0, before, bool(gone))
""")


def _run(period: float) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(period)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_worker_collects_cyclic_garbage_by_its_period_not_by_pythons_thresholds():
    enabled, frozen, early, collected = _run(0.2)
    assert enabled == "False" and frozen == "True"
    assert early == "False"  # no automatic collection freed the cycle
    assert collected == "True"  # the period's did


def test_a_period_of_0_leaves_pythons_collector_as_it_is():
    enabled, frozen, early, collected = _run(0)
    assert enabled == "True" and frozen == "False"
    assert collected == "True"
