"""Identifiers: the one grammar of every id that becomes part of a Redis key or an archive
path (a game's, an app's, a seek's, an app's player's). Each is a regular expression here
and nowhere else: the request schemas and the route converters (``service.http``), the
use cases, the stores and the archive's keys (``service.archiving``) all use these.

No id can name a path: none holds ``/`` or ``\\``, a space or a control character, and
none is ``.`` or ``..`` (a player's id may hold dots, never as its first character). The
service makes the ids of games (``g_`` and 16 hex digits), apps (``a_`` and 12) and
seeks (``s_`` and 16); an app names its players (1-64 of ``A-Z a-z 0-9 _ . -``, not
starting with a dot), stored as ``<app id>:<player id>`` (a *pkey*).

>>> is_player_id("alice.b-2"), is_player_id(".."), is_player_id(".hidden")
(True, False, False)
>>> is_pkey("a_0123456789ab:alice"), is_pkey("a_0123456789ab:.")
(True, False)
"""

import re

GAME_ID = r"g_[0-9a-f]{16}"
APP_ID = r"a_[0-9a-f]{12}"
SEEK_ID = r"s_[0-9a-f]{16}"
PLAYER_ID = r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}"
PKEY = rf"{APP_ID}:{PLAYER_ID}"
PLAYER_RULE = "1-64 of A-Z a-z 0-9 _ . -, not starting with a dot"

_GAME = re.compile(GAME_ID)
_SEEK = re.compile(SEEK_ID)
_PLAYER = re.compile(PLAYER_ID)
_PKEY = re.compile(rf"({APP_ID}):({PLAYER_ID})")


def is_game_id(text: str) -> bool:
    return _GAME.fullmatch(text) is not None


def is_seek_id(text: str) -> bool:
    return _SEEK.fullmatch(text) is not None


def is_player_id(text: str) -> bool:
    return _PLAYER.fullmatch(text) is not None


def is_pkey(text: str) -> bool:
    """Whether ``text`` is ``<app id>:<player id>``, both of the grammar."""
    return _PKEY.fullmatch(text) is not None


def split_pkey(text: str) -> tuple[str, str] | None:
    """(app id, player id) of a pkey of the grammar, else None."""
    m = _PKEY.fullmatch(text)
    return (m.group(1), m.group(2)) if m is not None else None
