"""The bots' strength ladder (issue 4, item 2): hosted levels against each other.

    cd /work/main && PYTHONPATH=. /work/venv/bin/python bench/ladder.py            # 1,000 games
    PYTHONPATH=. /work/venv/bin/python bench/ladder.py --games 200 --procs 1        # quicker

Plays ``--games`` games per pairing (hard-medium, medium-easy, hard-random, easy-random)
in both games with default table options, through ``domain.simulate.play_game``
(virtual time, each level's reaction times, deadlines firing as they fall due), the
stronger level alternating between seats 0 and 1. Then it plays the same pairings
again with one reaction-time distribution for every level (medium's), to show that
the strength comes from play and not only from speed. Each game's randomness comes
from its own seed (table, game, pairing, number), so a run is reproducible whatever
the number of processes.

A single deal of Speed is partly luck: a player left holding a last card that nothing
fits waits while the other plays out, however fast it is (against ``random`` the cap
is about 96.5% whatever the pace or the policy, measured). ``--match N`` adds, for
information, Speed matches to ``target_score`` N (RULES Q-8), where that luck evens out.
"""

import argparse
import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from domain.bots import POLICIES  # noqa: E402
from domain.simulate import play_game  # noqa: E402

PAIRINGS = (("hard", "medium"), ("medium", "easy"), ("hard", "random"), ("easy", "random"))
GAMES = ("spit", "speed")
TARGETS = {("hard", "medium"): 0.75, ("medium", "easy"): 0.75, ("hard", "random"): 0.99}
EQUAL_PACE = "medium"  # whose reaction times every level gets in the second table


class Paced:
    """A level's play with another level's reaction times."""

    def __init__(self, bot, pace):
        self.name = bot.name
        self.choose = bot.choose
        self.reaction = pace.reaction


def _play_chunk(task):
    """Play games ``lo..hi-1`` of one (table, game, pairing); count from the stronger's side."""
    table, game, strong, weak, lo, hi = task
    game, _, target = game.partition(":")
    options = {"target_score": int(target)} if target else None
    if table == "equal":
        pace = POLICIES[EQUAL_PACE]
        a, b = Paced(POLICIES[strong], pace), Paced(POLICIES[weak], pace)
    else:
        a, b = POLICIES[strong], POLICIES[weak]
    won = lost = drawn = events = 0
    for i in range(lo, hi):
        rng = random.Random(f"{table}/{game}/{strong}-{weak}/{i}")
        seats = (a, b) if i % 2 == 0 else (b, a)
        r = play_game(game, seats, rng, options=options)
        events += r.events
        if r.winner is None:
            drawn += 1
        elif r.winner == i % 2:  # the stronger sits at seat i % 2
            won += 1
        else:
            lost += 1
    return task[:4], (won, lost, drawn, events)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games per pairing and game")
    ap.add_argument("--procs", type=int, default=2, help="worker processes (at most 2)")
    ap.add_argument("--chunk", type=int, default=50, help="games per task")
    ap.add_argument("--match", type=int, default=0, help="add Speed matches to N points")
    args = ap.parse_args(argv)
    procs = max(1, min(2, args.procs))
    rows = [(table, game) for table in ("paced", "equal") for game in GAMES]
    if args.match:
        rows.append(("match", f"speed:{args.match}"))
    tasks = [
        (table, game, s, w, lo, min(lo + args.chunk, args.games))
        for table, game in rows
        for s, w in PAIRINGS
        for lo in range(0, args.games, args.chunk)
    ]
    totals: dict[tuple, list[int]] = {}
    t0 = time.perf_counter()
    with Pool(procs) as pool:
        for key, counts in pool.imap_unordered(_play_chunk, tasks):
            acc = totals.setdefault(key, [0, 0, 0, 0])
            for j, n in enumerate(counts):
                acc[j] += n
    wall = time.perf_counter() - t0
    failed = 0
    titles = {
        "paced": "each level at its own reaction times",
        "equal": f"every level at {EQUAL_PACE}'s reaction times (play alone)",
        "match": f"for information: Speed matches to {args.match} points, own reaction times",
    }
    for table, title in titles.items():
        games = [g for t, g in rows if t == table]
        if not games:
            continue
        print(f"\n{title}; {args.games} games per row, seats alternated")
        print(f"{'pairing':<16}{'game':<9}{'W/L/D':>14}{'stronger wins':>15}{'target':>9}")
        for game in games:
            for s, w in PAIRINGS:
                won, lost, drawn, _events = totals[(table, game, s, w)]
                rate = won / args.games
                target = TARGETS.get((s, w))
                mark = ""
                if table == "paced" and target is not None:
                    ok = rate >= target
                    failed += not ok
                    mark = f">={target:.0%} " + ("ok" if ok else "MISSED")
                wld = f"{won}/{lost}/{drawn}"
                print(f"{s + '-' + w:<16}{game:<9}{wld:>14}{rate:>14.1%} {mark:>9}")
    games = len(totals) * args.games
    events = sum(v[3] for v in totals.values())
    print(
        f"\n{games} games, {events:,} events in {wall:.1f} s wall with {procs} processes"
        f" ({games / wall:.0f} games/s)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
