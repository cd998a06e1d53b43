"""Terminal tools on exported games: ``spitlog export``, ``spitlog audit`` and
``spitlog replay`` (FILE or URL; ``audit`` of a whole archive is ``archive``'s), and
``spitlog simulate`` (games between bot levels, in virtual time).

They read an NDJSON log or a notation file (docs/export.md), or the URL of a finished
game on a spitlog server (they fetch its export, ``GET /v1/games/{id}/export``).
"""

import json
import os
import re
import sys
import urllib.error
import urllib.request

import click

from domain import RULES, event_to_dict, evolve, full_state
from domain.audit import verify
from domain.export import ExportError, from_ndjson, parse_notation, to_ndjson, to_notation
from domain.state import State

from .archive import audit_archive, is_archive, month_option
from .common import GameChoice, first_game

SOURCE = click.argument("source", metavar="FILE|URL")
NDJSON = "application/x-ndjson"


GAME_URL = re.compile(r"^(https?://[^?#]+?/v1/games/[^/?#]+)(/[^?#]*)?$")


def export_url(source: str) -> str:
    """The export's URL of a game, from its URL or the URL of any of its resources
    (``.../v1/games/g_x``, ``.../v1/games/g_x/audit``, ...)."""
    m = GAME_URL.match(source.strip())
    if m is None:
        raise ValueError("not the URL of a game: http(s)://HOST/v1/games/ID")
    return m.group(1) + "/export"


def fetch_export(source: str) -> str:
    """A finished game's NDJSON export from a spitlog server (``GET .../export``)."""
    request = urllib.request.Request(
        export_url(source), headers={"Accept": NDJSON, "User-Agent": "spitlog-cli"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:  # noqa: S310 - the user's URL
            return r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        try:
            detail = json.loads(e.read()).get("detail", "")
        except ValueError:
            detail = ""
        raise OSError(f"{e.code} {e.reason}" + (f": {detail}" if detail else "")) from None


def load(source: str) -> tuple[list, bytes | None]:
    """The events of a game and its revealed server seed (None if not revealed)."""
    if source.startswith(("http://", "https://")):
        text = fetch_export(source)
    else:
        with open(source, encoding="utf-8") as f:
            text = f.read()
    if text.lstrip().startswith("["):
        tags, events = parse_notation(text)
        seed = tags.get("Seed")
    else:
        header, events = from_ndjson(text)
        seed = header.get("server_seed")
    return events, bytes.fromhex(seed) if seed and seed != "?" else None


def _load_or_exit(source: str):
    try:
        return load(source)
    except (OSError, ExportError, ValueError, KeyError) as e:
        click.echo(f"cannot read {source}: {e}", err=True)
        sys.exit(2)


@click.command()
@click.argument("source", metavar="FILE|URL|ARCHIVE")
@month_option("an archive: only the games that ended that month (UTC)")
@click.option("-j", "--jobs", type=click.IntRange(1), help="an archive: processes (default: cores)")
def audit(source: str, month: str | None, jobs: int | None) -> int:
    """Re-derive every deal from the revealed seed and re-judge every event of a finished
    game; or of every game of an archive (a directory, file:// or s3:// URL), each read
    back and checked against its record (exit 0 if all check out, 1 if not, 2 if it
    cannot be read)."""
    if is_archive(source):
        return audit_archive(source, month, jobs or os.cpu_count() or 1)
    if month or jobs:
        raise click.UsageError("--month and --jobs are for an archive (a directory, "
                               "file:// or s3:// URL)")  # fmt: skip
    events, seed = _load_or_exit(source)
    if seed is None:
        click.echo("the server seed is not revealed (is the game over?): cannot check the deals")
        return 1
    v = verify(events, seed)
    deals = sum(d["ok"] for d in v.deals)
    if v.ok:
        click.echo(f"OK: {v.checked} events re-judged, {deals} deals re-derived ({v.shuffle})")
        return 0
    click.echo(f"FAILED at event {v.first_bad}: {v.reason}")
    click.echo(f"({v.checked} events and {deals} deals checked out before it)")
    return 1


@click.command()
@SOURCE
@click.option("--notation", is_flag=True, help="the compact notation, not NDJSON")
@click.option("-o", "--output", default="-", show_default=True, help="a file, or - for stdout")
def export(source: str, notation: bool, output: str) -> int:
    """A finished game, complete, as an NDJSON log or the notation (docs/export.md): from
    its URL, or converted from an exported file."""
    events, seed = _load_or_exit(source)
    text = (to_notation if notation else to_ndjson)(events, seed)
    if output == "-":
        sys.stdout.write(text)
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


# ---------------------------------------------------------------- the replay viewer


def render(state: State, event, start: float, total: int) -> str:
    """The table after ``event``: every card shown (a replay shows a finished game)."""
    d = full_state(state)
    e = event_to_dict(event)
    kind = e.pop("type")
    e.pop("at")
    what = " ".join(f"{k}={v}" for k, v in e.items() if v is not None and k != "options")
    if len(what) > 100:
        what = what[:97] + "..."
    lines = [
        f"{d['game']} {d['id']}  version {d['version']}/{total}  +{event.at - start:.3f}s  "
        f"round {d['round']}  phase {d['phase']}",
        f"  last: {kind} {what}",
        "",
        *RULES[d["game"]].text(d),
    ]
    if d["winner"] is not None or d["status"] == "finished":
        lines += ["", f"  result: winner {d['winner']} ({d['result']})"]
    return "\n".join(lines)


HELP = "enter/n: next   p: back   g N: go to version N   e: end   q: quit"


def step_through(events: list, stdin, stdout) -> int:
    """Step through a game: each step draws the table; commands come from ``stdin``."""
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


@click.command()
@SOURCE
def replay(source: str) -> int:
    """Step through an exported game (or a finished game's URL) in the terminal:
    enter/n next, p back, g N go to version N, e end, q quit."""
    events, _seed = _load_or_exit(source)
    return step_through(events, sys.stdin, sys.stdout)


@click.command()
@click.option("--game", type=GameChoice("both"), default=first_game, help="default: the first game")
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--p0", default="random", show_default=True, help="the policy of seat 0")
@click.option("--p1", default="random", show_default=True, help="the policy of seat 1")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--option", "options", multiple=True, metavar="NAME=JSON", help="a table option")
@click.option(
    "--no-progress",
    is_flag=True,
    help="no progress bar (there is none when stderr is not a terminal)",
)
def simulate(game, games, p0, p1, seed, options, no_progress) -> int:
    """Games between bot levels in virtual time (no Redis): wins, endings, speed."""
    import random
    import time
    from collections import Counter

    from tqdm import tqdm

    from domain.simulate import play_game, policies

    pols = policies()
    for name in (p0, p1):
        if name not in pols:
            raise click.BadParameter(f"{name!r}: one of {', '.join(sorted(pols))}")
    opts = {}
    for item in options:
        k, _, v = item.partition("=")
        try:
            opts[k] = json.loads(v)
        except json.JSONDecodeError:
            opts[k] = v
    for g in [*RULES] if game == "both" else [game]:
        rng = random.Random(seed)
        wins, results = Counter(), Counter()
        rounds = events = 0
        t0 = time.perf_counter()
        for i in tqdm(range(games), desc=g, disable=True if no_progress else None, unit="game"):
            seats = (pols[p0], pols[p1]) if i % 2 == 0 else (pols[p1], pols[p0])
            r = play_game(g, seats, rng, options=dict(opts))
            if r.winner is None:
                wins["draw"] += 1
            else:
                wins["p0" if (r.winner == 0) == (i % 2 == 0) else "p1"] += 1
            results[r.result] += 1
            rounds += r.rounds
            events += r.events
        dt = time.perf_counter() - t0
        click.echo(
            f"{g}: {p0} (p0) vs {p1} (p1), {games} games, seats alternating\n"
            f"  wins p0 {wins['p0']}  p1 {wins['p1']}  draws {wins['draw']}\n"
            f"  endings {dict(results)}\n"
            f"  rounds/game {rounds / games:.1f}  events/game {events / games:.0f}\n"
            f"  {games / dt:.1f} games/s, {events / dt:,.0f} events/s (wall {dt:.1f} s, one core)"
        )
    return 0
