"""Write the golden files of tests/unit/test_golden.py: whole games of both built-in games,
their exports (NDJSON and notation), the audit's verdict and snapshots of their states.

    python tests/unit/golden/make.py

The files were written by the code before the games became modules of their own and
before ``game_created`` named its ruling (the snapshots are of format 3, each game's
state in one flat class): logs of that time, which the test holds today's code to, byte
for byte. Run today, the script writes today's forms (a ``ruling``, snapshots of format
4): keep the files as they are.
"""

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from domain import Abort, Ctx, Ready, Resign, commitment, create_game, replay, run  # noqa: E402
from domain.audit import verify  # noqa: E402
from domain.bots import POLICIES  # noqa: E402
from domain.events import GameAborted  # noqa: E402
from domain.export import to_ndjson, to_notation  # noqa: E402
from domain.simulate import play_game  # noqa: E402
from domain.snapshot import state_to_dict  # noqa: E402
from domain.views import full_state  # noqa: E402


def played(game, p0, p1, seed, options=None):
    rng = random.Random(seed)
    r = play_game(game, (POLICIES[p0], POLICIES[p1]), rng, options=options, keep_log=True)
    return r.log, _seed_of(seed)


def _seed_of(seed):
    """play_game draws its server seed first from ``rng``: the same draw."""
    rng = random.Random(seed)
    return bytes(rng.getrandbits(8) for _ in range(32))


def games():
    log, seed = played("spit", "hard", "medium", 11, {"max_rounds": 3})
    yield "spit_finished", log, seed
    log, seed = played("speed", "easy", "random", 12)
    yield "speed_finished", log, seed
    log, seed = played("speed", "medium", "hard", 13, {"side_piles": 5, "alternate_colors": True})
    yield "speed_five_alternate", log, seed
    # an operator's abort as logs written before RULES T-6 hold it (reason admin)
    log, seed = played("spit", "easy", "easy", 14, {"stockpiles": 4, "pile_choice": "choose"})
    cut = len(log) // 2
    yield (
        "spit_aborted_before_t6",
        log[:cut] + [GameAborted(at=log[cut - 1].at + 1, reason="admin")],
        seed,
    )
    # an operator's abort under T-6
    state = replay(log[:cut])
    events, _ = run(state, Abort(why="a stuck game"), Ctx(None, log[cut - 1].at + 2, seed))
    yield "spit_aborted_t6", log[:cut] + events, seed
    # a rated game resigned before both seats moved (unplayed)
    seed = bytes(range(32))
    log = create_game(game_id="g_00000000000000aa", game="speed", now=1000.0, server_seed=seed,
                      commitment=commitment(seed), rated=True, opponent="bot:easy")  # fmt: skip
    state = replay(log)
    for action, s in ((Ready(), 0), (Ready(), 1), (Resign(), 0)):
        events, state = run(state, action, Ctx(s, 1001.5, seed))
        log += events
    yield "speed_rated_unplayed", log, seed


def main() -> None:
    for name, log, seed in games():
        (HERE / f"{name}.ndjson").write_text(to_ndjson(log, seed))
        (HERE / f"{name}.txt").write_text(to_notation(log, seed))
        half = replay(log[: len(log) // 2])
        extra = {
            "verdict": verify(log, seed).as_dict(),
            "snapshots": {str(half.version): state_to_dict(half),
                          str(len(log)): state_to_dict(replay(log))},
            "full_state": full_state(replay(log)),
        }  # fmt: skip
        (HERE / f"{name}.json").write_text(json.dumps(extra, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
