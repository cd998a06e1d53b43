"""From a click on a card to the card on its pile, in the page, with network delay added:
the page drawing a play ahead of the server's answer (its default) against the page waiting
for the answer (``localStorage["spitlog.predict"] = "off"``), side by side in one run.

    PYTHONPATH=. python bench/page_latency.py                  # 150 ms added, 12 plays each
    PYTHONPATH=. python bench/page_latency.py --latency 300 --plays 20

`spitlog dev` (embedded Redis) and Debian's chromium through Playwright (headless). Each
mode plays its own Spit game against a second seat taken through the API that never moves,
so that the page's cards are the only ones played. The DevTools protocol adds the delay to
every request of the page (``Network.emulateNetworkConditions``). A play is timed in the
page by its own clock (``performance.now``): from the click to the animation frame after
the pile shows the card. The figures are printed: min / median / max in ms.
"""

import argparse
import shutil
import statistics
import sys
from pathlib import Path

import requests
from playwright.sync_api import TimeoutError as BrowserTimeout
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.processes import free_port, start, stop, wait_ready  # noqa: E402

# In the page: clicks the card and resolves with the ms until the frame after pile `k`
# shows it (a MutationObserver on the game's part of the page).
TIME_ONE_PLAY = """async ([testid, k]) => {
  const el = document.querySelector(`[data-testid=${testid}]`);
  const card = el.dataset.card;
  const t0 = performance.now();
  const there = () => document.querySelector(`[data-testid=pile-${k}]`)?.dataset.card === card;
  await new Promise((done) => {
    const obs = new MutationObserver(() => there() && (obs.disconnect(), done()));
    obs.observe(document.getElementById("app"), {subtree: true, childList: true, attributes: true});
    el.click();
    if (there()) { obs.disconnect(); done(); }
  });
  await new Promise((done) => requestAnimationFrame(() => done()));
  return performance.now() - t0;
}"""
ONE_PILE = "[data-testid=table] .area-me .card[aria-label*='plays on pile']:not([aria-disabled=true])"
BUTTON = "[data-testid^=btn-]:not([aria-disabled=true])"
TURN_UP = "[data-testid=table] .area-me .card[aria-label*='turn it up']:not([aria-disabled=true])"


def _game(base: str) -> tuple[str, dict, dict]:
    """A Spit game of two seats taken through the API, both ready: (id, page's seat, other's)."""
    made = requests.post(f"{base}/v1/games", json={"game": "spit"}, timeout=5).json()
    other = requests.post(f"{base}/v1/games/{made['id']}/seats", json={}, timeout=5).json()
    for token in (made["token"], other["token"]):
        r = requests.post(f"{base}/v1/games/{made['id']}/actions", json={"type": "ready"},
                          headers={"Authorization": f"Bearer {token}"}, timeout=5)  # fmt: skip
        r.raise_for_status()
    return made["id"], made, other


def _other_moves(base: str, gid: str, token: str) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    view = requests.get(f"{base}/v1/games/{gid}", headers=auth, timeout=5).json()
    acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
    if acts:
        requests.post(f"{base}/v1/games/{gid}/actions", json=acts[0], headers=auth, timeout=5)


def measure(browser, base: str, predict: bool, latency_ms: float, plays: int) -> list[float]:
    gid, mine, other = _game(base)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script(
        f"localStorage.setItem('spitlog.tokens', JSON.stringify({{'{gid}': "
        f"{{seat: {mine['seat']}, token: '{mine['token']}'}}}}));"
        f"localStorage.setItem('spitlog.predict', '{'on' if predict else 'off'}')"
    )
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
             "downloadThroughput": -1, "uploadThroughput": -1})  # fmt: skip
    page.goto(f"{base}/#/play/{gid}")
    page.locator("[data-testid=table][data-phase=playing]").wait_for(timeout=30_000)
    times: list[float] = []
    for _ in range(plays * 20):
        if len(times) >= plays or page.locator("[data-testid=end]").count():
            break
        version = page.get_attribute("[data-testid=table]", "data-version")
        card = page.locator(ONE_PILE).first
        if page.locator(ONE_PILE).count():
            testid = card.get_attribute("data-testid")
            k = "ab".index(card.get_attribute("aria-label").split("plays on pile ")[1][0])
            times.append(page.evaluate(TIME_ONE_PLAY, [testid, k]))
        elif page.locator(TURN_UP).count():
            page.locator(TURN_UP).first.click()
        elif page.locator(BUTTON).count():  # Spit! or Ready
            page.locator(BUTTON).first.click()
        else:
            _other_moves(base, gid, other["token"])
        # the server's answer (or the other seat's move) is drawn before the next play
        try:
            page.wait_for_function(
                "v => document.querySelector('[data-testid=end]') || (document.querySelector("
                "'[data-testid=table]')?.dataset.version !== v && !document.querySelector("
                "'[data-predicted]'))",
                arg=version, timeout=15_000,
            )  # fmt: skip
        except BrowserTimeout:  # nothing moved (the other seat had no move): look again
            pass
    ctx.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=150, help="ms added to each request")
    ap.add_argument("--plays", type=int, default=12, help="plays timed in each mode")
    args = ap.parse_args()

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(["dev", "--bind", f"127.0.0.1:{port}"],
                 {"SPITLOG_REDIS_URL": "", "SPITLOG_RATE_GAMES": "0"})  # fmt: skip
    try:
        wait_ready(base, proc, timeout=60)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])  # fmt: skip
            rows = [(name, measure(browser, base, on, args.latency, args.plays))
                    for name, on in (("drawn ahead (default)", True),
                                     ("waits for the answer (predict off)", False))]  # fmt: skip
            browser.close()
    finally:
        stop(proc)
    print(f"click -> card on its pile, {args.latency:g} ms added to every request (ms)")
    print(f"{'page':36} {'plays':>5} {'min':>7} {'median':>7} {'max':>7}")
    for name, t in rows:
        if not t:
            print(f"{name:36} {0:>5}")
            continue
        print(f"{name:36} {len(t):>5} {min(t):>7.1f} {statistics.median(t):>7.1f} {max(t):>7.1f}")


if __name__ == "__main__":
    main()
