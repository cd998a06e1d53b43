from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    after: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{game_id}/live".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | None:
    if response.status_code == 101:
        response_101 = cast(Any, None)
        return response_101

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 426:
        response_426 = Problem.from_dict(response.json())

        return response_426

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = UNSET,
) -> Response[Any | Problem]:
    """The seat channel: a WebSocket (asyncapi.yaml) of views and events in, actions out

     `Upgrade: websocket`, subprotocols `spitlog.v1` and, for a seat, `spitlog.ticket.<ticket>` (`POST
    /v1/games/{id}/tickets`); none: a spectator. `?after=<version>` resumes: the events since follow
    `hello`. Each `act` is `POST /v1/games/{id}/actions`, with the same limits, checks and answers.
    Close codes: `1000` the game is over: every event and the final view were sent; `1008` policy: a
    ticket unknown, used or expired; too many open streams for the address or the seat; frames or bytes
    over the connection's rate; a send queue full (the client reads too slowly); `1009` a message over
    the size limit (`SPITLOG_MAX_CONTENT_LENGTH`); `1011` the server failed: reconnect and resume with
    `?after=<version>`; `1012` the server restarts: reconnect and resume with `?after=<version>`; `4000`
    open for `SPITLOG_SSE_MAX_S`: reconnect and resume with `?after=<version>`. Refused over HTTP before
    the upgrade: 400 (a bad handshake or `after`), 404, 426 (no `Upgrade`), 429 (the address's
    requests).

    Args:
        game_id (str):
        after (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = UNSET,
) -> Any | Problem | None:
    """The seat channel: a WebSocket (asyncapi.yaml) of views and events in, actions out

     `Upgrade: websocket`, subprotocols `spitlog.v1` and, for a seat, `spitlog.ticket.<ticket>` (`POST
    /v1/games/{id}/tickets`); none: a spectator. `?after=<version>` resumes: the events since follow
    `hello`. Each `act` is `POST /v1/games/{id}/actions`, with the same limits, checks and answers.
    Close codes: `1000` the game is over: every event and the final view were sent; `1008` policy: a
    ticket unknown, used or expired; too many open streams for the address or the seat; frames or bytes
    over the connection's rate; a send queue full (the client reads too slowly); `1009` a message over
    the size limit (`SPITLOG_MAX_CONTENT_LENGTH`); `1011` the server failed: reconnect and resume with
    `?after=<version>`; `1012` the server restarts: reconnect and resume with `?after=<version>`; `4000`
    open for `SPITLOG_SSE_MAX_S`: reconnect and resume with `?after=<version>`. Refused over HTTP before
    the upgrade: 400 (a bad handshake or `after`), 404, 426 (no `Upgrade`), 429 (the address's
    requests).

    Args:
        game_id (str):
        after (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        after=after,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = UNSET,
) -> Response[Any | Problem]:
    """The seat channel: a WebSocket (asyncapi.yaml) of views and events in, actions out

     `Upgrade: websocket`, subprotocols `spitlog.v1` and, for a seat, `spitlog.ticket.<ticket>` (`POST
    /v1/games/{id}/tickets`); none: a spectator. `?after=<version>` resumes: the events since follow
    `hello`. Each `act` is `POST /v1/games/{id}/actions`, with the same limits, checks and answers.
    Close codes: `1000` the game is over: every event and the final view were sent; `1008` policy: a
    ticket unknown, used or expired; too many open streams for the address or the seat; frames or bytes
    over the connection's rate; a send queue full (the client reads too slowly); `1009` a message over
    the size limit (`SPITLOG_MAX_CONTENT_LENGTH`); `1011` the server failed: reconnect and resume with
    `?after=<version>`; `1012` the server restarts: reconnect and resume with `?after=<version>`; `4000`
    open for `SPITLOG_SSE_MAX_S`: reconnect and resume with `?after=<version>`. Refused over HTTP before
    the upgrade: 400 (a bad handshake or `after`), 404, 426 (no `Upgrade`), 429 (the address's
    requests).

    Args:
        game_id (str):
        after (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = UNSET,
) -> Any | Problem | None:
    """The seat channel: a WebSocket (asyncapi.yaml) of views and events in, actions out

     `Upgrade: websocket`, subprotocols `spitlog.v1` and, for a seat, `spitlog.ticket.<ticket>` (`POST
    /v1/games/{id}/tickets`); none: a spectator. `?after=<version>` resumes: the events since follow
    `hello`. Each `act` is `POST /v1/games/{id}/actions`, with the same limits, checks and answers.
    Close codes: `1000` the game is over: every event and the final view were sent; `1008` policy: a
    ticket unknown, used or expired; too many open streams for the address or the seat; frames or bytes
    over the connection's rate; a send queue full (the client reads too slowly); `1009` a message over
    the size limit (`SPITLOG_MAX_CONTENT_LENGTH`); `1011` the server failed: reconnect and resume with
    `?after=<version>`; `1012` the server restarts: reconnect and resume with `?after=<version>`; `4000`
    open for `SPITLOG_SSE_MAX_S`: reconnect and resume with `?after=<version>`. Refused over HTTP before
    the upgrade: 400 (a bad handshake or `after`), 404, 426 (no `Upgrade`), 429 (the address's
    requests).

    Args:
        game_id (str):
        after (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            after=after,
        )
    ).parsed
