"""``LiveGame``: a game kept current from its events stream with views
(``GET /v1/games/{id}/events?views=true``, SSE), so that a player never reads the game
after an event: the server sends the seat's new view with each batch of events.

    live = LiveGame(me, game_id)         # me: a Spitlog with the seat's token
    for state in live:                   # each new view, until the game is over
        ...
        live.act(SpeedPlayAction(card="3H", to=0))   # RuleRefused: the rules said no

It reconnects when the stream ends (``SPITLOG_SSE_MAX_S``) or drops and resumes with
``Last-Event-ID``, so no view is missed or given twice; it waits out a ``429``/``503``
stream answer's ``Retry-After``. An action goes as ``POST /v1/games/{id}/actions`` with
an ``Idempotency-Key`` made for it (kept on the transport's retries, which honour
``Retry-After`` too) and, if asked, the version it was decided on (``If-Match``).
"""

import json
import time
from collections.abc import Callable, Iterator
from typing import Any, cast
from urllib.parse import quote

import httpx
from httpx_sse import connect_sse

from spitlog_client.models import Acted
from spitlog_client.unions import STATE_GAMES, State

from ._transport import new_idempotency_key, retry_after_s
from .client import Action, Spitlog
from .errors import ApiError
from .sse import STREAM_TIMEOUT

OVER = ("finished", "aborted")


def parse_state(data: dict[str, Any]) -> State:
    """The typed view (``SpitState``, ``SpeedState``, ...) of a view's JSON object."""
    return STATE_GAMES[data["game"]].from_dict(data)


class LiveGame:
    """Game ``game_id`` as ``api``'s seat sees it (a spectator's without a token), kept
    current from the server's stream. ``state`` is the latest view, ``version`` its
    version; iterating gives each new view as it arrives, the current one first, and ends
    after the view of the game's end."""

    def __init__(self, api: Spitlog, game_id: str, *, retry_s: float = 1.0,
                 max_wait_s: float = 60.0, sleep: Callable[[float], None] = time.sleep,
                 ) -> None:  # fmt: skip
        self.api = api
        self.game_id = game_id
        self.state: State | None = None
        self.version = -1
        self.reconnects = 0
        self.retry_s = retry_s  # after a dropped stream (the server's ``retry:`` replaces it)
        self.max_wait_s = max_wait_s  # the longest Retry-After waited out
        self.sleep = sleep
        self._resume: str | None = None  # Last-Event-ID: the last id the stream gave
        self._http = api.api.get_httpx_client()

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.status in OVER

    def __iter__(self) -> Iterator[State]:
        return self.views()

    def views(self) -> Iterator[State]:
        """Each view newer than the last one given, as the stream brings it; reconnects and
        resumes until the game is over. Raises ``ApiError`` for an answer that is not a
        stream (a 404, a 401), or a ``Retry-After`` longer than ``max_wait_s``."""
        url = f"/v1/games/{quote(self.game_id, safe='')}/events"
        given = -1
        while True:
            headers = {"Accept": "text/event-stream"}
            if self._resume is not None:
                headers["Last-Event-ID"] = self._resume
            try:
                with connect_sse(self._http, "GET", url, params={"views": "true"},
                                 headers=headers, timeout=STREAM_TIMEOUT) as source:  # fmt: skip
                    answer = source.response
                    if answer.status_code == 204:  # over, and every event was sent
                        if self.state is not None and self.version > given:
                            yield self.state
                        return
                    if answer.status_code != 200:
                        self._wait_or_raise(answer)
                        continue
                    for sse in source.iter_sse():
                        if sse.retry is not None:
                            self.retry_s = sse.retry / 1000
                        if sse.id:
                            self._resume = sse.id
                        if sse.event != "view":
                            continue
                        data = cast(dict[str, Any], json.loads(sse.data))
                        state = parse_state(data["state"])
                        self._keep(state)
                        if state.version > given:
                            given = state.version
                            yield state
                            if state.status in OVER:
                                return
            except httpx.TransportError:  # dropped: resume after the last id read
                self.sleep(self.retry_s)
            self.reconnects += 1

    def act(
        self,
        action: Action,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> Acted:
        """Your seat's action: the events it made and your new view (kept as ``state``).
        ``RuleRefused`` (422, with ``rule``) when the rules refuse it now; with
        ``expected_version`` (``If-Match``), ``VersionMoved`` (412) unless the game is
        still at that version. Its ``Idempotency-Key`` is made here unless given."""
        acted = self.api.act(
            self.game_id, action, expected_version=expected_version,
            idempotency_key=idempotency_key or new_idempotency_key(),
        )  # fmt: skip
        self._keep(acted.state)
        return acted

    def close(self) -> None:
        """Nothing to close: the stream is open only while ``views`` is read."""

    def _keep(self, state: State) -> None:
        if state.version > self.version:
            self.state, self.version = state, state.version

    def _wait_or_raise(self, answer: httpx.Response) -> None:
        """Wait out a ``429``/``503``'s ``Retry-After``; raise anything else."""
        body = answer.read()
        wait = retry_after_s(answer.headers.get("Retry-After"), time.time())
        if answer.status_code in (429, 503) and (wait is None or wait <= self.max_wait_s):
            self.sleep(wait if wait is not None else self.retry_s)
            return
        raise ApiError.from_answer(answer.status_code, answer.headers, body)
