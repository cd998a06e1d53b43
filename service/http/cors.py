"""Cross-origin calls from browser apps (CORS, the Fetch standard), for the origins
``SPITLOG_CORS_ORIGINS`` allows (none by default).

- An answer to a request of an allowed ``Origin`` carries ``Access-Control-Allow-Origin``
  (that origin) and ``Access-Control-Expose-Headers`` (what a client script may read:
  ``ETag``, ``Location``, ``Retry-After``, ``Idempotent-Replayed``, the rate-limit
  fields, ``X-Request-Id``, ``Content-Disposition``); every answer varies by ``Origin``
  when any origin is allowed.
- A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) of an allowed origin,
  for a method the path takes, is a ``204`` naming the methods and the request headers
  the API reads; any other preflight goes on to the pipeline like any ``OPTIONS`` (a
  ``405`` with no CORS header: the browser refuses the call).

No cookies are involved (a seat's token travels in ``Authorization``), so no
``Access-Control-Allow-Credentials``.
"""

ALLOW_HEADERS = (
    "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Last-Event-ID, "
    "X-Api-Key, "
    "X-Request-Id, Accept"
)
EXPOSE_HEADERS = (
    "ETag, Location, Retry-After, Idempotent-Replayed, RateLimit, RateLimit-Policy, "
    "X-Request-Id, Content-Disposition"
)
MAX_AGE_S = 600


class Cors:
    def __init__(self, origins: frozenset[str], table):
        """``origins``: those allowed (``*``: any); ``table``: the API's routes
        (``table.RouteTable``), to answer a preflight with the methods of its path."""
        self.any = "*" in origins
        self.origins = origins - {"*"}
        self.on = bool(origins)
        self.table = table

    def allowed(self, origin: str | None) -> bool:
        return bool(origin) and (self.any or origin.lower() in self.origins)

    def headers(self, environ: dict) -> list[tuple[str, str]]:
        """The CORS fields of an answer to this request."""
        if not self.on:
            return []
        origin = environ.get("HTTP_ORIGIN")
        if not self.allowed(origin):
            return [("Vary", "Origin")]
        return [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Expose-Headers", EXPOSE_HEADERS),
            ("Vary", "Origin"),
        ]

    def preflight(self, environ: dict) -> list[tuple[str, str]] | None:
        """The headers of a ``204`` to this request if it is a preflight to allow, else
        None (it goes on to the pipeline)."""
        if not self.on or environ.get("REQUEST_METHOD") != "OPTIONS":
            return None
        wanted = environ.get("HTTP_ACCESS_CONTROL_REQUEST_METHOD")
        origin = environ.get("HTTP_ORIGIN")
        if not wanted or not self.allowed(origin):
            return None
        path = environ.get("PATH_INFO", "")
        methods = self.table.methods(path)
        if wanted not in methods:
            return None
        return [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Allow-Methods", ", ".join(methods)),
            ("Access-Control-Allow-Headers", ALLOW_HEADERS),
            ("Access-Control-Max-Age", str(MAX_AGE_S)),
            ("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"),
        ]
