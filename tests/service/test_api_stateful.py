"""schemathesis, stateful: sequences of calls over every operation, chained by
the OpenAPI links of ``openapi.yaml`` (service/links.py: create a game -> read, join,
act in, watch, audit that game; join and act -> the same again), in-process against
an app on fakeredis. Each scenario's requests carry the token the scenario was given
for the game (create and join answer it). Checks: never a 5xx, every answer as
documented (status, content type, schema, headers), the stateful checks of
schemathesis (e.g. a created resource is there). A bounded number of scenarios and
steps in CI; ``SPITLOG_FUZZ_LONG=1`` for a long run."""

from pathlib import Path

import fakeredis
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from service.http.app import create_app
from tests.support import profiles
from tests.support.api import app_settings

ROOT = Path(__file__).resolve().parents[2]
LONG = profiles.FUZZ_LONG

REDIS = fakeredis.FakeRedis(server=fakeredis.FakeServer())
APP = create_app(app_settings(sse_max_s=0.05, longpoll_max_s=0.05), redis_client=REDIS)
schema = schemathesis.openapi.from_path(str(ROOT / "openapi.yaml"))
schema.app = APP
TOKENS: dict[str, str] = {}  # game id -> the last token handed out for it
SEEN: dict[str, int] = {}  # "METHOD path -> status": how often (the scenarios' reach)


class Workflow(schema.as_state_machine()):
    def setup(self):
        # Every scenario starts from an empty store, so that hypothesis can replay and
        # shrink one (what a scenario may do depends on the answers it gets).
        REDIS.flushall()
        services = APP.extensions["spitlog"]
        services.reading.cache.clear()
        services.audits.clear()
        TOKENS.clear()

    def before_call(self, case):
        token = TOKENS.get(str((case.path_parameters or {}).get("game_id")))
        if token is not None:  # in place of a generated one (test_api_auth.py tries those)
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}

    def after_call(self, response, case):
        super().after_call(response, case)
        key = f"{case.method} {case.path} -> {response.status_code}"
        SEEN[key] = SEEN.get(key, 0) + 1
        if response.status_code == 201 and case.path in ("/v1/games", "/v1/games/{game_id}/seats"):
            body = response.json()
            gid = body.get("id") or body["state"]["id"]
            if body.get("token"):
                TOKENS[gid] = body["token"]

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        # As in test_api_schemathesis.py: in a game, a well-formed action is often illegal
        # now (422), so "schema-valid requests are accepted" does not hold. And the token
        # put in by before_call is a real one, which "ignored auth" takes for generated
        # garbage (test_api_auth.py tries wrong tokens).
        case.validate_response(
            response, additional_checks=additional_checks,
            excluded_checks=[positive_data_acceptance, ignored_auth], recorder=self.recorder,
            transport_kwargs=kwargs or None,
        )  # fmt: skip


TestStateful = Workflow.TestCase
TestStateful.settings = settings(
    max_examples=400 if LONG else 60,
    stateful_step_count=30 if LONG else 10,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=not LONG,
)


def test_the_scenarios_reached_every_game_operation():
    """Run after the state machine (pytest keeps the file's order): the links took the
    scenarios past creation, into games that exist."""
    if not SEEN:
        import pytest

        pytest.skip("run with TestStateful")
    reached = {k.rsplit(" -> ", 1)[0] for k, n in SEEN.items() if not k.endswith("404")}
    for op in ("POST /v1/games", "GET /v1/games/{game_id}", "POST /v1/games/{game_id}/actions",
               "POST /v1/games/{game_id}/seats", "GET /v1/games/{game_id}/events"):  # fmt: skip
        assert op in reached, sorted(SEEN)
    print("\n".join(f"{n:5d}  {k}" for k, n in sorted(SEEN.items())))  # with -s: the reach
