"""Seats' tokens: a token is a bearer credential shown once; the service keeps only its
SHA-256 (``token_hash``), in the game's record, and answers which seat a token holds
(``Tokens.seat``). A seat taken with an Idempotency-Key gets a token derived from the key
(``derived``), so that a retry gets the same token while neither is stored."""

import base64
import functools
import hashlib
import hmac

from .cache import Game
from .errors import BadCredentials, OtherGamesToken, Unauthorized
from .ports import GameStore


@functools.lru_cache(maxsize=8192)  # every request of a seat hashes its token
def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def derived(secret: str, seat: int, idem_key: str) -> str:
    """The token of a seat taken with an Idempotency-Key: an HMAC of the key under the
    game's secret (``GameRecord.secret``, never shown), so that a retry gets the same
    token while neither the token nor the key is stored (the records keep a hash of the
    key)."""
    mac = hmac.new(bytes.fromhex(secret), f"{seat}:{idem_key}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


class Tokens:
    """Which seat a token holds (the token index tells a token of another game)."""

    def __init__(self, store: GameStore):
        self.store = store

    def seat(
        self, game: Game, token: str | None, *, required: bool = False, lookup: bool = True
    ) -> int | None:
        """The seat ``token`` holds in ``game``: None without a token (a spectator, unless
        ``required``); 401 for an unknown token, 403 for a token of another game (which
        the token's index tells: ``lookup=False`` answers 401 without asking it)."""
        if token is None:
            if required:
                raise Unauthorized(
                    "send the seat's token as Authorization: Bearer <token>", version=game.version
                )
            return None
        h = token_hash(token)
        found = None
        for seat, stored in enumerate(game.record.token_hashes):
            if stored and hmac.compare_digest(stored, h):
                found = seat
        if found is not None:
            return found
        if lookup and self.store.token_owner(h) is not None:
            raise OtherGamesToken("this token holds a seat of another game", version=game.version)
        raise BadCredentials("unknown token", version=game.version)
