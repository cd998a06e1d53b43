"""Rating farms: how far can an app lift one of its players with games
it arranges? The attacks of the adversarial review, run against the API in this process
on a redis-server of its own (loopback), each game rated as the archive job rates it
(``service.rating.Rater``), with the limits at their defaults:

    python bench/rating_farm.py

- **throwaways, resigned at once**: 12 rated games of ``alice`` against 12 new players
  of the same app, each resigning at once;
- **throwaways that move once**: the same, each seat making one move first (then 60);
- **rematches**: one rated game of ``alice`` and ``bob`` and 25 rematches, each seat
  moving once and ``bob`` resigning every time;
- **rematches against the creation rate**: an address that has used up its game-creation
  bucket (``429`` to a create) asks for 20 rematches against a hosted bot;
- **throwaways, then losses to bot:hard**: 60 throwaways that move once, then 3 rated
  games ``alice`` loses to ``bot:hard`` on purpose (both seats moving first), the farm of
  the second review: the losses to a calibrated level bring the RD down, to list the
  rating the throwaways lifted.

Each row says how many games were rated, ``alice``'s rating, RD and whether it is
provisional, her place on the leaderboard, the statuses answered, and the wall time.
"""

import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis  # noqa: E402

import domain  # noqa: E402
from service import config  # noqa: E402
from service.http.app import create_app  # noqa: E402
from service.rating import Rater  # noqa: E402
from tests.support.redis_server import start_redis  # noqa: E402


class Farm:
    def __init__(self, port: int):
        r = redis.Redis(port=port)
        r.flushall()
        app = create_app(config.load(warn=None), redis_client=r)
        self.client = app.test_client()
        self.svc = app.extensions["spitlog"]
        self.key = {"X-Api-Key": self.svc.apps.create("farm")[1]}
        self.rater = Rater(self.svc.reading, self.svc.store, self.svc.profiles.players)
        self.rng = random.Random(25)
        self.statuses: Counter = Counter()

    def post(self, path: str, body=None, token=None):
        headers = {**self.key, **({"Authorization": f"Bearer {token}"} if token else {})}
        r = self.client.post(path, json=body if body is not None else {}, headers=headers)
        self.statuses[r.status_code] += 1
        return r

    def move_once_each(self, gid: str, tokens) -> None:
        """Legal actions of both seats until each has had one accepted that is not a
        ``ready`` (nor a resignation)."""
        moved = [False, False]
        for _ in range(400):
            if all(moved):
                return
            state = self.svc.reading.load(gid).state
            for seat in (0, 1):
                acts = [
                    a for a in domain.legal_actions(state, seat) if type(a) is not domain.Resign
                ]
                if not acts or (moved[seat] and all(moved)):
                    continue
                a = self.rng.choice(acts)
                if tokens[seat] is None:  # a hosted level's seat, by the workers' path
                    ok = self.svc.acting.submit(gid, seat, a, state.version) is not None
                else:
                    r = self.client.post(
                        f"/v1/games/{gid}/actions",
                        json=domain.action_to_dict(a),
                        headers={"Authorization": f"Bearer {tokens[seat]}"},
                    )
                    ok = r.status_code == 201
                if ok and type(a) is not domain.Ready:
                    moved[seat] = True
                state = self.svc.reading.load(gid).state
        raise RuntimeError(f"{gid}: the seats did not both move")

    def rated_game(self, opponent: str, move: bool):
        """A rated game of alice (seat 0) and ``opponent``, who resigns, rated: its id and
        the seats' tokens, or None when the join is refused. A create refused by the
        game-creation rate waits its ``Retry-After`` (the farm's pace is that rate's)."""
        body = {"game": "spit", "rated": True, "player": {"id": "alice", "name": "Alice"}}
        while (r := self.post("/v1/games", body)).status_code == 429:
            time.sleep(int(r.headers["Retry-After"]))
        g = r.get_json()
        j = self.post(f"/v1/games/{g['id']}/seats", {"player": {"id": opponent, "name": opponent}})
        if j.status_code != 201:
            return None
        tokens = (g["token"], j.get_json()["token"])
        if move:
            self.move_once_each(g["id"], tokens)
        self.post(f"/v1/games/{g['id']}/actions", {"type": "resign"}, tokens[1])
        self.rater.step(g["id"])
        return g["id"], tokens

    def lost_to(self, level: str) -> None:
        """A rated game of alice against a hosted ``level``, both seats moving first, then
        alice resigns; rated."""
        body = {"game": "spit", "rated": True, "opponent": level,
                "player": {"id": "alice", "name": "Alice"}}  # fmt: skip
        while (r := self.post("/v1/games", body)).status_code == 429:
            time.sleep(int(r.headers["Retry-After"]))
        g = r.get_json()
        self.move_once_each(g["id"], (g["token"], None))
        self.post(f"/v1/games/{g['id']}/actions", {"type": "resign"}, g["token"])
        self.rater.step(g["id"])

    def standing(self) -> str:
        page = self.client.get("/v1/players/alice", headers=self.key).get_json()
        spit = page["ratings"]["spit"]
        board = self.client.get("/v1/leaderboard?game=spit&limit=100").get_json()["players"]
        rank = next((p["rank"] for p in board if p["id"] == "alice"), None)
        where = f"#{rank} of {len(board)}" if rank else f"not listed ({len(board)} listed)"
        prov = spit.get("provisional")
        return (
            f"rated {spit['games']}, alice {spit['rating']} RD {spit['rd']} "
            f"provisional {prov}, leaderboard {where}"
        )


def throwaways(port: int, n: int, move: bool) -> str:
    farm = Farm(port)
    t0 = time.perf_counter()
    for i in range(n):
        farm.rated_game(f"throwaway{i}", move)
    took = time.perf_counter() - t0
    return f"{farm.standing()}; {took:.2f} s"


def throwaways_then_losses(port: int, n: int, losses: int, level: str) -> str:
    farm = Farm(port)
    t0 = time.perf_counter()
    for i in range(n):
        farm.rated_game(f"throwaway{i}", move=True)
    for _ in range(losses):
        farm.lost_to(level)
    took = time.perf_counter() - t0
    return f"{farm.standing()}; {took:.2f} s"


def rematches(port: int, n: int) -> str:
    farm = Farm(port)
    t0 = time.perf_counter()
    gid, tokens = farm.rated_game("bob", move=True)  # (alice's token, bob's)
    made = refused = 0
    for _ in range(n):
        farm.post(f"/v1/games/{gid}/rematch", None, tokens[0])
        b = farm.post(f"/v1/games/{gid}/rematch", None, tokens[1])
        if b.status_code != 201:
            refused += 1
            continue
        made += 1
        new = b.get_json()  # bob's new seat and token
        mine = farm.client.get(
            f"/v1/games/{gid}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"}
        ).get_json()
        seats = [None, None]
        seats[new["seat"]], seats[mine["seat"]] = new["token"], mine["token"]
        gid, tokens = new["game"], (mine["token"], new["token"])
        farm.move_once_each(gid, seats)
        farm.post(f"/v1/games/{gid}/actions", {"type": "resign"}, tokens[1])
        farm.rater.step(gid)
    took = time.perf_counter() - t0
    return f"{made} made, {refused} refused; {farm.standing()}; {took:.2f} s"


def rematch_bucket(port: int, n: int) -> str:
    farm = Farm(port)
    over = []
    for _ in range(n):  # finished games against a hosted bot, to ask a rematch of
        g = farm.post("/v1/games", {"game": "speed", "opponent": "bot:easy"}).get_json()
        farm.post(f"/v1/games/{g['id']}/actions", {"type": "resign"}, g["token"])
        over.append(g)
    creates = 0
    while farm.post("/v1/games", {"game": "speed"}).status_code == 201:
        creates += 1
    farm.statuses.clear()
    t0 = time.perf_counter()
    got = Counter(
        farm.post(f"/v1/games/{g['id']}/rematch", None, g["token"]).status_code for g in over
    )
    took = time.perf_counter() - t0
    return (
        f"create answered 429 (after {creates} more); then {n} rematch asks: "
        f"{dict(sorted(got.items()))} in {took:.2f} s"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_redis(tmp)
        try:
            print("throwaways, resigned at once (12):  ", throwaways(port, 12, move=False))
            print("throwaways that move once (12):     ", throwaways(port, 12, move=True))
            print("throwaways that move once (60):     ", throwaways(port, 60, move=True))
            print("rematches (1 + 25):                 ", rematches(port, 25))
            print("rematches against the creation rate:", rematch_bucket(port, 20))
            print("throwaways (60), 3 losses to hard:  ",
                  throwaways_then_losses(port, 60, 3, "bot:hard"))  # fmt: skip
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
