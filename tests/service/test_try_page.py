"""The try-it page (/docs/try): Swagger UI from the files vendored in service/http/tryit/,
the same bytes as the swagger-ui-dist that tests/e2e/package.json pins, served from a
fixed list under a policy that allows this server alone; not in the API's document.
tests/e2e/test_browser.py loads it in a browser."""

import json
import re
from pathlib import Path

import pytest
import yaml

from service.http.web import TRY_ASSETS

ROOT = Path(__file__).resolve().parents[2]
TRYIT = ROOT / "service" / "http" / "tryit"
DIST = ROOT / "tests" / "e2e" / "node_modules" / "swagger-ui-dist"
VENDORED = ("swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE",
            "swagger-ui-bundle.js.LICENSE.txt")  # fmt: skip


def test_the_page_loads_only_its_own_files_under_a_self_only_policy(client):
    r = client.get("/docs/try")
    assert r.status_code == 200 and r.mimetype == "text/html"
    csp = dict(p.strip().split(" ", 1) for p in r.headers["Content-Security-Policy"].split(";"))
    assert csp["default-src"] == csp["script-src"] == csp["connect-src"] == "'self'"
    page = r.get_data(as_text=True)
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    own = sorted(f"/docs/try/{name}" for name in TRY_ASSETS)
    assert sorted(s for s in sources if s != "data:,") == own  # data:, : no favicon
    assert "<script>" not in page and "style=" not in page
    for name, ctype in TRY_ASSETS.items():
        asset = client.get(f"/docs/try/{name}")
        assert asset.status_code == 200 and asset.content_type == ctype
        assert asset.data == (TRYIT / name).read_bytes()
    assert "/openapi.yaml" in (TRYIT / "try.js").read_text()


@pytest.mark.parametrize("name", ["index.html", "README.md", "LICENSE", "..%2Fweb.py", "x.js"])
def test_no_other_file_of_the_folder_is_served(client, name):
    assert client.get(f"/docs/try/{name}").status_code == 404


def test_the_page_is_not_in_the_apis_document_but_the_docs_link_to_it(client):
    spec = yaml.safe_load(client.get("/openapi.yaml").data)
    assert not [p for p in spec["paths"] if p.startswith("/docs/try")]
    assert 'href="/docs/try"' in client.get("/docs").get_data(as_text=True)


def test_the_vendored_files_are_the_pinned_swagger_ui_dist():
    pinned = json.loads((ROOT / "tests" / "e2e" / "package.json").read_text())
    if not DIST.exists():
        pytest.fail(f"no {DIST}: npm ci --prefix tests/e2e --ignore-scripts")
    installed = json.loads((DIST / "package.json").read_text())["version"]
    assert installed == pinned["devDependencies"]["swagger-ui-dist"], "npm ci --prefix tests/e2e"
    for name in VENDORED:
        assert (TRYIT / name).read_bytes() == (DIST / name).read_bytes(), name


def test_an_unknown_page_is_an_html_404_for_a_browser_and_problem_json_for_the_api(client):
    """A browser (Accept preferring text/html) on an unknown path gets a page that says so,
    under the page's policy; a client of the API (Accept JSON, */* or none), and any path
    under /v1/, gets the problem+json 404 as before."""
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    r = client.get("/nope", headers={"Accept": browser})
    assert r.status_code == 404 and r.content_type == "text/html; charset=utf-8"
    assert b"Page not found" in r.data and b'href="/"' in r.data
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    for accept in ("application/json", "*/*", None):
        r = client.get("/nope", headers={"Accept": accept} if accept else {})
        assert r.status_code == 404 and r.content_type == "application/problem+json", accept
    r = client.get("/v1/nope", headers={"Accept": browser})
    assert r.status_code == 404 and r.content_type == "application/problem+json"
