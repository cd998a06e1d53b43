"""Terminal tools on exported games: ``spitlog audit FILE|URL`` and ``spitlog replay FILE|URL``
(and ``spitlog simulate``: games between bot levels, in virtual time).

Both read an NDJSON log or a notation file (docs/export.md), or the URL of a finished
game on a spitlog server (its audit document holds the full log and the seed).
"""

import json
import sys
import urllib.request

from domain import evolve, full_state
from domain.audit import verify
from domain.events import event_from_dict, event_to_dict
from domain.export import ExportError, from_ndjson, parse_notation
from domain.state import State


def load(source: str) -> tuple[list, bytes | None]:
    """The events of a game and its revealed server seed (None if not revealed)."""
    if source.startswith(("http://", "https://")):
        url = source.rstrip("/")
        if not url.endswith("/audit"):
            url += "/audit"
        with urllib.request.urlopen(url, timeout=30) as r:  # noqa: S310 - the user's URL
            doc = json.load(r)
        events = [
            event_from_dict({k: v for k, v in e.items() if k != "version"}) for e in doc["log"]
        ]
        seed = doc.get("server_seed")
        return events, bytes.fromhex(seed) if seed else None
    with open(source, encoding="utf-8") as f:
        text = f.read()
    if text.lstrip().startswith("["):
        tags, events = parse_notation(text)
        seed = tags.get("Seed")
    else:
        header, events = from_ndjson(text)
        seed = header.get("server_seed")
    return events, bytes.fromhex(seed) if seed and seed != "?" else None


def audit_main(argv: list[str]) -> int:
    """Re-derive every deal and re-judge every event; exit 0 if the game checks out."""
    if len(argv) != 1:
        print("usage: spitlog audit FILE|URL", file=sys.stderr)
        return 2
    try:
        events, seed = load(argv[0])
    except (OSError, ExportError, ValueError, KeyError) as e:
        print(f"cannot read {argv[0]}: {e}", file=sys.stderr)
        return 2
    if seed is None:
        print("the server seed is not revealed (is the game over?): cannot check the deals")
        return 1
    v = verify(events, seed)
    deals = sum(d["ok"] for d in v.deals)
    if v.ok:
        print(f"OK: {v.checked} events re-judged, {deals} deals re-derived ({v.shuffle})")
        return 0
    print(f"FAILED at event {v.first_bad}: {v.reason}")
    print(f"({v.checked} events and {deals} deals checked out before it)")
    return 1


def export_main(argv: list[str]) -> int:
    """``spitlog export URL [--notation] [-o FILE]``: a finished game, complete, to a file."""
    import argparse

    from domain.export import to_ndjson, to_notation

    ap = argparse.ArgumentParser(prog="spitlog export")
    ap.add_argument("source", help="a finished game's URL (or an exported file to convert)")
    ap.add_argument("--notation", action="store_true", help="the compact notation, not NDJSON")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args(argv)
    try:
        events, seed = load(args.source)
    except (OSError, ExportError, ValueError, KeyError) as e:
        print(f"cannot read {args.source}: {e}", file=sys.stderr)
        return 2
    text = (to_notation if args.notation else to_ndjson)(events, seed)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


# ---------------------------------------------------------------- the replay viewer


def render(state: State, event, start: float, total: int) -> str:
    """The table after ``event``: every card shown (a replay shows a finished game)."""
    d = full_state(state)
    off = event.at - start
    e = event_to_dict(event)
    kind = e.pop("type")
    e.pop("at")
    what = " ".join(f"{k}={v}" for k, v in e.items() if v is not None and k not in ("options",))
    if len(what) > 100:
        what = what[:97] + "..."
    lines = [
        f"{d['game']} {d['id']}  version {d['version']}/{total}  +{off:.3f}s  "
        f"round {d['round']}  phase {d['phase']}",
        f"  last: {kind} {what}",
        "",
    ]

    def seat_lines(i: int) -> list[str]:
        p = d["players"][i]
        head = f"  seat {i} ({p['kind']}): {p['cards']} cards"
        if d["game"] == "spit":
            piles = " ".join(
                f"[{s['cards'][-1] if s['face_up'] else '##':>3} {len(s['cards']):>1}]"
                if s["cards"]
                else "[     ]"
                for s in p["stockpiles"]
            )
            return [head + f", {len(p['spit_cards'])} spit cards", "    " + piles]
        hand = " ".join(p["hand"]) or "-"
        return [head + f", draw pile {len(p['draw_pile'])}", "    hand: " + hand]

    lines += seat_lines(1)
    lines.append("")
    if d["game"] == "spit":
        centre = "   ".join(
            f"pile {i}: {p['cards'][-1] if p['cards'] else '-':>3} ({len(p['cards'])})"
            if p["exists"]
            else f"pile {i}: none"
            for i, p in enumerate(d["spit_piles"])
        )
    else:
        centre = "   ".join(
            f"side {i}: {len(s['cards']):>2}   centre {i}: "
            f"{c['cards'][-1] if c['cards'] else '-':>3} ({len(c['cards'])})"
            for i, (s, c) in enumerate(zip(d["side_piles"], d["centre_piles"], strict=True))
        )
    lines += ["    " + centre, ""]
    lines += seat_lines(0)
    if d["winner"] is not None or d["status"] == "finished":
        lines += ["", f"  result: winner {d['winner']} ({d['result']})"]
    return "\n".join(lines)


HELP = "enter/n: next   p: back   g N: go to version N   e: end   q: quit"


def replay_main(argv: list[str], stdin=None, stdout=None) -> int:
    """Step through a game: each step draws the table; commands come from ``stdin``."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    if len(argv) != 1:
        print("usage: spitlog replay FILE|URL", file=sys.stderr)
        return 2
    try:
        events, _seed = load(argv[0])
    except (OSError, ExportError, ValueError, KeyError) as e:
        print(f"cannot read {argv[0]}: {e}", file=sys.stderr)
        return 2
    states, s = [], State()
    for e in events:
        s = evolve(s, e)
        states.append(s)
    start, total, i = events[0].at, len(events), 0
    while True:
        stdout.write("\n" + render(states[i], events[i], start, total) + "\n" + HELP + "\n> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            return 0
        cmd = line.strip().split()
        if not cmd or cmd[0] == "n":
            i = min(i + 1, total - 1)
        elif cmd[0] == "p":
            i = max(i - 1, 0)
        elif cmd[0] == "e":
            i = total - 1
        elif cmd[0] == "g" and len(cmd) == 2 and cmd[1].isdigit():
            i = min(max(int(cmd[1]), 1), total) - 1
        elif cmd[0] == "q":
            return 0
        else:
            stdout.write(f"? {HELP}\n")


def simulate_main(argv=None) -> int:
    """``spitlog simulate``: games between bot levels in virtual time (domain/simulate.py)."""
    import argparse
    import random
    import time
    from collections import Counter

    from tqdm import tqdm

    from domain.simulate import play_game, policies

    pols = policies()
    ap = argparse.ArgumentParser(
        prog="spitlog simulate", description="Games between bot levels, in virtual time"
    )
    ap.add_argument("--game", choices=["spit", "speed", "both"], default="spit")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--p0", choices=sorted(pols), default="random")
    ap.add_argument("--p1", choices=sorted(pols), default="random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    options = {}
    for item in args.option:
        k, _, v = item.partition("=")
        try:
            options[k] = json.loads(v)
        except json.JSONDecodeError:
            options[k] = v
    games = ["spit", "speed"] if args.game == "both" else [args.game]
    for game in games:
        opts = {k: v for k, v in options.items()}
        rng = random.Random(args.seed)
        wins, results = Counter(), Counter()
        rounds = events = 0
        t0 = time.perf_counter()
        for i in tqdm(range(args.games), desc=game, disable=args.no_progress, unit="game"):
            seats = (pols[args.p0], pols[args.p1]) if i % 2 == 0 else (pols[args.p1], pols[args.p0])
            r = play_game(game, seats, rng, options=opts)
            if r.winner is None:
                wins["draw"] += 1
            else:
                wins["p0" if (r.winner == 0) == (i % 2 == 0) else "p1"] += 1
            results[r.result] += 1
            rounds += r.rounds
            events += r.events
        dt = time.perf_counter() - t0
        n = args.games
        print(
            f"{game}: {args.p0} (p0) vs {args.p1} (p1), {n} games, seats alternating\n"
            f"  wins p0 {wins['p0']}  p1 {wins['p1']}  draws {wins['draw']}\n"
            f"  endings {dict(results)}\n"
            f"  rounds/game {rounds / n:.1f}  events/game {events / n:.0f}\n"
            f"  {n / dt:.1f} games/s, {events / dt:,.0f} events/s (wall {dt:.1f} s, one core)"
        )
    return 0

