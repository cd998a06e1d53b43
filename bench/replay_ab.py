"""Replay speed of this tree's domain against another commit's, side by side in one run.

    python bench/replay_ab.py [--base main] [--rounds 7]

The same logs (a random Spit game of ~1,000 events and a Speed match of 10,000, made by
this tree and stored as their JSON wire form, which both trees read alike) are replayed
by each tree in a process of its own, the two taking turns ``--rounds`` times so that a
busy machine slows both alike. Each turn times ``replay`` of the decoded events (the
engine's ``evolve`` alone) and of the stored JSON (``event_from_dict`` too), best of 5;
the table shows each tree's best turn in events/s and this tree's ratio to the base.
The base's ``domain/`` is taken with ``git archive`` into a temporary folder.
"""

import argparse
import json
import random
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# run in each tree's process: time replay of the logs in argv[1]; print events/s as JSON
_TIMER = textwrap.dedent(
    """
    import json, sys, time
    from domain import event_from_dict, replay
    logs = [json.loads(line) for line in open(sys.argv[1])]
    out = {}
    for name, wire in logs:
        stored = [json.dumps(d) for d in wire]
        events = [event_from_dict(d) for d in wire]
        def best(fn):
            b = float("inf")
            for _ in range(7):
                t = time.process_time(); fn(); b = min(b, time.process_time() - t)
            return b
        out[name] = (
            len(events) / best(lambda: replay(events)),
            len(events) / best(lambda: replay([event_from_dict(json.loads(x)) for x in stored])),
        )
    print(json.dumps(out))
    """
)


def logs() -> list[tuple[str, list[dict]]]:
    from domain import event_to_dict
    from domain.bots import POLICIES
    from domain.simulate import play_game

    rng = random.Random(7)
    p = POLICIES["random"]
    spit: list = []
    while len(spit) < 1000:  # the first game that long (most end sooner, by E-2)
        spit = play_game("spit", (p, p), rng, options={"max_rounds": 10_000}, keep_log=True).log
    opts = {"target_score": 10_000, "max_rounds": 10_000}
    speed = play_game("speed", (p, p), rng, options=opts, keep_log=True, max_events=10_000).log
    return [
        (f"spit {len(spit[:1000])}", [event_to_dict(e) for e in spit[:1000]]),
        (f"speed {len(speed[:10000])}", [event_to_dict(e) for e in speed[:10000]]),
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="main", help="the commit to compare with")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base, "domain"],
                                 check=True, capture_output=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        data = Path(tmp) / "logs.ndjson"
        data.write_text("".join(json.dumps(x) + "\n" for x in logs()))
        trees = {"base": base, "this": ROOT}
        best: dict[str, dict[str, list[float]]] = {t: {} for t in trees}
        for _ in range(args.rounds):
            for tree, path in trees.items():
                out = subprocess.run([sys.executable, "-c", _TIMER, str(data)], cwd=path,
                                     check=True, capture_output=True, text=True).stdout  # fmt: skip
                for name, figures in json.loads(out).items():
                    old = best[tree].setdefault(name, [0.0, 0.0])
                    best[tree][name] = [max(a, b) for a, b in zip(old, figures, strict=True)]
    print(f"# replay_ab  base {args.base}  rounds {args.rounds}  (events/s, best turn)")
    print(f"{'log':>12} {'':>8} {'base':>10} {'this':>10} {'this/base':>10}")
    for name in best["base"]:
        for i, kind in enumerate(("objects", "JSON")):
            b, t = best["base"][name][i], best["this"][name][i]
            print(f"{name:>12} {kind:>8} {b:>10,.0f} {t:>10,.0f} {t / b:>10.2f}")


if __name__ == "__main__":
    main()
