"""`spitlog serve` as an operator runs it: one metrics view over its gunicorn processes,
and a graceful stop on SIGTERM (requests in flight finish, SSE streams end with a retry
hint and resume on the next server by Last-Event-ID, missing nothing)."""

import json
import re
import signal
import socket
import threading
import time
from pathlib import Path

import requests

from tests.support.processes import free_port, start, stop, wait_ready

PATIENT = Path(__file__).resolve().parents[1] / "support" / "patient_serve.py"
GRACEFUL_S = 60  # the stop's graceful timeout in the SIGTERM test (patient_serve.py)


def serve(redis_url: str, script: Path | None = None, **env) -> tuple:
    port = free_port()
    full = {"SPITLOG_REDIS_URL": redis_url, "SPITLOG_BIND": f"127.0.0.1:{port}",
            "SPITLOG_RATE_REQUESTS": "0", "SPITLOG_RATE_ACTIONS": "0",
            "SPITLOG_RATE_GAMES": "0", "SPITLOG_RATE_SEAT": "0", **env}  # fmt: skip
    proc = start(["serve"], full, script)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc)
    except RuntimeError:
        raise AssertionError(stop(proc)) from None
    return proc, base, port


def health_count(text: str) -> float:
    """The count of ``GET /healthz`` answered 200 in a scrape."""
    total = 0.0
    for line in text.splitlines():
        labels = ('route="/healthz"', 'status="200"', 'method="GET"')
        if line.startswith("spitlog_http_requests_total{") and all(x in line for x in labels):
            total += float(line.rsplit(" ", 1)[1])
    return total


def test_every_scrape_counts_the_requests_of_every_gunicorn_process(redis_url, tmp_path):
    """Two gevent processes serve requests on fresh connections (60 at least, until both
    have served some: which one accepts a connection is the kernel's choice); five
    scrapes of the metrics listener (``SPITLOG_METRICS_BIND``), whichever process answers
    each, all count them all (one process's own registry would count its share). A file
    a former run left counts for nothing. The API's listener answers ``/metrics`` 404."""
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    (metrics_dir / "counter_999999.db").write_bytes(b"\0" * 4096)  # a former run's
    metrics_port = free_port()
    proc, base, _port = serve(redis_url, SPITLOG_WORKERS="2",
                              SPITLOG_METRICS_BIND=f"127.0.0.1:{metrics_port}",
                              PROMETHEUS_MULTIPROC_DIR=str(metrics_dir))  # fmt: skip
    try:
        n = 0

        def writers() -> set[str]:
            return {p.stem.rsplit("_", 1)[1] for p in metrics_dir.glob("counter_*.db")} - {"999999"}

        while n < 60 or (len(writers()) < 2 and n < 5000):
            assert requests.get(f"{base}/healthz", headers={"Connection": "close"}).ok
            n += 1
        assert len(writers()) == 2, f"not both processes served: {writers()}"
        counts = []
        for _ in range(5):
            r = requests.get(f"http://127.0.0.1:{metrics_port}/metrics",
                             headers={"Connection": "close"})  # fmt: skip
            assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/plain")
            counts.append(health_count(r.text))
        assert counts == [n] * 5, counts
        # the metrics are the metrics listener's alone, and it answers nothing else
        public = requests.get(f"{base}/metrics")
        assert public.status_code == 404 and "spitlog_" not in public.text
        assert public.headers["Content-Type"] == "application/problem+json"
        other = requests.get(f"http://127.0.0.1:{metrics_port}/healthz")
        assert other.status_code == 404 and other.json()["status"] == 404
    finally:
        out = stop(proc)
    assert proc.returncode == 0, out
    # no line per request unless SPITLOG_ACCESS_LOG asks (gunicorn's own access line is off:
    # a log configuration turns it on in gunicorn, and a stream nobody reads then fills)
    assert "gunicorn.access" not in out and "/healthz" not in out, out[-2000:]


def _slow_action(port: int, gid: str, token: str, body: bytes, held: threading.Event,
                 go_on: threading.Event, answer: list) -> None:  # fmt: skip
    """A POST of an action with ``Expect: 100-continue``: once the server answers ``100
    Continue`` (its worker has parsed the request and is about to hand it to the app)
    the first 5 bytes of the body, then ``held``; the rest once ``go_on``. ``answer``
    gets the interim answer, then the final one."""
    head = (f"POST /v1/games/{gid}/actions HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nExpect: 100-continue\r\n"
            f"Connection: close\r\n\r\n").encode()  # fmt: skip
    with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
        s.sendall(head)
        interim = b""
        while b"\r\n\r\n" not in interim and (chunk := s.recv(1)):
            interim += chunk
        answer.append(interim.decode(errors="replace"))
        if not interim.startswith(b"HTTP/1.1 100 "):
            return
        s.sendall(body[:5])
        held.set()
        go_on.wait(120)
        s.sendall(body[5:])
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    answer.append(data.decode(errors="replace"))


def _read_stream(base: str, gid: str, last_id: str | None, out: list, lines: list) -> None:
    headers = {"Accept": "text/event-stream"}
    if last_id is not None:
        headers["Last-Event-ID"] = last_id
    with requests.get(f"{base}/v1/games/{gid}/events", headers=headers, stream=True,
                      timeout=30) as r:  # fmt: skip
        assert r.status_code == 200
        for line in r.iter_lines(decode_unicode=True):
            lines.append(line)
            if line.startswith("data: "):
                out.append(json.loads(line[6:])["version"])


def _until(condition, timeout: float = 60) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def test_sigterm_lets_requests_finish_and_streams_resume_on_the_next_server(redis_url):
    """SIGTERM while an SSE stream is open and an action is in flight (its request parsed
    by the worker, ``100 Continue`` answered, half its body sent): the stream ends with a
    ``retry:`` hint, the action is answered 201 once its body comes, and the server exits
    by itself, its worker neither killed at the graceful timeout (``GRACEFUL_S`` here) nor
    held until it."""
    proc, base, port = serve(redis_url, PATIENT, SPITLOG_WORKERS="1",
                             TEST_GRACEFUL_TIMEOUT_S=str(GRACEFUL_S),
                             SPITLOG_BODY_TIMEOUT_S="120")  # fmt: skip
    g = requests.post(f"{base}/v1/games", json={"game": "spit"}).json()
    gid, t0 = g["id"], g["token"]
    t1 = requests.post(f"{base}/v1/games/{gid}/seats", json={}).json()["token"]
    seen, lines = [], []
    reader = threading.Thread(target=_read_stream, args=(base, gid, None, seen, lines))
    reader.start()
    assert _until(lambda: len(seen) >= 3), seen  # created, seat taken, dealt
    assert seen == [1, 2, 3], seen

    held, go_on, answer = threading.Event(), threading.Event(), []
    ready = json.dumps({"type": "ready"}).encode()
    slow = threading.Thread(target=_slow_action, args=(port, gid, t0, ready, held, go_on,
                                                       answer))  # fmt: skip
    slow.start()
    assert held.wait(60), answer  # the request is in the server's hands, half its body sent
    t_term = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    reader.join(60)  # the server drains: the stream ends, the request in flight goes on
    assert not reader.is_alive(), "the SSE stream did not end"
    go_on.set()
    slow.join(120)
    assert not slow.is_alive() and len(answer) == 2, answer
    assert re.match(r"HTTP/1\.1 201 ", answer[1]), answer[1][:300]
    assert any(re.fullmatch(r"retry: \d+", line) for line in lines[1:]), lines
    proc.wait(GRACEFUL_S + 60)
    took = time.monotonic() - t_term
    out = stop(proc)
    assert proc.returncode == 0, out
    # the worker ended by itself (one SIGKILLed at the graceful timeout never says so)
    assert "Worker exiting (pid:" in out, out[-2000:]
    assert took < GRACEFUL_S / 2, f"the stop took {took:.1f} s: it waited for its timeout"

    # meanwhile the other seat acts (through another server), and the client reconnects
    # there with the last id it had: it gets every event after it, none twice
    proc2, base2, _p = serve(redis_url, SPITLOG_WORKERS="1")
    try:
        r = requests.post(f"{base2}/v1/games/{gid}/actions", json={"type": "ready"},
                          headers={"Authorization": f"Bearer {t1}"})  # fmt: skip
        assert r.status_code == 201, r.text
        version = r.json()["version"]
        more = []
        reader = threading.Thread(target=_read_stream,
                                  args=(base2, gid, str(seen[-1]), more, []))  # fmt: skip
        reader.daemon = True
        reader.start()
        _until(lambda: bool(more) and more[-1] >= version)
        assert seen + more == list(range(1, version + 1)), (seen, more)
    finally:
        stop(proc2)
