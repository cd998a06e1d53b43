"""Both clients' live games against `spitlog serve` (gunicorn, gevent workers, the real
Redis): a game followed from the stream of views, reconnecting and resuming by
``Last-Event-ID`` after a dropped stream, a ``429``'s ``Retry-After`` waited out, actions
with keys made for them and ``If-Match``, the rules' refusal typed with its rule (RULES
Q-3) and a stale version typed (412), to the end (E-5)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))  # this checkout's client first

from spitlog_client.models import (  # noqa: E402
    CreateGame,
    CreateGameGame,
    SpeedReadyAction,
    SpeedResignAction,
    SpeedState,
)
from spitlog_sdk import LiveGame, Spitlog  # noqa: E402

TYPESCRIPT = ROOT / "clients" / "typescript"


@pytest.mark.timeout(300)
def test_the_typescript_live_game_plays_over_the_stream_of_views(served):
    if not (TYPESCRIPT / "dist" / "src" / "live.js").exists():
        pytest.fail("clients/typescript is not built: npm ci --prefix clients/typescript")
    r = subprocess.run(["node", str(ROOT / "tests/e2e/consumers/live_game.mjs"), served],
                       capture_output=True, text=True, timeout=240)  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["views"] and out["versions"][0] == 3
    assert out["versions"] == sorted(set(out["versions"]))  # each view once, in order
    # a 429 with Retry-After: 2 waited out, then the first stream dropped after its first
    # view and resumed from its id after the server's retry hint (2000 ms)
    assert out["slept"][:2] == [2000, 2000] and out["streams"][:3] == [None, None, "3"]
    assert out["refused"] == [True, 422, "Q-3"] and out["moved"] == [True, 412]
    assert len(set(out["keys"])) == len(out["keys"]) == 5  # a key made for each action
    assert out["ifMatch"][1] == '"4"' and out["ifMatch"][3] == '"1"'
    assert out["status"] == "finished" and out["result"] == "E-5"


@pytest.mark.timeout(300)
def test_the_python_live_game_plays_over_the_stream_of_views(served):
    with Spitlog(served) as api:
        created = api.create_game(CreateGame(game=CreateGameGame.SPEED))
        seated = api.join(created.id)
        assert created.token and seated.token
        me, other = api.seat(created.token), api.seat(seated.token)
        live, versions = LiveGame(other, created.id), []
        for view in live:
            versions.append(view.version)
            assert isinstance(view, SpeedState) and view.you == 1
            if view.version == 3:
                me.act(created.id, SpeedReadyAction())
            elif view.phase == "ready" and not view.players[1].ready:
                live.act(SpeedReadyAction(), expected_version=view.version)
            elif view.status == "running":
                live.act(SpeedResignAction())
        assert versions == sorted(set(versions)) and versions[0] == 3
        assert live.state is not None and live.state.status == "finished"
        assert live.state.to_dict() == other.get_game(created.id).to_dict()
