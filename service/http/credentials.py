"""The one reader of credentials, for authentication and for the rate limits alike.

An app's API key (``service.apps``) comes as ``X-Api-Key: <key>``, apart from the seat's
token: a request of an app's player (or its bot) carries both, the key saying which app
and the token which seat.

A seat's token comes as ``Authorization: Bearer <token>`` (RFC 6750): the scheme in any
case, one space, the token (its b64token characters). No header: no credentials (a
spectator). Any other form is refused (401, a failed authentication) before anything
else looks at it.

>>> bearer("Bearer abc-_.~+/9="), bearer("bearer abc"), bearer(None)
('abc-_.~+/9=', 'abc', None)
"""

import re

from ..errors import BadCredentials

_API_KEY = re.compile(r"[A-Za-z0-9\-._~+/]{1,128}=*")
_BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] ([A-Za-z0-9\-._~+/]+=*)")


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization`` header (None without one); 401 for any other form."""
    if header is None:
        return None
    m = _BEARER.fullmatch(header)
    if m is None:
        raise BadCredentials('send the token as "Authorization: Bearer <token>"')
    return m.group(1)


def api_key(header: str | None) -> str | None:
    """The key of an ``X-Api-Key`` header (None without one); 401 for a malformed one."""
    if header is None:
        return None
    if _API_KEY.fullmatch(header) is None:
        raise BadCredentials("X-Api-Key holds an app's API key: spk_ and 43 more characters")
    return header
