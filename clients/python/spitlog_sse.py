"""A game's events as they happen, for ``spitlog_client``: ``GET /v1/games/{id}/events``
with ``Accept: text/event-stream``, read by httpx-sse on the client's own httpx client (its
base URL, and its token as ``Authorization: Bearer`` for an ``AuthenticatedClient``).
Like a browser's EventSource it resumes with ``Last-Event-ID`` after the server closes the
stream (``SPITLOG_SSE_MAX_S``) or the connection drops, so no event is missed or read
twice; it ends once the game is over and every event is read (the server's 204).

    for event in events(client, game_id):
        print(event["version"], event["type"])
"""

import json
import time
from collections.abc import Iterator
from urllib.parse import quote

import httpx
from httpx_sse import connect_sse

from spitlog_client import AuthenticatedClient, Client

# no read timeout shorter than the server's keep-alive comments (SPITLOG_SSE_KEEPALIVE_S)
STREAM_TIMEOUT = httpx.Timeout(10.0, read=60.0)


def events(
    client: AuthenticatedClient | Client, game_id: str, after: int = 0, retry_s: float = 1.0
) -> Iterator[dict]:
    """Every event after version ``after``, live, each as the API sends it (a dict with
    ``version`` and ``type``: ``spitlog_client.models`` has a class per type). Raises
    ``httpx.HTTPStatusError`` for an answer other than 200 and 204."""
    url = f"/v1/games/{quote(game_id, safe='')}/events"
    http = client.get_httpx_client()
    last = after
    while True:
        headers = {"Accept": "text/event-stream", "Last-Event-ID": str(last)}
        try:
            with connect_sse(http, "GET", url, headers=headers, timeout=STREAM_TIMEOUT) as source:
                if source.response.status_code == 204:
                    return
                source.response.raise_for_status()
                for sse in source.iter_sse():
                    if sse.retry is not None:
                        retry_s = sse.retry / 1000
                    if sse.data:
                        event = json.loads(sse.data)
                        last = event["version"]
                        yield event
        except httpx.TransportError:  # dropped: resume after the last event read
            time.sleep(retry_s)
