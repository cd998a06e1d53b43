"""Idempotency records (``Idempotency-Key``): what a key is bound to, and what is kept of
its first answer. A record is small: the body's fingerprint, the status, and either the
versions the action appended (its answer is rebuilt from the log, byte for byte) or the
refusal (its rule and text), never the answer itself."""

import hashlib
import json

import domain

from .errors import IdempotencyKeyReused


def fingerprint(body) -> str:
    """What an Idempotency-Key is bound to: the request body, canonically (64 bits: it
    tells a client's retry from its own mistake, a key sent again with another body)."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def appended(fp: str, first: int, last: int) -> dict:
    """The record of an action that appended the versions ``first``..``last``."""
    return {"fp": fp, "s": 201, "v": [first, last]}


def refused(fp: str, error: domain.DomainError, version: int) -> dict:
    """The record of an action the rules refused (422 or 409) at ``version``."""
    if isinstance(error, domain.IllegalAction):
        return {"fp": fp, "s": 422, "v": version, "r": error.rule, "d": error.detail}
    return {"fp": fp, "s": 409, "v": version, "d": str(error)}


def check(record: dict, fp: str) -> None:
    """422 if the key was first used with another body."""
    if record.get("fp", "")[:16] != fp:  # records of older code: 128 or 256 bits
        raise IdempotencyKeyReused(
            "this Idempotency-Key was first used with another body: use a new key"
        )


def error_of(record: dict) -> domain.DomainError:
    """The refusal a record keeps, raised again as it was (``replayed``, at its version)."""
    if record["s"] == 422:
        e = domain.IllegalAction(record["r"], record["d"])
    else:
        e = domain.GameOver(record["d"])
    e.version = record["v"]
    e.replayed = True
    return e
