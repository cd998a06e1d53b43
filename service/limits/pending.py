"""The rate charge a request leaves to its game's first Redis script (``rates``: "One
round trip"; docs/decisions/0001). The pipeline hands the request's bill (``rates.Bill``)
to the Redis adapter through this request-scoped slot, not through the game store's
port: the use cases never see a bill. The adapter charges it inside the first game script
the request runs (``store.redis``), and a bill once charged is not charged again.

The slot is a ``ContextVar``: each thread, and each greenlet under gunicorn's gevent
workers, has its own (a new greenlet starts with none), so a bill never reaches another
request's script.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_PENDING: ContextVar = ContextVar("spitlog_pending_bill", default=None)


@contextmanager
def left_to_store(bill) -> Iterator[None]:
    """Within the block, ``bill`` (None: none) waits for the first game script to charge
    it."""
    token = _PENDING.set(bill)
    try:
        yield
    finally:
        _PENDING.reset(token)


def pending():
    """The bill the current request left to its first game script, if not charged yet."""
    bill = _PENDING.get()
    return bill if bill is not None and bill.charged is None else None


def withdraw() -> None:
    """No later game script of the current request charges its bill: the request is
    answered by the first answer of its Idempotency-Key (a replay), which is never
    refused for its charge; the pipeline takes that charge after."""
    _PENDING.set(None)
