"""The web page (issue 7): one static page and its script, no build step, nothing fetched
from other sites (the Content-Security-Policy says so to the browser, and allows no
inline script). It talks to the public REST API and its SSE stream only. Not part of
the API's OpenAPI document."""

from importlib.resources import files

from .pipeline import Answer, Call, Route

_STATIC = files("service.http").joinpath("static")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'"
)
_CACHE = ("Cache-Control", "no-cache")


def page(call: Call) -> Answer:
    body = _STATIC.joinpath("index.html").read_bytes()
    headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", CSP),
               _CACHE]  # fmt: skip
    return Answer(200, headers, body)


def script(call: Call) -> Answer:
    body = _STATIC.joinpath("app.js").read_bytes()
    return Answer(200, [("Content-Type", "text/javascript; charset=utf-8"), _CACHE], body)


ROUTES = (
    Route("page", "GET", "/", page),
    Route("play", "GET", "/play", page),
    Route("script", "GET", "/static/app.js", script),
)
