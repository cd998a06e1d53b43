from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.ticket import Ticket
from ...types import Response


def _get_kwargs(
    game_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{game_id}/tickets".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Ticket | None:
    if response.status_code == 201:
        response_201 = Ticket.from_dict(response.json())

        return response_201

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | Ticket]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | Ticket]:
    """A ticket for your seat's WebSocket channel (`GET /v1/games/{id}/live`)

     Single use, for about 30 s, bound to this game and your seat. Offer `spitlog.v1` and
    `spitlog.ticket.<ticket>` as the WebSocket's subprotocols (a browser cannot send `Authorization` on
    a WebSocket; a ticket is never put in a URL). The channel's messages: asyncapi.yaml.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Ticket]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Problem | Ticket | None:
    """A ticket for your seat's WebSocket channel (`GET /v1/games/{id}/live`)

     Single use, for about 30 s, bound to this game and your seat. Offer `spitlog.v1` and
    `spitlog.ticket.<ticket>` as the WebSocket's subprotocols (a browser cannot send `Authorization` on
    a WebSocket; a ticket is never put in a URL). The channel's messages: asyncapi.yaml.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Ticket
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | Ticket]:
    """A ticket for your seat's WebSocket channel (`GET /v1/games/{id}/live`)

     Single use, for about 30 s, bound to this game and your seat. Offer `spitlog.v1` and
    `spitlog.ticket.<ticket>` as the WebSocket's subprotocols (a browser cannot send `Authorization` on
    a WebSocket; a ticket is never put in a URL). The channel's messages: asyncapi.yaml.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Ticket]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Problem | Ticket | None:
    """A ticket for your seat's WebSocket channel (`GET /v1/games/{id}/live`)

     Single use, for about 30 s, bound to this game and your seat. Offer `spitlog.v1` and
    `spitlog.ticket.<ticket>` as the WebSocket's subprotocols (a browser cannot send `Authorization` on
    a WebSocket; a ticket is never put in a URL). The channel's messages: asyncapi.yaml.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Ticket
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
        )
    ).parsed
