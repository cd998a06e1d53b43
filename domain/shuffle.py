"""The provably fair shuffle, ``spitlog-shuffle-v1`` (docs/shuffle.md has the full spec).

At creation the service draws a secret 32-byte server seed and publishes
``commitment = sha256(server_seed)``. Every shuffle of the game is numbered by a
``nonce`` (1, 2, 3, ... in log order) and driven by a byte stream of
HMAC-SHA256(key=server_seed, msg) blocks, msg binding the version tag, both
players' client seeds, the nonce and a block counter. The cards are put in their
canonical order (``Card.index``) and shuffled by Fisher–Yates with unbiased
(rejection-sampled) uniform draws. After the game the seed is revealed and anyone
can re-derive every deal (RULES H-6).
"""

import hashlib
import hmac
import struct

from .cards import Card

VERSION = "spitlog-shuffle-v1"


def commitment(server_seed: bytes) -> str:
    """The public commitment to a server seed: its SHA-256, lowercase hex."""
    return hashlib.sha256(server_seed).hexdigest()


def _lp(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


class _Stream:
    """Big-endian uint32 words from HMAC-SHA256 blocks in counter mode."""

    def __init__(self, server_seed: bytes, client_seeds: tuple[str, str], nonce: int):
        self._key = server_seed
        self._prefix = (
            _lp(VERSION.encode())
            + b"".join(_lp(s.encode("utf-8")) for s in client_seeds)
            + struct.pack(">Q", nonce)
        )
        self._counter = 0
        self._words: list[int] = []  # the current block's unread words, the next one last

    def word(self) -> int:
        if not self._words:  # a block is 32 bytes: exactly eight words
            msg = self._prefix + struct.pack(">Q", self._counter)
            block = hmac.new(self._key, msg, hashlib.sha256).digest()
            self._words = list(reversed(struct.unpack(">8I", block)))
            self._counter += 1
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection of the biased top of the range."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            x = self.word()
            if x < limit:
                return x % n


def shuffle(
    cards, server_seed: bytes, client_seeds: tuple[str, str], nonce: int
) -> tuple[Card, ...]:
    """Shuffle ``cards`` (any order: they are sorted canonically first) for shuffle ``nonce``."""
    a = sorted(cards, key=lambda c: c.index)
    rng = _Stream(server_seed, client_seeds, nonce)
    for i in range(len(a) - 1, 0, -1):
        j = rng.below(i + 1)
        a[i], a[j] = a[j], a[i]
    return tuple(a)
