"""Where a running ``spitlog dev`` says what it serves, so that ``spitlog admin`` and
``spitlog health`` find it: a small JSON file under the user's runtime directory
(``$XDG_RUNTIME_DIR/spitlog/dev.json``; without one, ``$XDG_CACHE_HOME`` or
``~/.cache``), holding its process id, its API's URL and the settings the tools need
(the game store's and the queue's Redis URLs, the archive made absolute, the API's
address). The last
``spitlog dev`` started writes it and removes it when it stops; a file whose process is
gone is ignored."""

import contextlib
import json
import os
from pathlib import Path

# the settings a tool takes from a running `spitlog dev`, when its own variable is unset
SHARED = ("redis_url", "queue_url", "archive_url", "s3_endpoint_url", "bind")


def path() -> Path:
    """The file's place for this user."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return Path(runtime) / "spitlog" / "dev.json"
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "spitlog" / "dev.json"


def absolute_archive(url: str) -> str:
    """``url`` as another working directory reads it: a relative directory made absolute."""
    if "://" in url:
        return url
    return str(Path(url).resolve())


def write(info: dict) -> Path | None:
    """Write ``info`` (with this process's id) for the tools: the file, or None if it
    cannot be written (a read-only home: the tools then need ``SPITLOG_REDIS_URL``)."""
    target = path()
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        part = target.with_name(f".{target.name}.{os.getpid()}")
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # URLs, passwords
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps({"pid": os.getpid(), **info}))
        part.replace(target)
    except OSError:
        return None
    return target


def remove() -> None:
    """Remove the file if this process wrote it (a later ``spitlog dev`` owns it else)."""
    found = _load(path())
    if found is not None and found.get("pid") == os.getpid():
        with contextlib.suppress(OSError):
            path().unlink()


def read() -> dict | None:
    """What the running ``spitlog dev`` wrote, or None (no file, or its process is gone)."""
    found = _load(path())
    if found is None or not _alive(found.get("pid")):
        return None
    return found


def _load(p: Path) -> dict | None:
    try:
        found = json.loads(p.read_text())
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _alive(pid) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
