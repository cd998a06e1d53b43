"""The one reader of credentials, for authentication and for the rate limits alike.

A seat's token comes as ``Authorization: Bearer <token>`` (RFC 6750): the scheme in any
case, one space, the token (its b64token characters). No header: no credentials (a
spectator). Any other form is refused (401) before anything else looks at it.

>>> bearer("Bearer abc-_.~+/9="), bearer("bearer abc"), bearer(None)
('abc-_.~+/9=', 'abc', None)
"""

import re

from ..errors import Unauthorized

_BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] ([A-Za-z0-9\-._~+/]+=*)")


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization`` header (None without one); 401 for any other form."""
    if header is None:
        return None
    m = _BEARER.fullmatch(header)
    if m is None:
        raise Unauthorized('send the token as "Authorization: Bearer <token>"')
    return m.group(1)
