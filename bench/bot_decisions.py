"""How long each hosted level takes to decide, against its reaction time.

    PYTHONPATH=. python bench/bot_decisions.py
    PYTHONPATH=. python bench/bot_decisions.py --games 10     # quicker

A worker decides when a bot's plan falls due (workers.jobs: the view of the seat, then
``choose``), so the decision's time adds to the reaction time the level was given. This
plays ``--games`` games of each game per level (the level against ``hard`` at their own
paces, through ``domain.simulate``) and times every decision of the level's seat as a
worker makes it (``choose`` on the seat's view; making the view costs some 10-20 us
more, bench_domain.py). It prints p50, p99 and
the maximum per level and game beside the level's shortest reaction time (its floor),
and says whether p99 stays under the floor.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.bots import POLICIES  # noqa: E402
from domain.simulate import play_game  # noqa: E402

GAMES = ("spit", "speed")


class Timed:
    """A level whose every decision is timed (``choose`` on the seat's view)."""

    def __init__(self, bot, times: list):
        self.name, self.bot, self.times = bot.name, bot, times
        self.reaction = bot.reaction

    def choose(self, v: dict, rng):
        t0 = time.perf_counter()
        wire = self.bot.choose(v, rng)
        self.times.append(time.perf_counter() - t0)
        return wire


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games per level and game")
    args = ap.parse_args(argv)
    print(f"{'level':<8}{'game':<7}{'decisions':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
          f"{'floor ms':>10}  p99 < floor")  # fmt: skip
    missed = 0
    t0 = time.perf_counter()
    for name, bot in POLICIES.items():
        floor = bot.pace.floor
        for game in GAMES:
            times: list[float] = []
            me = Timed(bot, times)
            for i in range(args.games):
                rng = random.Random(f"decisions/{name}/{game}/{i}")
                seats = (me, POLICIES["hard"]) if i % 2 == 0 else (POLICIES["hard"], me)
                play_game(game, seats, rng)
            p99 = pct(times, 0.99)
            ok = p99 < floor
            missed += not ok
            print(f"{name:<8}{game:<7}{len(times):>10}{pct(times, 0.5) * 1e3:>9.3f}"
                  f"{p99 * 1e3:>9.3f}{max(times) * 1e3:>9.3f}{floor * 1e3:>10.0f}  "
                  f"{'yes' if ok else 'NO'}")  # fmt: skip
    load = os.getloadavg()[0]
    print(f"\n{time.perf_counter() - t0:.0f} s; load average at the end {load:.1f}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
