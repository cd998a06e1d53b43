"""The event store's contract again, on a 3-master Redis Cluster on loopback.

The session starts three ``redis-server --cluster-enabled yes`` nodes on free ports
and joins them with ``redis-cli --cluster create`` (a few seconds). Every script of
the store touches one slot (the ``{g:<id>}`` hash tag), so it runs unchanged; the
lobby and token indexes live in other slots and are written by separate commands.
"""

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
import redis
from redis.cluster import RedisCluster

from tests.service.store_contract import *  # noqa: F403 - the contract's tests run here too (conftest path)


def _free_ports(n: int) -> list[int]:
    """Free ports whose cluster bus ports (+10000) are free as well."""
    out: list[int] = []
    while len(out) < n:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 > 65535 or port in out:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        out.append(port)
    return out


@contextlib.contextmanager
def _cluster(masters: int = 3, replicas: int = 0, node_timeout_ms: int = 15000):
    """``masters`` Redis Cluster masters on free ports, each with ``replicas`` replicas
    (``redis-cli --cluster create``), until the block ends: the ports and
    the node processes by port (a test may kill one)."""
    exe, cli = shutil.which("redis-server"), shutil.which("redis-cli")
    if exe is None or cli is None:
        pytest.skip("redis-server/redis-cli are not installed (apt-get install redis-server)")
    ports = _free_ports(masters * (1 + replicas))
    procs: dict[int, subprocess.Popen] = {}
    with tempfile.TemporaryDirectory() as workdir:
        try:
            for p in ports:
                procs[p] = subprocess.Popen(
                    [exe, "--port", str(p), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                     "--cluster-config-file", f"nodes-{p}.conf", "--cluster-node-timeout",
                     str(node_timeout_ms), "--save", "", "--appendonly", "no", "--dir", workdir,
                     "--maxmemory-policy", "noeviction", "--repl-diskless-sync-delay", "0"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
            for p in ports:
                client = redis.Redis(port=p)
                for _ in range(100):
                    try:
                        client.ping()
                        break
                    except redis.ConnectionError:
                        time.sleep(0.05)
            subprocess.run(
                [cli, "--cluster", "create", *(f"127.0.0.1:{p}" for p in ports),
                 "--cluster-replicas", str(replicas), "--cluster-yes"],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60,
            )  # fmt: skip
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                infos = [redis.Redis(port=p).cluster("info") for p in ports]
                if all(i.get("cluster_state") == "ok" for i in infos):
                    break
                time.sleep(0.2)
            else:
                pytest.fail("the cluster did not reach cluster_state:ok")
            while time.monotonic() < deadline:  # a replica not yet in sync cannot take over
                links = [i.get("master_link_status") for i in
                         (redis.Redis(port=p).info("replication") for p in ports)]  # fmt: skip
                if links.count("up") == masters * replicas:
                    break
                time.sleep(0.2)
            else:
                pytest.fail("the replicas did not get in sync with their masters")
            yield ports, procs
        finally:
            for proc in procs.values():
                proc.terminate()
            for proc in procs.values():
                proc.wait(10)


@pytest.fixture(scope="session")
def cluster_nodes():
    with _cluster() as (ports, _procs):
        yield ports


class _Cluster(RedisCluster):
    """The contract's own inspection (``keys``) looks at every master, as on one server."""

    def keys(self, pattern="*", **kwargs):
        return super().keys(pattern, target_nodes=RedisCluster.PRIMARIES, **kwargs)


@pytest.fixture
def redis_client(cluster_nodes):
    client = _Cluster(host="127.0.0.1", port=cluster_nodes[0])
    client.flushall(target_nodes=RedisCluster.PRIMARIES)
    yield client
    client.close()


def test_the_cluster_has_three_masters_sharing_the_slots(redis_client):
    primaries = redis_client.get_primaries()
    assert len(primaries) == 3
    # games land on different masters: their hash tags spread over the slots
    nodes = {redis_client.get_node_from_key(f"spit:{{g:game{i}}}:log").name for i in range(30)}
    assert len(nodes) == 3


def test_the_limits_run_on_the_cluster(redis_client):
    """service/limits.py: one key per script call, so its buckets and stream slots work
    on a Cluster too, spread over the masters."""
    from service.http.app import create_app
    from tests.support.api import app_settings, bearer

    limits = {"rate_actions": 1, "rate_actions_burst": 2, "rate_requests": 1,
              "rate_requests_burst": 3, "streams_per_client": 1, "streams_per_address": 1,
              "sse_max_s": 30, "rate_seat": 100, "rate_seat_burst": 100, "rate_seat_reserve": 2,
              "rate_auth_failures": 0.001, "rate_auth_failures_burst": 2}  # fmt: skip
    app = create_app(app_settings(**limits), redis_client=redis_client)
    client = app.test_client()

    def at(i):
        return {"environ_base": {"REMOTE_ADDR": f"10.0.0.{i}"}}

    for i in range(30):  # thirty addresses: buckets on every master
        codes = [client.get("/v1/games", **at(i)).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
    keys = [k.decode() for k in redis_client.keys("spit:rl:a:*")]
    assert len({redis_client.get_node_from_key(k).name for k in keys}) == 3
    # an action meets two buckets, its address's and its token's, in different slots
    created = client.post("/v1/games", json={"game": "spit"}, **at(100)).get_json()
    gid, token = created["id"], created["token"]
    url, body = f"/v1/games/{gid}/actions", {"type": "slap", "pile": 0}
    codes = [client.post(url, json=body, headers=bearer(token), **at(101 + i)).status_code
             for i in range(3)]  # fmt: skip
    assert codes == [422, 422, 429]  # the token's burst of two, from three addresses
    # whose seat a token holds is read in the game's meta (its slot) first: a token of no
    # seat is charged to its address and, refused, to its failed authentications, whose
    # burst of two past, it is refused before its lookup; the seat's own token goes on
    # from that address (its reserve), charged to its seat's bucket
    game = f"/v1/games/{gid}"
    codes = [client.get(game, headers=bearer("no-seat"), **at(150)).status_code
             for _ in range(3)]  # fmt: skip
    assert codes == [401, 401, 429]
    seat = client.get(game, headers=bearer(token), **at(150))
    assert seat.status_code == 200  # charged to its seat's bucket (its key lives ~10 ms)
    assert '"seat";' in seat.headers["RateLimit-Policy"]
    # a stream slot per client
    stream = {"Accept": "text/event-stream"}
    first = client.get(f"/v1/games/{gid}/events", headers=stream, buffered=False, **at(200))
    assert first.status_code == 200
    again = client.get(f"/v1/games/{gid}/events", headers=stream, buffered=False, **at(200))
    assert again.status_code == 429
    first.close()
    assert redis_client.keys("spit:rl:s:*") == []


def test_a_stream_gets_each_append_live_on_the_cluster(redis_client):
    """The live hub on a Cluster: a game's channel is served by the node of its slot, and
    an SSE stream gets each append from its message (shard Pub/Sub)."""
    import threading
    import time

    from service.http.app import create_app
    from tests.support.api import app_settings, bearer, new_game, stream_ids

    app = create_app(app_settings(sse_max_s=30), redis_client=redis_client)
    client = app.test_client()
    games, nodes = [], set()
    while len(games) < 6 or len(nodes) < 2:  # channels on more than one node
        games.append(new_game(client))
        nodes.add(redis_client.get_node_from_key(f"spit:{{g:{games[-1][0]}}}:log").name)
    hub = app.extensions["spitlog"].hub
    got: dict[str, list[str]] = {gid: [] for gid, _t0, _t1 in games}

    threads = [threading.Thread(target=stream_ids, args=(app, gid, t1, got[gid]),
                                kwargs={"until": "id: 4"}) for gid, _t0, t1 in games]  # fmt: skip
    for t in threads:
        t.start()
    end = time.monotonic() + 30
    while time.monotonic() < end and not all(
        (w := hub._watches.get(gid)) is not None and w.version >= 3 for gid in got
    ):
        time.sleep(0.01)
    assert len({hub._watches[gid].node for gid in got}) > 1
    for gid, t0, _t1 in games:
        client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t0))
    for t in threads:
        t.join(30)
    assert all(lines == ["id: 4"] for lines in got.values()), got


def test_a_seek_long_poll_wakes_when_its_seek_is_paired_on_the_cluster(redis_client):
    """A seek's channel is served by the node of the ``{sk}`` slot: a long-poll of an open
    seek waits there on the live hub and answers the pairing a compatible seek makes."""
    import threading
    import time

    from service.http.app import create_app
    from tests.support.api import app_settings, bearer

    app = create_app(app_settings(longpoll_max_s=30), redis_client=redis_client)
    client = app.test_client()
    hub = app.extensions["spitlog"].hub
    a = client.post("/v1/seeks", json={"game": "speed"}).get_json()
    got = {}
    poll = threading.Thread(target=lambda: got.update(answer=client.get(
        f"/v1/seeks/{a['id']}?wait=30", headers=bearer(a["token"]))), daemon=True)  # fmt: skip
    poll.start()
    name, end = "seek:" + a["id"], time.monotonic() + 10
    while not ((w := hub._watches.get(name)) and w.waiters and w.version == 0):
        assert time.monotonic() < end, "the long-poll does not wait on the hub"
        time.sleep(0.005)
    assert hub._watches[name].node == redis_client.get_node_from_key("spit:{sk}:due").name
    b = app.test_client().post("/v1/seeks", json={"game": "speed"}).get_json()
    poll.join(20)
    body = got["answer"].get_json()
    assert (body["status"], body["game_id"], body["seat"]) == ("paired", b["game_id"], 0)
    hub.close()


def _move_slot(ports: list[int], slot: int, src: int, to: int) -> None:
    """Move ``slot`` and its keys from the master on port ``src`` to the one on ``to``, as
    ``redis-cli --cluster reshard`` does: IMPORTING / MIGRATING, MIGRATE of every key,
    then SETSLOT NODE on every master."""
    nodes = {p: redis.Redis(port=p) for p in ports}
    ids = {p: c.execute_command("CLUSTER", "MYID").decode() for p, c in nodes.items()}
    try:
        nodes[to].execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", ids[src])
        nodes[src].execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", ids[to])
        while keys := nodes[src].execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100):
            nodes[src].execute_command("MIGRATE", "127.0.0.1", to, "", 0, 5000, "KEYS", *keys)
        for p in (to, src, *[p for p in ports if p not in (to, src)]):
            nodes[p].execute_command("CLUSTER", "SETSLOT", slot, "NODE", ids[to])
    except Exception:  # the session's Cluster left as it was, not half-migrated
        for p in (to, src):
            nodes[p].execute_command("CLUSTER", "SETSLOT", slot, "STABLE")
        raise
    finally:
        for c in nodes.values():
            c.close()


def test_a_stream_follows_its_game_when_the_slot_moves(redis_client, cluster_nodes):
    """A watched game's slot moves to another master while its SSE stream waits (a
    reshard): the node that lost it unsubscribes the channel, the hub reads the Cluster's
    slots again and subscribes where the slot is now, and the next append (on the new
    node) reaches the stream: nothing lost, nothing twice."""
    from service.http.app import create_app
    from tests.support.api import app_settings, bearer, new_game, streaming, watched

    app = create_app(app_settings(sse_max_s=8), redis_client=redis_client)
    client = app.test_client()
    gid, t0, t1 = new_game(client)
    hub = app.extensions["spitlog"].hub
    reader, got = streaming(app, gid, t1, until="id: 6")
    watched(hub, gid)
    before = hub._watches[gid].node
    slot = redis_client.keyslot(hub.store.live_channel(gid))
    src = int(before.rsplit(":", 1)[1])
    to_port = next(p for p in cluster_nodes if p != src)
    _move_slot(cluster_nodes, slot, src, to_port)

    end = time.monotonic() + 5  # the hub follows the slot
    while time.monotonic() < end and hub._watches[gid].node == before:
        time.sleep(0.01)
    assert hub._watches[gid].node == f"127.0.0.1:{to_port}"
    end = time.monotonic() + 5  # subscribed there, its version read again
    while time.monotonic() < end and (gid in hub._pending or hub._watches[gid].version < 3):
        time.sleep(0.01)
    for tok in (t0, t1):  # 4, then 5 and 6: a second subscription would show twice
        r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(tok))
        assert r.status_code == 201, r.get_json()
    reader.join(8)
    hub.close()
    assert got == ["id: 4", "id: 5", "id: 6"]


def _replica_in_step(master: int, timeout: float = 10) -> None:
    """Until the replica of the master on port ``master`` has every write of it (its
    offset, as the master sees it, at the master's)."""
    r, end = redis.Redis(port=master), time.monotonic() + timeout
    while time.monotonic() < end:
        info = r.info("replication")
        replica = info.get("slave0")
        if replica and int(replica["offset"]) >= int(info["master_repl_offset"]):
            return
        time.sleep(0.02)
    raise AssertionError("the replica did not catch up with its master")


def test_a_stream_follows_its_game_when_its_master_fails_over():
    """The master serving a watched game is killed; its replica takes over (a Cluster
    with a replica a master, node timeout 1 s): the hub's connection to the dead node
    fails, it reads the slots again until they name the promoted replica, subscribes
    there, and the first append the Cluster takes after the failover reaches the stream
    once. Appends refused meanwhile are answered 503, never acknowledged and lost."""
    from service.http.app import create_app
    from tests.support.api import app_settings, bearer, new_game, streaming, watched

    with _cluster(3, 1, node_timeout_ms=1000) as (ports, procs):
        client_r = _Cluster(host="127.0.0.1", port=ports[0])
        app = create_app(app_settings(sse_max_s=20), redis_client=client_r)
        client = app.test_client()
        gid, t0, t1 = new_game(client)
        hub = app.extensions["spitlog"].hub
        reader, got = streaming(app, gid, t1, until="id: 6")
        watched(hub, gid)
        before = hub._watches[gid].node
        master = int(before.rsplit(":", 1)[1])
        _replica_in_step(master)  # its writes are on its replica: nothing lost by the kill
        procs[master].kill()

        statuses = []
        end = time.monotonic() + 30
        while time.monotonic() < end:
            r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"},
                            headers=bearer(t0))  # fmt: skip
            statuses.append(r.status_code)
            if r.status_code == 201:
                break
            assert r.status_code == 503, r.get_json()
            time.sleep(0.2)
        assert statuses[-1] == 201, statuses
        r = client.post(f"/v1/games/{gid}/actions", json={"type": "ready"}, headers=bearer(t1))
        assert r.status_code == 201, r.get_json()
        reader.join(15)
        try:
            assert got == ["id: 4", "id: 5", "id: 6"]
            assert hub._watches[gid].node != before
        finally:
            hub.close()
            client_r.close()
