"""Checking a webhook's ``Spitlog-Signature`` (docs/webhooks.md in the repository):
``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`` under the game's secret
(``whsec_...``, shown once when the game is created) or the deployment's."""

import hashlib
import hmac
import time

DEFAULT_TOLERANCE_S = 300.0  # a signature older (or newer) than this is refused: a replay


def verify(
    secret: str,
    header: str,
    body: bytes,
    *,
    tolerance_s: float = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> bool:
    """Whether ``header`` (the ``Spitlog-Signature`` received) signs ``body`` (the raw
    bytes received, before any JSON parsing) under ``secret``, made within ``tolerance_s``
    of ``now`` (the clock's time by default). The MAC is compared in constant time.

    >>> verify("whsec_x", "t=1,v1=00", b"{}", now=1.0)
    False
    """
    try:
        fields = dict(part.strip().split("=", 1) for part in header.split(","))
        t, given = int(fields["t"]), fields["v1"]
    except (ValueError, KeyError):
        return False
    if abs((time.time() if now is None else now) - t) > tolerance_s:
        return False
    mac = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(mac.encode(), given.encode())
