"""The one route table of the API: every route (``pipeline.Route``) and the converters its
paths use. Everything that routes a request reads it:

- Flask's URL map (``RouteTable.install``): a rule per route, its converters made from
  ``CONVERTERS``;
- the fast front (``app.Front``): the hot routes, matched by ``RouteTable.match_hot`` on
  regular expressions made from the same rules and ``CONVERTERS``;
- CORS (``cors.Cors``): the methods a path takes, for a preflight (``RouteTable.methods``).

So a route added to the table is known to all three at once, and they agree on which
path is which route (``tests/service/test_route_table.py`` checks every route).
"""

import re
from collections.abc import Callable, Iterable

from flask import Flask
from werkzeug.routing import BaseConverter

from .. import ids
from . import channel, pairing, people, routes, web
from .pipeline import Route

# a converter's name in a rule (``<gid:game_id>``) -> (its regular expression, the type of
# the value a handler gets); "" is a parameter with no converter named (``<name>``)
CONVERTERS: dict[str, tuple[str, type]] = {
    "gid": (ids.GAME_ID, str),  # another path: a 404, as a game that does not exist
    "sid": (ids.SEEK_ID, str),
    # a player's id (or ``<app id>:<id>``): any segment, so that one not of the grammar
    # is a 400 naming it (``players.resolve``), not a 404
    "pid": ("[^/]+", str),
    "int": (r"\d+", int),
    "": ("[^/]+", str),
}
_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


def _converter(name: str, regex: str, kind: type) -> type[BaseConverter]:
    """A werkzeug converter of ``regex`` whose values are ``kind``."""

    def to_python(self, value: str):
        return kind(value)

    def to_url(self, value) -> str:
        return str(value)

    return type(f"{name.title()}Converter", (BaseConverter,),
                {"regex": regex, "to_python": to_python, "to_url": to_url})  # fmt: skip


class RouteTable:
    """The routes of the API, in the order Flask is given them."""

    def __init__(self, table: Iterable[Route], converters=CONVERTERS):
        self.routes: tuple[Route, ...] = tuple(table)
        names = [r.name for r in self.routes]
        if len(set(names)) != len(names):
            twice = sorted({n for n in names if names.count(n) > 1})
            raise ValueError(f"two routes of one name: {twice}")
        self.converters = converters
        self.patterns = [(r, *self.compile(r.path)) for r in self.routes]
        self.hot = [(r.method, pattern, conv, r) for r, pattern, conv in self.patterns if r.hot]

    def plus(self, *more: Route) -> "RouteTable":
        """This table with ``more`` routes after its own."""
        return RouteTable(self.routes + more, self.converters)

    def compile(self, rule: str) -> tuple[re.Pattern, dict[str, Callable]]:
        """The regular expression of a rule's paths, and each parameter's type."""
        conv: dict[str, Callable] = {}

        def group(m: re.Match) -> str:
            regex, kind = self.converters[m.group(1) or ""]
            conv[m.group(2)] = kind
            return f"(?P<{m.group(2)}>{regex})"

        out, last = [], 0
        for m in _PARAM.finditer(rule):
            out += [re.escape(rule[last : m.start()]), group(m)]
            last = m.end()
        out.append(re.escape(rule[last:]))
        return re.compile("".join(out)), conv

    def match_hot(self, method: str, path: str) -> tuple[Route, dict] | None:
        """The hot route of this request and its parameters, or None."""
        for m, pattern, conv, route in self.hot:
            if m == method and (match := pattern.fullmatch(path)):
                return route, {k: conv[k](v) for k, v in match.groupdict().items()}
        return None

    def methods(self, path: str) -> list[str]:
        """The methods the routes of ``path`` take, sorted."""
        return sorted({r.method for r, pattern, _ in self.patterns if pattern.fullmatch(path)})

    def install(self, app: Flask, view: Callable[[Route], Callable]) -> None:
        """A rule in ``app``'s URL map for each route, served by ``view(route)``."""
        app.url_map.converters.update({
            name: _converter(name, regex, kind)
            for name, (regex, kind) in self.converters.items() if name
        })  # fmt: skip
        for route in self.routes:
            app.add_url_rule(
                route.path, endpoint=route.name, view_func=view(route), methods=[route.method],
                provide_automatic_options=False,
            )  # fmt: skip


TABLE = RouteTable(routes.ROUTES + channel.ROUTES + people.ROUTES + pairing.ROUTES + web.ROUTES)
