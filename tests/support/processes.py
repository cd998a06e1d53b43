"""Starting and stopping the service's processes for the end-to-end tests."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import requests

from .redis_server import free_port  # noqa: F401 - the tests import it from here

ROOT = Path(__file__).resolve().parents[2]


def wait_ready(base: str, proc: subprocess.Popen, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            if requests.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):  # not up yet, or slow to start
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not become ready")


def start(args: list[str], env: dict, script: str | Path | None = None) -> subprocess.Popen:
    """``spitlog <args>`` (or ``script`` with them: a wrapper of it) as a subprocess of its
    own session, its output piped."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    entry = [str(script)] if script is not None else ["-m", "service.cli"]
    return subprocess.Popen(
        [sys.executable, *entry, *args], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip


def stop(proc: subprocess.Popen, sig=signal.SIGTERM) -> str:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # our own session only
            proc.wait(5)
    return proc.stdout.read() if proc.stdout else ""
