"""Tools on a whole archive (``service.bulk``): ``spitlog audit ARCHIVE`` (``audit`` in
``console`` hands a directory, ``file://`` or ``s3://`` source over to ``audit_archive``)
and ``spitlog dump --month YYYY-MM OUT``.

Exit status: 0 every game checks out, 1 some game does not (each named by its object's
key), 2 the archive cannot be read at all.
"""

import os
import sys
import time
from pathlib import Path

import click

from .common import settings


def is_archive(source: str) -> bool:
    """Whether ``spitlog audit SOURCE`` means an archive: a directory, file:// or s3://."""
    return source.startswith(("s3://", "file://")) or os.path.isdir(source)


def month_option(help: str, **kw):
    def check(_ctx, _param, value):
        from ..store.keys import month_prefix

        try:
            month_prefix(value)
        except ValueError as e:
            raise click.BadParameter(str(e)) from None
        return value

    return click.option("--month", metavar="YYYY-MM", callback=check, help=help, **kw)


def _open_or_exit(url: str | None):
    """(a picklable opener, the archive) at ``url`` (None: ``SPITLOG_ARCHIVE_URL``; the
    settings give the S3 endpoint), or exit 2."""
    from functools import partial

    from ..archive import DirectoryArchive, open_archive
    from ..config import SettingsError

    s = settings()
    url = url or s.archive_url
    opener = partial(open_archive, url, s3_endpoint_url=s.s3_endpoint_url)
    try:
        archive = opener()
    except (SettingsError, ValueError) as e:
        click.echo(f"spitlog: {e}", err=True)
        sys.exit(2)
    if isinstance(archive, DirectoryArchive) and not archive.root.is_dir():
        click.echo(f"spitlog: cannot read the archive {url}: no such directory", err=True)
        sys.exit(2)
    return opener, archive


def _keys_or_exit(archive, month: str | None) -> list[str]:
    from ..bulk import record_keys
    from ..errors import ArchiveUnavailable

    try:
        return record_keys(archive, month)
    except ArchiveUnavailable as e:
        click.echo(f"spitlog: {e}", err=True)
        sys.exit(2)


def audit_archive(url: str, month: str | None, jobs: int) -> int:
    """``spitlog audit ARCHIVE``: check every game (of ``month``) in ``jobs`` processes."""
    from concurrent.futures.process import BrokenProcessPool

    from tqdm import tqdm

    from ..bulk import check_all

    opener, archive = _open_or_exit(url)
    keys = _keys_or_exit(archive, month)
    games = events = failures = 0
    t0 = time.perf_counter()
    bar = tqdm(total=len(keys), unit="game", disable=None, file=sys.stderr)
    try:
        for c in check_all(opener, keys, jobs):
            games += 1
            events += c.events
            if not c.ok:
                failures += 1
                bar.write(f"FAILED {c.key}: {c.why}", file=sys.stdout)
            bar.update()
    except BrokenProcessPool as e:
        bar.close()
        click.echo(f"spitlog: a process checking games died ({e})", err=True)
        return 2
    bar.close()
    dt = max(time.perf_counter() - t0, 1e-9)
    what = f"{archive.url}" + (f" ({month})" if month else "")
    procs = f"{jobs} process" + ("es" if jobs > 1 else "")
    click.echo(
        f"audited {what}: {games} games, {events} events, {failures} failed; "
        f"{dt:.1f} s, {games / dt:.1f} games/s, {events / dt:.0f} events/s ({procs})"
    )
    return 1 if failures else 0


@click.command()
@month_option("the month whose games to dump (the month they ended in, UTC)", required=True)
@click.argument("out", metavar="OUT", type=click.Path(dir_okay=False, writable=True))
@click.option("--archive", "url", metavar="URL", help="default: $SPITLOG_ARCHIVE_URL")
def dump(month: str, out: str, url: str | None) -> int:
    """Write every game archived in a month, in key order, to OUT: one zstd-compressed
    NDJSON file, each game's export whole (its header line first), and its SHA-256 to
    OUT.sha256 (sha256sum's format). A game not as its record says is left out, named on
    stderr (exit 1)."""
    from ..bulk import dump as dump_games

    _opener, archive = _open_or_exit(url)
    keys = _keys_or_exit(archive, month)
    path = Path(out)
    part = path.with_name(f".{path.name}.part")

    def bad(c) -> None:
        click.echo(f"left out {c.key}: {c.why}", err=True)

    try:
        with open(part, "wb") as f:
            done = dump_games(archive, keys, f, on_bad=bad)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    Path(f"{path}.sha256").write_text(f"{done.sha256}  {path.name}\n")
    click.echo(
        f"dumped {month} of {archive.url}: {done.games} games, {done.events} events, "
        f"{len(done.bad)} left out; {path} {done.bytes} bytes, sha256 {done.sha256}"
    )
    return 1 if done.bad else 0
