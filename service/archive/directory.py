"""An archive in a local directory: one file per object, the key its relative path. A
write goes to a temporary file in the same directory, is fsynced, then renamed over the
key: a reader sees the whole object or none, even after a crash."""

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..errors import ArchiveUnavailable
from .games import GameArchive


class DirectoryArchive(GameArchive):
    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)
        self.url = str(self.root)

    def _path(self, key: str) -> Path:
        if key.startswith("/") or ".." in key.split("/"):
            raise ValueError(f"not an archive key: {key!r}")
        return self.root / key

    def ensure(self) -> bool:
        """Make the directory if there is none, and check that a file can be written in
        it: whether it was made. ArchiveUnavailable if it cannot be made or written."""
        made = not self.root.is_dir()
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=self.root, prefix=".part-")
            os.close(fd)
            os.unlink(probe)
        except OSError as e:
            raise ArchiveUnavailable(f"cannot write in {self.url}: {e}") from None
        return made

    def put(self, key: str, data: bytes) -> None:
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
            dirfd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(dirfd)
            finally:
                os.close(dirfd)
        except OSError as e:
            raise ArchiveUnavailable(f"cannot write {key} in {self.url}: {e}") from None

    def get(self, key: str) -> bytes | None:
        try:
            return self._path(key).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise ArchiveUnavailable(f"cannot read {key} in {self.url}: {e}") from None

    def keys(self, prefix: str = "") -> Iterator[str]:
        """Every key under ``prefix`` (a folder: ``games/2026/11/``), sorted."""
        base = self._path(prefix.rstrip("/")) if prefix.strip("/") else self.root
        if not base.is_dir():
            return iter(())
        found = (p.relative_to(self.root).as_posix() for p in base.rglob("*") if p.is_file())
        return iter(sorted(k for k in found if not k.rpartition("/")[2].startswith(".part-")))
