"""The views a process serves, rendered once: the JSON of a game's view per (game, version,
viewer: seat 0, seat 1 or a spectator), shared by every read of the game
(``GET /v1/games/{id}``) and every stream that carries views (``live.stream``).

Each game keeps its latest version only (an older version asked for is rendered and not
kept), and the games are a bounded LRU. A view also shows the game's record (its
players, its rating, its rematch), which can change after the game's end without a new
version: the entry keeps the record its views were made with, and a read with another
record makes them anew. A view is rendered under the cache's lock (rendering is pure:
no I/O, no switch), so that however many streams wake at once for a version, each
viewer's view of it is made once.
"""

import threading
from collections import OrderedDict

import orjson

VIEWERS = {0: "seat0", 1: "seat1", None: "spectator"}


class _Entry:
    __slots__ = ("version", "record", "bodies")

    def __init__(self, version: int, record):
        self.version, self.record = version, record
        self.bodies: dict = {}  # seat (0, 1, None) -> the view's JSON


class ViewCache:
    """Views' JSON by game (its latest version), at most ``size`` games; ``renders`` (a
    Prometheus counter labelled by viewer, or None) counts each view made."""

    def __init__(self, size: int = 4096, renders=None):
        self.size = size
        self.renders = renders
        self._d: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def json(self, reading, game, seat: int | None) -> bytes:
        """``game``'s view for ``seat`` now (``reading.view``), as JSON."""
        with self._lock:
            entry = self._d.get(game.id)
            if entry is not None and entry.version == game.version and entry.record == game.record:
                self._d.move_to_end(game.id)
                body = entry.bodies.get(seat)
                if body is None:
                    body = entry.bodies[seat] = self._render(reading, game, seat)
                return body
            body = self._render(reading, game, seat)
            if entry is None or entry.version <= game.version:
                entry = self._d[game.id] = _Entry(game.version, game.record)
                entry.bodies[seat] = body
                self._d.move_to_end(game.id)
                while len(self._d) > self.size:
                    self._d.popitem(last=False)
            return body

    def peek(self, game_id: str, version: int, seat: int | None) -> bytes | None:
        """The view of ``game_id`` at ``version`` for ``seat`` if it was made already."""
        with self._lock:
            entry = self._d.get(game_id)
            if entry is None or entry.version != version:
                return None
            return entry.bodies.get(seat)

    def _render(self, reading, game, seat: int | None) -> bytes:
        if self.renders is not None:
            self.renders.labels(VIEWERS[seat]).inc()
        return orjson.dumps(reading.view(game, seat))

    def clear(self) -> None:
        with self._lock:
            self._d.clear()
