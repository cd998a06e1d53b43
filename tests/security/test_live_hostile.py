"""Hostile clients of the seat channel (``GET /v1/games/{id}/live``) against the real thing:
``spitlog serve`` (gunicorn, gevent) on a real redis-server, over real sockets. While each
attack goes on, the attacked game's two seats go on playing (``Players``, over HTTP): none
holds the game's gate or freezes it, and each attacker is refused, counted, and let go.

- a reader that never reads: its send queue fills, the channel closes, its slot is freed;
- a flood of frames: answered 429 (unread), counted, then closed 1008;
- an oversized message: closed 1009 on its header;
- hundreds of connections from one address: each holds one of the address's stream slots,
  which it shares with the SSE streams; over the cap, closed 1008;
- a client that vanishes mid-frame (FIN, or a reset), a seat's among them: let go, its
  slot freed; the seat acts at once over HTTP and opens its channel again;
- a restart (SIGTERM): every channel closes 1012, and a client that resumes by ``?after``
  on the new server loses and repeats nothing.
"""

import socket
import struct

import pytest
import redis
import requests
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from tests.support.hostile import Players
from tests.support.live import Viewer, open_channel, ticket, until
from tests.support.processes import free_port, start, stop, wait_ready

SHORT = {"idle_forfeit_s": 60.0, "spit_grace_s": 0.5, "ready_grace_s": 1.0, "slap_grace_s": 0.5,
         "max_rounds": 10_000}  # fmt: skip
ACKED = 30  # actions each seat has acknowledged while an attack goes on
STREAMS = 40  # the address's stream slots (SPITLOG_STREAMS_PER_ADDRESS)
QUEUE = 8192  # a channel's send queue (SPITLOG_LIVE_QUEUE_BYTES)
LIMIT = 4096  # the largest message (SPITLOG_MAX_CONTENT_LENGTH)


def _env(redis_url: str, port: int, metrics_port: int, metrics_dir) -> dict:
    return {"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "SPITLOG_REDIS_URL": redis_url,
            "SPITLOG_BIND": f"127.0.0.1:{port}",
            "SPITLOG_METRICS_BIND": f"127.0.0.1:{metrics_port}", "SPITLOG_WORKERS": "2",
            "SPITLOG_RATE_REQUESTS": "5000", "SPITLOG_RATE_SEAT": "0",
            "SPITLOG_RATE_GAMES": "0", "SPITLOG_STREAMS_PER_ADDRESS": str(STREAMS),
            "SPITLOG_LIVE_QUEUE_BYTES": str(QUEUE),
            "SPITLOG_MAX_CONTENT_LENGTH": str(LIMIT)}  # fmt: skip


@pytest.fixture(scope="module")
def stack(redis_url, tmp_path_factory):
    """(port, redis client, metrics URL): the API (two workers) on the real Redis."""
    port, metrics_port = free_port(), free_port()
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    proc = start(["serve"], _env(redis_url, port, metrics_port, tmp_path_factory.mktemp("m")))
    try:
        wait_ready(f"http://127.0.0.1:{port}", proc)
    except RuntimeError:
        pytest.fail(stop(proc))
    yield port, r, f"http://127.0.0.1:{metrics_port}/metrics"
    stop(proc)


def _metric(url: str, name: str) -> float:
    total = 0.0
    for line in requests.get(url, timeout=10).text.splitlines():
        if line.startswith(name):
            total += float(line.rsplit(" ", 1)[1])
    return total


def _slots(r) -> int:
    """The stream slots the address 127.0.0.1 holds now."""
    return r.zcard("spit:rl:s:a:127.0.0.1")


def _raw(port: int, gid: str, protocols: list[str], rcvbuf: int | None = None):
    """A channel on a bare socket, driven by websockets' client protocol: (socket,
    protocol), once the 101 is read."""
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/v1/games/{gid}/live"),
                           subprotocols=protocols)  # fmt: skip
    proto.send_request(proto.connect())
    sock.sendall(b"".join(proto.data_to_send()))
    while proto.handshake_exc is None and not proto.events_received():
        proto.receive_data(sock.recv(256))
    assert proto.handshake_exc is None
    return sock, proto


def _played(players: Players, timeout: float = 300) -> None:
    assert until(lambda: min(players.acked) >= ACKED, timeout), players.acked
    assert not any(s >= 500 for s in players.statuses), (players.statuses, players.errors)


def test_a_reader_that_never_reads_is_closed_and_holds_nothing(stack):
    port, r, metrics = stack
    players = Players(port, SHORT, pause_s=0.01, seed=11)
    base_slots = _slots(r)
    closed = _metric(metrics, 'spitlog_live_channels_closed_total{code="1008"}')
    sock, _proto = _raw(port, players.game_id, ["spitlog.v1"], rcvbuf=4096)
    assert until(lambda: _slots(r) == base_slots + 1)
    players.start()
    try:
        _played(players)
        # its queue full (views of ~2 KB after each action), the server closed it: its slot
        # is free and the close counted, though the client never read a byte
        assert until(lambda: _slots(r) == base_slots, 60)
        assert until(lambda: _metric(metrics, 'spitlog_live_channels_closed_total{code="1008"}')
                     > closed, 30)  # fmt: skip
    finally:
        players.stop()
    sock.settimeout(30)
    with pytest.raises(OSError):  # what was sent, then the end (a reset: it was dropped)
        while sock.recv(65536):
            pass
        raise ConnectionResetError("ended")
    sock.close()


def test_a_flood_of_frames_is_refused_counted_and_closed(stack):
    port, _r, metrics = stack
    players = Players(port, SHORT, pause_s=0.01, seed=12).start()
    refused = _metric(metrics, "spitlog_live_frames_refused_total")
    try:
        flood = Viewer(f"http://127.0.0.1:{port}", players.game_id)
        for n in range(500):
            try:
                flood.send({"op": "ping", "id": f"f{n}"})
            except Exception:  # noqa: BLE001 - closed under it
                break
        assert flood.closed() == 1008 and flood.reason == "too many frames"
        problems = [m for m in flood.messages if m["op"] == "problem"]
        assert problems and all(p["status"] == 429 and p["retry_after"] == 1 for p in problems)
        assert _metric(metrics, "spitlog_live_frames_refused_total") > refused
        _played(players)
    finally:
        players.stop()


def test_an_oversized_message_closes_1009(stack):
    port, _r, _m = stack
    gid = Players(port, SHORT).game_id
    big = Viewer(f"http://127.0.0.1:{port}", gid)
    big.ws.send('{"op": "ping", "id": "' + "x" * LIMIT + '"}')
    assert big.closed() == 1009
    # a header that announces 1 MiB: refused on it, before any payload
    sock, proto = _raw(port, gid, ["spitlog.v1"])
    sock.sendall(b"\x81\xff" + struct.pack("!Q", 1 << 20) + b"\x00\x00\x00\x00")
    while proto.close_rcvd is None:
        data = sock.recv(65536)
        if not data:
            break
        proto.receive_data(data)
    assert proto.close_rcvd is not None and proto.close_rcvd.code == 1009
    sock.close()


def test_hundreds_of_connections_from_one_address_count_against_its_stream_caps(stack):
    port, r, _m = stack
    base = f"http://127.0.0.1:{port}"
    # the seats play once the connections are counted: 300 viewers reading a game played
    # flat out, on a loaded machine, fall behind their send queues and are closed as slow
    # readers, which frees their slots while the count is taken
    players = Players(port, SHORT, pause_s=0.01, seed=13)
    held = _slots(r)
    conns, codes = [], {}
    try:
        for _n in range(300):
            v = Viewer(base, players.game_id)
            v.wait(lambda v: v.messages or v.code is not None, 30)
            conns.append(v)
        opened = [v for v in conns if v.messages and v.messages[0]["op"] == "hello"]
        for v in conns:
            if v not in opened:
                codes[v.closed()] = codes.get(v.code, 0) + 1
        assert len(opened) == STREAMS - held and codes == {1008: 300 - len(opened)}
        assert "too many open streams" in next(v for v in conns if v not in opened).reason
        sse = requests.get(f"{base}/v1/games/{players.game_id}/events", stream=True,
                           headers={"Accept": "text/event-stream"}, timeout=30)  # fmt: skip
        assert sse.status_code == 429  # one cap for streams and channels
        sse.close()
        players.start()
        _played(players)
        assert all(v.code is None for v in opened)  # the open ones stayed open
    finally:
        for v in conns:
            v.close()
        players.stop()
    assert until(lambda: _slots(r) == held, 60)


@pytest.mark.parametrize("how", ["fin", "reset"])
def test_a_client_that_vanishes_mid_frame_holds_nothing(stack, how):
    port, r, _m = stack
    base = f"http://127.0.0.1:{port}"
    players = Players(port, SHORT, pause_s=0.01, seed=14)
    gid, t0 = players.game_id, players.tokens[0]
    held = _slots(r)
    sock, _proto = _raw(port, gid, ticket(base, gid, t0)["protocols"])
    assert until(lambda: _slots(r) == held + 1)
    # a masked text frame of 200 bytes, of which 20 are sent
    sock.sendall(b"\x81\xfe" + struct.pack("!H", 200) + b"\x01\x02\x03\x04" + b"x" * 20)
    if how == "reset":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()
    assert until(lambda: _slots(r) == held, 60)  # let go at once, not at its time
    ready = requests.post(f"{base}/v1/games/{gid}/actions", json={"type": "ready"},
                          headers={"Authorization": f"Bearer {t0}"}, timeout=30)  # fmt: skip
    assert ready.status_code == 201
    again = Viewer(base, gid, t0)
    again.send({"op": "act", "id": "a", "action": {"type": "ready"}})
    assert again.reply("a")["status"] in (201, 422)
    again.close()
    players.start()
    try:
        _played(players)
    finally:
        players.stop()


def test_a_restart_closes_1012_and_a_resuming_client_loses_and_repeats_nothing(redis_url, tmp_path):
    port, metrics_port = free_port(), free_port()
    env = _env(redis_url, port, metrics_port, tmp_path)
    base = f"http://127.0.0.1:{port}"
    proc = start(["serve"], env)
    try:
        wait_ready(base, proc)
        players = Players(port, SHORT, pause_s=0.01, seed=15)
        gid = players.game_id
        viewers = [Viewer(base, gid, players.tokens[0], resume=True),
                   Viewer(base, gid, resume=True)]  # fmt: skip
        first = min(v.wait(lambda v: v.view is not None) and v.version for v in viewers)
        players.start()
        assert until(lambda: min(players.acked) >= 5)
        players.stop()
        before = requests.get(f"{base}/v1/games/{gid}").json()["version"]
        assert until(lambda: all(v.version == before for v in viewers))
        stop(proc)  # SIGTERM: gunicorn's graceful stop, the channels closed 1012
        assert until(lambda: all(1012 in v.closes for v in viewers), 30)
        proc = start(["serve"], env)
        wait_ready(base, proc)
        players.start()  # the game goes on on the new server
        assert until(lambda: min(players.acked) >= 10)
        players.stop()
        now = requests.get(f"{base}/v1/games/{gid}").json()["version"]
        assert now > before
        for v in viewers:
            assert v.wait(lambda v: v.version == now), (v.version, now, v.closes)
            assert v.versions() == list(range(first + 1, now + 1))
            v.close()
    finally:
        stop(proc)


def test_a_channel_is_refused_1008_for_another_games_ticket(stack):
    port, _r, _m = stack
    base = f"http://127.0.0.1:{port}"
    one, other = Players(port, SHORT), Players(port, SHORT)
    given = ticket(base, one.game_id, one.tokens[0])
    with open_channel(base, other.game_id, protocols=given["protocols"]) as ws:
        assert ws.recv_messages is not None
        while True:
            try:
                ws.recv(timeout=30)
            except Exception:  # noqa: BLE001 - closed
                break
        assert ws.protocol.close_rcvd.code == 1008
