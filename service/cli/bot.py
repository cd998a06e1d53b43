"""``spitlog bot URL``: the reference client of the bot API (README.md, *Bots*).

It takes a seat as a client's bot (``kind: bot``, ``--name``): it joins the game at URL,
or creates one (``--create spit|speed`` on a server's URL; ``--against bot:<level>`` for
a hosted opponent) and prints its URL first, or plays a seat it holds already
(``--token``). Then it follows the game's events over SSE with its token, reconnecting
with ``Last-Event-ID`` whenever the stream ends (``SPITLOG_SSE_MAX_S``) or drops; after
each event it reads its view and decides with a shipped policy (``domain.bots.POLICIES``,
``--level``), on that view alone, acting until the policy has nothing to do. Every action
carries an ``Idempotency-Key`` (a retry after a lost answer is answered, not applied
twice); a ``422`` is a race it lost to the other seat: it reads the view again and goes
on. With an app's key (``--api-key``, ``--player``) it plays as that app's player.
"""

import json
import random
import re
import sys
import time
import uuid

import click
import httpx
from httpx_sse import connect_sse

from domain.bots import POLICIES

from .common import GameChoice

GAME_URL = re.compile(r"^(https?://[^/]+)/v1/games/(g_[0-9a-f]{16})/?$")
OVER = ("finished", "aborted")


class Bot:
    def __init__(self, base: str, game_id: str, token: str, level: str, *, pace: float = 0.0,
                 seed: int | None = None, log=None):  # fmt: skip
        self.base, self.game_id, self.token = base, game_id, token
        self.policy = POLICIES[level]
        self.pace = pace  # a factor on the level's reaction time (0: act at once)
        self.rng = random.Random(seed)
        self.http = httpx.Client(base_url=base, timeout=30,
                                 headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        self.version = 0
        self.log = log or (lambda text: None)
        self.stats = {"actions": 0, "lost races": 0, "reconnects": 0, "replayed": 0}
        self._events = self._stream()

    def view(self) -> dict:
        r = self._request("GET", f"/v1/games/{self.game_id}")
        view = r.json()
        self.version = max(self.version, view["version"])
        return view

    def play(self) -> dict:
        """Play until the game is over: its last view."""
        view = self.view()
        while view["status"] not in OVER:
            view = self.act_while_it_can(view)
            if view["status"] in OVER:
                break
            self.wait_for_news()
            view = self.view()
        self._events.close()
        return view

    def act_while_it_can(self, view: dict) -> dict:
        """Choose and act on ``view`` until the policy passes: the view it ends on."""
        while view["status"] not in OVER:
            wire = self.policy.choose(view, self.rng)
            if wire is None:
                return view
            if self.pace:
                time.sleep(self.pace * self.policy.reaction(self.rng))
            key = str(uuid.uuid4())
            r = self._request("POST", f"/v1/games/{self.game_id}/actions", json=wire,
                              headers={"Idempotency-Key": key}, ok=(201, 409, 422))  # fmt: skip
            if r.status_code == 201:
                self.stats["actions"] += 1
                self.stats["replayed"] += r.headers.get("Idempotent-Replayed") == "true"
                body = r.json()
                self.version = max(self.version, body["version"])
                view = body["state"]
            elif r.status_code == 422:  # the other seat got there first: look again
                self.stats["lost races"] += 1
                self.log(f"lost a race ({r.json().get('rule')}): {wire}")
                view = self.view()
            else:  # 409: the game is over
                view = self.view()
        return view

    def wait_for_news(self) -> None:
        """Block until the log holds an event after the version this bot has seen."""
        for event_id in self._events:
            if event_id > self.version:
                return

    def _stream(self):
        """The versions of the game's events as they come, over SSE: one stream while it
        lasts, then another from ``Last-Event-ID`` (the last version seen) when it ends or
        drops; ends once the game is over and every event was seen (204)."""
        backoff, seen = 0.2, self.version
        while True:
            headers = {"Accept": "text/event-stream", "Last-Event-ID": str(max(seen, 0))}
            try:
                with connect_sse(self.http, "GET", f"/v1/games/{self.game_id}/events",
                                 headers=headers) as source:  # fmt: skip
                    if source.response.status_code == 204:
                        return
                    source.response.raise_for_status()
                    for event in source.iter_sse():
                        if event.id:
                            seen = int(event.id)
                            yield seen
                backoff = 0.2
            except (httpx.TransportError, httpx.HTTPStatusError) as e:
                self.log(f"stream dropped ({type(e).__name__}): again after {seen}")
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
            self.stats["reconnects"] += 1
            self.log(f"stream ended: reconnecting with Last-Event-ID {seen}")

    def _request(self, method: str, path: str, ok=(200, 201), **kw) -> httpx.Response:
        """One request, retried on a dropped connection, a 429 or a 503 (after their
        ``Retry-After``): an action's retry keeps its Idempotency-Key."""
        for attempt in range(8):
            try:
                r = self.http.request(method, path, **kw)
            except httpx.TransportError as e:
                self.log(f"{method} {path}: {type(e).__name__}, again")
                time.sleep(0.2 * 2**attempt)
                continue
            if r.status_code in ok:
                return r
            if r.status_code in (429, 503):
                time.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            raise click.ClickException(f"{method} {path}: {r.status_code} {_detail(r)}")
        raise click.ClickException(f"{method} {path}: no answer after 8 tries")


def _detail(r: httpx.Response) -> str:
    try:
        return r.json().get("detail", "")
    except ValueError:
        return r.text[:200]


def _options(pairs: tuple[str, ...]) -> dict:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r}: NAME=VALUE", param_hint="--option")
        out[name] = json.loads(value) if value[:1] in "0123456789-tfn[{" else value
    return out


@click.command()
@click.argument("url")
@click.option("--level", type=click.Choice(sorted(POLICIES)), default="hard", show_default=True,
              help="the shipped policy that decides")  # fmt: skip
@click.option("--name", default=None, help="the seat's name (default: spitlog-<level>)")
@click.option(
    "--create",
    "create",
    type=GameChoice(),
    default=None,
    help="create a game of this kind on the server at URL (prints its URL first)",
)
@click.option(
    "--against",
    default="human",
    show_default=True,
    help="with --create: who takes seat 1, a person who joins or bot:<level>",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="with --create: a table option (RULES V-1..V-4, Q-8, E-4, T-1..T-5)",
)
@click.option("--token", default=None, help="play the seat this token holds (no join)")
@click.option(
    "--api-key",
    envvar="SPITLOG_BOT_API_KEY",
    default=None,
    help="an app's key: play as its --player (env SPITLOG_BOT_API_KEY)",
)
@click.option("--player", default=None, help="with --api-key: the app's player id")
@click.option(
    "--pace",
    type=float,
    default=0.0,
    show_default=True,
    help="a factor on the level's reaction time before each action (0: at once)",
)
@click.option("--seed", type=int, default=None, help="the policy's random seed")
@click.option("-v", "--verbose", is_flag=True, help="say every lost race and reconnect")
def bot(url, level, name, create, against, options, token, api_key, player, pace, seed,
        verbose) -> int:  # fmt: skip
    """Play a seat of a game as a bot, through the public API: join the game at URL (or,
    with --create, create one on the server at URL), follow its events over SSE, and act
    with a shipped policy until the game is over."""
    name = name or f"spitlog-{level}"
    seat = {"kind": "bot"}
    headers = {}
    if api_key:
        if not player:
            raise click.BadParameter("--api-key plays as an app's player: give --player ID")
        headers["X-Api-Key"] = api_key
        seat["player"] = {"id": player, "name": name}
    else:
        seat["name"] = name
    log = (lambda text: click.echo(f"bot: {text}", err=True)) if verbose else None
    if create:
        base = url.rstrip("/")
        body = {"game": create, "options": _options(options), "opponent": against, **seat}
        r = httpx.post(f"{base}/v1/games", json=body, headers=headers, timeout=30)
        if r.status_code != 201:
            raise click.ClickException(f"create: {r.status_code} {_detail(r)}")
        game_id, token = r.json()["id"], r.json()["token"]
        click.echo(f"{base}/v1/games/{game_id}")
        sys.stdout.flush()
    else:
        m = GAME_URL.match(url.strip())
        if m is None:
            raise click.BadParameter(
                "the URL of a game: http(s)://HOST/v1/games/ID (or --create GAME and a "
                "server's URL)", param_hint="URL",
            )  # fmt: skip
        base, game_id = m.groups()
        if token is None:
            r = httpx.post(f"{base}/v1/games/{game_id}/seats", json=seat,
                           headers={**headers, "Idempotency-Key": str(uuid.uuid4())},
                           timeout=30)  # fmt: skip
            if r.status_code != 201:
                raise click.ClickException(f"join: {r.status_code} {_detail(r)}")
            token = r.json()["token"]
    b = Bot(base, game_id, token, level, pace=pace, seed=seed, log=log)
    last = b.play()
    you = last.get("you")
    if last["status"] == "aborted":
        outcome = f"aborted ({last.get('result')})"
    elif last.get("winner") is None:
        outcome = f"a draw ({last.get('result')})"
    else:
        outcome = ("won" if last["winner"] == you else "lost") + f" ({last.get('result')})"
    stats = ", ".join(f"{v} {k}" for k, v in b.stats.items())
    click.echo(f"{game_id}: seat {you} {outcome} at version {last['version']}; {stats}")
    return 0
