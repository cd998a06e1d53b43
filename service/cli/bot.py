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
import re
import sys

import click

from domain.bots import POLICIES

from .common import GameChoice, need

GAME_URL = re.compile(r"^(https?://[^/]+)/v1/games/(g_[0-9a-f]{16})/?$")


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
    need("bot", "spitlog bot needs its HTTP client")
    from . import botplay

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
        game_id, token = botplay.create(base, body, headers)
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
            token = botplay.join(base, game_id, seat, headers)
    b = botplay.Bot(base, game_id, token, level, pace=pace, seed=seed, log=log)
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
