"""The hosted bot levels' Glicko-2 ratings, calibrated from simulated games.

Every level plays every other level ``--games`` games per rating period in each game
kind (seats alternate), at each level's own reaction times (``domain.simulate``, virtual
time); ``--periods`` periods are rated with ``domain.ratings.rate_period``, every level
starting at 1500 (RD 350). The ratings are then shifted so that ``random`` sits at
``--floor``: only differences mean anything, and the floor puts a newcomer's 1500 between
the levels. The printed lines are what ``domain/spit.py`` and ``domain/speed.py`` hold as
``BOT_RATINGS``:

    python bench/bot_ratings.py --games 40 --periods 10 --seed 16
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain import RULES  # noqa: E402
from domain.bots import POLICIES  # noqa: E402
from domain.ratings import Rating, rate_period  # noqa: E402
from domain.simulate import play_game  # noqa: E402

LEVELS = ("random", "easy", "medium", "hard")


def calibrate(game: str, games: int, periods: int, rng: random.Random, floor: float) -> dict:
    ratings = {lv: Rating() for lv in LEVELS}
    wins = {(a, b): 0.0 for a in LEVELS for b in LEVELS if a != b}
    for _period in range(periods):
        played = []
        for i, a in enumerate(LEVELS):
            for b in LEVELS[i + 1 :]:
                for n in range(games):
                    seats = (a, b) if n % 2 == 0 else (b, a)
                    r = play_game(game, (POLICIES[seats[0]], POLICIES[seats[1]]), rng)
                    score = 0.5 if r.winner is None else float(r.winner == seats.index(a))
                    played.append((a, b, score))
                    wins[(a, b)] += score
                    wins[(b, a)] += 1 - score
        ratings = rate_period(ratings, played)
    shift = floor - ratings["random"].rating
    total = games * periods
    print(f"# {game}: " + ", ".join(
        f"{a}>{b} {wins[(a, b)] / total:.1%}" for a, b in zip(LEVELS[1:], LEVELS, strict=False)
    ))  # fmt: skip
    return {lv: (round(r.rating + shift), round(r.rd)) for lv, r in ratings.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40, help="games per pair per period")
    ap.add_argument("--periods", type=int, default=10)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--floor", type=float, default=800, help="random's rating")
    a = ap.parse_args()
    t0 = time.time()
    for game in RULES:
        out = calibrate(game, a.games, a.periods, random.Random(f"{a.seed}|{game}"), a.floor)
        print(
            f"# {game}: rating (RD) " + ", ".join(f"{k} {r} ({rd})" for k, (r, rd) in out.items())
        )
        print(
            f"{game}: BOT_RATINGS = {{{', '.join(f'{k!r}: {r}' for k, (r, _rd) in out.items())}}}"
        )
    print(f"# {time.time() - t0:.0f} s; python bench/bot_ratings.py --games {a.games} "
          f"--periods {a.periods} --seed {a.seed} --floor {a.floor:g}")  # fmt: skip


if __name__ == "__main__":
    main()
