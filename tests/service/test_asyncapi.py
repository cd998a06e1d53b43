"""The AsyncAPI document of the live path: asyncapi.yaml is what the code makes (``spitlog
asyncapi``), the server answers it at /asyncapi.yaml and /docs links it, it is made from
the same schemas as openapi.yaml, and @asyncapi/parser (npm) finds it valid."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from service.cli.main import main
from service.http import asyncapi, channel

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "tests" / "e2e"


def test_the_committed_asyncapi_yaml_is_the_codes_document(tmp_path):
    assert (ROOT / "asyncapi.yaml").read_text() == asyncapi.to_yaml(asyncapi.build())
    out = tmp_path / "a.yaml"
    assert main(["asyncapi", "-o", str(out)]) == 0
    assert out.read_text() == (ROOT / "asyncapi.yaml").read_text()
    out.write_text(out.read_text() + "# changed\n")
    assert main(["asyncapi", "-o", str(out), "--check"]) == 1


def test_the_server_answers_it_beside_the_docs(client):
    r = client.get("/asyncapi.yaml")
    assert r.status_code == 200 and r.mimetype == "application/yaml"
    assert r.get_data(as_text=True) == (ROOT / "asyncapi.yaml").read_text()
    assert 'href="/asyncapi.yaml"' in client.get("/docs").get_data(as_text=True)


def test_its_schemas_are_openapi_yamls_and_every_close_code_is_documented():
    doc = yaml.safe_load((ROOT / "asyncapi.yaml").read_text())
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    ours, theirs = doc["components"]["schemas"], spec["components"]["schemas"]
    for name in ("Acted", "Problem", "Ticket"):
        assert ours[name]["properties"].keys() == theirs[name]["properties"].keys()
    assert ours["State"]["oneOf"] == theirs["State"]["oneOf"]
    assert set(doc["channels"]["live"]["messages"]) == {
        "act", "ping", "hello", "events", "result", "problem", "pong"}  # fmt: skip
    for code in channel.CLOSE_CODES:
        assert f"`{code}`" in doc["info"]["description"]
    assert doc["operations"]["act"]["action"] == "receive"
    assert doc["operations"]["hello"]["action"] == "send"


@pytest.mark.slow  # a Node.js process, and tests/e2e's npm packages
def test_asyncapi_parser_finds_it_valid():
    """@asyncapi/parser, from tests/e2e's package lock (``npm ci --prefix tests/e2e``)."""
    if shutil.which("node") is None or not (E2E / "node_modules" / "@asyncapi").exists():
        pytest.fail("run: npm ci --prefix tests/e2e --ignore-scripts (.ci/run does)")
    run = subprocess.run(["node", str(E2E / "validate_asyncapi.mjs"), str(ROOT / "asyncapi.yaml")],
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    report = json.loads(run.stdout)
    errors = [d for d in report["diagnostics"] if d["severity"] == 0]
    assert run.returncode == 0 and report["parsed"] and not errors, errors[:5]
    # the parser can fail: a document with a dangling reference is refused
    broken = yaml.safe_load((ROOT / "asyncapi.yaml").read_text())
    broken["components"]["messages"]["act"]["payload"] = {"$ref": "#/components/schemas/Nope"}
    bad = subprocess.run(["node", str(E2E / "validate_asyncapi.mjs"), "/dev/stdin"],
                         input=yaml.safe_dump(broken), capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert bad.returncode == 1
