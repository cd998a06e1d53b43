from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.seek import Seek
from ...models.seek_state import SeekState
from ...types import Response


def _get_kwargs(
    *,
    body: Seek,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/seeks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SeekState | None:
    if response.status_code == 201:
        response_201 = SeekState.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | SeekState]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: Seek,
) -> Response[Problem | SeekState]:
    """Seek an opponent: paired with a compatible seek, or a hosted bot after `bot_fallback_s`

     Compatible: the same game, options and `rated`, each seek's rating within the other's
    `rating_range`. Answers the seek and its token (shown once): read it (`GET`, `?wait=` to long-poll)
    until it is `paired` (then `game_id` and `seat`: the seek's token is your seat's token) or
    `expired`; cancel it with `DELETE`. Impossible options or ranges are a 400 naming the field.

    Args:
        body (Seek):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeekState]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: Seek,
) -> Problem | SeekState | None:
    """Seek an opponent: paired with a compatible seek, or a hosted bot after `bot_fallback_s`

     Compatible: the same game, options and `rated`, each seek's rating within the other's
    `rating_range`. Answers the seek and its token (shown once): read it (`GET`, `?wait=` to long-poll)
    until it is `paired` (then `game_id` and `seat`: the seek's token is your seat's token) or
    `expired`; cancel it with `DELETE`. Impossible options or ranges are a 400 naming the field.

    Args:
        body (Seek):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeekState
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: Seek,
) -> Response[Problem | SeekState]:
    """Seek an opponent: paired with a compatible seek, or a hosted bot after `bot_fallback_s`

     Compatible: the same game, options and `rated`, each seek's rating within the other's
    `rating_range`. Answers the seek and its token (shown once): read it (`GET`, `?wait=` to long-poll)
    until it is `paired` (then `game_id` and `seat`: the seek's token is your seat's token) or
    `expired`; cancel it with `DELETE`. Impossible options or ranges are a 400 naming the field.

    Args:
        body (Seek):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeekState]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: Seek,
) -> Problem | SeekState | None:
    """Seek an opponent: paired with a compatible seek, or a hosted bot after `bot_fallback_s`

     Compatible: the same game, options and `rated`, each seek's rating within the other's
    `rating_range`. Answers the seek and its token (shown once): read it (`GET`, `?wait=` to long-poll)
    until it is `paired` (then `game_id` and `seat`: the seek's token is your seat's token) or
    `expired`; cancel it with `DELETE`. Impossible options or ranges are a 400 naming the field.

    Args:
        body (Seek):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeekState
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
