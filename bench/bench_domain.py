"""Rules-engine benchmarks: replay speed, simulation speed, a state's memory.

    python bench/bench_domain.py [--games 200]

Prints events/s for replaying logs of 100, 1,000 and 10,000 events (domain objects,
and from their stored JSON form), random-vs-random games/s for Spit and Speed in the
virtual-time simulator, and the deep size of a game's state. Figures are this
machine's, on one core; the targets are 100,000 events/s, 50 Spit games/s
and well under 100 KB per state.
"""

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain import event_from_dict, event_to_dict, replay  # noqa: E402
from domain.bots import POLICIES  # noqa: E402
from domain.simulate import play_game  # noqa: E402


def long_log(n: int) -> tuple[str, list]:
    """A log of ``n`` events from one game: a random Spit game when one is that long
    (they average ~850 events and E-4 bounds them), else a long Speed match (Q-8)."""
    rng = random.Random(7)
    p = POLICIES["random"]
    for _ in range(30):
        r = play_game("spit", (p, p), rng, options={"max_rounds": 10_000}, keep_log=True)
        if len(r.log) >= n:
            return "spit", r.log[:n]
    opts = {"target_score": 10_000, "max_rounds": 10_000}
    r = play_game("speed", (p, p), rng, options=opts, keep_log=True, max_events=n)
    return "speed match", r.log[:n]


def best_of(fn, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def deep_size(obj, seen=None) -> int:
    """Bytes held by ``obj`` and everything it references (shared objects once;
    the 52 interned cards and small ints/strings counted too, so this is an upper bound)."""
    seen = seen if seen is not None else set()
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, list | tuple | set | frozenset):
        size += sum(deep_size(x, seen) for x in obj)
    elif hasattr(obj, "__slots__"):
        for cls in type(obj).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(obj, name):
                    size += deep_size(getattr(obj, name), seen)
    return size


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    print(f"# bench_domain  {time.strftime('%Y-%m-%d')}  python {sys.version.split()[0]}")
    print("\n## replay (best of 5)")
    print(f"{'events':>8} {'game':>12} {'objects ev/s':>14} {'from JSON ev/s':>16}")
    for n in (100, 1_000, 10_000):
        game, log = long_log(n)
        stored = [json.dumps(event_to_dict(e)) for e in log]
        t_obj = best_of(lambda log=log: replay(log))
        t_json = best_of(lambda s=stored: replay([event_from_dict(json.loads(x)) for x in s]))
        print(f"{n:>8} {game:>12} {n / t_obj:>14,.0f} {n / t_json:>16,.0f}")
    print("\n## memory (deep size of one state; an upper bound: shared cards counted once)")
    rng = random.Random(3)
    p = POLICIES["random"]
    for game in ("spit", "speed"):
        r = play_game(game, (p, p), rng, keep_log=True)
        states = [replay(r.log[:i]) for i in range(1, len(r.log) + 1, 25)]
        print(f"{game:>6}: largest {max(map(deep_size, states)) / 1024:.1f} KB over its game")
    print("\n## simulation, random vs random (virtual time)")
    for game in ("spit", "speed"):
        rng = random.Random(1)
        p = POLICIES["random"]
        events = 0
        t = time.perf_counter()
        for _ in range(args.games):
            events += play_game(game, (p, p), rng).events
        dt = time.perf_counter() - t
        print(
            f"{game:>6}: {args.games / dt:,.1f} games/s  ({events / args.games:,.0f} events/game,"
            f" {args.games} games in {dt:.1f} s)"
        )


if __name__ == "__main__":
    main()
