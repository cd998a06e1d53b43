from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_game import CreateGame
from ...models.created import Created
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateGame,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Created | Problem | None:
    if response.status_code == 201:
        response_201 = Created.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

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
) -> Response[Created | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateGame,
    idempotency_key: str | Unset = UNSET,
) -> Response[Created | Problem]:
    """Create a game; you take seat 0

     Answers your seat's token (shown once) and the commitment to the secret server seed, sha256 hex.
    Against a bot the game starts at once. With `seat0` a bot (bot against bot), you watch: `seat` and
    `token` are null. With `Idempotency-Key` (random: it gives the token back; the rule is the
    header's), your retry with the same body answers the same game and token (`Idempotent-Replayed:
    true`); another body is a 422; a retry while the first is in flight, a 409. A key is its caller's:
    your app's (`X-Api-Key`), else your address's; another caller's same key is another key, a game of
    its own. With an app's `X-Api-Key`, `player` seats your app's player (`rated`: rated when it ends; a
    resignation or a T-4 forfeit in its abort window, by a seat that has not moved until 10 s after its
    opponent's first move, aborts it, reason `unplayed`; against a hosted level, a 429 `rated-pair-cap`
    once the two started `SPITLOG_RATED_PAIR_CAP` rated games in 24 hours); `kind: bot` and a `name`
    declare a client's bot.

    Args:
        idempotency_key (str | Unset):
        body (CreateGame):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Created | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreateGame,
    idempotency_key: str | Unset = UNSET,
) -> Created | Problem | None:
    """Create a game; you take seat 0

     Answers your seat's token (shown once) and the commitment to the secret server seed, sha256 hex.
    Against a bot the game starts at once. With `seat0` a bot (bot against bot), you watch: `seat` and
    `token` are null. With `Idempotency-Key` (random: it gives the token back; the rule is the
    header's), your retry with the same body answers the same game and token (`Idempotent-Replayed:
    true`); another body is a 422; a retry while the first is in flight, a 409. A key is its caller's:
    your app's (`X-Api-Key`), else your address's; another caller's same key is another key, a game of
    its own. With an app's `X-Api-Key`, `player` seats your app's player (`rated`: rated when it ends; a
    resignation or a T-4 forfeit in its abort window, by a seat that has not moved until 10 s after its
    opponent's first move, aborts it, reason `unplayed`; against a hosted level, a 429 `rated-pair-cap`
    once the two started `SPITLOG_RATED_PAIR_CAP` rated games in 24 hours); `kind: bot` and a `name`
    declare a client's bot.

    Args:
        idempotency_key (str | Unset):
        body (CreateGame):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Created | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateGame,
    idempotency_key: str | Unset = UNSET,
) -> Response[Created | Problem]:
    """Create a game; you take seat 0

     Answers your seat's token (shown once) and the commitment to the secret server seed, sha256 hex.
    Against a bot the game starts at once. With `seat0` a bot (bot against bot), you watch: `seat` and
    `token` are null. With `Idempotency-Key` (random: it gives the token back; the rule is the
    header's), your retry with the same body answers the same game and token (`Idempotent-Replayed:
    true`); another body is a 422; a retry while the first is in flight, a 409. A key is its caller's:
    your app's (`X-Api-Key`), else your address's; another caller's same key is another key, a game of
    its own. With an app's `X-Api-Key`, `player` seats your app's player (`rated`: rated when it ends; a
    resignation or a T-4 forfeit in its abort window, by a seat that has not moved until 10 s after its
    opponent's first move, aborts it, reason `unplayed`; against a hosted level, a 429 `rated-pair-cap`
    once the two started `SPITLOG_RATED_PAIR_CAP` rated games in 24 hours); `kind: bot` and a `name`
    declare a client's bot.

    Args:
        idempotency_key (str | Unset):
        body (CreateGame):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Created | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateGame,
    idempotency_key: str | Unset = UNSET,
) -> Created | Problem | None:
    """Create a game; you take seat 0

     Answers your seat's token (shown once) and the commitment to the secret server seed, sha256 hex.
    Against a bot the game starts at once. With `seat0` a bot (bot against bot), you watch: `seat` and
    `token` are null. With `Idempotency-Key` (random: it gives the token back; the rule is the
    header's), your retry with the same body answers the same game and token (`Idempotent-Replayed:
    true`); another body is a 422; a retry while the first is in flight, a 409. A key is its caller's:
    your app's (`X-Api-Key`), else your address's; another caller's same key is another key, a game of
    its own. With an app's `X-Api-Key`, `player` seats your app's player (`rated`: rated when it ends; a
    resignation or a T-4 forfeit in its abort window, by a seat that has not moved until 10 s after its
    opponent's first move, aborts it, reason `unplayed`; against a hosted level, a 429 `rated-pair-cap`
    once the two started `SPITLOG_RATED_PAIR_CAP` rated games in 24 hours); `kind: bot` and a `name`
    declare a client's bot.

    Args:
        idempotency_key (str | Unset):
        body (CreateGame):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Created | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
