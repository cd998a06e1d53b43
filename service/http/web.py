"""The web page: one static page, its stylesheet and its scripts, no
build step, nothing fetched from other sites (the Content-Security-Policy says so to the
browser, and allows no inline script and no inline style). It talks to the public REST
API and its SSE stream only. And the API's try-it page (``/docs/try``): Swagger
UI, served from the files vendored in ``tryit/``, on ``/openapi.yaml``, under the same
policy. Not part of the API's OpenAPI document (every route here has ``doc=None``)."""

from importlib.resources import files

from werkzeug.datastructures import MIMEAccept
from werkzeug.exceptions import NotFound
from werkzeug.http import parse_accept_header

from .pipeline import Answer, Call, Route

_STATIC = files("service.http").joinpath("static")
_TRY = files("service.http").joinpath("tryit")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'"
)
_CACHE = ("Cache-Control", "no-cache")
PROBLEM = "application/problem+json"
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
# The files /static/ serves: the scripts and stylesheets of the static folder, named once
# at start-up (a name not listed here is a 404, so no path reaches outside the folder).
ASSETS = {
    f.name: _TYPES[ext]
    for f in _STATIC.iterdir()
    for ext in _TYPES
    if f.is_file() and f.name.endswith(ext)
}


# The try-it page's files, named once: its own script and Swagger UI's (a name not listed
# here is a 404); they change only with a release, so caches may keep them an hour.
TRY_ASSETS = {"swagger-ui-bundle.js": _TYPES[".js"], "swagger-ui.css": _TYPES[".css"],
              "try.js": _TYPES[".js"]}  # fmt: skip


def page(call: Call) -> Answer:
    """The page itself (every screen is drawn by its script from the URL's fragment)."""
    body = _STATIC.joinpath("index.html").read_bytes()
    headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", CSP),
               _CACHE]  # fmt: skip
    return Answer(200, headers, body)


def wants_html(call: Call) -> bool:
    """Whether the request is a browser's for a page: outside ``/v1/``, with ``Accept``
    preferring HTML to JSON (``*/*`` alone, as curl sends, prefers JSON)."""
    if call.environ.get("PATH_INFO", "").startswith("/v1/"):
        return False
    accept = parse_accept_header(call.header("Accept"), MIMEAccept)
    return accept.best_match(["application/json", PROBLEM, "text/html"]) == "text/html"


def not_found(call: Call) -> Answer:
    """The 404 of an unknown page, as a page: what happened and the way home."""
    body = _STATIC.joinpath("notfound.html").read_bytes()
    headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", CSP),
               _CACHE]  # fmt: skip
    return Answer(404, headers, body)


def asset(call: Call) -> Answer:
    """One script or stylesheet of the page, by its file name; 404 for any other name."""
    name = call.args["name"]
    ctype = ASSETS.get(name)
    if ctype is None:
        raise NotFound(f"no file {name}")
    body = _STATIC.joinpath(name).read_bytes()
    return Answer(200, [("Content-Type", ctype), _CACHE], body)


def try_page(call: Call) -> Answer:
    """The try-it page: Swagger UI on this server's ``/openapi.yaml``."""
    body = _TRY.joinpath("index.html").read_bytes()
    headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", CSP),
               _CACHE]  # fmt: skip
    return Answer(200, headers, body)


def try_asset(call: Call) -> Answer:
    """One file of the try-it page, by its name; 404 for any other name."""
    name = call.args["name"]
    ctype = TRY_ASSETS.get(name)
    if ctype is None:
        raise NotFound(f"no file {name}")
    body = _TRY.joinpath(name).read_bytes()
    return Answer(200, [("Content-Type", ctype), ("Cache-Control", "public, max-age=3600")], body)


ROUTES = (
    Route("page", "GET", "/", page),
    Route("try", "GET", "/docs/try", try_page),
    Route("try_asset", "GET", "/docs/try/<name>", try_asset),
    Route("play", "GET", "/play", page),
    Route("asset", "GET", "/static/<name>", asset),
)
