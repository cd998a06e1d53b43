"""Live updates: one subscription per watched game per process, however many clients.

SSE streams and long-polls wait here for a game's log to grow past the version they
have (and a seek's long-polls for the seek's status to change: ``wait_seek``, the same
way, the seek's version for the game's). Each append publishes what it appended on the
game's shard channel (``RedisStore.live_channel``, in the append's own script), and each
change of a seek its new version on the seek's (``SeekStore.live_channel``). A process
holds one Pub/Sub connection (on a Cluster, one per node that serves a watched game),
subscribed to the channels of the games its clients wait on, and a reader per
connection (a thread; a greenlet under gevent) that takes each message, keeps the latest
entries of its game (``since``) and wakes that game's waiters. So an append reaches a
process in one push whatever the number of its streams, and no stream, and no watched
game, costs a Redis command while nothing happens. A game's subscription goes once no
one has waited on it for ``linger_s``, and a connection once no game of it is watched.

What a process knows of a game is exact: after each ``SSUBSCRIBE`` is confirmed (a new
game, and every game of a connection again once it is made anew), the game's version is
read (``XLEN``); every append after that confirmation reaches the process as a message.
A message lost with a dropped connection is thus covered by the version read after the
resubscription, and the entries of the gap are read from the store (``since`` answers
None for what it does not hold).

Each connection is its reader's alone: the reader makes it (and makes it again after a
failure, subscribing every game it serves), reads it, and is the only one to read it;
a waiter, or the chores, only send on it (``SSUBSCRIBE``, ``SUNSUBSCRIBE``, ``PING``),
under the connection's lock, and a failed send only marks it broken for the reader.

A chores thread (greenlet) looks, every ``check_s``, whether the clients of the waiting
streams are still there: one ``poll`` of all their sockets at once, instead of each
stream waking to look at its own; a client gone wakes its stream. It also drops the
watches no one waits on, and keeps each connection honest (a ``PING`` when it has been
quiet for ``PING_S``, cut when it stays silent for ``DEAD_S``; a reader that died made
anew). What needs the store or the Cluster's map is its work too, woken by the readers
at once: the versions of the games just confirmed, and the games to subscribe elsewhere
(a slot moved, a node gone), all of a burst in one go. So a reader only reads and wakes:
no pool it waits on (the requests' may be busy for seconds), no round trip in its way.

A subscription refused for good (``NOPERM``: an ACL user without the channels;
``unknown command``: a Redis before 7.0) turns the process to polling: each wait reads
its game's version every ``POLL_S``, and the log says why once. One refused for a
passing reason (``BUSY``, ``LOADING``, ``CLUSTERDOWN``) makes the connection anew; on a
Cluster, a ``MOVED`` one sends its games where their slots are now.
"""

import contextlib
import logging
import select
import socket
import threading
import time

import redis
from gevent import monkey

log = logging.getLogger(__name__)

_os_poll = monkey.get_original("select", "poll")  # never a switch, no descriptor limit

KEEP = 64  # entries a game's watch keeps for the streams it wakes
PING_S = 15.0  # a connection heard nothing from for this long is asked (PING) ...
DEAD_S = 45.0  # ... and one heard nothing from for this long is cut and made anew
BATCH = 256  # versions read in one round trip after confirmations
POLL_S = 0.25  # with no shard Pub/Sub (Redis < 7.0), how often a wait reads the store
SEEK = "seek:"  # a seek's watch is named ``seek:<its id>``; a game's, by the game's id


class Topics:
    """What a hub watches, each by its name: a game by its id (the event store's log and
    live channel), a seek by ``seek:<its id>`` (the seek store's hash and channel, when
    the hub is given the seek store). Both publish in one form: the first new version,
    then a JSON object a line. Connections are the event store's (one Redis, or Cluster)."""

    def __init__(self, games, seeks=None):
        self.games = games  # service.store.redis.RedisStore
        self.seeks = seeks  # service.store.seeks.SeekStore, or None: no seek is watched

    def _split(self, name: str):
        if name.startswith(SEEK):
            if self.seeks is None:
                raise ValueError(f"{name}: this hub watches no seek")
            return self.seeks, name[len(SEEK) :]
        return self.games, name

    def live_node(self, name: str):
        store, key = self._split(name)
        return store.live_node(key)

    def live_channel(self, name: str) -> str:
        store, key = self._split(name)
        return store.live_channel(key)

    def live_game(self, channel) -> str | None:
        """The name of what a live channel is about (a game's id, ``seek:<id>``), or None."""
        game = self.games.live_game(channel)
        if game is not None or self.seeks is None:
            return game
        seek = self.seeks.live_seek(channel)
        return None if seek is None else SEEK + seek

    def versions(self, names: list[str]) -> list[int]:
        """The versions of games and seeks: one round trip for each store named."""
        seeks = [n for n in names if n.startswith(SEEK)]
        if not seeks:
            return self.games.versions(names)
        games = [n for n in names if not n.startswith(SEEK)]
        got = dict(zip(games, self.games.versions(games) if games else [], strict=True))
        got.update(zip(seeks, self.seeks.versions([n[len(SEEK) :] for n in seeks]),
                       strict=True))  # fmt: skip
        return [got[n] for n in names]

    def acl_channels(self) -> str:
        """The channel patterns an ACL user needs, as ``ACL SETUSER`` takes them."""
        names = ["*"] + ([SEEK + "*"] if self.seeks is not None else [])
        return " ".join("&" + self.live_channel(n) for n in names)

    def live_entries(self, data: bytes):
        return self.games.live_entries(data)

    def live_connect(self, node=None, timeout_s: float | None = None):
        return self.games.live_connect(node, timeout_s)

    def live_refresh(self) -> None:
        self.games.live_refresh()

    def live_node_gone(self, node) -> bool:
        return self.games.live_node_gone(node)


class _Watch:
    __slots__ = ("node", "version", "recent", "cond", "waiters", "idle_since")

    def __init__(self, node):
        self.node = node  # the connection (its node: None on a single Redis) it is on
        self.version = -1  # unknown until its subscription is confirmed
        self.recent: list = []  # the latest entries, one after the other
        self.cond = threading.Condition()
        self.waiters = 0
        self.idle_since = time.monotonic()


class _Link:
    """One Pub/Sub connection (a Redis, or one node of a Cluster) and its reader."""

    def __init__(self, hub: "Hub", node):
        self.hub, self.node = hub, node
        self.conn = None  # the reader's connection, once made
        self.lock = threading.Lock()  # every send on it
        self.broken = False  # a send failed, or it was cut: the reader makes it anew
        self.heard = self.pinged = time.monotonic()
        self.retired = False  # its node left the Cluster, its watches moved: it ends
        self.asked = False  # its replies asked for rehomes: the chores, once they are read
        self.thread = threading.Thread(target=self._run, name=f"live-{node or 'redis'}",
                                       daemon=True)  # fmt: skip
        self.thread.start()

    def send(self, name: str, *channels) -> None:
        """Send ``name`` (``SSUBSCRIBE``, ``SUNSUBSCRIBE``: one command a channel, for a
        Cluster takes one slot a command; ``PING``) if the connection is up (if not, the
        reader subscribes every game of it once it is made). A send that fails marks
        the connection broken (redis-py closes it, too): its reader's read fails, and
        the reader makes it anew."""
        with self.lock:
            conn = self.conn
            # redis-py would connect a closed connection anew, unsubscribed: never here
            if conn is None or self.broken or getattr(conn, "_sock", None) is None:
                return
            try:
                _send(conn, name, channels)
            except Exception as e:  # noqa: BLE001 - the reader's read fails too: it starts again
                self.broken = True
                log.warning("the live hub could not send %s: %s", name, e)

    def cut(self) -> None:
        """Make the reader start again (its connection broken, or silent): its socket is
        shut, so that its read fails; the reader itself closes it and makes a new one."""
        with self.lock:
            self.broken = True
            sock = getattr(self.conn, "_sock", None) if self.conn is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def _run(self) -> None:
        hub = self.hub
        backoff, failures = 0.05, 0
        while not self.retired:
            conn = None
            try:
                conn = hub.store.live_connect(self.node, DEAD_S)
                self.heard = time.monotonic()
                with hub._lock:  # no watch comes or goes while its subscription is sent
                    if self.retired:  # ended while it connected: nothing of it is watched
                        break
                    games = [g for g, w in hub._watches.items() if w.node == self.node]
                    with self.lock:
                        self.conn, self.broken = conn, False
                        if games:
                            _send(conn, "SSUBSCRIBE", map(hub.store.live_channel, games))
                hub._forget_entries(self.node)  # a gap: what was published meanwhile is lost
                if failures:
                    log.warning("the live hub is connected again (%s)", self.node or "redis")
                backoff, failures = 0.05, 0
                while not self.broken and not self.retired:
                    try:  # a read that times out (DEAD_S: pinged every PING_S) is a failure
                        reply = conn.read_response(disconnect_on_error=False)
                    except redis.ResponseError as e:  # refused, the connection kept
                        hub._refused(self, e)
                        continue
                    self.heard = time.monotonic()
                    try:
                        hub._on(self, reply)
                    except Exception:  # noqa: BLE001 - one message; the link goes on
                        log.exception("the live hub could not take a message")
                    if (hub._pending or self.asked) and not _buffered(conn):
                        self.asked = False  # the replies at hand taken: the chores go on
                        hub._wake.set()
            except Exception as e:  # noqa: BLE001 - Redis away: a new connection, later
                if not self.retired:  # (retired: cut on purpose, no game of it watched)
                    failures += 1
                    # the first failure in a row with its traceback, the next ones in a line
                    log.warning("the live hub lost its connection (%s): again in %.2f s: %s",
                                self.node or "redis", backoff, e,
                                exc_info=failures == 1)  # fmt: skip
            finally:
                with self.lock:
                    self.conn = None
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.disconnect()
            if self.node is not None and failures >= 3 and not self.retired:
                hub._ask_rehome(self)  # a Cluster node that does not answer: its slots moved?
            time.sleep(backoff)
            backoff = min(backoff * 2, 2.0)


def _buffered(conn) -> bool:
    """Whether hiredis's buffer holds more replies already read (False if unknown)."""
    reader = getattr(getattr(conn, "_parser", None), "_reader", None)
    return reader is not None and hasattr(reader, "has_data") and bool(reader.has_data())


def _send(conn, name: str, channels) -> None:
    """``name`` once a channel (or once, with none), in one write."""
    commands = [(name, c) for c in channels] or [(name,)]
    conn.send_packed_command(conn.pack_commands(commands))


class Hub:
    """Wait for a game's version (or a seek's) to pass a mark, sharing one subscription per
    game (or seek)."""

    def __init__(self, store, *, seeks=None, linger_s: float = 5.0, check_s: float = 1.0):
        self.store = Topics(store, seeks)  # what it watches: the games (and the seeks)
        self.linger_s = linger_s  # a watch with no waiters stays this long
        self.check_s = check_s  # how often the waiting streams' clients are looked at
        self._watches: dict[str, _Watch] = {}
        self._links: dict = {}  # node -> _Link
        self._lock = threading.Lock()  # the watches and the links; taken before a link's
        self._socks: dict[int, _Watch] = {}  # fd of a waiting client -> its watch
        self._gone: set[int] = set()  # the fds whose client left, until their wait ends
        self._pending: set[str] = set()  # games confirmed, whose version is to read
        self._retry: set[str] = set()  # ... whose read failed: again at the next round
        self._pending_lock = threading.Lock()  # a reader adds, the chores take
        self._rehomes: dict = {}  # link -> the games to subscribe where they are now (None: all)
        self._wake = threading.Event()  # the chores: versions to read, games to rehome
        self._chores_thread: threading.Thread | None = None
        self.stopping = False
        self.closed = False  # ``close``: nothing of it runs again
        self.polling = False  # the Redis has no shard Pub/Sub: waits poll the store

    # ---------------------------------------------------------------- the waiting side

    def wait(self, game_id: str, after: int, timeout_s: float, sock=None) -> bool:
        """Block until the game's log holds more than ``after`` events, up to ``timeout_s``;
        True if it does. False on the timeout, once ``sock`` (the waiting client's, if
        given) reads as closed or readable, or when ``wake_all`` is called: the caller
        looks why. Callers read the new events from ``since`` or the store."""
        if self.closed:
            return False
        link = None
        deadline = time.monotonic() + timeout_s
        with self._lock:
            w = self._watches.get(game_id)
            if w is None:
                node = self.store.live_node(game_id)
                w = self._watches[game_id] = _Watch(node)
                if not self.polling:  # polling: no subscription, no connection for it
                    link = self._link(node)
            if link is None:
                self._keep_chores()  # (``_link`` keeps them too)
            w.waiters += 1
        fd = None
        try:
            if link is not None:
                link.send("SSUBSCRIBE", self.store.live_channel(game_id))
            if sock is not None:
                fd = sock.fileno()
                self._socks[fd] = w
            gone = self._gone
            if not self.polling:
                with w.cond:
                    w.cond.wait_for(
                        lambda: w.version > after or self.stopping or fd in gone or self.polling,
                        timeout_s,
                    )
                    if not self.polling or self.stopping or fd in gone:
                        return w.version > after
            # no Pub/Sub (from the start, or since this wait began): the game's version
            # read every POLL_S, up to the wait's end
            while not self.stopping and fd not in gone:
                with contextlib.suppress(Exception):  # Redis away: read again next time
                    if self.store.versions([game_id])[0] > after:
                        return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                with w.cond:
                    w.cond.wait_for(lambda: self.stopping or fd in gone, min(left, POLL_S))
            return False
        finally:
            if fd is not None:
                self._socks.pop(fd, None)
                self._gone.discard(fd)
            with self._lock:
                w.waiters -= 1
                w.idle_since = time.monotonic()

    def wait_seek(self, seek_id: str, after: int, timeout_s: float, sock=None) -> bool:
        """``wait`` for a seek: until its version (``SeekStore``: how many times its status
        changed) passes ``after``; True if it does."""
        return self.wait(SEEK + seek_id, after, timeout_s, sock)

    def since(self, game_id: str, after: int) -> list | None:
        """The entries after version ``after`` as the game's messages brought them (its
        last ``KEEP``), or None when it cannot tell them all (no watch, ``after`` before
        what it kept, or a version known past what it holds): then read the store."""
        w = self._watches.get(game_id)
        if w is None:
            return None
        with w.cond:
            recent, version = w.recent, w.version
        if not recent or recent[0][0] > after + 1 or recent[-1][0] < version:
            return None
        return [e for e in recent if e[0] > after]

    def wake_all(self, stopping: bool = True) -> None:
        """Wake every waiter now, and (``stopping``: the process is stopping,
        ``Services.drain``) every later wait at once."""
        self.stopping = self.stopping or stopping
        for w in list(self._watches.values()):
            with w.cond:
                w.cond.notify_all()

    def close(self) -> None:
        """Stop the hub for good (a process, or a test, done with its Redis): every wait
        ends at once and later ones return at once, each link's reader ends (none
        connects again), and the chores with them."""
        self.closed = True
        self.wake_all()
        with self._lock:
            links, self._links = list(self._links.values()), {}
            for link in links:
                link.retired = True
                link.cut()
        self._wake.set()

    @property
    def watching(self) -> int:
        return len(self._watches)

    def _link(self, node) -> _Link:
        """The link of ``node``, started if new (under ``_lock``); and the chores."""
        link = self._links.get(node)
        if link is None or link.retired or not link.thread.is_alive():
            link = self._links[node] = _Link(self, node)
        self._keep_chores()
        return link

    def _keep_chores(self) -> None:
        """The chores thread, started if it is not running (under ``_lock``)."""
        if self._chores_thread is None or not self._chores_thread.is_alive():
            self._chores_thread = threading.Thread(target=self._tick, name="live-chores",
                                                   daemon=True)  # fmt: skip
            self._chores_thread.start()

    # ---------------------------------------------------------------- the readers' side

    def _on(self, link: _Link, reply) -> None:
        """One reply read from ``link``'s connection."""
        if not isinstance(reply, list) or len(reply) < 3:
            return  # a PING's answer
        kind, game_id = reply[0], self.store.live_game(reply[1])
        w = self._watches.get(game_id) if game_id else None
        if w is None:
            return
        if kind == b"smessage":
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
            with self._pending_lock:  # its version, read once the confirmations are in
                self._pending.add(game_id)
            if len(self._pending) >= BATCH:
                self._wake.set()
        elif kind == b"sunsubscribe" and w.node == link.node:
            # the server's (on a Cluster: its slot moved), or ours from before the watch
            # came back: subscribed again either way
            if link.node is None:
                link.send("SSUBSCRIBE", self.store.live_channel(game_id))
            else:
                self._ask_rehome(link, game_id, wake=False)
                link.asked = True

    def _refused(self, link: _Link, e: Exception) -> None:
        """A command of ``link`` was refused. On a Cluster, a slot that moved: its games go
        where it is now (once the replies at hand are read). No shard Pub/Sub (before
        Redis 7.0) or an ACL user without the channels (``NOPERM``): the waits poll the
        store, from now on. Anything else (``BUSY``, ``CLUSTERDOWN``, ``LOADING``): the
        connection is made anew, every game of it subscribed again, with its backoff."""
        text = str(e)
        if link.node is not None and text.startswith(("MOVED", "ASK")):
            self._ask_rehome(link, wake=False)
            link.asked = True
            return
        if isinstance(e, redis.exceptions.NoPermissionError) or "unknown command" in text.lower():
            if not self.polling:
                why = ("this Redis has no shard Pub/Sub (Redis 7.0 or later has)"
                       if "unknown command" in text.lower() else
                       f"the live channels' subscription was refused ({type(e).__name__}: "
                       f"{text}; an ACL user needs the channels too, e.g. "
                       f"'{self.store.acl_channels()}')")  # fmt: skip
                log.error("%s: live updates poll the store every %.2f s", why, POLL_S)
                self.polling = True
                self.wake_all(stopping=False)
            return
        log.warning("the live hub's command was refused (%s): its connection is made anew: %s",
                    link.node or "redis", e)  # fmt: skip
        link.cut()

    def _ask_rehome(self, link: _Link, game_id: str | None = None, wake: bool = True) -> None:
        """Have the chores subscribe ``game_id`` (None: every game of ``link``) where its
        slot is now: at once (``wake``), or at their next round (an ask put back); the
        asks of a burst (a slot moved: one per game) go in one."""
        with self._lock:
            games = self._rehomes.get(link, set())
            if games is not None:
                if game_id is None:
                    games = None
                else:
                    games.add(game_id)
            self._rehomes[link] = games
        if wake:
            self._wake.set()

    def _rehome_asked(self) -> None:
        """The rehomes asked for (``_ask_rehome``), after one read of the Cluster's slots;
        if that read fails (the Cluster away, or in the middle of a failover), they are
        put back for the next round."""
        with self._lock:
            asked, self._rehomes = self._rehomes, {}
        if not asked:
            return
        try:
            self.store.live_refresh()
        except Exception as e:  # noqa: BLE001 - the Cluster away: again at the next round
            log.warning("the live hub could not read the Cluster's slots: %s", e)
            for link, games in asked.items():
                for g in [None] if games is None else games:
                    self._ask_rehome(link, g, wake=False)
            return
        for link, games in asked.items():
            self._rehome(link, games)

    def _rehome(self, link: _Link, games: set[str] | None = None) -> None:
        """Subscribe ``games`` (None: every game of ``link`` that is served elsewhere now)
        where the Cluster's slots, just read again, say they are; a game named (its
        channel unsubscribed by the server) is subscribed again even on the same node; a
        game whose slot no node serves yet (a failover under way) is asked for again at
        the next round. A link left with no game, on a node no longer in the Cluster,
        ends."""
        moved: dict = {}
        unplaced = []
        with self._lock:
            for g, w in self._watches.items():
                if w.node == link.node and (games is None or g in games):
                    try:
                        w.node = self.store.live_node(g)
                    except Exception:  # noqa: BLE001 - no node has its slot yet
                        unplaced.append(g)
                        continue
                    if games is None and w.node == link.node:
                        continue  # still there: its link subscribes it, if it is made anew
                    moved.setdefault(w.node, []).append(g)
            if not any(w.node == link.node for w in self._watches.values()) and (
                self.store.live_node_gone(link.node)
            ):
                link.retired = True
                link.cut()
                if self._links.get(link.node) is link:
                    del self._links[link.node]
            links = {node: self._link(node) for node in moved}
        for node, gs in moved.items():
            self._forget_entries(node, gs)
            links[node].send("SSUBSCRIBE", *map(self.store.live_channel, gs))
        for g in unplaced:
            self._ask_rehome(link, g, wake=False)

    def _read_versions(self, retry: bool = False) -> None:
        """The versions of the games whose subscriptions were confirmed (one round trip):
        from them on, every append reaches the process. Those of a read that failed are
        read again at the chores' next round (``retry``), not at the next message."""
        with self._pending_lock:
            taken, self._pending = self._pending, set()
            if retry:
                taken, self._retry = taken | self._retry, set()
        if not taken:
            return
        games = list(taken)
        try:
            versions = self.store.versions(games)
        except Exception as e:  # noqa: BLE001 - Redis away: again at the next round
            with self._pending_lock:
                self._retry |= taken
            log.warning("the live hub could not read %d version(s): %s", len(games), e)
            return
        for game_id, version in zip(games, versions, strict=True):
            w = self._watches.get(game_id)
            if w is None:
                continue
            with w.cond:
                if version > w.version:
                    w.version = version
                    w.cond.notify_all()

    def _forget_entries(self, node, games=None) -> None:
        for g, w in list(self._watches.items()):
            if w.node == node and (games is None or g in games):
                with w.cond:
                    w.recent = []

    # ---------------------------------------------------------------- the chores

    def _tick(self) -> None:
        """The chores: every ``check_s``, each of them; at once when a reader wakes them
        (``_wake``), the versions to read and the games to rehome. Until nothing is
        watched (``_link`` starts them again with the next watch), or the hub is closed."""
        due = time.monotonic() + self.check_s
        while not self.closed:
            if self._wake.wait(max(0.0, due - time.monotonic())):
                self._wake.clear()
                if self.closed:
                    break
                self._chore(self._read_versions)
                self._chore(self._rehome_asked)
            if time.monotonic() < due:
                continue
            due = time.monotonic() + self.check_s
            for chore in (self._reap, self._expire, self._keep_links, self._retry_versions,
                          self._rehome_asked):  # fmt: skip
                self._chore(chore)
            with self._lock:
                if not self._watches and not self._links:
                    self._chores_thread = None
                    return
        with self._lock:
            self._chores_thread = None

    def _retry_versions(self) -> None:
        self._read_versions(retry=True)

    @staticmethod
    def _chore(chore) -> None:
        try:
            chore()
        except Exception:  # noqa: BLE001 - each chore again at the next round
            log.warning("the live hub's %s failed", chore.__name__, exc_info=True)

    def _reap(self) -> None:
        """Wake the streams whose client left (or sent something): one poll of them all."""
        socks = list(self._socks.items())
        if not socks:
            return
        poller = _os_poll()
        for fd, _w in socks:
            poller.register(fd, select.POLLIN)
        for fd, _ev in poller.poll(0):
            w = self._socks.get(fd)
            if w is not None:
                self._gone.add(fd)
                with w.cond:
                    w.cond.notify_all()

    def _expire(self) -> None:
        """Drop the watches no one waited on for ``linger_s``, and unsubscribe them; under
        the hub's lock, so that a wait that brings one back subscribes after this. A link
        left with no watch ends (its connection and reader with it), as the watches do."""
        now = time.monotonic()
        with self._lock:
            idle = [(g, w) for g, w in self._watches.items()
                    if w.waiters == 0 and now - w.idle_since > self.linger_s]  # fmt: skip
            by_node: dict = {}
            for g, w in idle:
                del self._watches[g]
                by_node.setdefault(w.node, []).append(self.store.live_channel(g))
            for node, channels in by_node.items():
                link = self._links.get(node)
                if link is not None:
                    link.send("SUNSUBSCRIBE", *channels)
            watched = {w.node for w in self._watches.values()}
            for node in [n for n in self._links if n not in watched]:
                link = self._links.pop(node)
                link.retired = True
                link.cut()

    def _keep_links(self) -> None:
        """Ask a quiet connection (its answer comes to its reader); cut a silent or broken
        one, so that its reader makes it anew."""
        now = time.monotonic()
        with self._lock:  # a reader that died (it never should): made anew
            for node, link in list(self._links.items()):
                if not link.retired and not link.thread.is_alive():
                    log.error("the live hub's reader of %s had stopped: started again",
                              node or "redis")  # fmt: skip
                    self._links[node] = _Link(self, node)
        for link in list(self._links.values()):
            if link.conn is None:
                continue
            if link.broken or now - link.heard > DEAD_S:  # (its read times out too)
                log.warning("the live hub cuts its connection (%s): %s", link.node or "redis",
                            "broken" if link.broken else f"silent {DEAD_S:.0f} s")  # fmt: skip
                link.cut()
            elif now - max(link.heard, link.pinged) > PING_S:
                link.pinged = now
                link.send("PING")
