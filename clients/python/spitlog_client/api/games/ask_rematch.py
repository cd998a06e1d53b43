from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.rematch import Rematch
from ...types import Response


def _get_kwargs(
    game_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{game_id}/rematch".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Rematch | None:
    if response.status_code == 201:
        response_201 = Rematch.from_dict(response.json())

        return response_201

    if response.status_code == 202:
        response_202 = Rematch.from_dict(response.json())

        return response_202

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[Problem | Rematch]:
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
) -> Response[Problem | Rematch]:
    """Ask for a rematch of a finished game (a seat's token)

     202 while the other seat has not asked (a hosted bot always agrees); 201 once both have: the new
    game (seats swapped, same kind, options, players and `rated`), your new seat and its token. The
    first asker reads its own with GET (or by asking again). 409 once `until` has passed or the archive
    closed the asks (a few seconds later, or at once by an operator), or for a game not finished. A
    seat's first ask counts against the address's game-creation rate (`SPITLOG_RATE_GAMES`; asking again
    reads, as GET does); the rematch of a rated game is a 429 (`rated-pair-cap`) once its two seats
    started `SPITLOG_RATED_PAIR_CAP` rated games in 24 hours.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Rematch]
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
) -> Problem | Rematch | None:
    """Ask for a rematch of a finished game (a seat's token)

     202 while the other seat has not asked (a hosted bot always agrees); 201 once both have: the new
    game (seats swapped, same kind, options, players and `rated`), your new seat and its token. The
    first asker reads its own with GET (or by asking again). 409 once `until` has passed or the archive
    closed the asks (a few seconds later, or at once by an operator), or for a game not finished. A
    seat's first ask counts against the address's game-creation rate (`SPITLOG_RATE_GAMES`; asking again
    reads, as GET does); the rematch of a rated game is a 429 (`rated-pair-cap`) once its two seats
    started `SPITLOG_RATED_PAIR_CAP` rated games in 24 hours.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Rematch
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | Rematch]:
    """Ask for a rematch of a finished game (a seat's token)

     202 while the other seat has not asked (a hosted bot always agrees); 201 once both have: the new
    game (seats swapped, same kind, options, players and `rated`), your new seat and its token. The
    first asker reads its own with GET (or by asking again). 409 once `until` has passed or the archive
    closed the asks (a few seconds later, or at once by an operator), or for a game not finished. A
    seat's first ask counts against the address's game-creation rate (`SPITLOG_RATE_GAMES`; asking again
    reads, as GET does); the rematch of a rated game is a 429 (`rated-pair-cap`) once its two seats
    started `SPITLOG_RATED_PAIR_CAP` rated games in 24 hours.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Rematch]
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
) -> Problem | Rematch | None:
    """Ask for a rematch of a finished game (a seat's token)

     202 while the other seat has not asked (a hosted bot always agrees); 201 once both have: the new
    game (seats swapped, same kind, options, players and `rated`), your new seat and its token. The
    first asker reads its own with GET (or by asking again). 409 once `until` has passed or the archive
    closed the asks (a few seconds later, or at once by an operator), or for a game not finished. A
    seat's first ask counts against the address's game-creation rate (`SPITLOG_RATE_GAMES`; asking again
    reads, as GET does); the rematch of a rated game is a 429 (`rated-pair-cap`) once its two seats
    started `SPITLOG_RATED_PAIR_CAP` rated games in 24 hours.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Rematch
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
        )
    ).parsed
