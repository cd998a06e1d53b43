"""The files beside the code agree with it: openapi.yaml, docker-compose.yml, the CLI."""

import importlib.metadata
import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

from service.cli import main
from service.config import SERVICE, WORKERS, Settings, env_name, table
from service.http.app import spec_yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_SPEC = ROOT.parent / "shared" / "schemas" / "compose-spec.json"


def test_openapi_yaml_is_what_the_code_serves(app, client):
    """Fails when a schema or a route changed without `spitlog openapi`."""
    on_disk = (ROOT / "openapi.yaml").read_text()
    assert spec_yaml(app) == on_disk, "openapi.yaml is stale: run `spitlog openapi`"
    r = client.get("/openapi.yaml")
    assert r.status_code == 200 and r.mimetype == "application/yaml"
    assert r.get_data(as_text=True) == on_disk


def test_the_spec_names_every_operation_and_has_the_package_version():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    installed = importlib.metadata.version("spitlog")
    assert spec["info"]["version"] == version == installed, "pip install -e . again"
    ids = [op.get("operationId") for item in spec["paths"].values() for op in item.values()
           if isinstance(op, dict) and "responses" in op]  # fmt: skip
    assert len(ids) >= 14 and len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z][a-z_]*", i or "") for i in ids), ids


def test_the_openapi_command_writes_and_checks_the_file(tmp_path, capsys):
    out = tmp_path / "openapi.yaml"
    assert main(["openapi", "-o", str(out)]) == 0
    assert out.read_text() == (ROOT / "openapi.yaml").read_text()
    assert main(["openapi", "--check", "-o", str(out)]) == 0
    out.write_text(out.read_text() + "# edited\n")
    assert main(["openapi", "--check", "-o", str(out)]) == 1


def test_docker_compose_is_valid_against_the_compose_spec():
    if not COMPOSE_SPEC.exists():
        pytest.skip(f"no {COMPOSE_SPEC} (the shared/ folder beside the repository)")
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    jsonschema.Draft7Validator(json.loads(COMPOSE_SPEC.read_text())).validate(compose)
    redis_cmd = " ".join(compose["services"]["redis"]["command"])
    assert "--appendonly yes" in redis_cmd and "--maxmemory-policy noeviction" in redis_cmd
    services = compose["services"]
    assert {"redis", "api", "worker", "scheduler"} <= set(services)
    assert "serve" in services["api"]["command"]
    for name in ("api", "worker", "scheduler"):
        assert "healthcheck" in services[name], f"{name} has no health check"
    # the workers' and the scheduler's health checks are commands the CLI has
    for name in ("worker", "scheduler"):
        test = services[name]["healthcheck"]["test"]
        assert test == ["CMD", "spitlog", "health", name], test
        assert main(["health", name, "--help"]) == 0


def test_prometheus_scrapes_the_apis_metrics_listener_which_compose_does_not_publish():
    """The API's metrics are on ``SPITLOG_METRICS_BIND``'s port, not on its public 8000:
    compose sets it on the api service without publishing it, and prometheus.yml's
    spitlog-api job scrapes that port."""
    from service.config import load, tcp_port

    api = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["api"]
    env = api["environment"]
    port = tcp_port(env["SPITLOG_METRICS_BIND"])
    s = load(warn=None, bind=env["SPITLOG_BIND"], metrics_bind=env["SPITLOG_METRICS_BIND"])
    assert port is not None and port != tcp_port(s.bind)
    assert [p.split(":")[-1] for p in api["ports"]] == [str(tcp_port(s.bind))]
    prometheus = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    (job,) = [j for j in prometheus["scrape_configs"] if j["job_name"] == "spitlog-api"]
    assert [t for c in job["static_configs"] for t in c["targets"]] == [f"api:{port}"]


def test_every_setting_is_documented_in_the_readme_as_the_code_has_it():
    readme = (ROOT / "README.md").read_text()
    assert set(SERVICE) | set(WORKERS) == set(Settings.model_fields)
    for names in (SERVICE, WORKERS):
        assert table(names) in readme, "README.md's table differs from service/config.py:\n" + (
            table(names)
        )
    for field in Settings.model_fields:
        assert env_name(field) in readme
