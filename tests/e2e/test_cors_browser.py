"""CORS in a real browser: a page served on another origin calls `spitlog
serve` with fetch, its token in `Authorization` (a preflighted request), and reads the
fields the API exposes; a page of an origin not on `SPITLOG_CORS_ORIGINS` is refused by
the browser itself."""

import functools
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from tests.support.processes import free_port, start, stop, wait_ready

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
pytestmark = [
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(), reason="needs Debian's chromium (apt-get install chromium)"
    ),
    # a browser call that never returns (an evaluate has no timeout of its own) sits in
    # Playwright's event loop, where the default SIGALRM timeout cannot reach it: the
    # thread method dumps every stack and ends the run instead of leaving it hanging
    pytest.mark.timeout(300, method="thread"),
]

PAGE = """<!doctype html><meta charset="utf-8"><title>an app</title><script>
async function run(api) {
  const out = {};
  const json = {"Content-Type": "application/json"};
  const made = await fetch(api + "/v1/games", {method: "POST", body: '{"game": "spit"}',
    headers: {...json, "Idempotency-Key": "cors-test-key-0123456789"}});
  out.create = made.status;
  out.location = made.headers.get("Location");
  out.requestId = made.headers.get("X-Request-Id");
  out.rate = made.headers.get("RateLimit");
  const g = await made.json();
  const again = await fetch(api + "/v1/games", {method: "POST", body: '{"game": "spit"}',
    headers: {...json, "Idempotency-Key": "cors-test-key-0123456789"}});
  out.replayed = again.headers.get("Idempotent-Replayed");
  const auth = {Authorization: "Bearer " + g.token};
  const view = await fetch(api + "/v1/games/" + g.id, {headers: auth});
  out.view = view.status;
  out.etag = view.headers.get("ETag");
  const act = await fetch(api + "/v1/games/" + g.id + "/actions", {method: "POST",
    headers: {...auth, ...json, "If-Match": out.etag}, body: '{"type": "resign"}'});
  out.act = act.status;
  const gone = await fetch(api + "/v1/games/g_0123456789abcdef");
  out.problem = (await gone.json()).request_id === gone.headers.get("X-Request-Id");
  return out;
}
async function refused(api) {
  try {
    await fetch(api + "/v1/games", {method: "POST", body: '{"game": "spit"}',
      headers: {"Content-Type": "application/json"}});
    return "answered";
  } catch (e) {
    return e.name;
  }
}
</script>"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _site(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """A static site on its own origin (another port: another origin)."""
    (root / "index.html").write_text(PAGE)
    handler = functools.partial(_Quiet, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def test_a_page_of_an_allowed_origin_calls_the_api_and_others_are_refused(tmp_path, redis_url):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    site, origin = _site(tmp_path / "a")
    other, other_origin = _site(tmp_path / "b")
    port = free_port()
    api = f"http://127.0.0.1:{port}"
    proc = start(["serve"], {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
                             "SPITLOG_WORKERS": "1", "SPITLOG_CORS_ORIGINS": origin})  # fmt: skip
    try:
        wait_ready(api, proc)
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])  # fmt: skip
            page = browser.new_page()
            page.goto(origin + "/index.html")
            out = page.evaluate("api => run(api)", api)
            page.goto(other_origin + "/index.html")
            blocked = page.evaluate("api => refused(api)", api)
            browser.close()
    finally:
        output = stop(proc)
        site.shutdown()
        other.shutdown()
    assert out["create"] == 201 and out["location"].startswith("/v1/games/g_"), output
    assert out["requestId"].startswith("req_") and out["rate"].startswith('"requests";')
    assert out["replayed"] == "true"
    assert out["view"] == 200 and out["etag"] == '"1"' and out["act"] == 201
    assert out["problem"] is True
    assert blocked == "TypeError"  # the browser refused: no Access-Control-Allow-Origin
