"""Issue 7: the web page in a real browser (Debian's chromium driven by Playwright),
against the real process tree of `spitlog dev` (API, worker, scheduler, embedded Redis).

A whole Speed game against the random bot is played by clicking (and a few keys) to
its end (Speed: a real-time Spit game through the page takes minutes on a loaded
2-core machine; the same page code draws and plays Spit, see docs/screenshots/),
then its replay is stepped through and the audit's verdict read. Screenshots
go to test-artifacts/ (kept by CI as the run's artefacts); with SPITLOG_SCREENSHOTS_DIR
set they are also written there (docs/screenshots/ holds the ones in the issue note).
"""

import os
import shutil
import time
from pathlib import Path

import pytest

from tests.support.processes import ROOT, free_port, start, stop, wait_ready

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium (apt-get install chromium)"
)
ARTIFACTS = ROOT / "test-artifacts"
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture(scope="module")
def dev_server():
    port = free_port()
    proc = start(["dev", "--bind", f"127.0.0.1:{port}"], {"SPITLOG_REDIS_URL": ""})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc, timeout=60)
    except RuntimeError:
        pytest.fail(stop(proc))
    yield base
    stop(proc)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    extra = os.environ.get("SPITLOG_SCREENSHOTS_DIR")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(extra) / f"{name}.png"), full_page=True)


@pytest.mark.timeout(600)
def test_a_whole_game_against_the_random_bot_by_clicking_then_its_replay(dev_server, browser):
    page = browser.new_page(viewport={"width": 900, "height": 900})
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(dev_server + "/")
    page.select_option("select[name=game]", "speed")
    page.select_option("select[name=opponent]", "bot:random")
    page.click("#create")
    page.wait_for_selector("[data-testid=phase]")
    page.wait_for_selector("[data-testid=btn-ready]")
    page.keyboard.press("r")  # keyboard play: r is ready
    end = time.monotonic() + 540
    clicks = 0
    mid_shot = False
    while time.monotonic() < end:
        phase = (
            page.inner_text("[data-testid=phase]")
            if page.query_selector("[data-testid=phase]")
            else ""
        )
        if page.query_selector("[data-testid=slider]") or phase in ("You won!", "You lost", "Draw"):
            break
        if not mid_shot and clicks >= 8 and page.query_selector("[data-testid=seat-0] .card"):
            shot(page, "game-in-progress")
            mid_shot = True
        button = page.query_selector(
            "[data-testid=btn-ready], [data-testid=btn-spit], [data-testid=btn-draw]"
        )
        target = page.query_selector(".card.target")
        mine = page.query_selector("[data-testid=seat-0] .card.legal")
        try:
            if button:
                button.click(timeout=2000)
            elif target:
                target.click(timeout=2000)
            elif mine:
                mine.click(timeout=2000)
                t = page.wait_for_selector(".card.target", timeout=400)
                t.click(timeout=2000)
            else:
                page.wait_for_timeout(100)
                continue
            clicks += 1
        except playwright.Error:  # the table was redrawn under the click: look again
            continue
    else:
        shot(page, "timed-out")
        pytest.fail(f"the game did not end in time after {clicks} clicks")
    assert clicks > 10
    # The finished game turns into its replay: a slider over every version.
    slider = page.wait_for_selector("[data-testid=slider]", timeout=15000)
    verdict = page.inner_text("[data-testid=verdict]")
    assert "verified" in verdict, verdict
    last = int(slider.get_attribute("max"))
    page.wait_for_function(
        "n => document.querySelector('[data-testid=replay-version]').textContent.includes(n)",
        arg=f"version {last} / {last}",
    )
    for _ in range(3):
        page.click("[data-testid=step-back]")
    page.wait_for_function(
        "n => document.querySelector('[data-testid=replay-version]').textContent.includes(n)",
        arg=f"version {last - 3} / {last}",
    )
    slider.fill(str(last // 2))
    page.wait_for_function(
        "n => document.querySelector('[data-testid=replay-version]').textContent.includes(n)",
        arg=f"version {last // 2} / {last}",
    )
    shot(page, "replay")
    assert problems == [], problems
