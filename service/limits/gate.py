"""The game gate: a bulkhead per game, per process."""

import threading
import time

from ..errors import Busy


class GameGate:
    """At most ``per_game`` requests of one game in progress at once in this process; more
    wait their turn (up to ``wait_s``, then 503 with ``Retry-After``). A flood of one game
    then queues on its own gate, idle, instead of crowding every game's requests out of
    the process's event loop. A request takes its place only once its body is read
    (``service.http.pipeline``), so a slow client never holds one, and streams (SSE,
    long-polls) take none: they wait on the live hub, not on the game's work.

    A count per game under one lock: a request that finds room (nearly all of them)
    costs a dict update; a condition to wait on is made only for a game that has
    requests waiting, and dropped with its last one."""

    def __init__(self, per_game: int, wait_s: float = 2.0):
        self.per_game = int(per_game)
        self.wait_s = wait_s
        self._lock = threading.Lock()
        self._busy: dict[str, int] = {}  # game -> requests in progress
        self._waiting: dict[str, list] = {}  # game -> [condition, requests waiting]

    def acquire(self, game_id: str, before_waiting=None) -> bool:
        """Take a place in ``game_id``'s gate, waiting for one if need be (503 after
        ``wait_s``); False when gates are off. Give it back with ``release``.
        ``before_waiting``: called (outside the lock) before the request waits; what it
        raises ends the request instead (the pipeline charges the request's rate buckets
        there, so that a request over its limits never queues for a busy game's place)."""
        if self.per_game <= 0:
            return False
        with self._lock:
            n = self._busy.get(game_id, 0)
            if n < self.per_game and game_id not in self._waiting:
                self._busy[game_id] = n + 1
                return True
        if before_waiting is not None:
            before_waiting()
        self._wait(game_id)
        return True

    def _wait(self, game_id: str) -> None:
        end = time.monotonic() + self.wait_s
        with self._lock:
            w = self._waiting.get(game_id)
            if w is None:
                w = self._waiting[game_id] = [threading.Condition(self._lock), 0]
            w[1] += 1
            try:
                while self._busy.get(game_id, 0) >= self.per_game:
                    left = end - time.monotonic()
                    if left <= 0:
                        raise Busy("this game has too many requests in progress: retry",
                                   retry_after_s=1)  # fmt: skip
                    w[0].wait(left)
                self._busy[game_id] = self._busy.get(game_id, 0) + 1
            finally:
                w[1] -= 1
                if w[1] == 0:
                    del self._waiting[game_id]

    def release(self, game_id: str) -> None:
        with self._lock:
            n = self._busy[game_id] - 1
            if n:
                self._busy[game_id] = n
            else:
                del self._busy[game_id]
            w = self._waiting.get(game_id)
            if w is not None:
                w[0].notify()
