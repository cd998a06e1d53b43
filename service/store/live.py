"""Live updates: one subscription per watched game per process, however many clients.

SSE streams and long-polls wait here for a game's log to grow past the version they
have. Each append publishes what it appended on the game's shard channel
(``RedisStore.live_channel``, in the append's own script); a process holds one Pub/Sub
connection, subscribed to the channels of the games its clients wait on, and one
reader (a thread; a greenlet under gevent) that takes each message, keeps the latest
entries of its game (``since``) and wakes that game's waiters. So an append reaches a
process in one push whatever the number of its streams, and no stream, and no watched
game, costs a Redis command while nothing happens. A game's subscription goes once no
one has waited on it for ``linger_s``.

What a process knows of a game is exact: after each ``SSUBSCRIBE`` is confirmed (a new
game, and every game again after the connection came back), the reader reads the
game's version (``XLEN``); every append after that confirmation reaches it as a message.
A message lost with a dropped connection is thus covered by the version read after the
resubscription, and the entries of the gap are read from the store (``since`` answers
None for what it does not hold).

A second thread (greenlet) looks, every ``check_s``, whether the clients of the waiting
streams are still there: one ``poll`` of all their sockets at once, instead of each
stream waking to look at its own; a client gone wakes its stream. It also drops the
watches no one waits on, and keeps the Pub/Sub connection honest (a ``PING`` when it has
been quiet, a new connection when it stays silent).
"""

import contextlib
import logging
import select
import threading
import time

from gevent import monkey

log = logging.getLogger(__name__)

_os_poll = monkey.get_original("select", "poll")  # never a switch, no descriptor limit

KEEP = 64  # entries a game's watch keeps for the streams it wakes
PING_S = 15.0  # a Pub/Sub connection heard nothing from for this long is asked (PING) ...
DEAD_S = 45.0  # ... and one heard nothing from for this long is taken for dead


class _Watch:
    __slots__ = ("version", "recent", "cond", "waiters", "idle_since")

    def __init__(self):
        self.version = -1  # unknown until its subscription is confirmed
        self.recent: list = []  # the latest entries, one after the other, the last at version
        self.cond = threading.Condition()
        self.waiters = 0
        self.idle_since = time.monotonic()


class Hub:
    """Wait for a game's version to pass a mark, sharing one subscription per game."""

    def __init__(self, store, *, linger_s: float = 5.0, check_s: float = 1.0):
        self.store = store
        self.linger_s = linger_s  # a watch with no waiters stays this long
        self.check_s = check_s  # how often the waiting streams' clients are looked at
        self._watches: dict[str, _Watch] = {}
        self._lock = threading.Lock()  # the watches
        self._send = threading.Lock()  # every command sent on the Pub/Sub connection
        self._socks: dict[int, tuple[object, _Watch]] = {}  # fd -> (socket, watch), waiting
        self._gone: set[int] = set()  # the fds whose client left, until their wait ends
        self._ps = None
        self._conn = None  # the connection the reader knows (a new one: resubscribe)
        self._resync = False
        self._broken = False  # a subscription failed: the reader starts again
        self._heard = self._pinged = time.monotonic()  # the reader's last message, a ping
        self._reader: threading.Thread | None = None
        self._kick = threading.Event()  # the first subscription: the reader may read
        self.stopping = False

    # ---------------------------------------------------------------- the waiting side

    def wait(self, game_id: str, after: int, timeout_s: float, sock=None) -> bool:
        """Block until the game's log holds more than ``after`` events, up to ``timeout_s``;
        True if it does. False on the timeout, once ``sock`` (the waiting client's, if
        given) reads as closed or readable, or when ``wake_all`` is called: the caller
        looks why. Callers read the new events from ``since`` or the store."""
        with self._lock:
            w = self._watches.get(game_id)
            new = w is None
            if new:
                w = self._watches[game_id] = _Watch()
            w.waiters += 1
        fd = None
        try:
            if new:
                self._subscribe([game_id])
            if sock is not None:
                fd = sock.fileno()
                self._socks[fd] = (sock, w)
            gone = self._gone
            with w.cond:
                return (
                    w.cond.wait_for(
                        lambda: w.version > after or self.stopping or fd in gone, timeout_s
                    )
                    and w.version > after
                )
        finally:
            if fd is not None:
                self._socks.pop(fd, None)
                self._gone.discard(fd)
            with self._lock:
                w.waiters -= 1
                w.idle_since = time.monotonic()

    def since(self, game_id: str, after: int) -> list | None:
        """The entries after version ``after`` as the game's messages brought them (its
        last ``KEEP``), or None when it cannot tell them all (no watch, or ``after``
        before what it kept): then read them from the store."""
        w = self._watches.get(game_id)
        if w is None:
            return None
        with w.cond:
            recent = w.recent
            version = w.version
        if not recent or recent[0][0] > after + 1 or recent[-1][0] < version:
            return None
        return [e for e in recent if e[0] > after]

    def wake_all(self) -> None:
        """Wake every waiter now, and every later wait at once (the process is stopping:
        ``Services.drain``)."""
        self.stopping = True
        for w in list(self._watches.values()):
            with w.cond:
                w.cond.notify_all()

    @property
    def watching(self) -> int:
        return len(self._watches)

    def _subscribe(self, game_ids: list[str]) -> None:
        """Subscribe to the games' channels (their versions are read once confirmed). If
        that fails, the reader subscribes them again once it has a connection back."""
        channels = [self.store.live_channel(g) for g in game_ids]
        try:
            with self._send:
                if self._ps is None:
                    self._ps = self.store.live_pubsub()
                self._ps.ssubscribe(*channels)
        except Exception:  # noqa: BLE001 - Redis away: the reader's recovery resubscribes
            log.warning("could not subscribe to %d live channel(s)", len(channels), exc_info=True)
            self._broken = True
        self._kick.set()
        if self._reader is None or not self._reader.is_alive():
            with self._lock:
                if self._reader is None or not self._reader.is_alive():
                    self._reader = threading.Thread(target=self._run, name="live-hub",
                                                    daemon=True)  # fmt: skip
                    self._reader.start()
                    threading.Thread(target=self._tick, name="live-hub-chores",
                                     daemon=True).start()  # fmt: skip

    # ---------------------------------------------------------------- the reader

    def _run(self) -> None:
        """The reader: each message as it comes (a blocking read, no timer)."""
        backoff = 0.05
        while True:
            try:
                if self._broken:
                    self._broken = False
                    raise ConnectionError("a subscription failed")
                ps = self._ps
                if ps is None or ps.connection is None:
                    self._kick.wait(self.check_s)
                    self._kick.clear()
                    continue
                if ps.connection is not self._conn:  # a connection new to the reader
                    self._conn = ps.connection
                    self._conn.register_connect_callback(self._reconnected)
                    self._heard = time.monotonic()
                reply = ps.parse_response(block=True)
                self._heard = time.monotonic()
                if self._resync:
                    self._resync = False
                    self._forget_entries()  # a gap: what was published meanwhile is lost
                self._on(reply)
                backoff = 0.05
            except Exception as e:  # noqa: BLE001 - Redis away: start again on a new connection
                # the first failure in a row with its traceback, the next ones in a line
                log.warning("the live hub lost its connection: again in %.2f s: %s", backoff,
                            e, exc_info=backoff == 0.05)  # fmt: skip
                self._forget_entries()
                with self._send:
                    ps, self._ps, self._conn = self._ps, None, None
                    if ps is not None:
                        with contextlib.suppress(Exception):  # it is going anyway
                            ps.reset()
                time.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                with self._lock:
                    games = list(self._watches)
                if games:
                    self._subscribe(games)  # each version is read again once confirmed

    def _tick(self) -> None:
        """The chores, once a ``check_s``; a chore that fails is tried again at the next."""
        while True:
            time.sleep(self.check_s)
            try:
                self._chores()
            except Exception:  # noqa: BLE001 - Redis away: the reader starts again
                log.warning("the live hub's chores failed", exc_info=True)

    def _reconnected(self, _connection) -> None:
        """redis-py reconnected the Pub/Sub connection (and subscribed its channels
        again): what was published in between is lost."""
        self._resync = True

    def _on(self, reply) -> None:
        if not isinstance(reply, list):  # a PING's answer with no subscription
            return
        kind = reply[0]
        if kind == b"smessage":
            game_id = self.store.live_game(reply[1])
            w = self._watches.get(game_id) if game_id else None
            if w is None:
                return
            entries = self.store.live_entries(reply[2])
            with w.cond:
                recent = w.recent
                last = recent[-1][0] if recent else None
                if last is not None and entries[0][0] <= last:
                    entries = [e for e in entries if e[0] > last]
                if entries:
                    if last is not None and last + 1 != entries[0][0]:
                        recent = []  # not one after the other: keep only the new
                    w.recent = (recent + entries)[-KEEP:]
                    w.version = max(w.version, entries[-1][0])
                    w.cond.notify_all()
        elif kind == b"ssubscribe":
            game_id = self.store.live_game(reply[1])
            w = self._watches.get(game_id) if game_id else None
            if w is None:
                return
            version = self.store.versions([game_id])[0]  # after the confirmation: exact
            with w.cond:
                if version > w.version:
                    w.version = version
                    w.cond.notify_all()

    def _forget_entries(self) -> None:
        for w in list(self._watches.values()):
            with w.cond:
                w.recent = []

    def _chores(self) -> None:
        """Wake the streams whose client left; drop the watches no one waited on for
        ``linger_s``; ask a Pub/Sub connection that has said nothing for ``PING_S`` (its
        answer comes to the reader), and cut one silent for ``DEAD_S`` (or whose
        subscription failed), so that the reader starts again."""
        conn, now = self._conn, time.monotonic()
        if conn is not None and (self._broken or now - self._heard > DEAD_S):
            log.warning("the live hub's connection is silent or failed: cutting it")
            conn.disconnect()  # the reader's read fails: it starts again
        elif conn is not None and now - max(self._heard, self._pinged) > PING_S:
            self._pinged = now
            with self._send:
                if self._ps is not None:
                    self._ps.ping()
        socks = list(self._socks.items())
        if socks:
            poller = _os_poll()
            for fd, _sw in socks:
                poller.register(fd, select.POLLIN)
            for fd, _ev in poller.poll(0):
                sock_watch = self._socks.get(fd)
                if sock_watch is not None:
                    self._gone.add(fd)
                    w = sock_watch[1]
                    with w.cond:
                        w.cond.notify_all()
        now = time.monotonic()
        with self._lock:
            idle = [g for g, w in self._watches.items()
                    if w.waiters == 0 and now - w.idle_since > self.linger_s]  # fmt: skip
            for g in idle:
                del self._watches[g]
        if idle:
            with self._send:
                if self._ps is not None:
                    self._ps.sunsubscribe(*(self.store.live_channel(g) for g in idle))
