from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.join import Join
from ...models.problem import Problem
from ...models.seated import Seated
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    body: Join | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{game_id}/seats".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | Seated | None:
    if response.status_code == 201:
        response_201 = Seated.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = Problem.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | Seated]:
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
    body: Join | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Seated]:
    """Take the free seat (409 when there is none)

     With `Idempotency-Key` (as a create's: the rule is the header's), your retry with the same body
    answers the same seat and token (`Idempotent-Replayed: true`). `player` (with `X-Api-Key`), `kind`
    and `name` as in a create; a rated game takes only a player (403), another than seat 0's (409), who
    has not started `SPITLOG_RATED_PAIR_CAP` rated games with seat 0's in 24 hours (429 `rated-pair-
    cap`, with `Retry-After`).

    Args:
        game_id (str):
        idempotency_key (str | Unset):
        body (Join | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Seated]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: Join | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Seated | None:
    """Take the free seat (409 when there is none)

     With `Idempotency-Key` (as a create's: the rule is the header's), your retry with the same body
    answers the same seat and token (`Idempotent-Replayed: true`). `player` (with `X-Api-Key`), `kind`
    and `name` as in a create; a rated game takes only a player (403), another than seat 0's (409), who
    has not started `SPITLOG_RATED_PAIR_CAP` rated games with seat 0's in 24 hours (429 `rated-pair-
    cap`, with `Retry-After`).

    Args:
        game_id (str):
        idempotency_key (str | Unset):
        body (Join | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Seated
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: Join | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | Seated]:
    """Take the free seat (409 when there is none)

     With `Idempotency-Key` (as a create's: the rule is the header's), your retry with the same body
    answers the same seat and token (`Idempotent-Replayed: true`). `player` (with `X-Api-Key`), `kind`
    and `name` as in a create; a rated game takes only a player (403), another than seat 0's (409), who
    has not started `SPITLOG_RATED_PAIR_CAP` rated games with seat 0's in 24 hours (429 `rated-pair-
    cap`, with `Retry-After`).

    Args:
        game_id (str):
        idempotency_key (str | Unset):
        body (Join | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Seated]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: Join | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Problem | Seated | None:
    """Take the free seat (409 when there is none)

     With `Idempotency-Key` (as a create's: the rule is the header's), your retry with the same body
    answers the same seat and token (`Idempotent-Replayed: true`). `player` (with `X-Api-Key`), `kind`
    and `name` as in a create; a rated game takes only a player (403), another than seat 0's (409), who
    has not started `SPITLOG_RATED_PAIR_CAP` rated games with seat 0's in 24 hours (429 `rated-pair-
    cap`, with `Retry-After`).

    Args:
        game_id (str):
        idempotency_key (str | Unset):
        body (Join | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Seated
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
