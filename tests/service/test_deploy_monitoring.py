"""deploy/: the Prometheus alert rules and scrape configuration are valid (promtool), the
alerts fire as their own tests say, every expression of the Grafana dashboard parses, and
every metric they name is one the service exports or one deploy/README.md says where to
get."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import fakeredis
import pytest
import yaml
from prometheus_client import REGISTRY

import workers.metrics  # noqa: F401 - the workers' and scheduler's metrics, in REGISTRY
from service.http.app import create_app
from tests.support.api import app_settings

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
KEYWORDS = {"by", "without", "and", "or", "unless", "on", "ignoring", "group_left",
            "group_right", "bool", "offset", "inf", "nan"}  # fmt: skip


@pytest.fixture(scope="module")
def promtool() -> str:
    exe = shutil.which("promtool")
    if exe is None:
        pytest.fail("promtool is not installed: .ci/run takes it from Debian's prometheus "
                    "package (apt-get download prometheus, then dpkg-deb -x)")  # fmt: skip
    return exe


def check(*args: str) -> str:
    r = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=DEPLOY)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def alert_rules() -> list[dict]:
    doc = yaml.safe_load((DEPLOY / "alerts.yml").read_text())
    return [rule for group in doc["groups"] for rule in group["rules"]]


def dashboard_exprs() -> list[str]:
    dash = json.loads((DEPLOY / "dashboard.json").read_text())
    return [t["expr"] for panel in dash["panels"] for t in panel["targets"]]


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression selects (not its functions, labels, keywords)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # strings
    text = re.sub(r"\{[^}]*\}|\[[^\]]*\]", " ", text)  # label matchers, ranges
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for m in re.finditer(r"\d[\w.]*|[a-zA-Z_:][a-zA-Z0-9_:]*", text):  # numbers, durations too
        follows = text[m.end() :].lstrip()[:1]
        if m[0].lower() not in KEYWORDS and follows != "(" and not m[0][0].isdigit():
            names.add(m[0])
    return names


def exported() -> set[str]:
    """Every sample name the API, the workers and the scheduler can export."""
    app = create_app(app_settings(), redis_client=fakeredis.FakeRedis())
    families = list(app.extensions["spitlog"].metrics.registry.collect())
    families += [f for f in REGISTRY.collect() if f.name.startswith("spitlog_")]
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count")}
    return {f.name + s for f in families for s in suffixes.get(f.type, ("",))}


def documented() -> set[str]:
    """The metrics deploy/README.md says come from elsewhere (its last table)."""
    text = (DEPLOY / "README.md").read_text().split("## Metrics from elsewhere", 1)[1]
    return set(re.findall(r"^\| `([a-z_:]+)` \|", text, re.M))


def test_metric_names_are_told_from_functions_labels_and_keywords():
    expr = ('histogram_quantile(0.99, sum by (le) (rate(a_b_bucket{task="x y"}[5m]))) > 0.03 '
            "or c / (d > 0) unless on (instance) e offset 5m")  # fmt: skip
    assert metric_names(expr) == {"a_b_bucket", "c", "d", "e"}


def test_the_alert_rules_are_valid_and_fire_as_their_tests_say(promtool):
    assert "SUCCESS: 8 rules found" in check(promtool, "check", "rules", "alerts.yml")
    check(promtool, "test", "rules", "alerts_test.yml")
    check(promtool, "check", "config", "prometheus.yml")
    rules = alert_rules()
    tested = yaml.safe_load((DEPLOY / "alerts_test.yml").read_text())
    fired = {a["alertname"] for t in tested["tests"] for a in t["alert_rule_test"]
             if a["exp_alerts"]}  # fmt: skip
    assert {"SpitlogGameStuckPastDeadline", "SpitlogHTTPErrors", "SpitlogRedisMemoryNearMax",
            "SpitlogArchiveFailedForGood"} <= fired  # fmt: skip
    table = (DEPLOY / "README.md").read_text()
    for rule in rules:
        assert f"| `{rule['alert']}` |" in table, f"{rule['alert']} is not in deploy/README.md"
        assert rule["annotations"]["summary"] and rule["labels"]["severity"]


def test_every_expression_of_the_dashboard_parses(promtool, tmp_path):
    exprs = dashboard_exprs()
    assert len(exprs) >= 10
    rules = {"groups": [{"name": "dashboard", "rules": [
        {"record": f"dashboard:expr_{i}", "expr": e} for i, e in enumerate(exprs)]}]}  # fmt: skip
    (tmp_path / "dashboard_rules.yml").write_text(yaml.safe_dump(rules))
    out = check(promtool, "check", "rules", str(tmp_path / "dashboard_rules.yml"))
    assert f"SUCCESS: {len(exprs)} rules found" in out


def test_every_metric_the_rules_and_the_dashboard_name_is_exported_or_documented():
    known, elsewhere = exported(), documented()
    assert {"spitlog_http_requests_total", "spitlog_worker_lag_seconds_bucket",
            "spitlog_deadline_overdue_seconds", "spitlog_games_live"} <= known  # fmt: skip
    assert "redis_memory_used_bytes" in elsewhere
    exprs = [r["expr"] for r in alert_rules()] + dashboard_exprs()
    named = set().union(*map(metric_names, exprs))
    assert named - known - elsewhere == set()
    assert elsewhere <= named, "deploy/README.md lists metrics nothing uses"
