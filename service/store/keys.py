"""The names of what the service keeps outside a game's own keys (``store.redis`` names
those), made here alone: the rate limits' buckets, the schedule's keys on the queue Redis
and the archive's object keys. The adapters that use them (``service.limits.rates``,
``workers.schedule``, ``service.archive.games``) import them from here.

The rate limits' (on the game store's Redis):

- ``spit:rl:a:<address>``  an address's request bucket (a number; expires once full)
- ``spit:rl:p:<sha256 of the token>``  a seat's request bucket
- ``spit:rl:o:<sha256 of the token>``  a seat's share of its address (never refuses)
- ``spit:rl:t:<sha256 of the token>``  a seat's action bucket
- ``spit:rl:g:<address>``  an address's game-creation bucket
- ``spit:rl:f:<address>``  an address's failed authentications
- ``spit:rl:s:<a|t>:<address or token hash>``  a sorted set: open stream -> its end (ms)

The schedule's (on the queue Redis, ``SPITLOG_QUEUE_URL``; ``workers.schedule`` says what
each holds):

- ``spitlog:sched:due``  a sorted set of decision slots scored by due time in ms;
- ``spitlog:sched:plan``  a hash: slot -> ``<version>|<attempt>|<claimed ms, 0 if not yet>``;
- ``spitlog:sched:v:<game>``  the highest game version armed;
- ``spitlog:sched:trace``  a Stream of job runs (``SPITLOG_TRACE=1``);
- ``spitlog:sched:wake``  a Pub/Sub channel: the due time of a slot made the soonest;
- ``spitlog:sched:ctx:<game>``  the trace context of the game's latest append;
- ``spitlog:sched:beat:<host>``  the time (ms) a scheduler on that host last ticked;
- ``spitlog:sched:failed``  a hash: game -> JSON ``{at, why}``, the games whose archive
  job failed for good.

The archive's (``service.archive.games`` says what each object holds); every key is made
of ids of the grammar only (``service.ids``): none names another path:

- ``games/YYYY/MM/<id>.ndjson.zst``  a game's export (YYYY/MM: the month it ended, UTC);
- ``games/YYYY/MM/<id>.json``  its record;
- ``players/<app>/<player>/<9999999999999 - created ms>-<id>.json``  a player's game;
- ``ids/<id>``  the pointer to the record.
"""

import re
from datetime import UTC, datetime

from .. import ids

# the rate limits ------------------------------------------------------------------------

RL = "spit:rl"


def rl_requests(address: str) -> str:
    return f"{RL}:a:{address}"


def rl_seat(token_hash: str) -> str:
    return f"{RL}:p:{token_hash}"


def rl_share(token_hash: str) -> str:
    return f"{RL}:o:{token_hash}"


def rl_actions(token_hash: str) -> str:
    return f"{RL}:t:{token_hash}"


def rl_games(address: str) -> str:
    return f"{RL}:g:{address}"


def rl_auth(address: str) -> str:
    return f"{RL}:f:{address}"


def rl_streams_of_token(token_hash: str) -> str:
    return f"{RL}:s:t:{token_hash}"


def rl_streams_of_address(address: str) -> str:
    return f"{RL}:s:a:{address}"


# the schedule ---------------------------------------------------------------------------

SCHED = "spitlog:sched"
SCHED_DUE = f"{SCHED}:due"
SCHED_PLAN = f"{SCHED}:plan"
SCHED_TRACE = f"{SCHED}:trace"
SCHED_WAKE = f"{SCHED}:wake"
SCHED_FAILED = f"{SCHED}:failed"


def sched_version(game_id: str) -> str:
    """The highest version of ``game_id`` armed."""
    return f"{SCHED}:v:{game_id}"


def sched_context(game_id: str) -> str:
    """The trace context of ``game_id``'s latest append."""
    return f"{SCHED}:ctx:{game_id}"


def sched_beat(host: str) -> str:
    """When a scheduler on ``host`` last ticked."""
    return f"{SCHED}:beat:{host}"


# the archive ----------------------------------------------------------------------------

NEWEST = 9_999_999_999_999  # a player's game's key holds this less its creation (ms)
_MONTH = re.compile(r"(\d{4})-(0[1-9]|1[0-2])$")


def month(ended_s: float) -> str:
    """``YYYY/MM`` of a time (UTC): the folder of the games that ended then."""
    return datetime.fromtimestamp(ended_s, UTC).strftime("%Y/%m")


def _gid(game_id: str) -> str:
    """``game_id``, if it is a game's id (``service.ids``); ValueError if not."""
    if not ids.is_game_id(game_id):
        raise ValueError(f"not a game id: {game_id!r}")
    return game_id


def export_key(game_id: str, ym: str) -> str:
    return f"games/{ym}/{_gid(game_id)}.ndjson.zst"


def record_key(game_id: str, ym: str) -> str:
    return f"games/{ym}/{_gid(game_id)}.json"


def pointer_key(game_id: str) -> str:
    return f"ids/{_gid(game_id)}"


def record_game_id(key: str) -> str:
    """The game id of a record's key (as ``record_key`` makes it)."""
    return key.rpartition("/")[2].removesuffix(".json")


def is_record_key(key: str) -> bool:
    """Whether a key under ``month_prefix`` is a record's (not an export's)."""
    return key.endswith(".json")


def player_games_prefix(pkey: str) -> str:
    """The folder of a player's games; ValueError for a pkey not of the grammar."""
    split = ids.split_pkey(pkey)
    if split is None:
        raise ValueError(f"not a player's key: {pkey!r}")
    return f"players/{split[0]}/{split[1]}/"


def player_game_key(pkey: str, created_ms: int, game_id: str) -> str:
    return f"{player_games_prefix(pkey)}{NEWEST - created_ms:013d}-{game_id}.json"


def parse_player_game_key(key: str) -> tuple[int, str]:
    """(the game's creation in ms, its id) of a key ``player_game_key`` made."""
    inv, _sep, rest = key.rpartition("/")[2].partition("-")
    return NEWEST - int(inv), rest.removesuffix(".json")


def month_prefix(month: str | None) -> str:
    """The key prefix of the games archived in ``month`` (``YYYY-MM``), or of every game
    (None); ValueError for another form.

    >>> month_prefix("2026-11"), month_prefix(None)
    ('games/2026/11/', 'games/')
    """
    if month is None:
        return "games/"
    m = _MONTH.match(month)
    if not m:
        raise ValueError(f"{month!r} is not a month (YYYY-MM)")
    return f"games/{m[1]}/{m[2]}/"
