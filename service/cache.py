"""The latest state of recently used games, per process (``GameCache``): a read decodes only
the events it has not seen, and an action is decided on it straight away (the append's
version check says whether it was still current)."""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from domain import State

from .records import GameRecord


@dataclass(frozen=True, slots=True)
class Game:
    """A game as a process knows it: its state and its record (``records.GameRecord``: the
    secret seed, the seats' token hashes, ...). An archived game comes with its whole
    ``log`` ((version, event's wire form), ...): it is no longer in Redis."""

    id: str
    state: State
    record: GameRecord
    log: tuple[tuple[int, dict], ...] | None = None

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def seed(self) -> bytes:
        return self.record.seed

    @property
    def rated(self) -> bool:
        """Whether the game counts for its players' ratings (made so, between players)."""
        return self.record.rated


class GameCache:
    """A bounded LRU of ``Game``s by id; a newer version never gives way to an older one."""

    def __init__(self, size: int):
        self.size = size
        self._d: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Game | None:
        with self._lock:
            g = self._d.get(game_id)
            if g is not None:
                self._d.move_to_end(game_id)
            return g

    def put(self, g: Game) -> None:
        if self.size <= 0:
            return
        with self._lock:
            old = self._d.get(g.id)
            if old is None or old.version <= g.version:
                self._d[g.id] = g
                self._d.move_to_end(g.id)
            while len(self._d) > self.size:
                self._d.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._d.clear()
