"""Live updates: one blocking reader per watched game per process, however many clients.

SSE streams and long-polls wait here for a game's log to grow past the version they
have. The first waiter on a game starts a watcher (a thread; a greenlet under gevent)
that blocks on the game's Stream (``XREAD BLOCK``) and wakes every local waiter when
events arrive; it stops once no one has waited on the game for a while. So a process
holding 1,000 streams on 300 games holds 300 Redis connections, not 1,000, and an
append reaches its watchers in one Redis push. The watcher keeps the latest entries it
read (``since``), so that the streams it wakes take them from it rather than each
reading them again from Redis.
"""

import logging
import threading
import time

log = logging.getLogger(__name__)


KEEP = 64  # entries a watcher keeps for the streams it wakes


class _Watch:
    def __init__(self, version: int):
        self.version = version
        self.recent: list = []  # the latest entries read, in order, the last at ``version``
        self.cond = threading.Condition()
        self.waiters = 0
        self.idle_since = time.monotonic()
        self.failed = False


class Hub:
    """Wait for a game's version to pass a mark, sharing one reader per game."""

    def __init__(self, store, *, block_s: float = 2.0, linger_s: float = 5.0):
        self.store = store
        self.block_s = block_s
        self.linger_s = linger_s  # a watcher with no waiters stays this long
        self._watches: dict[str, _Watch] = {}
        self._lock = threading.Lock()

    def wait(self, game_id: str, after: int, timeout_s: float) -> bool:
        """Block until the game's log holds more than ``after`` events, up to ``timeout_s``;
        True if it does. Callers read the new events from the store themselves."""
        with self._lock:
            w = self._watches.get(game_id)
            if w is None or w.failed:
                w = self._watches[game_id] = _Watch(after)
                threading.Thread(
                    target=self._run, args=(game_id, w), name=f"watch-{game_id}", daemon=True
                ).start()
            w.waiters += 1
        try:
            with w.cond:
                return w.cond.wait_for(lambda: w.version > after or w.failed, timeout_s) and (
                    w.version > after
                )
        finally:
            with self._lock:
                w.waiters -= 1
                w.idle_since = time.monotonic()

    def _run(self, game_id: str, w: _Watch) -> None:
        try:
            while True:
                with self._lock:
                    if w.waiters == 0 and time.monotonic() - w.idle_since > self.linger_s:
                        del self._watches[game_id]
                        return
                entries = self.store.wait_after(game_id, w.version, self.block_s)
                if entries:
                    with w.cond:
                        recent = w.recent
                        if recent and recent[-1][0] + 1 != entries[0][0]:
                            recent = []  # not one after the other: keep only the new
                        w.recent = (recent + entries)[-KEEP:]
                        w.version = max(w.version, entries[-1][0])
                        w.cond.notify_all()
        except Exception:  # Redis went away: wake the waiters, the next wait starts anew
            log.exception("watcher of %s failed", game_id)
            with self._lock:
                if self._watches.get(game_id) is w:
                    del self._watches[game_id]
            with w.cond:
                w.failed = True
                w.cond.notify_all()

    def since(self, game_id: str, after: int) -> list | None:
        """The entries after version ``after`` as the game's watcher read them (its last
        ``KEEP``), or None when it cannot tell them all (no watcher, or ``after`` before
        what it kept): then read them from the store."""
        w = self._watches.get(game_id)
        if w is None or w.failed:
            return None
        with w.cond:
            recent = w.recent
        if not recent or recent[0][0] > after + 1:
            return None
        return [e for e in recent if e[0] > after]

    @property
    def watching(self) -> int:
        return len(self._watches)
