"""Lighthouse (npm ``lighthouse``, tests/e2e/node_modules, on Debian's chromium) audits the
page as `spitlog serve` serves it: the home page and a game page (a running game against
a hosted bot, as its spectator sees it), accessibility 100 and best practices 95 or more.
"""

import json
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "tests" / "e2e" / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(), reason="needs Debian's chromium (apt-get install chromium)"
    ),
]


def audit(url: str, out: Path) -> dict:
    """Lighthouse's report of ``url`` (accessibility and best practices only)."""
    assert CLI.exists(), "lighthouse is missing: npm ci --prefix tests/e2e --ignore-scripts"
    flags = "--headless=new --no-sandbox --disable-gpu --no-first-run"
    run = subprocess.run(
        ["node", str(CLI), url, "--only-categories=accessibility,best-practices",
         f"--chrome-flags={flags}", "--output=json", f"--output-path={out}", "--quiet",
         "--max-wait-for-load=60000"],
        env={"CHROME_PATH": CHROMIUM, "PATH": os.environ.get("PATH", ""),
             "HOME": str(out.parent)},
        capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(out.read_text())


def failed(report: dict) -> list[str]:
    """The audits that did not pass, by ID and title."""
    return [f"{a['id']}: {a['title']}" for a in report["audits"].values()
            if a.get("score") is not None and a["score"] < 1
            and a.get("scoreDisplayMode") in ("binary", "numeric")]  # fmt: skip


@pytest.mark.timeout(600)
def test_lighthouse_scores_the_home_page_and_a_game_page(served, tmp_path):
    made = requests.post(
        f"{served}/v1/games", json={"game": "spit", "opponent": "bot:easy"},
        headers={"Idempotency-Key": str(uuid.uuid4())}, timeout=30,
    )  # fmt: skip
    assert made.status_code == 201, made.text
    pages = {"home": f"{served}/", "game": f"{served}/#/watch/{made.json()['id']}"}
    for name, url in pages.items():
        report = audit(url, tmp_path / f"{name}.json")
        scores = {k: c["score"] for k, c in report["categories"].items()}
        assert scores["accessibility"] == 1, (name, scores, failed(report))
        assert scores["best-practices"] >= 0.95, (name, scores, failed(report))
