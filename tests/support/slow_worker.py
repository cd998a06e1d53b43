"""``spitlog worker`` with slow jobs, for the chaos test: each job sleeps a little before
it decides and again between its append and the scheduler hook, so that a SIGKILL
lands mid-job (before the append, or after it and before the next decisions are armed)
instead of in the idle wait of a job that takes a millisecond.

    python tests/support/slow_worker.py [--name NAME]
"""

import random
import sys
import time

from service.cli import main
from workers import jobs, schedule

SLEEP_S = (0.002, 0.012)


def slowly(f):
    def wrapper(*args, **kwargs):
        time.sleep(random.uniform(*SLEEP_S))
        return f(*args, **kwargs)

    return wrapper


jobs._bot_turn = slowly(jobs._bot_turn)
jobs._fire = slowly(jobs._fire)
schedule.Scheduler.on_appended = slowly(schedule.Scheduler.on_appended)

if __name__ == "__main__":
    sys.exit(main(["worker", *sys.argv[1:]]))
