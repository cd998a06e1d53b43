"""Safe defaults under every call, as httpx transports: a random ``Idempotency-Key`` on
each ``POST`` that has none (the same on every retry of it, so the server applies the call
once), and retries (at most ``RetryPolicy.max_retries``) of an answer ``429`` or ``503``
or a ``409`` with ``Retry-After`` (the first request with the same key still in
progress), after its ``Retry-After`` when that is at most ``RetryPolicy.max_wait_s``; and
of a connection that failed: any call that was not sent, a ``GET`` that got no answer."""

import asyncio
import email.utils
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

# every call: 5 s to connect, 30 s for each read or write (a long-poll's ``wait`` needs
# a longer one: ``Spitlog(timeout=...)``)
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)
RETRIED_STATUSES = frozenset({429, 503})
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


def new_idempotency_key() -> str:
    """A random key (uuid4: 122 random bits), so two calls never share one."""
    return str(uuid.uuid4())


def retry_after_s(value: str | None, now: float) -> float | None:
    """The seconds a ``Retry-After`` header asks for (a number of seconds or an HTTP
    date), or None if it has none that can be read.

    >>> retry_after_s("3", 0.0), retry_after_s("Thu, 01 Jan 1970 00:00:10 GMT", 4.0)
    (3.0, 6.0)
    """
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - now)
    except (TypeError, ValueError):
        return None


@dataclass(frozen=True)
class RetryPolicy:
    """When a call is tried again, and after how long.

    - an answer ``429`` or ``503``, or ``409`` with ``Retry-After``: after its
      ``Retry-After``; one that asks for longer than ``max_wait_s`` is returned as it is
      (the caller sees the ``ApiError``, with ``retry_after``); a ``429`` or ``503``
      without the header, as after a failed connection;
    - a connection that failed before the request was sent (any method), or a timeout or
      a dropped connection after it (a ``GET`` or another idempotent method only: a
      ``POST`` may have been applied; an ``httpx.TransportError`` carries its request,
      and so its ``Idempotency-Key``, for a retry by hand): after ``backoff_s`` doubled at
      each retry (up to ``max_wait_s``), with up to a quarter of it added at random
      (clients that failed together do not come back together).
    """

    max_retries: int = 2
    max_wait_s: float = 60.0
    backoff_s: float = 0.5
    sleep: Callable[[float], None] = field(default=time.sleep, compare=False)

    def backoff(self, attempt: int) -> float:
        base = min(self.max_wait_s, self.backoff_s * 2.0**attempt)
        return base + random.uniform(0, base / 4)

    def wait_after(self, attempt: int, response: httpx.Response) -> float | None:
        """Seconds to wait before trying again after ``response`` (``attempt`` tries
        were retries already), or None: return it."""
        status, header = response.status_code, response.headers.get("Retry-After")
        retried = status in RETRIED_STATUSES or (status == 409 and header is not None)
        if not retried or attempt >= self.max_retries:
            return None
        asked = retry_after_s(header, time.time())
        if asked is None:
            return self.backoff(attempt) if status != 409 else None
        return asked if asked <= self.max_wait_s else None

    def wait_after_failure(
        self, attempt: int, request: httpx.Request, error: Exception
    ) -> float | None:
        """Seconds to wait before trying again after ``error``, or None: raise it."""
        unsent = isinstance(error, httpx.ConnectError | httpx.ConnectTimeout)
        if attempt >= self.max_retries or not (unsent or request.method in IDEMPOTENT_METHODS):
            return None
        return self.backoff(attempt)


def _prepare(request: httpx.Request, key: Callable[[], str]) -> None:
    if request.method == "POST" and "Idempotency-Key" not in request.headers:
        request.headers["Idempotency-Key"] = key()


class SafeTransport(httpx.BaseTransport):
    """``inner`` (httpx's own by default) with idempotency keys and retries. Closing it
    closes ``inner`` only if it made it (a given one is its owner's to close)."""

    def __init__(
        self,
        inner: httpx.BaseTransport | None = None,
        policy: RetryPolicy | None = None,
        idempotency_key: Callable[[], str] = new_idempotency_key,
    ) -> None:
        self.inner = inner if inner is not None else httpx.HTTPTransport()
        self.owned = inner is None
        self.policy = policy if policy is not None else RetryPolicy()
        self.key = idempotency_key

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        _prepare(request, self.key)
        attempt = 0
        while True:
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError as error:
                wait = self.policy.wait_after_failure(attempt, request, error)
                if wait is None:
                    raise
            else:
                wait = self.policy.wait_after(attempt, response)
                if wait is None:
                    return response
                response.close()
            self.policy.sleep(wait)
            attempt += 1

    def close(self) -> None:
        if self.owned:
            self.inner.close()


class AsyncSafeTransport(httpx.AsyncBaseTransport):
    """``SafeTransport`` for ``httpx.AsyncClient`` (the generated ``asyncio`` calls); it
    waits with ``asyncio.sleep``."""

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport | None = None,
        policy: RetryPolicy | None = None,
        idempotency_key: Callable[[], str] = new_idempotency_key,
    ) -> None:
        self.inner = inner if inner is not None else httpx.AsyncHTTPTransport()
        self.owned = inner is None
        self.policy = policy if policy is not None else RetryPolicy()
        self.key = idempotency_key

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        _prepare(request, self.key)
        attempt = 0
        while True:
            try:
                response = await self.inner.handle_async_request(request)
            except httpx.TransportError as error:
                wait = self.policy.wait_after_failure(attempt, request, error)
                if wait is None:
                    raise
            else:
                wait = self.policy.wait_after(attempt, response)
                if wait is None:
                    return response
                await response.aclose()
            await asyncio.sleep(wait)
            attempt += 1

    async def aclose(self) -> None:
        if self.owned:
            await self.inner.aclose()
