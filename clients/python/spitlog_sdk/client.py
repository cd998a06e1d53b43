"""``Spitlog``: the main calls of the API, each returning its typed answer or raising
``ApiError``; and ``safe_client``, the generated client (every call of
``spitlog_client.api``) with the same safe defaults."""

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal, overload

import httpx

from spitlog_client import AuthenticatedClient, Client
from spitlog_client.api.games import act, create_game, get_game, join, state_at
from spitlog_client.models import Acted, Created, CreateGame, Join, Seated
from spitlog_client.types import UNSET
from spitlog_client.unions import STATE_GAMES, Event, SpeedAction, SpitAction, State

from . import sse
from ._transport import DEFAULT_TIMEOUT, AsyncSafeTransport, RetryPolicy, SafeTransport
from .errors import ApiError

if TYPE_CHECKING:
    from .live import LiveGame

Action = SpitAction | SpeedAction


@overload
def safe_client(
    base_url: str,
    token: str,
    *,
    api_key: str | None = None,
    timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
    retry: RetryPolicy | None = None,
    transport: httpx.BaseTransport | None = None,
) -> AuthenticatedClient: ...
@overload
def safe_client(
    base_url: str,
    token: None = None,
    *,
    api_key: str | None = None,
    timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
    retry: RetryPolicy | None = None,
    transport: httpx.BaseTransport | None = None,
) -> Client: ...
def safe_client(
    base_url: str,
    token: str | None = None,
    *,
    api_key: str | None = None,
    timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
    retry: RetryPolicy | None = None,
    transport: httpx.BaseTransport | None = None,
) -> AuthenticatedClient | Client:
    """The generated client of the API at ``base_url`` (an ``AuthenticatedClient`` with a
    seat's ``token``, a ``Client`` without), its calls made with a timeout (``timeout``),
    retries (``retry``, ``RetryPolicy()`` by default) and an ``Idempotency-Key`` on each
    ``POST`` that has none; ``api_key`` (an app's) goes as ``X-Api-Key``. ``transport``
    replaces httpx's own under the retries (a test's ``httpx.MockTransport``)."""
    headers = {"X-Api-Key": api_key} if api_key else {}
    limit = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
    made: AuthenticatedClient | Client
    if token is not None:
        made = AuthenticatedClient(base_url=base_url, token=token, headers=headers, timeout=limit)
        headers = {**headers, "Authorization": f"Bearer {token}"}
    else:
        made = Client(base_url=base_url, headers=headers, timeout=limit)
    sync = SafeTransport(transport, retry)
    made.set_httpx_client(httpx.Client(base_url=base_url, headers=headers, timeout=limit,
                                       transport=sync))  # fmt: skip
    made.set_async_httpx_client(httpx.AsyncClient(
        base_url=base_url, headers=headers, timeout=limit, transport=AsyncSafeTransport(None, retry)
    ))  # fmt: skip
    return made


class Spitlog:
    """A client of the spitlog API at ``base_url``, as a seat (``token``: a seat's,
    from ``create_game`` or ``join``; ``seat(token)`` makes one) or as anyone (no token:
    a spectator, or the one who creates and joins).

    Each call answers its model of ``spitlog_client.models`` or raises ``ApiError``
    (with the problem's ``rule`` when the rules refused an action). Safe by default:
    ``timeout`` for each call (``DEFAULT_TIMEOUT``), retries after ``429``/``503`` with
    their ``Retry-After`` and after a failed connection (``retry``: ``RetryPolicy()``),
    an ``Idempotency-Key`` made for every ``POST`` that is not given one. ``api`` is the
    generated client with the same defaults, for the calls this class does not wrap
    (``spitlog_client.api``)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        api_key: str | None = None,
        timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url
        self.token = token
        self._settings: dict[str, Any] = {"api_key": api_key, "timeout": timeout, "retry": retry,
                                          "transport": transport}  # fmt: skip
        self.api: AuthenticatedClient | Client = safe_client(base_url, token, **self._settings)
        self._http = self.api.get_httpx_client()

    def seat(self, token: str) -> "Spitlog":
        """The same client as the seat whose token is ``token``."""
        return Spitlog(self.base_url, token, **self._settings)

    def create_game(self, body: CreateGame, *, idempotency_key: str | None = None) -> Created:
        """A new game (``POST /v1/games``): its id, your seat's token (shown once), its
        first view."""
        kwargs = create_game._get_kwargs(body=body, idempotency_key=idempotency_key or UNSET)
        return Created.from_dict(self._call(kwargs))

    def join(
        self, game_id: str, body: Join | None = None, *, idempotency_key: str | None = None
    ) -> Seated:
        """The free seat of a game (``POST /v1/games/{id}/seats``), no token needed: yours,
        with its token (shown once) and your view."""
        kwargs = join._get_kwargs(game_id, body=body if body is not None else Join(),
                                  idempotency_key=idempotency_key or UNSET)  # fmt: skip
        return Seated.from_dict(self._call(kwargs))

    def get_game(self, game_id: str) -> State:
        """The game as you may see it: your seat's view (the spectator's without a token);
        every card once it is over."""
        return _state(self._call(get_game._get_kwargs(game_id)))

    def state_at(self, game_id: str, version: int) -> State:
        """The game as you may see it at ``version``."""
        return _state(self._call(state_at._get_kwargs(game_id, version)))

    def act(
        self,
        game_id: str,
        action: Action,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> Acted:
        """Your seat's action (``POST /v1/games/{id}/actions``): the events it made and
        your new view. ``ApiError`` 422 with ``rule`` when the rules refuse it now;
        with ``expected_version``, 412 unless the game is at that version."""
        if_match = f'"{expected_version}"' if expected_version is not None else UNSET
        kwargs = act._get_kwargs(game_id, body=action, if_match=if_match,
                                 idempotency_key=idempotency_key or UNSET)  # fmt: skip
        return Acted.from_dict(self._call(kwargs))

    def events(self, game_id: str, after: int = 0) -> Iterator[Event]:
        """Every event after version ``after`` as it happens (SSE), typed, until the game
        is over and all are read (``spitlog_sdk.sse.events``)."""
        return sse.events(self.api, game_id, after=after)

    def live(self, game_id: str) -> "LiveGame":
        """Game ``game_id`` kept current from its stream of views (``LiveGame``)."""
        from .live import LiveGame  # noqa: PLC0415 - live builds on this module

        return LiveGame(self, game_id)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Spitlog":
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False

    def _call(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The JSON object a call answers with success; ``ApiError`` otherwise."""
        answer = self._http.request(**kwargs)
        if not answer.is_success:
            raise ApiError.from_answer(answer.status_code, answer.headers, answer.content)
        body = answer.json()
        if not isinstance(body, dict):
            raise ApiError(answer.status_code, None)
        return body


def _state(data: dict[str, Any]) -> State:
    return STATE_GAMES[data["game"]].from_dict(data)
