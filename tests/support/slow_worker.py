"""``spitlog worker`` with slow jobs, for the chaos tests: each job sleeps a little before
it decides and again between its append and the scheduler hook, so that a SIGKILL
lands mid-job (before the append, or after it and before the next decisions are armed)
instead of in the idle wait of a job that takes a millisecond. Archiving too: a pause
before each object written, before the game is marked archived and before it is deleted;
rating too: before a game's rating is applied and before its outcome is written to the
game. With ``TEST_PUT_LOG`` set, every object about to be written is logged to that file
as ``<key> <sha256>`` (to show that no key was ever written with two contents).

    python tests/support/slow_worker.py [--name NAME]
"""

import hashlib
import os
import random
import sys
import time

from service.archive.directory import DirectoryArchive
from service.archive.s3 import S3Archive
from service.cli import main
from service.store.players import PlayerStore
from service.store.redis import RedisStore
from workers import jobs, schedule

SLEEP_S = (0.002, 0.012)


def slowly(f, pause=SLEEP_S):
    def wrapper(*args, **kwargs):
        time.sleep(random.uniform(*pause))
        return f(*args, **kwargs)

    return wrapper


jobs._bot_turn = slowly(jobs._bot_turn)
jobs._fire = slowly(jobs._fire)
schedule.Scheduler.on_appended = slowly(schedule.Scheduler.on_appended)
RedisStore.mark_archived = slowly(RedisStore.mark_archived)
RedisStore.delete_game = slowly(RedisStore.delete_game)
# a rating's two steps take longer: a kill aimed at a finished game's job lands between
# the apply and the outcome written to the game as often as not
RedisStore.annotate = slowly(RedisStore.annotate, (0.05, 0.25))
PlayerStore.apply_rating = slowly(PlayerStore.apply_rating, (0.02, 0.1))


def logged(put):
    path = os.environ.get("TEST_PUT_LOG")

    def wrapper(self, key, data):
        time.sleep(random.uniform(*SLEEP_S))
        if path:  # before the put: a kill after it must not hide it
            with open(path, "a") as f:
                f.write(f"{key} {hashlib.sha256(data).hexdigest()}\n")
        put(self, key, data)

    return wrapper


DirectoryArchive.put = logged(DirectoryArchive.put)
S3Archive.put = logged(S3Archive.put)

if __name__ == "__main__":
    sys.exit(main(["worker", *sys.argv[1:]]))
