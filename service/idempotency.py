"""Idempotency keys (``Idempotency-Key``): whose a key is, which keys a create or a join
takes, what a key is bound to, and what is kept of its first answer.

A key belongs to its caller (as Stripe's belong to an account): an action's to its seat
(the token), a create's or a join's to the app of its ``X-Api-Key`` or, without one, to
the client's address (``scoped``). The same key from another caller is another key: it
answers that caller's own request, never the first caller's game or token.

A create's or a join's key gives a seat's token back, so it must be hard to guess and
unique: 16-255 characters holding at least ``KEY_MIN_BITS`` bits by the count of their
characters (``key_bits``; ``key_refusal`` says why one is refused). An action's key only
has to be unique among its seat's actions: 1-255 characters.

A record (``KeptAnswer``) is small: the body's fingerprint, and either the versions the
action appended (its answer is rebuilt from the log, byte for byte) or the refusal (its
rule and text), never the answer itself."""

import collections
import hashlib
import json
import math

import domain

from .errors import GameOverAt, IdempotencyKeyReused, IllegalActionAt
from .records import KeptAnswer

KEY_LENGTH = (16, 255)  # a create's or a join's key
KEY_MIN_BITS = 24.0
KEY_RULE = (
    f"{KEY_LENGTH[0]}-{KEY_LENGTH[1]} characters holding at least {KEY_MIN_BITS:.0f} bits "
    "(its length times the Shannon entropy of how often each of its characters occurs): a "
    "random UUID, a ULID, 16 random hex digits pass; a run of one character, 16 of two "
    "alternating, or a key nearly all one character do not"
)

# The JSON schema of such a key: its length, and ``format`` naming ``KEY_RULE`` (what a
# pattern cannot say: the bits its characters hold)
KEY_SCHEMA = {"minLength": KEY_LENGTH[0], "maxLength": KEY_LENGTH[1],
              "format": "idempotency-key"}  # fmt: skip


def key_bits(key: str) -> float:
    """The entropy a key's characters show: its length times the Shannon entropy of their
    frequencies (bits). It refuses a degenerate key, not a random one: 16 random hex
    digits fall under 24 bits about once in 350 million (docs/decisions/0023).

    >>> key_bits("a" * 16), key_bits("ab" * 8), key_bits("0123456789abcdef")
    (0.0, 16.0, 64.0)
    """
    n = len(key)
    counts = collections.Counter(key).values()
    return max(0.0, -sum(c * math.log2(c / n) for c in counts))


def key_refusal(key: str) -> str | None:
    """Why a create's or a join's key is refused (``KEY_RULE``), or None: it is taken."""
    low, high = KEY_LENGTH
    if not low <= len(key) <= high or key_bits(key) < KEY_MIN_BITS:
        return KEY_RULE
    return None


def scoped(caller: str, key: str) -> str:
    """A key as its caller's (``caller``: ``app:<id>`` or ``addr:<address>``): the name
    its record is kept under, so that another caller's same key is another key."""
    return f"{caller}|{key}"


def fingerprint(body) -> str:
    """What an Idempotency-Key is bound to: the request body, canonically (64 bits: it
    tells a client's retry from its own mistake, a key sent again with another body)."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def appended(fp: str, first: int, last: int) -> KeptAnswer:
    """The record of an action that appended the versions ``first``..``last``."""
    return KeptAnswer(fp, appended=(first, last))


def refused(fp: str, error: domain.DomainError, version: int) -> KeptAnswer:
    """The record of an action the rules refused (an illegal action, or a game over) at
    ``version``."""
    if isinstance(error, domain.IllegalAction):
        return KeptAnswer(fp, refusal="illegal", version=version, rule=error.rule,
                          detail=error.detail)  # fmt: skip
    return KeptAnswer(fp, refusal="over", version=version, detail=str(error))


def check(first_fp: str, fp: str) -> None:
    """IdempotencyKeyReused if the key was first used (its fingerprint ``first_fp``) with
    another body."""
    if first_fp[:16] != fp:  # records of older code: 128 or 256 bits
        raise IdempotencyKeyReused(
            "this Idempotency-Key was first used with another body: use a new key"
        )


def error_of(record: KeptAnswer) -> domain.DomainError:
    """The refusal a record keeps, raised again as it was (``replayed``, at its version)."""
    if record.refusal == "illegal":
        return IllegalActionAt(record.rule, record.detail, version=record.version,
                               replayed=True)  # fmt: skip
    return GameOverAt(record.detail, version=record.version, replayed=True)
