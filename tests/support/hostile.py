"""Hostile clients and honest players over real sockets, for the security tests and
``bench/flood.py``: clients that trickle their request bodies a byte at a time, and
players that play a game as fast as they are let, timing every request."""

import http.client
import json
import random
import socket
import threading
import time


class SlowBodies:
    """``n`` clients that each send a request's headers and then its body one byte every
    ``every_s`` seconds, on and on until ``stop()``: when the server answers (a 408 past
    its body deadline) or closes, the client opens a new connection and starts again.
    They aim at one game: ``POST /seats``, ``POST /actions`` with ``If-Match``, and
    chunked ``POST /actions``."""

    def __init__(self, port: int, game_id: str, n: int = 100, every_s: float = 0.5,
                 token: str = "x" * 43):  # fmt: skip
        self.port, self.game_id, self.n, self.every_s, self.token = port, game_id, n, every_s, token
        self._stop = threading.Event()
        self.answers: list[int] = []  # the statuses the server answered them with
        self.connections = 0
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True)
                         for i in range(n)]  # fmt: skip

    def _request(self, i: int) -> tuple[bytes, bytes]:
        body = json.dumps({"type": "ready", "pad": "x" * 120}).encode()
        kind = i % 5
        path = f"/v1/games/{self.game_id}/" + ("seats" if kind < 2 else "actions")
        head = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}",
                "Content-Type: application/json",
                f"Authorization: Bearer {self.token}"]  # fmt: skip
        if kind == 4:  # chunked: each byte its own chunk
            head.append("Transfer-Encoding: chunked")
            chunks = b"".join(b"1\r\n" + body[j : j + 1] + b"\r\n" for j in range(len(body)))
            return ("\r\n".join(head) + "\r\n\r\n").encode(), chunks + b"0\r\n\r\n"
        if kind >= 2:
            head.append('If-Match: "1"')
        head.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(head) + "\r\n\r\n").encode(), body

    def _run(self, i: int) -> None:
        while not self._stop.is_set():
            head, body = self._request(i)
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=30) as s:
                    with self._lock:
                        self.connections += 1
                    s.sendall(head)
                    s.settimeout(self.every_s)
                    for j in range(len(body)):
                        if self._stop.is_set():
                            return
                        s.sendall(body[j : j + 1])
                        try:
                            got = s.recv(64)
                        except TimeoutError:
                            continue
                        if got:  # answered before its body was whole
                            with self._lock:
                                self.answers.append(int(got.split(b" ", 2)[1]))
                        break
            except OSError:
                time.sleep(self.every_s)

    def start(self) -> "SlowBodies":
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(5)


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


class Players:
    """Both seats of a game, each on its own connection and thread, acting as fast as the
    game lets them (a read, then a legal action, ``pause_s`` apart); every request timed,
    every status kept, each seat's acknowledged actions (201) counted in ``acked``. A
    finished game is replaced by a new one with the same options."""

    def __init__(self, port: int, options: dict, pause_s: float = 0.05, seed: int = 1):
        self.port, self.options, self.pause_s = port, options, pause_s
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.statuses: dict[int, int] = {}
        self.results: list[tuple[str, str | None]] = []  # (game id, result) of ended games
        self.acked = [0, 0]  # each seat's actions answered 201
        self.errors: list[str] = []  # the bodies of the answers of 500 and above
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.new_game()

    def _call(self, conn, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        t = time.perf_counter()
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers=headers)  # fmt: skip
        r = conn.getresponse()
        data = r.read()
        took = time.perf_counter() - t
        with self._lock:
            self.latencies.append(took)
            self.statuses[r.status] = self.statuses.get(r.status, 0) + 1
            if r.status >= 500:
                self.errors.append(f"{method} {path} {r.status} {data[:300]!r}")
        return r.status, json.loads(data) if data else None

    def new_game(self) -> None:
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        _s, g = self._call(c, "POST", "/v1/games", {"game": "spit", "options": self.options})
        _s, j = self._call(c, "POST", f"/v1/games/{g['id']}/seats", {})
        c.close()
        self.game_id, self.tokens = g["id"], (g["token"], j["token"])

    def _seat(self, seat: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while not self._stop.is_set():
            gid, token = self.game_id, self.tokens[seat]
            status, view = self._call(conn, "GET", f"/v1/games/{gid}", token=token)
            if status == 200 and view["status"] != "running":
                if seat == 0:
                    with self._lock:
                        if self.game_id == gid:
                            self.results.append((gid, view["result"]))
                            self.new_game()
                continue
            acts = [a for a in (view or {}).get("legal_actions", []) if a["type"] != "resign"]
            if acts:
                status, _v = self._call(conn, "POST", f"/v1/games/{gid}/actions",
                                        self.rng.choice(acts), token=token)  # fmt: skip
                if status == 201:
                    with self._lock:
                        self.acked[seat] += 1
            self._stop.wait(self.pause_s)
        conn.close()

    def start(self) -> "Players":
        self._stop.clear()  # (started again after a stop: the same game goes on)
        self._threads = [threading.Thread(target=self._seat, args=(s,), daemon=True)
                         for s in (0, 1)]  # fmt: skip
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(10)
