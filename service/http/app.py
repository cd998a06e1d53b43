"""The WSGI application: ``create_app(settings)`` puts the parts of the composition root
(``service.bootstrap.Root``: the use cases, the game store, the limits) behind the request
pipeline in a Flask app.

Every route is a ``pipeline.Route`` of the one route table (``table.TABLE``); Flask routes
a request to its route's view, which runs the pipeline. The hot routes (an action, a
read of a game) are matched by ``Front`` in front of Flask's dispatch and run the same
pipeline. A request Flask finds no route for (404, 405) goes through the pipeline too, as
``unmatched``.
"""

from dataclasses import dataclass, field

import redis
from flask import Flask, request
from flask.sessions import NullSession, SecureCookieSessionInterface
from werkzeug.exceptions import HTTPException, NotFound

from .. import config
from ..acting import Acting
from ..apps import Apps
from ..audit import Audits
from ..bootstrap import Root
from ..deadlines import Deadlines
from ..deliveries import DeliveryLog
from ..joining import Joining
from ..limits import GameGate, Limits
from ..lobby import Lobby
from ..metrics import Metrics
from ..ports import SYSTEM_ENTROPY, Clock, Entropy, Scheduler, ms_now
from ..profiles import Profiles
from ..reading import Reading
from ..rematch import Rematches
from ..seating import Seating
from ..seeks import Seeks
from ..store.live import Hub
from ..store.redis import RedisStore
from ..tokens import Tokens
from . import asyncapi, docs, openapi, web
from .cors import Cors
from .pipeline import NOSNIFF, Pipeline, Route, json_answer, request_id
from .problems import PROBLEM_JSON, problem
from .table import TABLE, RouteTable
from .views import ViewCache


@dataclass
class Services:
    """What the handlers work with (``pipeline.Call.services``): the use cases each calls,
    the store, the limits."""

    settings: config.Settings
    reading: Reading
    tokens: Tokens
    seating: Seating
    joining: Joining
    acting: Acting
    lobby: Lobby
    deadlines: Deadlines
    deliveries: DeliveryLog
    audits: Audits
    store: RedisStore
    hub: Hub
    limits: Limits | None
    gate: GameGate
    metrics: Metrics
    routes: tuple[Route, ...]
    cors: Cors
    draining: bool = False  # SIGTERM: streams and long-polls end (``drain``)
    apps: Apps | None = None
    profiles: Profiles | None = None
    seeks: Seeks | None = None
    rematches: Rematches | None = None
    views: ViewCache = field(default_factory=ViewCache)  # the views made, shared
    pipeline: Pipeline | None = None  # the request pipeline (the seat channel's actions)
    _made: dict = field(default_factory=dict)

    def drain(self) -> None:
        """The process is stopping: open SSE streams end within a second (with a ``retry:``
        hint: their clients reconnect elsewhere and resume by ``Last-Event-ID``), seat
        channels close (1012: their clients resume with ``?after``) and long-polls answer
        now, so that only short requests are left in flight."""
        self.draining = True
        self.hub.wake_all()

    def spec(self) -> dict:
        """The OpenAPI document of the routes."""
        if "spec" not in self._made:
            self._made["spec"] = openapi.build(self.routes)
        return self._made["spec"]

    def spec_yaml(self) -> bytes:
        if "yaml" not in self._made:
            self._made["yaml"] = openapi.to_yaml(self.spec()).encode()
        return self._made["yaml"]

    def asyncapi_yaml(self) -> bytes:
        """The AsyncAPI document of the live path (``asyncapi``)."""
        if "asyncapi" not in self._made:
            self._made["asyncapi"] = asyncapi.to_yaml(asyncapi.build()).encode()
        return self._made["asyncapi"]

    def docs_html(self) -> bytes:
        if "html" not in self._made:
            self._made["html"] = docs.render(self.spec()).encode()
        return self._made["html"]

    def rules_html(self) -> bytes:
        """The rules reference page (``/docs/rules``)."""
        if "rules" not in self._made:
            self._made["rules"] = docs.render_rules(docs.rules_source()).encode()
        return self._made["rules"]


class _NoSessions(SecureCookieSessionInterface):
    """This API keeps no sessions (a seat's token is its credential): every request
    shares one empty, read-only session instead of making its own."""

    _null = NullSession()

    def open_session(self, app, request):
        return None

    def make_null_session(self, app):
        return self._null


class App(Flask):
    session_interface = _NoSessions()


class Front:
    """WSGI middleware: a request of a hot route of the route table is matched here and
    served by the pipeline; every other request goes to Flask (``app``), unchanged."""

    def __init__(self, app, pipeline: Pipeline, table: RouteTable):
        self.app = app
        self.pipeline = pipeline
        self.table = table

    def __call__(self, environ, start_response):
        found = self.table.match_hot(environ.get("REQUEST_METHOD"), environ.get("PATH_INFO", ""))
        if found is not None:
            return self.pipeline.wsgi(found[0], environ, start_response, found[1])
        return self.app(environ, start_response)


def local_port(environ: dict) -> int | None:
    """The port the request came in on: the local end of its connection (gunicorn and
    werkzeug give it), or None. Never what the client says (a ``Host`` field)."""
    sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    if sock is None:
        return None
    try:
        name = sock.getsockname()
    except OSError:  # the client gone
        return None
    return name[1] if isinstance(name, tuple) else None


class MetricsListener:
    """WSGI middleware under ``SPITLOG_METRICS_BIND``: a request that came in on its port
    gets the Prometheus exposition (``GET /metrics``: every process's, summed) and
    nothing else (a 404 problem); every other request goes to ``app``, the API, which
    has no ``/metrics``. So the exposition (~10 ms of CPU a scrape) is never the public
    listener's to give, and needs no limit there."""

    def __init__(self, app, port: int, metrics: Metrics):
        self.app, self.port, self.metrics = app, port, metrics

    def __call__(self, environ, start_response):
        if local_port(environ) != self.port:
            return self.app(environ, start_response)
        if environ.get("PATH_INFO") == "/metrics" and environ["REQUEST_METHOD"] in ("GET", "HEAD"):
            body, ctype = self.metrics.exposition()
            start_response(
                "200 OK", [("Content-Type", ctype), ("Content-Length", str(len(body))), NOSNIFF]
            )
            return [body]
        _status, problem_body, _headers = problem(
            NotFound("this listener answers GET /metrics only")
        )
        body = json_answer(problem_body, 404, ctype=PROBLEM_JSON).body
        start_response(
            "404 NOT FOUND",
            [
                ("Content-Type", PROBLEM_JSON),
                ("Content-Length", str(len(body))),
                NOSNIFF,
                ("Connection", "close"),
            ],
        )
        return [body]


def create_app(
    settings: config.Settings | None = None,
    *,
    redis_client: redis.Redis | None = None,
    scheduler: Scheduler | None = None,
    clock: Clock = ms_now,
    entropy: Entropy = SYSTEM_ENTROPY,
    front: bool = True,
    archive=None,
    table: RouteTable = TABLE,
    root: Root | None = None,
) -> Flask:
    """The API, on the parts of ``root`` (``service.bootstrap.Root``; default: one made
    of the other arguments). ``settings`` (default: ``config.load()``); ``redis_client``
    replaces the clients made from ``redis_url`` (tests pass fakeredis); ``scheduler`` is
    told of every append (``ports.Scheduler``; default: nothing); ``clock`` and
    ``entropy``: the use cases' (``ports.Clock``, ``ports.Entropy``; default: the
    system's, a test gives its own: seeds, tokens and ids of its choosing); ``front=False``
    sends the hot routes through Flask's dispatch like the others (the parity test);
    ``archive`` (a ``ports.Archive``; default: the one ``archive_url`` names) is where
    finished games are read once they have left Redis; ``table``: the routes
    (``table.TABLE``), which Flask's URL map, the front and CORS all read."""
    if root is None:
        s = settings if settings is not None else config.load()
        root = Root(s, redis_client=redis_client, scheduler=scheduler, clock=clock,
                    entropy=entropy, archive=archive)  # fmt: skip
    s = root.settings
    app = App(__name__, static_folder=None)  # its URL map holds the table's routes alone
    app.config["MAX_CONTENT_LENGTH"] = s.max_content_length
    app.url_map.strict_slashes = False
    app.url_map.merge_slashes = False  # a path is what it is: no 308 to another

    cases = root.cases
    services = Services(
        settings=s, reading=cases.reading, tokens=cases.tokens, seating=cases.seating,
        joining=cases.joining, acting=cases.acting, lobby=cases.lobby,
        deadlines=cases.deadlines, deliveries=root.deliveries, audits=root.audits,
        store=root.store, hub=root.hub, limits=root.limits, gate=root.gate,
        metrics=root.metrics, routes=table.routes, cors=Cors(s.origins, table),
        apps=root.apps, profiles=root.profiles, seeks=root.seeks, rematches=root.rematches,
        views=ViewCache(renders=root.metrics.view_renders),
    )  # fmt: skip
    app.extensions["spitlog"] = services
    pipeline = services.pipeline = Pipeline(services)
    table.install(app, pipeline.view)

    def unmatched(exc: HTTPException):
        """404 and 405 of Flask's routing, through the pipeline like every request."""

        def refuse(call):
            if exc.code == 404 and web.wants_html(call):
                return web.not_found(call)  # a browser's unknown page: a page that says so
            raise exc

        route = Route("unmatched", request.method, "<unmatched>", refuse, read_query=False)
        return pipeline.view(route)()

    def bug(exc: Exception):
        status, body, headers = problem(exc)
        rid = request_id(request.headers.get("X-Request-Id"))
        body["request_id"] = rid
        answer = json_answer(body, status, [*headers.items(), ("X-Request-Id", rid)], PROBLEM_JSON)
        return app.response_class(answer.body, status=status, headers=answer.headers)

    app.register_error_handler(HTTPException, unmatched)
    app.register_error_handler(Exception, bug)
    if front:
        app.wsgi_app = Front(app.wsgi_app, pipeline, table)
    if s.metrics_bind is not None:
        app.wsgi_app = MetricsListener(app.wsgi_app, config.tcp_port(s.metrics_bind), root.metrics)
    return app


def spec_yaml(app: Flask) -> str:
    """The OpenAPI document, as ``openapi.yaml`` holds it."""
    return app.extensions["spitlog"].spec_yaml().decode()
