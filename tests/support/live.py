"""A client of the seat channel (``GET /v1/games/{id}/live``) for the tests: websockets'
sync client, a ticket asked for over HTTP, every frame kept as received."""

import json
import random
import threading
import time

import requests
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.support.api import pick


def ticket(base: str, gid: str, token: str) -> dict:
    r = requests.post(
        f"{base}/v1/games/{gid}/tickets", headers={"Authorization": f"Bearer {token}"}
    )
    assert r.status_code == 201, r.text
    return r.json()


def open_channel(base: str, gid: str, token: str | None = None, after: int | None = None,
                 protocols: list[str] | None = None, **kw):  # fmt: skip
    """A connection to the game's channel: a seat's (a ticket asked for with ``token``),
    or a spectator's."""
    if protocols is None:
        protocols = ticket(base, gid, token)["protocols"] if token else ["spitlog.v1"]
    url = base.replace("http://", "ws://") + f"/v1/games/{gid}/live"
    if after is not None:
        url += f"?after={after}"
    return connect(url, subprotocols=protocols, open_timeout=30, close_timeout=10, **kw)


RESUMED = (1011, 1012, 4000)  # the close codes that say: reconnect and resume


class Viewer:
    """A channel read by a thread of its own: every text frame as received (``raw``) and
    parsed (``messages``), the view it was last sent, the close code it got. With
    ``resume``, a close that says so (``RESUMED``) is followed by a new connection with
    ``?after=`` the last version it has every event up to (``closes`` keeps the codes)."""

    def __init__(self, base: str, gid: str, token: str | None = None, after: int | None = None,
                 resume: bool = False):  # fmt: skip
        self.base, self.gid, self.token, self.resume = base, gid, token, resume
        self.ws = open_channel(base, gid, token, after)
        self.closes: list[int] = []
        self.seen = after  # every event up to this version received
        self.on_frame = None  # called with each frame and the version it shows at most
        self.raw: list[str] = []
        self.messages: list[dict] = []
        self.view: dict | None = None
        self.version = 0
        self.code: int | None = None
        self.reason = ""
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while True:
            try:
                for text in self.ws:
                    msg = json.loads(text)
                    with self.cond:
                        self.raw.append(text)
                        self.messages.append(msg)
                        if "state" in msg and msg["op"] in ("hello", "events"):
                            self.view, self.version = msg["state"], msg["version"]
                        if msg["op"] == "events" or (msg["op"] == "hello" and self.seen is None):
                            self.seen = msg["version"]
                        if self.on_frame is not None:
                            inner = msg.get("body") or msg.get("problem") or {}
                            at = max(self.version, msg.get("version") or 0,
                                     inner.get("version") or 0)  # fmt: skip
                            self.on_frame(text, at)
                        self.cond.notify_all()
            except ConnectionClosed:
                pass
            rcvd = self.ws.protocol.close_rcvd
            code = rcvd.code if rcvd is not None else 1006
            self.closes.append(code)
            if self.resume and code in RESUMED:
                try:
                    self.ws = open_channel(self.base, self.gid, self.token, self.seen)
                    continue
                except Exception:  # noqa: BLE001 - the server not back yet
                    time.sleep(0.2)
                    self.closes.append(-1)
                    continue
            with self.cond:
                self.code = code
                self.reason = rcvd.reason if rcvd is not None else ""
                self.cond.notify_all()
            return

    def wait(self, predicate, timeout: float = 60) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: predicate(self), timeout)

    def reply(self, mid: str, timeout: float = 60, closing: bool = False) -> dict | None:
        """The answer (``result``, ``problem``, ``pong``) to the message ``mid``; with
        ``closing``, None if the channel closed for good before it came."""
        found: list = []

        def answered(v) -> bool:
            found[:] = [m for m in v.messages if m.get("id") == mid]
            return bool(found) or v.code is not None

        assert self.wait(answered, timeout), f"no answer to {mid}"
        if not found and closing:
            return None
        assert found, f"closed {self.code} {self.reason} before answering {mid}"
        return found[0]

    def send(self, msg: dict) -> None:
        self.ws.send(json.dumps(msg))

    def closed(self, timeout: float = 60) -> int | None:
        self.wait(lambda v: v.code is not None, timeout)
        return self.code

    def versions(self) -> list[int]:
        """The versions of every event received, in order."""
        with self.cond:
            return [e["version"] for m in self.messages if m["op"] == "events"
                    for e in m["events"]]  # fmt: skip

    def close(self) -> None:
        self.resume = False
        self.ws.close()
        self.thread.join(10)


def until(condition, timeout: float = 60, step: float = 0.01) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(step)
    return True


def _sent(v: Viewer, msg: dict) -> bool:
    """Send ``msg`` on ``v``'s channel; False if it closed before (the game ended meanwhile:
    the caller looks at the close code)."""
    try:
        v.send(msg)
    except ConnectionClosed:
        v.closed()
        return False
    return True


def play_over_channels(seats: list[Viewer], seed: int, illegal=None) -> int:
    """Random legal actions of the seats, each chosen on the view its channel was pushed
    and sent on that channel (with the version it saw and a key), until the game is
    over; the number of actions acknowledged. ``illegal(view, rng)``: an action seat 1
    also sends now and then (15%), which the rules likely refuse."""
    rng = random.Random(seed)
    acked = 0
    for step in range(20_000):
        choices = []
        for seat, v in enumerate(seats):
            assert v.wait(lambda v: v.view is not None)
            with v.cond:
                view, version = v.view, v.version
            if view["status"] in ("finished", "aborted"):
                return acked
            action = pick(view, rng)
            if action is not None:
                choices.append((seat, action, version))
        if not choices:  # neither can move until the other's view catches up
            top = max(v.version for v in seats)
            assert until(lambda top=top: min(v.version for v in seats) >= top)
            continue
        seat, action, version = rng.choice(choices)
        if illegal is not None and rng.random() < 0.15:
            mid = f"i{step}"
            if _sent(seats[1], {"op": "act", "id": mid, "action": illegal(seats[1].view, rng)}):
                seats[1].reply(mid, closing=True)
        v, mid = seats[seat], f"m{step}"
        sent = _sent(v, {"op": "act", "id": mid, "action": action, "expected_version": version,
                         "idempotency_key": mid})  # fmt: skip
        reply = v.reply(mid, closing=True) if sent else None
        if reply is None:  # the game ended (the other seat's move): the channel closed
            assert v.code == 1000, (v.code, v.reason)
            return acked
        if reply["op"] == "result":
            acked += 1
            done = reply["body"]["version"]
            assert v.wait(lambda v, done=done: v.version >= done)
        else:  # the other seat moved first: 412, or the move is no longer legal
            assert reply["status"] in (409, 412, 422), reply
    raise AssertionError("the game did not end")
