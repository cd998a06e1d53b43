"""The test suite's own machinery: the ``slow`` marker that the inner loop leaves out
(``tests/conftest.py``, docs/testing.md), and the profile variables of the long runs
(``tests/support/profiles.py``), which are the suite's and no setting of the service."""

import io
import os
import runpy
import tomllib
from pathlib import Path

import pytest

from service import config
from tests import conftest
from tests.support import profiles

ROOT = Path(__file__).resolve().parent.parent


def test_every_slow_module_and_directory_is_there():
    """A module renamed away from ``SLOW_MODULES`` would join the inner loop unnoticed."""
    for path in conftest.SLOW_MODULES + conftest.SLOW_DIRS:
        assert (ROOT / path).exists(), f"tests/conftest.py names {path}, which is not there"


@pytest.mark.parametrize(("path", "slow"), [
    ("tests/integration/test_store_real.py", True),
    ("tests/e2e/test_readme.py", True),
    ("tests/service/test_api_schemathesis.py", True),
    ("tests/service/test_api_endpoints.py", False),
    ("tests/unit/test_spit_rules.py", False),
    ("tests/integrationx/test_x.py", False),
])  # fmt: skip
def test_slow_by_where_it_is(path, slow):
    assert conftest._slow_path(ROOT / path) is slow


class _Item:
    """What the collection hook reads of a test: its module's path, its markers."""

    def __init__(self, path: str, marked: bool = False):
        self.path, self.fixturenames = ROOT / path, []
        self.marks = {"slow"} if marked else set()

    def get_closest_marker(self, name: str):
        return name if name in self.marks else None

    def add_marker(self, mark) -> None:
        self.marks.add(mark.name)


def test_the_modules_with_a_slow_test_are_handed_out_first():
    """``-n 2`` hands the modules to its workers in the collection's order: every module
    with a slow test (by where it is, or one marked by hand) before every module without,
    each in the order it was collected; xdist's own order (the most tests first, which
    left long modules of two tests to start last) is off."""
    fast, hand, e2e = "tests/unit/test_a.py", "tests/service/test_b.py", "tests/e2e/test_c.py"
    items = [_Item(fast), _Item(hand), _Item(hand, marked=True), _Item(fast), _Item(e2e),
             _Item(e2e)]  # fmt: skip
    before = list(items)
    conftest.pytest_collection_modifyitems(None, items)
    assert items == [before[i] for i in (1, 2, 4, 5, 0, 3)]
    slow = [i.get_closest_marker("slow") for i in items]
    assert slow == [None, "slow", "slow", "slow", None, None]  # hand: one test marked
    with open(ROOT / "pyproject.toml", "rb") as f:
        addopts = tomllib.load(f)["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert "--no-loadscope-reorder" in addopts and addopts[addopts.index("--dist") + 1] == (
        "loadfile"
    )


def test_a_test_on_a_real_server_is_slow(request, redis_url):
    assert request.node.get_closest_marker("slow") is not None


def test_a_test_on_fakeredis_is_not(request, client):
    assert request.node.get_closest_marker("slow") is None


def test_a_profile_variable_is_the_suites_and_leaves_the_environment(monkeypatch):
    """Read by ``profiles`` as the session starts, then gone from the environment, so
    that no process a test starts sees it."""
    monkeypatch.setenv("SPITLOG_AUDIT_GAMES", "7")
    monkeypatch.setenv("SPITLOG_PROPERTY_EXAMPLES", "10000")
    fresh = runpy.run_path(profiles.__file__)
    assert (fresh["AUDIT_GAMES"], fresh["PROPERTY_EXAMPLES"], fresh["PROPERTY_EXPLORE"]) == (
        7,
        10000,
        True,
    )
    assert not set(profiles.NAMES) & set(os.environ)


def test_a_profile_variable_is_no_setting_of_the_service(monkeypatch):
    """The service knows nothing of the suite's variables: one given to it is warned
    about like any other ``SPITLOG_*`` variable it does not read."""
    for name in profiles.NAMES:
        monkeypatch.setenv(name, "1")
    said = io.StringIO()
    config.load(warn=said)
    assert said.getvalue().splitlines() == [
        f"spitlog: {name} is not a setting of spitlog: ignored" for name in sorted(profiles.NAMES)
    ]
