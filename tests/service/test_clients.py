"""The clients under clients/ are what their generators make of openapi.yaml today
(clients/generate.py, run into a temporary folder): the Python package
(openapi-python-client, pinned in pyproject.toml) and the TypeScript types
(openapi-typescript, pinned in clients/typescript/package-lock.json; `npm ci --prefix
clients/typescript`, as .ci/run does). A difference fails: run `python clients/generate.py`.
The example bots that use them play whole games in tests/e2e/test_readme.py."""

import filecmp
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("generate", ROOT / "clients" / "generate.py")
generate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generate)
STALE = "stale: run `python clients/generate.py`"


def differences(a: Path, b: Path) -> list[str]:
    """The files that differ between two trees, or are in one only (caches aside)."""
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__", ".ruff_cache"])
    out = [*cmp.left_only, *cmp.right_only, *cmp.diff_files, *cmp.funny_files]
    for name, sub in cmp.subdirs.items():
        out += [f"{name}/{d}" for d in differences(Path(sub.left), Path(sub.right))]
    return out


def test_the_python_client_is_what_the_generator_makes_of_the_spec(tmp_path):
    made = generate.python_client(tmp_path)
    assert (made / "api" / "games" / "act.py").exists()
    assert differences(made, ROOT / "clients" / "python" / "spitlog_client") == [], STALE


def test_the_typescript_types_are_what_the_generator_makes_of_the_spec(tmp_path):
    if not (ROOT / "clients" / "typescript" / "node_modules").exists():
        pytest.fail("no clients/typescript/node_modules: npm ci --prefix clients/typescript")
    made = generate.typescript_types(tmp_path)
    checked_in = ROOT / "clients" / "typescript" / "src" / "schema.ts"
    assert made.read_text() == checked_in.read_text(), STALE


def test_the_python_client_reads_a_view_into_its_games_classes(client):
    """The generated models parse real answers by their discriminators (the game, an
    action's or an event's type)."""
    sys.path.insert(0, str(ROOT / "clients" / "python"))
    try:
        from spitlog_client.models import Acted, SpeedPlayAction, SpeedState, SpitState
    finally:
        sys.path.remove(str(ROOT / "clients" / "python"))
    from tests.support.api import act, new_game

    for game, cls in (("spit", SpitState), ("speed", SpeedState)):
        gid, tok0, tok1 = new_game(client, game)
        act(client, gid, tok0, {"type": "ready"})
        acted = Acted.from_dict(act(client, gid, tok1, {"type": "ready"}).get_json())
        assert isinstance(acted.state, cls) and acted.state.you == 1
        assert [type(e).__name__ for e in acted.events][0] == "PlayerReadyEvent"
        if game == "speed":
            assert all(isinstance(a, SpeedPlayAction) for a in acted.state.legal_actions
                       if a.type_ == "play")  # fmt: skip
