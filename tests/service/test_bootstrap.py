"""The one composition root (``service.bootstrap.Root``): the API, the workers and the
command line take their parts from it, and nothing else assembles them."""

import ast
from pathlib import Path

import fakeredis
import pytest

from service.bootstrap import WORKER, Root
from service.http.app import create_app
from tests.support.api import app_settings
from tests.support.fakes import SeededEntropy
from workers.runtime import Runtime

ROOT = Path(__file__).resolve().parents[2]
# what only the composition root makes: the adapters on the settings, the use cases on them
ASSEMBLED = {"RedisStore", "PlayerStore", "SeekStore", "open_archive", "HttpOutbound", "Hub",
             "GameGate", "clients", "GameCases.build", "Limits.from_settings",
             "Scheduler.from_settings", "connect.client"}  # fmt: skip
MAKERS = {
    "service/bootstrap.py",
    "service/assembly.py",  # GameCases.build, which the root calls
    "service/archive/__init__.py",  # open_archive itself
    "service/store/connect.py",  # client and clients themselves
    "workers/schedule.py",  # Scheduler.from_settings, which the root calls
    "service/limits/rates.py",  # Limits.from_settings itself
}


def _calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                name = f"{f.value.id}.{f.attr}"
            else:
                name = f.id if isinstance(f, ast.Name) else ""
            if name in ASSEMBLED:
                out.append(f"{path.relative_to(ROOT)}:{n.lineno} {name}")
    return out


def test_nothing_but_the_root_assembles_the_parts():
    found = []
    for pkg in ("service", "workers"):
        for f in sorted((ROOT / pkg).rglob("*.py")):
            if str(f.relative_to(ROOT)) not in MAKERS:
                found += _calls(f)
    assert found == []


def test_the_api_runs_on_the_parts_of_its_root():
    entropy = SeededEntropy(seed=b"\x01" * 32)
    root = Root(app_settings(), redis_client=fakeredis.FakeRedis(), clock=lambda: 5.0,
                entropy=entropy)  # fmt: skip
    svc = create_app(root=root).extensions["spitlog"]
    assert svc.reading is root.cases.reading and svc.acting is root.cases.acting
    assert svc.store is root.store and svc.limits is root.limits and svc.hub is root.hub
    assert svc.seeks is root.seeks and svc.rematches is root.rematches
    assert root.cases is root.cases  # made once
    assert root.apps.entropy is entropy


def test_a_worker_runs_on_the_parts_of_its_root():
    rt = Runtime(app_settings())
    assert rt.root.role == WORKER
    assert rt.reading is rt.root.cases.reading and rt.archiver is rt.root.archiver
    assert rt.scheduler is rt.root.scheduler and rt.store is rt.root.store


def test_a_root_has_two_roles():
    with pytest.raises(ValueError, match="role"):
        Root(app_settings(), role="both")
