"""schemathesis against openapi.yaml: every operation, a bounded number of generated
requests each (SPITLOG_SCHEMATHESIS_EXAMPLES, default 25; the same ones every run unless
SPITLOG_FUZZ_LONG=1), sent in-process to an app on fakeredis, on a game that exists with
a seat's token, with every check schemathesis has (``--checks all``): no 5xx, every
answer as documented (status, content type, schema, headers), and the spec is what the
server takes: a request the spec allows is not refused as malformed
(``positive_data_acceptance``), one it does not allow is refused
(``negative_data_rejection``).

A request the spec allows may still be refused by the state of the game, as documented
and never as malformed: an action illegal now (422 with its rule), against another
version (412), or after the end (409), and an ``Idempotency-Key`` sent again with another
body (422). Those statuses are what ``positive_data_acceptance`` expects of those
operations besides its own defaults; a 400 is never among them.
"""

import re
from pathlib import Path

import fakeredis
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig

from service import idempotency
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

# positive_data_acceptance's defaults, and what the state of a game may answer a request
# the spec allows (see the module's doc)
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
STATEFUL = {"act": ["412", "422"], "create_game": ["422"], "join_game": ["422"]}
CONFIG = SchemathesisConfig.from_dict({
    "operations": [
        {"include-operation-id": op,
         "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED + extra}}}
        for op, extra in STATEFUL.items()
    ],
})  # fmt: skip

# ``format: idempotency-key`` (a create's or a join's key): idempotency.KEY_RULE, which a
# pattern cannot say; keys of the header's characters, as many as it takes
schemathesis.openapi.format(
    "idempotency-key",
    st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=16, max_size=64)
    .filter(lambda key: idempotency.key_refusal(key) is None),
)

schema = schemathesis.openapi.from_path(str(ROOT / "openapi.yaml"), config=CONFIG)
schema.app = APP  # every request, probes included, goes to the app in-process
CASES: list[str] = []  # each case sent: "<method> <path> <mode>", to count them


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=not LONG)  # fmt: skip
def test_every_operation_answers_as_documented(case):
    path = case.path_parameters or {}
    if GAME_ID.fullmatch(str(path.get("game_id", ""))):  # a well-formed id: make it the game's
        path["game_id"] = GAME
    mode = case.meta.generation.mode.value if case.meta else "explicit"
    CASES.append(f"{case.method} {case.operation.path} {mode}")
    case.call_and_validate(headers=bearer(TOKEN))
