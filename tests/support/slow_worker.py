"""``spitlog worker`` with slow jobs, for the chaos tests: each job sleeps a little before
it decides and again between its append and the scheduler hook, so that a SIGKILL
lands mid-job (before the append, or after it and before the next decisions are armed)
instead of in the idle wait of a job that takes a millisecond. Archiving too: a pause
before each object written, before the game is marked archived and before it is deleted;
rating too: before a game's rating is applied and before its outcome is written to the
game. With ``TEST_PUT_LOG`` set, every object about to be written is logged to that file
as ``<key> <sha256>`` (to show that no key was ever written with two contents).

Forced kills: with ``TEST_KILL_AT`` (``point=count,...``) and ``TEST_KILL_DIR`` set, the
worker SIGKILLs itself at a named point the first ``count`` times any worker of the run
reaches it (a file per kill in that folder, made with ``O_EXCL``, claims it, so the
count holds across processes and restarts). Points: ``arc.put`` (an archive object
about to be written), ``arc.mark`` (every object written, the game not marked archived),
``arc.delete`` (about to delete an archived game from Redis), ``rate.apply`` (a rating
about to be applied), ``rate.annotate`` (applied, its outcome not yet on the game),
``bot.decide`` (a bot's decision about to be made), ``bot.hook`` (appended, the next
decisions not yet armed). A chaos test counts the files to show the faults it forced.
Forced stops: with ``TEST_STOP_AT`` (the same form) the worker SIGSTOPs itself at the
point instead, in the job, its claim file ``stop-<point>.<n>`` holding its pid, for the
test to let it go on (SIGCONT: ``stopped_at``).

A forced pause: with ``TEST_HOLD_AT`` (one point) and ``TEST_HOLD_DIR`` set, the first
worker of the run to reach the point writes ``<point>.held`` in that folder and waits
there until the test writes ``<point>.go`` (a fault the test makes meanwhile, e.g. a
Redis killed, then lands in the middle of that job).

    python tests/support/slow_worker.py [--name NAME]
"""

import hashlib
import os
import random
import signal
import sys
import time

from service.archive.directory import DirectoryArchive
from service.archive.s3 import S3Archive
from service.cli import main
from service.store.players import PlayerStore
from service.store.redis import RedisStore
from workers import jobs, schedule

SLEEP_S = (0.002, 0.012)


def _kill_plan(variable: str = "TEST_KILL_AT") -> dict[str, int]:
    spec = os.environ.get(variable, "")
    plan = {}
    for part in filter(None, spec.split(",")):
        point, _, count = part.partition("=")
        plan[point.strip()] = int(count)
    return plan


KILL_AT = _kill_plan()
STOP_AT = _kill_plan("TEST_STOP_AT")
KILL_DIR = os.environ.get("TEST_KILL_DIR", "")


def _claim(name: str) -> int | None:
    """The claim file ``name`` in ``KILL_DIR``, made now (its descriptor), or None if
    another worker of the run made it first."""
    try:
        return os.open(os.path.join(KILL_DIR, name), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return None


def kill_point(point: str) -> None:
    """SIGKILL this worker here if ``point`` has a forced kill left to claim; SIGSTOP it
    if it has a forced stop left (until the test continues it)."""
    for n in range(KILL_AT.get(point, 0)):
        fd = _claim(f"{point}.{n}")
        if fd is not None:
            os.close(fd)
            os.kill(os.getpid(), signal.SIGKILL)
    for n in range(STOP_AT.get(point, 0)):
        fd = _claim(f"stop-{point}.{n}")
        if fd is not None:
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            os.kill(os.getpid(), signal.SIGSTOP)
            return


HOLD_AT = os.environ.get("TEST_HOLD_AT", "")
HOLD_DIR = os.environ.get("TEST_HOLD_DIR", "")
HOLD_MAX_S = 120.0


def hold_point(point: str) -> None:
    """Wait here for the test's go (``TEST_HOLD_AT``), the first time any worker of the
    run comes by ``point``."""
    if point != HOLD_AT or not HOLD_DIR:
        return
    try:
        fd = os.open(os.path.join(HOLD_DIR, f"{point}.held"), os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return
    os.close(fd)
    end = time.monotonic() + HOLD_MAX_S
    while not os.path.exists(os.path.join(HOLD_DIR, f"{point}.go")):
        if time.monotonic() > end:
            raise RuntimeError(f"no go for {point} in {HOLD_MAX_S:.0f} s")
        time.sleep(0.01)


def slowly(f, pause=SLEEP_S, point: str = ""):
    def wrapper(*args, **kwargs):
        time.sleep(random.uniform(*pause))
        if point:
            kill_point(point)
            hold_point(point)
        return f(*args, **kwargs)

    return wrapper


jobs._bot_turn = slowly(jobs._bot_turn, point="bot.decide")
jobs._fire = slowly(jobs._fire)
schedule.Scheduler.on_appended = slowly(schedule.Scheduler.on_appended, point="bot.hook")
RedisStore.mark_archived = slowly(RedisStore.mark_archived, point="arc.mark")
RedisStore.delete_game = slowly(RedisStore.delete_game, point="arc.delete")
# a rating's two steps take longer: a kill aimed at a finished game's job lands between
# the apply and the outcome written to the game as often as not
RedisStore.set_rating = slowly(RedisStore.set_rating, (0.05, 0.25), "rate.annotate")
PlayerStore.apply_rating = slowly(PlayerStore.apply_rating, (0.02, 0.1), "rate.apply")


def logged(put):
    path = os.environ.get("TEST_PUT_LOG")

    def wrapper(self, key, data):
        time.sleep(random.uniform(*SLEEP_S))
        if path:  # before the put: a kill after it must not hide it
            with open(path, "a") as f:
                f.write(f"{key} {hashlib.sha256(data).hexdigest()}\n")
        kill_point("arc.put")
        put(self, key, data)

    return wrapper


DirectoryArchive.put = logged(DirectoryArchive.put)
S3Archive.put = logged(S3Archive.put)

if __name__ == "__main__":
    sys.exit(main(["worker", *sys.argv[1:]]))
