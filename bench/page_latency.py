"""From a click on a card to the card on its pile, in the page, with network delay added:
the page drawing a play ahead of the server's answer (its default) against the page waiting
for the answer (``localStorage["spitlog.predict"] = "off"``), side by side in one run.

    PYTHONPATH=. python bench/page_latency.py                  # 150 ms added, 12 plays each
    PYTHONPATH=. python bench/page_latency.py --latency 300 --plays 20

`spitlog dev` (embedded Redis) and Debian's chromium through Playwright (headless). Each
mode plays its own Spit game against a second seat taken through the API that moves only
when the page has nothing to play, so that the page's cards are the ones timed. The page
reaches the server through a proxy that holds every chunk of bytes half the added delay
in each direction, the live stream's included (the DevTools protocol's network conditions
delay a response's start only, not the stream's later views, which then beat the answer).
A play is timed in the page by its own clock (``performance.now``): from the click to the
animation frame after the pile shows the card. Printed: min / median / max in ms.
"""

import argparse
import asyncio
import contextlib
import queue
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

import requests
from playwright.sync_api import TimeoutError as BrowserTimeout
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.page import (  # noqa: E402
    ENABLED,
    MOVABLE,
    ONE_PILE,
    TARGET,
    TURN_UP,
    other_seat_moves,
)
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
BUTTON = f"[data-testid^=btn-]{ENABLED}"


def delaying_proxy(target_port: int, one_way_s: float) -> int:
    """A TCP proxy on loopback, in a thread of its own, that holds every chunk of bytes
    `one_way_s` before passing it on, in both directions and in order (a network whose round
    trip is twice that, streams included). Returns its port."""
    ready: queue.Queue[int] = queue.Queue()

    async def pipe(reader, writer):
        chunks: asyncio.Queue = asyncio.Queue()

        async def send():
            while (item := await chunks.get()) is not None:
                due, data = item
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.create_task(send())
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                await chunks.put((time.monotonic() + one_way_s, data))
        await chunks.put(None)
        with contextlib.suppress(OSError):
            await sender

    async def client(reader, writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", target_port)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def serve():
        server = await asyncio.start_server(client, "127.0.0.1", 0)
        ready.put(server.sockets[0].getsockname()[1])
        await server.serve_forever()

    threading.Thread(target=lambda: asyncio.run(serve()), daemon=True).start()
    return ready.get(timeout=10)


def _game(base: str) -> tuple[str, dict, dict]:
    """A Spit game of two seats taken through the API, both ready: (id, page's seat, other's)."""
    made = requests.post(f"{base}/v1/games", json={"game": "spit"}, timeout=5).json()
    other = requests.post(f"{base}/v1/games/{made['id']}/seats", json={}, timeout=5).json()
    for token in (made["token"], other["token"]):
        r = requests.post(f"{base}/v1/games/{made['id']}/actions", json={"type": "ready"},
                          headers={"Authorization": f"Bearer {token}"}, timeout=5)  # fmt: skip
        r.raise_for_status()
    return made["id"], made, other


def measure(browser, base: str, via: str, predict: bool, plays: int) -> list[float]:
    """Times `plays` plays of a new game's page, opened through `via` (the delaying proxy)."""
    gid, mine, other = _game(base)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script(
        f"localStorage.setItem('spitlog.tokens', JSON.stringify({{'{gid}': "
        f"{{seat: {mine['seat']}, token: '{mine['token']}'}}}}));"
        f"localStorage.setItem('spitlog.predict', '{'on' if predict else 'off'}')"
    )
    page = ctx.new_page()
    page.goto(f"{via}/#/play/{gid}")
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
        elif page.locator(MOVABLE).count():  # a card that fits two places: pick it, then one
            with contextlib.suppress(BrowserTimeout):
                page.locator(MOVABLE).first.click(timeout=2000)
                page.locator(TARGET).first.click(timeout=2000)
        else:
            other_seat_moves(base, gid, other["token"])
        # the server's answer (or the other seat's move) is drawn before the next play
        with contextlib.suppress(BrowserTimeout):  # nothing moved (no move of the other seat)
            page.wait_for_function(
                "v => document.querySelector('[data-testid=end]') || (document.querySelector("
                "'[data-testid=table]')?.dataset.version !== v && !document.querySelector("
                "'[data-predicted]'))",
                arg=version, timeout=15_000,
            )  # fmt: skip
    ctx.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--latency", type=float, default=150, help="round trip added, in ms")
    ap.add_argument("--plays", type=int, default=12, help="plays timed in each mode")
    args = ap.parse_args()

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(["dev", "--bind", f"127.0.0.1:{port}"],
                 {"SPITLOG_REDIS_URL": "", "SPITLOG_RATE_GAMES": "0"})  # fmt: skip
    try:
        wait_ready(base, proc, timeout=60)
        via = f"http://127.0.0.1:{delaying_proxy(port, args.latency / 2000)}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])  # fmt: skip
            rows = [(name, measure(browser, base, via, on, args.plays))
                    for name, on in (("drawn ahead (default)", True),
                                     ("waits for the answer (predict off)", False))]  # fmt: skip
            browser.close()
    finally:
        stop(proc)
    print(f"click -> card on its pile, {args.latency:g} ms added to the round trip (ms)")
    print(f"{'page':36} {'plays':>5} {'min':>7} {'median':>7} {'max':>7}")
    for name, t in rows:
        if not t:
            print(f"{name:36} {0:>5}")
            continue
        print(f"{name:36} {len(t):>5} {min(t):>7.1f} {statistics.median(t):>7.1f} {max(t):>7.1f}")


if __name__ == "__main__":
    main()
