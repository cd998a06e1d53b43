from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.player_games import PlayerGames
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    player_id: str,
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/players/{player_id}/games".format(
            player_id=quote(str(player_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PlayerGames | Problem | None:
    if response.status_code == 200:
        response_200 = PlayerGames.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[PlayerGames | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    player_id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[PlayerGames | Problem]:
    """Your app's player's games, newest first, a page at a time

     Those still live and those in the archive alike.

    Args:
        player_id (str): 1-64 of A-Z a-z 0-9 _ . -, not starting with a dot; or <app id>:<that>,
            your app's
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerGames | Problem]
    """

    kwargs = _get_kwargs(
        player_id=player_id,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    player_id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> PlayerGames | Problem | None:
    """Your app's player's games, newest first, a page at a time

     Those still live and those in the archive alike.

    Args:
        player_id (str): 1-64 of A-Z a-z 0-9 _ . -, not starting with a dot; or <app id>:<that>,
            your app's
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerGames | Problem
    """

    return sync_detailed(
        player_id=player_id,
        client=client,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    player_id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[PlayerGames | Problem]:
    """Your app's player's games, newest first, a page at a time

     Those still live and those in the archive alike.

    Args:
        player_id (str): 1-64 of A-Z a-z 0-9 _ . -, not starting with a dot; or <app id>:<that>,
            your app's
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerGames | Problem]
    """

    kwargs = _get_kwargs(
        player_id=player_id,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    player_id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> PlayerGames | Problem | None:
    """Your app's player's games, newest first, a page at a time

     Those still live and those in the archive alike.

    Args:
        player_id (str): 1-64 of A-Z a-z 0-9 _ . -, not starting with a dot; or <app id>:<that>,
            your app's
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerGames | Problem
    """

    return (
        await asyncio_detailed(
            player_id=player_id,
            client=client,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
