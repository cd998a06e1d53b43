"""``spitlog admin``: look into games and fix them by hand, through the code the service
runs (the use cases, the game store, the archive, the schedule: ``workers.runtime``),
never by Redis keys. An unknown game, or a game that cannot take the command, exits 1
with a message; a Redis that does not answer exits 2 with one line naming it
(``common.StoreGroup``). Without ``SPITLOG_REDIS_URL``, a running ``spitlog dev``'s
Redis and archive are used (``common.tool_settings``)."""

import re
import time

import click

from .common import StoreGroup, tool_settings, unreachable

_AGE = re.compile(r"(\d+(?:\.\d+)?)([smhd])")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_HEX = re.compile(r"[0-9a-f]{8,64}")


class Refused(click.ClickException):
    """A command that cannot be done (exit 1, its message on stderr)."""


def _age(text: str | None) -> float | None:
    if text is None:
        return None
    m = _AGE.fullmatch(text.strip())
    if m is None:
        raise click.BadParameter("an age like 90s, 10m, 1h or 2d", param_hint="--older-than")
    return float(m[1]) * _UNITS[m[2]]


def _when(t: float, now: float) -> str:
    from domain.views import iso

    stamp = iso(t)
    d = t - now
    return f"{stamp} ({'in ' if d >= 0 else ''}{_span(abs(d))}{'' if d >= 0 else ' ago'})"


def _span(s: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if s >= size:
            return f"{s / size:.1f}{unit}"
    return f"{s:.1f}s"


def _runtime():
    """The service's parts for this command (``workers.runtime``), or exit 2 if Redis does
    not answer."""
    import redis

    from workers.runtime import Runtime

    rt = Runtime(tool_settings())
    try:
        rt.store.ping()
    except redis.RedisError as e:
        unreachable(e, "the game store")
    return rt


def _game(rt, game_id: str):
    from ..errors import NoSuchGame, ServiceError

    try:
        return rt.reading.load(game_id)
    except NoSuchGame:
        raise Refused(f"no game {game_id} (neither in Redis nor in the archive)") from None
    except ServiceError as e:  # an archived copy that cannot be read, the archive away
        raise Refused(f"game {game_id}: {e}") from None


@click.group(cls=StoreGroup)
def admin() -> None:
    """Look into games and fix them by hand (the game store, the archive and the schedule
    of SPITLOG_REDIS_URL, SPITLOG_QUEUE_URL and SPITLOG_ARCHIVE_URL)."""


@admin.command("list")
@click.option("--status", type=click.Choice(["open", "running", "finished", "all"]),
              default="all", show_default=True,
              help="finished: over and still in Redis (the archive keeps the others)")  # fmt: skip
@click.option("--older-than", "older", metavar="AGE", help="created longer ago: 90s, 10m, 1h, 2d")
@click.option("--player", help="a seat's kind (human, bot:hard) or its token's SHA-256 (hex, "
              "8 or more leading characters)")  # fmt: skip
@click.option("--limit", type=click.IntRange(1), default=1000, show_default=True)
def list_games(status: str, older: str | None, player: str | None, limit: int) -> int:
    """The games in Redis, newest first: id, game, status, version, created, seats."""
    min_age = _age(older)
    rt = _runtime()
    now = time.time()
    rows = []
    for st in ("open", "running", "finished") if status == "all" else (status,):
        cursor = None
        while len(rows) < limit:
            page, cursor = rt.store.lobby(st, cursor, 500)
            for row in page:
                created = row.record.created_ms / 1000
                if min_age is not None and now - created < min_age:
                    continue
                kinds = [s.kind or "-" for s in row.record.seats]
                if player is not None and not _plays(rt, row.id, kinds, player):
                    continue
                rows.append((created, row, kinds))
            if cursor is None:
                break
    rows.sort(key=lambda r: r[0], reverse=True)
    for created, row, kinds in rows[:limit]:
        click.echo(f"{row.id}  {row.record.game:<5}  {row.record.status:<8}  v{row.version:<5}  "
                   f"{_when(created, now)}  {kinds[0]} vs {kinds[1]}")  # fmt: skip
    click.echo(f"{min(len(rows), limit)} games", err=True)
    return 0


def _plays(rt, game_id: str, kinds: list[str], player: str) -> bool:
    if player in kinds:
        return True
    if not _HEX.fullmatch(player):
        return False
    record = rt.store.game_record(game_id)
    hashes = record.token_hashes if record is not None else ()
    return any(h is not None and h.startswith(player) for h in hashes)


@admin.command()
@click.argument("game_id")
def inspect(game_id: str) -> int:
    """A game's meta, version, status, deadlines and schedule slots."""
    import domain
    from workers.schedule import all_slots, archive_slot

    rt = _runtime()
    game = _game(rt, game_id)
    state, record, now = game.state, game.record, time.time()
    where = "the archive (out of Redis)" if game.log is not None else "Redis"
    click.echo(f"game {game_id}: {state.game}, {state.status}, version {state.version}, "
               f"phase {state.phase}; in {where}")  # fmt: skip
    click.echo(f"created {_when(record.created_ms / 1000, now)}")
    for seat, s in enumerate(record.seats):
        tok = s.token_hash
        click.echo(f"seat {seat}: {s.kind or 'free'}"
                   + (f", token sha256 {tok[:16]}..." if tok else ""))  # fmt: skip
    if state.over:
        click.echo(f"result: {state.result}, winner {state.winner}")
    if state.aborted_by:
        why = state.aborted_why or "(no reason in the log)"
        click.echo(f"aborted under T-6 by the {state.aborted_by}: {why}")
    failed = rt.schedule.archive_failure(game_id)
    if failed is not None:
        click.echo(f"archiving failed for good {_when(failed['at'] / 1000, now)}: "
                   f"{failed['why']}")  # fmt: skip
    if record.archived is not None:
        at, version = record.archived.at_ms / 1000, record.archived.version
        click.echo(f"archived at version {version}, {_when(at, now)}; "
                   f"leaves Redis {_when(at + rt.archiver.retain_s, now)}")  # fmt: skip
    for d in domain.deadlines(state):
        who = f" seat {d.seat}" if d.seat is not None else ""
        click.echo(f"deadline {d.rule}{who}: {_when(d.at, now)}")
    slots = [*all_slots(game_id), archive_slot(game_id)]
    for slot, (due, plan) in zip(slots, rt.schedule.status(slots), strict=True):
        if due is None and plan is None:
            continue
        text = "waiting, due " + _when(due / 1000, now) if due is not None else "not waiting"
        if plan is not None:
            version, attempt, claimed = plan
            text += f"; planned at version {version}, attempt {attempt}"
            if claimed:
                text += f", claimed {_when(claimed / 1000, now)}"
        click.echo(f"slot {slot}: {text}")
    return 0


@admin.command()
@click.argument("game_id")
@click.option("--reason", "why", required=True, metavar="TEXT",
              help="why, in words (a line of text): the log keeps it, and anyone may read it "
              "once the game is over")  # fmt: skip
@click.option("--yes", is_flag=True, help="do not ask")
def abort(game_id: str, why: str, yes: bool) -> int:
    """Abort a game under RULES T-6: a game_aborted event (reason T-6, by the operator,
    with the reason given) through the rules, no one wins, never rated; then it leaves
    Redis for the archive like any finished game."""
    import domain

    try:
        action = domain.Abort(why=domain.check_why(why))
    except domain.MalformedAction as e:
        raise click.BadParameter("; ".join(e.errors["why"]), param_hint="--reason") from None
    rt = _runtime()
    game = _game(rt, game_id)
    if game.state.over:
        raise Refused(f"game {game_id} is {game.state.status} already")
    if not yes:
        click.confirm(f"abort game {game_id} ({game.state.status}, version {game.version})?",
                      abort=True)  # fmt: skip
    for _try in range(5):  # the game may move meanwhile: look again
        state = rt.acting.submit(game_id, None, action, None)
        if state is not None:
            click.echo(f"aborted {game_id} at version {state.version} (T-6: {why})")
            return 0
        if rt.reading.load(game_id).state.over:
            raise Refused(f"game {game_id} ended meanwhile")
    raise Refused(f"game {game_id} kept moving: not aborted, try again")


@admin.command()
@click.argument("game_id")
def archive(game_id: str) -> int:
    """Archive a finished game now (write it, read it back, check it); an archived one is
    checked again. It still leaves Redis when its retention ends (or by `delete`). A game
    whose archiving had failed for good (`failed`) is off that list once this succeeds,
    and its archive job runs again (its retention, then out of Redis)."""
    outcome = _archiver_step(game_id, "archive_now")
    if outcome == "gone":
        click.echo(f"{game_id} is archived and out of Redis already")
    else:
        click.echo(f"{game_id}: {outcome}")
    return 0


@admin.command()
def failed() -> int:
    """The finished games whose archiving failed for a reason no retry can fix: id, when,
    why. They stay in Redis, and nothing tries them again, until `archive` succeeds (once
    what the reason names is fixed)."""
    rt = _runtime()
    now = time.time()
    found = rt.schedule.archive_failures()
    for gid, f in sorted(found.items(), key=lambda kv: kv[1]["at"]):
        click.echo(f"{gid}  {_when(f['at'] / 1000, now)}  {f['why']}")
    click.echo(f"{len(found)} games failed to archive for good", err=True)
    return 0


@admin.command("init-archive")
@click.option("--wait", type=click.FloatRange(0), default=30.0, show_default=True,
              help="seconds to keep trying while the archive's store does not answer")  # fmt: skip
def init_archive(wait: float) -> int:
    """Make the archive (SPITLOG_ARCHIVE_URL) ready before the service writes to it: an
    s3:// archive's bucket made if there is none (on SPITLOG_S3_ENDPOINT_URL), a
    directory made and written to once. Exit 2 with one line if it is not ready within
    --wait seconds. docker-compose.yml runs it once before the API and the workers."""
    from ..archive import DirectoryArchive
    from ..bootstrap import WORKER, Root
    from ..config import SettingsError
    from ..errors import ArchiveUnavailable

    s = tool_settings()
    try:
        archive = Root(s, role=WORKER).archive
    except SettingsError as e:
        click.echo(f"spitlog: SPITLOG_ARCHIVE_URL: {e}", err=True)
        raise click.exceptions.Exit(2) from None
    end = time.monotonic() + wait
    while True:
        try:
            made = archive.ensure()
            break
        except ArchiveUnavailable as e:
            if time.monotonic() >= end:
                click.echo(f"spitlog: the archive is not ready: {' '.join(str(e).split())}",
                           err=True)  # fmt: skip
                raise click.exceptions.Exit(2) from None
            time.sleep(min(1.0, max(0.0, end - time.monotonic())))
    what = "its directory made" if isinstance(archive, DirectoryArchive) else "its bucket made"
    click.echo(f"the archive {archive.url} is ready" + (f" ({what})" if made else ""))
    return 0


@admin.command("unlist-provisional")
def unlist_provisional() -> int:
    """Take every provisional rating off the leaderboards, where data written before they
    were kept off listed it (once, after an upgrade; running it again finds none). A read
    of a leaderboard skips them meanwhile and writes nothing."""
    from ..profiles import Profiles

    rt = _runtime()
    gone = Profiles(rt.store, rt.players).unlist_provisional()
    click.echo(f"{gone} provisional ratings taken off the leaderboards")
    return 0


@admin.command()
@click.argument("game_id")
def delete(game_id: str) -> int:
    """Delete a finished game from Redis now, retention or not: only one already archived,
    whose archived copy is checked once more against Redis first. Anything else stays."""
    outcome = _archiver_step(game_id, "delete_now")
    if outcome == "gone":
        click.echo(f"{game_id} is out of Redis already (in the archive)")
    else:
        click.echo(f"{game_id}: deleted from Redis; the archive keeps it")
    return 0


def _archiver_step(game_id: str, step: str) -> str:
    from ..archiving import NotArchived, permanent
    from ..errors import ArchiveUnavailable

    rt = _runtime()
    _game(rt, game_id)  # 1 if it is nowhere
    try:
        outcome = getattr(rt.archiver, step)(game_id)
    except NotArchived as e:
        raise Refused(f"{e}: `spitlog admin archive {game_id}` first") from None
    except Exception as e:
        if not (isinstance(e, ArchiveUnavailable) or permanent(e)):
            raise
        raise Refused(f"game {game_id} stays in Redis: {e}") from None
    if outcome == "running":
        raise Refused(f"game {game_id} is not over (`spitlog admin abort` ends it)")
    if outcome == "deleted":
        rt.schedule.forget(game_id)  # its archive slot, if any, has nothing left to do
    elif outcome in ("archived", "verified") and rt.schedule.clear_failure(game_id):
        rt.schedule.arm_archive(game_id, time.time() * 1000)  # on to its retention's end
    return outcome
