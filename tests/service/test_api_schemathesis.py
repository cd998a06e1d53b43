"""schemathesis against openapi.yaml: every operation, a bounded number of generated
requests each (SPITLOG_SCHEMATHESIS_EXAMPLES, default 25; the same ones every run unless
SPITLOG_FUZZ_LONG=1), sent in-process to an app on
fakeredis, on a game that exists with a seat's token: no 5xx, and every answer conforms
to the documented responses (status, content type, schema, headers)."""

import re
from pathlib import Path

import fakeredis
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from service.http.app import create_app
from tests.support import profiles
from tests.support.api import app_settings, bearer, new_game

ROOT = Path(__file__).resolve().parents[2]
GAME_ID = re.compile(r"g_[0-9a-f]{16}")
EXAMPLES = profiles.SCHEMATHESIS_EXAMPLES
LONG = profiles.FUZZ_LONG  # random examples; else the same every run

APP = create_app(
    app_settings(sse_max_s=0.05, longpoll_max_s=0.05),
    redis_client=fakeredis.FakeRedis(server=fakeredis.FakeServer()),
)
GAME, TOKEN, _ = new_game(APP.test_client())

schema = schemathesis.openapi.from_path(str(ROOT / "openapi.yaml"))
schema.app = APP  # every request, probes included, goes to the app in-process


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=not LONG)  # fmt: skip
def test_every_operation_answers_as_documented(case):
    path = case.path_parameters or {}
    if GAME_ID.fullmatch(str(path.get("game_id", ""))):  # a well-formed id: make it the game's
        path["game_id"] = GAME
    # Not "a schema-valid request is accepted": in a game, a well-formed action is often
    # illegal now (422), and an option of the other game is a 400 (RULES V-*).
    case.call_and_validate(headers=bearer(TOKEN), excluded_checks=[positive_data_acceptance])
