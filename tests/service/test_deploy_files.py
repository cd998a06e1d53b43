"""The files beside the code agree with it: openapi.yaml, docker-compose.yml, the
Dockerfile and its .dockerignore, the CLI. (tests/e2e/test_compose_processes.py runs
docker-compose.yml's services as processes.)"""

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
from tests.support.deploy_files import compose, copies, dockerfile, image_services

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
    # the API's, the workers' and the scheduler's health checks are commands the CLI has
    for name in ("api", "worker", "scheduler"):
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


IMAGE_LOCK = "requirements-image.lock"


def test_the_image_is_built_in_two_stages_and_installs_its_wheel_on_the_lock():
    """A first stage builds the wheel; the image's stage installs the lock, every package
    with its hashes, then that wheel alone (no resolution, nothing unpinned)."""
    stages = dockerfile()
    assert len(stages) >= 2
    build, image = stages[0], stages[-1]
    assert build.alias and image.alias != build.alias
    assert any(r[:2] == ["pip", "wheel"] and "--no-deps" in r for r in build.runs())
    from_build = [dest for source, _s, dest in copies(image) if source is not None]
    assert {source for source, _s, _d in copies(image) if source} == {build.alias}
    lock_at = [dest for source, names, dest in copies(image) if source is None
               and names == [IMAGE_LOCK]]  # fmt: skip
    installs = [r for r in image.runs() if r[:2] == ["pip", "install"]]
    assert len(installs) == 2, installs
    lock, wheel = installs
    assert "--require-hashes" in lock and lock[lock.index("-r") + 1] in lock_at, lock
    assert "--no-deps" in wheel and wheel[-1].endswith(".whl"), wheel
    assert any(wheel[-1].startswith(dest.rstrip("/") + "/") for dest in from_build), wheel


def test_the_image_runs_as_a_user_of_its_own_that_cannot_write_beside_the_code():
    """USER is a uid of its own (not root, not nobody), made by the Dockerfile; the home
    and working directory are not that user's; each volume of the image's services in
    docker-compose.yml is a directory the user owns; the image's HEALTHCHECK is `spitlog
    health api`."""
    image = dockerfile()[-1]
    uid, _, gid = image.last("USER").partition(":")
    assert uid.isdigit() and int(uid) not in (0, 65534), uid
    runs = image.runs()
    (useradd,) = [r for r in runs if r[0] == "useradd"]
    assert useradd[useradd.index("--uid") + 1] == uid
    user = useradd[-1]
    (groupadd,) = [r for r in runs if r[0] == "groupadd"]
    assert groupadd[groupadd.index("--gid") + 1] == (gid or uid)

    def owned_by_user(path: str) -> bool:
        for r in runs:
            if r[0] == "chown" and path in r and any(w.split(":")[0] in (user, uid) for w in r):
                return True
            if r[0] == "install" and path in r and r[r.index("-o") + 1] in (user, uid):
                return True
        return False

    home, workdir = image.env()["HOME"], image.last("WORKDIR")
    assert not owned_by_user(home) and not owned_by_user(workdir)
    spec = compose()
    targets = {v.split(":")[1] for s in image_services(spec).values() for v in s.get("volumes", [])}
    assert targets and all(owned_by_user(t) for t in targets), targets
    assert image.env()["SPITLOG_ARCHIVE_URL"] in targets  # the image alone: a writable archive
    _options, command = image.healthcheck()
    assert command == ["spitlog", "health", "api"]
    assert main([*command[1:], "--help"]) == 0


def test_the_build_context_holds_what_the_dockerfile_copies_and_nothing_else():
    rules = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
             if line.strip() and not line.startswith("#")]  # fmt: skip
    assert rules[0] == "*", "the context is a list of what goes in"
    kept = {r[1:].rstrip("/") for r in rules if r.startswith("!")}
    copied = {name.rstrip("/") for stage in dockerfile() for source, names, _d in copies(stage)
              if source is None for name in names}  # fmt: skip
    assert kept == copied, (kept, copied)
    assert all((ROOT / name).exists() for name in kept)


def test_compose_archives_to_one_store_that_the_api_and_the_workers_share():
    """Every service of the image archives to the same place: by default the bucket of
    the s3 service (SeaweedFS, the same keys), which init-archive makes before the API and
    the workers start; with SPITLOG_ARCHIVE_URL naming the `archive` volume's directory,
    that directory, which each of them mounts. Each runs read-only but for /tmp."""
    spec = compose()
    services = image_services(spec)
    assert {"archive-init", "api", "worker", "scheduler"} <= set(services)
    env = {name: s["environment"] for name, s in services.items()}
    assert {e["SPITLOG_ARCHIVE_URL"] for e in env.values()} == {"s3://spitlog/archive"}
    assert {e["SPITLOG_S3_ENDPOINT_URL"] for e in env.values()} == {"http://s3:8333"}
    s3 = spec["services"]["s3"]
    assert "-s3" in s3["command"] and "healthcheck" in s3
    for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        assert {e[key] for e in env.values()} == {s3["environment"][key]}
    init = services["archive-init"]
    assert init["command"][:3] == ["spitlog", "admin", "init-archive"]
    assert init["depends_on"]["s3"]["condition"] == "service_healthy"
    assert init.get("restart") == "no"  # a one-shot
    for name in ("api", "worker", "scheduler"):
        after = services[name]["depends_on"]
        assert after["archive-init"]["condition"] == "service_completed_successfully"
        assert after["redis"]["condition"] == "service_healthy"
    for name, s in services.items():
        assert s.get("read_only") is True and "/tmp" in s.get("tmpfs", []), name
    mounts = {name: {v.split(":")[1] for v in s["volumes"] if v.startswith("archive:")}
              for name, s in services.items()}  # fmt: skip
    (target,) = set.union(*mounts.values())
    assert all(m == {target} for m in mounts.values()), mounts
    in_dir = image_services(compose({"SPITLOG_ARCHIVE_URL": target}))
    assert {s["environment"]["SPITLOG_ARCHIVE_URL"] for s in in_dir.values()} == {target}
    assert "archive" in spec["volumes"] and "s3-data" in spec["volumes"]
