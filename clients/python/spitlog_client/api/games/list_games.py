from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_games_game import ListGamesGame
from ...models.list_games_kind import ListGamesKind
from ...models.list_games_status import ListGamesStatus
from ...models.lobby import Lobby
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: ListGamesStatus | Unset = ListGamesStatus.OPEN,
    game: ListGamesGame | Unset = UNSET,
    kind: ListGamesKind | Unset = UNSET,
    player: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_game: str | Unset = UNSET
    if not isinstance(game, Unset):
        json_game = game.value

    params["game"] = json_game

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["player"] = player

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Lobby | Problem | None:
    if response.status_code == 200:
        response_200 = Lobby.from_dict(response.json())

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
) -> Response[Lobby | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: ListGamesStatus | Unset = ListGamesStatus.OPEN,
    game: ListGamesGame | Unset = UNSET,
    kind: ListGamesKind | Unset = UNSET,
    player: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[Lobby | Problem]:
    """The lobby: games by status, newest first, a page at a time

     Filters: `game`, `kind` (a seat's), `player` (your app's, with `X-Api-Key`). With filters a page may
    hold fewer than `limit` games and still have a `next`: follow it until it is null.

    Args:
        status (ListGamesStatus | Unset):  Default: ListGamesStatus.OPEN.
        game (ListGamesGame | Unset):
        kind (ListGamesKind | Unset):
        player (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Lobby | Problem]
    """

    kwargs = _get_kwargs(
        status=status,
        game=game,
        kind=kind,
        player=player,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    status: ListGamesStatus | Unset = ListGamesStatus.OPEN,
    game: ListGamesGame | Unset = UNSET,
    kind: ListGamesKind | Unset = UNSET,
    player: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Lobby | Problem | None:
    """The lobby: games by status, newest first, a page at a time

     Filters: `game`, `kind` (a seat's), `player` (your app's, with `X-Api-Key`). With filters a page may
    hold fewer than `limit` games and still have a `next`: follow it until it is null.

    Args:
        status (ListGamesStatus | Unset):  Default: ListGamesStatus.OPEN.
        game (ListGamesGame | Unset):
        kind (ListGamesKind | Unset):
        player (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Lobby | Problem
    """

    return sync_detailed(
        client=client,
        status=status,
        game=game,
        kind=kind,
        player=player,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: ListGamesStatus | Unset = ListGamesStatus.OPEN,
    game: ListGamesGame | Unset = UNSET,
    kind: ListGamesKind | Unset = UNSET,
    player: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Response[Lobby | Problem]:
    """The lobby: games by status, newest first, a page at a time

     Filters: `game`, `kind` (a seat's), `player` (your app's, with `X-Api-Key`). With filters a page may
    hold fewer than `limit` games and still have a `next`: follow it until it is null.

    Args:
        status (ListGamesStatus | Unset):  Default: ListGamesStatus.OPEN.
        game (ListGamesGame | Unset):
        kind (ListGamesKind | Unset):
        player (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Lobby | Problem]
    """

    kwargs = _get_kwargs(
        status=status,
        game=game,
        kind=kind,
        player=player,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    status: ListGamesStatus | Unset = ListGamesStatus.OPEN,
    game: ListGamesGame | Unset = UNSET,
    kind: ListGamesKind | Unset = UNSET,
    player: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 20,
) -> Lobby | Problem | None:
    """The lobby: games by status, newest first, a page at a time

     Filters: `game`, `kind` (a seat's), `player` (your app's, with `X-Api-Key`). With filters a page may
    hold fewer than `limit` games and still have a `next`: follow it until it is null.

    Args:
        status (ListGamesStatus | Unset):  Default: ListGamesStatus.OPEN.
        game (ListGamesGame | Unset):
        kind (ListGamesKind | Unset):
        player (str | Unset):
        cursor (str | Unset):
        limit (int | Unset):  Default: 20.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Lobby | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            game=game,
            kind=kind,
            player=player,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
