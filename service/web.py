"""The web page (issue 7): one self-contained HTML file, no build step, nothing fetched
from other sites (the Content-Security-Policy says so to the browser). It talks to
the public REST API and its SSE stream only. Not part of the API's OpenAPI document.
"""

from importlib.resources import files

from flask import Blueprint, Response

web = Blueprint("web", __name__)
_PAGE = files("service").joinpath("static/index.html")
CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)


@web.get("/")
@web.get("/play")
def page() -> Response:
    resp = Response(_PAGE.read_bytes(), mimetype="text/html")
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["Cache-Control"] = "no-cache"
    return resp
