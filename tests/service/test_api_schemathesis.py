"""schemathesis against openapi.yaml with every check it has (``--checks all``), sent over
HTTP to ``spitlog serve`` (gunicorn) on the session's real redis-server: every operation,
a bounded number of generated requests each (SPITLOG_SCHEMATHESIS_EXAMPLES, default 25;
the same ones every run unless SPITLOG_FUZZ_LONG=1), on a game that exists with a seat's
token. No 5xx, every answer as documented (status, content type, schema, headers), and
the spec is what the server takes: a request the spec allows is not refused as malformed
(``positive_data_acceptance``), one it does not allow is refused
(``negative_data_rejection``).

A request the spec allows may still be refused by the state of the game, as documented
and never as malformed: an action illegal now (422 with its rule), against another
version (412), or after the end (409), and an ``Idempotency-Key`` sent again with another
body (422). Those statuses are what ``positive_data_acceptance`` expects of those
operations besides its own defaults; a 400 is never among them.

Three rules of the spec are named by a ``format`` because a schema cannot say them, and
are generated here as the server takes them: ``idempotency-key``
(``idempotency.KEY_RULE``), ``display-name`` (``schemas.PRINTABLE_RULE``) and
``webhook-url`` (an https URL whose host resolves to public addresses: here public IPv4
addresses, which resolve to themselves with no DNS).
"""

import ipaddress
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig

import domain
from service import idempotency
from tests.support import profiles
from tests.support.api import bearer
from tests.support.processes import free_port, stop, wait_ready

pytestmark = pytest.mark.slow  # about 45 s: a served app, every operation
ROOT = Path(__file__).resolve().parents[2]
GAME_ID = re.compile(r"g_[0-9a-f]{16}")
EXAMPLES = profiles.SCHEMATHESIS_EXAMPLES
LONG = profiles.FUZZ_LONG  # random examples; else the same every run

# positive_data_acceptance's defaults, and what the state of a game may answer a request
# the spec allows (see the module's doc)
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
STATEFUL = {"act": ["412", "422"], "create_game": ["422"], "join_game": ["422"]}
# negative_data_rejection's defaults, and 414: a request line over the server's limit
# (a string parameter longer than its maxLength may make one) is refused before it is read
REJECTED = ["400", "401", "403", "404", "405", "406", "409", "414", "415", "422", "428", "429",
            "5xx"]  # fmt: skip
CONFIG = SchemathesisConfig.from_dict({
    "checks": {"negative_data_rejection": {"expected-statuses": REJECTED}},
    "operations": [
        {"include-operation-id": op,
         "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED + extra}}}
        for op, extra in STATEFUL.items()
    ] + [
        # a WebSocket's handshake, not an HTTP exchange (asyncapi.yaml): its HTTP refusals
        # (426, 501, 400, 404) are tests/service/test_live_routes.py's
        {"include-operation-id": "live", "enabled": False},
    ],
})  # fmt: skip

schemathesis.openapi.format(
    "idempotency-key",
    st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=16, max_size=64).filter(
        lambda key: idempotency.key_refusal(key) is None
    ),
)


def _public(ip: ipaddress.IPv4Address) -> bool:
    return ip.is_global and not ip.is_multicast


schemathesis.openapi.format(
    "webhook-url",
    st.builds(
        lambda ip, path: f"https://{ip}/{path}",
        st.ip_addresses(v=4).filter(_public),
        st.text(st.characters(codec="ascii", categories=["L", "N"]), max_size=20),
    ),
)

schemathesis.openapi.format(
    "display-name",
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=64).filter(
        lambda name: name.isprintable() and name == name.strip()
    ),
)

schema = schemathesis.openapi.from_path(str(ROOT / "openapi.yaml"), config=CONFIG)
CASES: dict[str, set[str]] = defaultdict(set)  # operation -> the modes of the cases sent


# one parameter, the server's command: its ID gives each operation's test a node ID of its
# own (under pytest 9 schemathesis's otherwise share their function's), which pytest-xdist
# schedules by
@pytest.fixture(scope="module", params=["serve"])
def served(redis_url):
    """``spitlog serve`` on the real Redis, limits off, streams and long polls ending at
    once: (its base URL, {game kind: (a game of it there, seat 0's token)})."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPITLOG_REDIS_URL": redis_url,
           "SPITLOG_BIND": f"127.0.0.1:{port}", "SPITLOG_WORKERS": "2",
           "SPITLOG_SSE_MAX_S": "0.05", "SPITLOG_LONGPOLL_MAX_S": "0.05",
           "SPITLOG_RATE_REQUESTS": "0", "SPITLOG_RATE_ACTIONS": "0",
           "SPITLOG_RATE_GAMES": "0", "SPITLOG_RATE_SEAT": "0", "SPITLOG_RATE_SEAT_RESERVE": "0",
           "SPITLOG_RATE_AUTH_FAILURES": "0", "SPITLOG_STREAMS_PER_CLIENT": "0",
           "SPITLOG_STREAMS_PER_ADDRESS": "0"}  # fmt: skip
    with tempfile.TemporaryFile("w+") as out:  # its log, however long (a pipe would fill)
        proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve"], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(base, proc)
            games = {}
            for kind in ("spit", "speed"):
                r = requests.post(f"{base}/v1/games", json={"game": kind}, timeout=10)
                assert r.status_code == 201, r.text
                game = r.json()
                r = requests.post(f"{base}/v1/games/{game['id']}/seats", json={}, timeout=10)
                assert r.status_code == 201, r.text
                games[kind] = (game["id"], game["token"])
            yield base, games
        finally:
            stop(proc)
            out.seek(0)
            tail = out.read()[-4000:]
        assert "Traceback" not in tail, tail


def _kind(body) -> str:
    """The game an action is sent to: one whose kind it is (the spec's ``Action`` is either
    game's, and an action of the other game is malformed in a game), spit by default."""
    if isinstance(body, dict) and "type" in body:
        for kind in ("spit", "speed"):
            try:
                domain.parse_action(kind, body)
            except domain.MalformedAction:
                continue
            return kind
    return "spit"


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=not LONG)  # fmt: skip
def test_every_operation_answers_as_documented(case, served):
    base, games = served
    game, token = games[_kind(case.body)]
    path = case.path_parameters or {}
    if GAME_ID.fullmatch(str(path.get("game_id", ""))):  # a well-formed id: make it the game's
        path["game_id"] = game
    mode = case.meta.generation.mode.value if case.meta else "explicit"
    CASES[case.operation.label].add(mode)
    case.call_and_validate(base_url=base, headers=bearer(token), timeout=30)


def test_the_cases_were_both_kinds():
    """The run above sent, for every operation, requests the spec allows, and for those
    with a body or parameters, requests it does not (so both acceptance checks ran)."""
    assert CASES, "the schemathesis test sent nothing"
    ops = {op.label: op for op in (r.ok() for r in schema.get_all_operations())}
    assert set(ops) == set(CASES)
    for label, modes in CASES.items():
        assert "positive" in modes, label
    negative = {label for label, modes in CASES.items() if "negative" in modes}
    for label in ("POST /v1/games", "POST /v1/games/{game_id}/actions",
                  "POST /v1/games/{game_id}/seats"):  # fmt: skip
        assert label in negative, label
