"""A game's events as they happen: ``GET /v1/games/{id}/events`` with
``Accept: text/event-stream``, read by httpx-sse on a client's own httpx client (its base
URL, its headers: a seat's token as ``Authorization: Bearer``). Like a browser's
EventSource it resumes with ``Last-Event-ID`` after the server closes the stream
(``SPITLOG_SSE_MAX_S``) or the connection drops, so no event is missed or read twice; it
ends once the game is over and every event is read (the server's 204).

    for event in events(client, game_id):
        if isinstance(event, CardPlayedEvent):
            print(event.version, event.seat, event.card)
"""

import json
import time
from collections.abc import Iterator, Mapping
from typing import cast
from urllib.parse import quote

import httpx
from httpx_sse import connect_sse

from spitlog_client import AuthenticatedClient, Client
from spitlog_client.unions import EVENT_TYPES, Event

from .errors import ApiError

# no read timeout shorter than the server's keep-alive comments (SPITLOG_SSE_KEEPALIVE_S)
STREAM_TIMEOUT = httpx.Timeout(10.0, read=60.0)


def parse_event(data: Mapping[str, object]) -> Event | None:
    """The event of a JSON object as the API sends it (``spitlog_client.models`` has a
    class per ``type``), or None for a type this client does not know (a server newer
    than it)."""
    cls = EVENT_TYPES.get(str(data.get("type")))
    return cls.from_dict(data) if cls is not None else None


def events(
    client: AuthenticatedClient | Client, game_id: str, after: int = 0, retry_s: float = 1.0
) -> Iterator[Event]:
    """Every event after version ``after``, live, each as its class of
    ``spitlog_client.models`` (``Event`` is their union); an event of a type this client
    does not know is passed over. Raises ``ApiError`` for an answer other than 200 and 204
    (after the retries of the client's transport)."""
    url = f"/v1/games/{quote(game_id, safe='')}/events"
    http = client.get_httpx_client()
    last = after
    while True:
        headers = {"Accept": "text/event-stream", "Last-Event-ID": str(last)}
        try:
            with connect_sse(http, "GET", url, headers=headers, timeout=STREAM_TIMEOUT) as source:
                answer = source.response
                if answer.status_code == 204:
                    return
                if answer.status_code != 200:
                    raise ApiError.from_answer(answer.status_code, answer.headers, answer.read())
                for sse in source.iter_sse():
                    if sse.retry is not None:
                        retry_s = sse.retry / 1000
                    if sse.event != "message" or not sse.data:
                        continue  # a message of another kind than an event of the log
                    data = cast(dict[str, object], json.loads(sse.data))
                    last = cast(int, data["version"])
                    event = parse_event(data)
                    if event is not None:
                        yield event
        except httpx.TransportError:  # dropped: resume after the last event read
            time.sleep(retry_s)
