"""The API's Redis connections (service/redisconn.py) on a real redis-server: the
parser's quick check of an idle connection says what redis-py's own would."""

import time

import pytest

from service import redisconn

pytestmark = pytest.mark.redis


@pytest.fixture
def conn(redis_url, redis_client):
    client, live = redisconn.clients(redis_url, 4)
    c = client.connection_pool.get_connection()
    assert isinstance(c._parser, redisconn.Parser)
    yield c
    client.connection_pool.release(c)
    client.close()
    live.close()


def test_an_idle_connection_has_nothing_to_read(conn):
    assert conn.can_read() is False
    conn.send_command("PING")
    assert conn.read_response() == b"PONG"
    assert conn.can_read() is False


def test_a_reply_left_unread_is_seen(conn):
    """What the pool's check at checkout is for: a connection with a reply nobody read
    must not serve the next command."""
    conn.send_command("PING")
    for _ in range(200):  # the reply arrives within a moment
        if conn.can_read(timeout=0.01):
            break
    assert conn.can_read() is True
    assert conn.read_response() == b"PONG"
    assert conn.can_read() is False


def test_a_connection_the_server_closed_is_not_handed_out(redis_url, redis_client):
    client, live = redisconn.clients(redis_url, 1)
    try:
        assert client.ping()
        redis_client.client_kill_filter(_type="normal", skipme=True)  # ours among them
        assert client.ping()  # the pool saw the closed socket and reconnected
    finally:
        client.close()
        live.close()


def test_a_reply_buffered_in_the_parser_is_seen(conn):
    """Two replies in one read: the second waits in hiredis' buffer, not on the socket."""
    conn.send_packed_command(conn.pack_commands([("PING",), ("ECHO", "x")]))
    time.sleep(0.05)  # both replies are on the socket: one read takes them
    assert conn.read_response() == b"PONG"
    assert conn._parser._reader.has_data()
    assert conn.can_read() is True
    assert conn.read_response() == b"x"
