from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.acted import Acted
from ...models.problem import Problem
from ...models.speed_draw_action import SpeedDrawAction
from ...models.speed_play_action import SpeedPlayAction
from ...models.speed_ready_action import SpeedReadyAction
from ...models.speed_resign_action import SpeedResignAction
from ...models.speed_spit_action import SpeedSpitAction
from ...models.spit_choose_action import SpitChooseAction
from ...models.spit_move_action import SpitMoveAction
from ...models.spit_play_action import SpitPlayAction
from ...models.spit_ready_action import SpitReadyAction
from ...models.spit_resign_action import SpitResignAction
from ...models.spit_slap_action import SpitSlapAction
from ...models.spit_spit_action import SpitSpitAction
from ...models.spit_turn_up_action import SpitTurnUpAction
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    body: SpeedDrawAction
    | SpeedPlayAction
    | SpeedReadyAction
    | SpeedResignAction
    | SpeedSpitAction
    | SpitChooseAction
    | SpitMoveAction
    | SpitPlayAction
    | SpitReadyAction
    | SpitResignAction
    | SpitSlapAction
    | SpitSpitAction
    | SpitTurnUpAction,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{game_id}/actions".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    if isinstance(body, SpitPlayAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpitTurnUpAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpitMoveAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpitSpitAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpitSlapAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpitChooseAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpitReadyAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpitResignAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpeedPlayAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpeedDrawAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpeedSpitAction):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, SpeedReadyAction):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Acted | Problem | None:
    if response.status_code == 201:
        response_201 = Acted.from_dict(response.json())

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

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

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
) -> Response[Acted | Problem]:
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
    body: SpeedDrawAction
    | SpeedPlayAction
    | SpeedReadyAction
    | SpeedResignAction
    | SpeedSpitAction
    | SpitChooseAction
    | SpitMoveAction
    | SpitPlayAction
    | SpitReadyAction
    | SpitResignAction
    | SpitSlapAction
    | SpitSpitAction
    | SpitTurnUpAction,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Acted | Problem]:
    """Act (the seat is your token's)

     422 with `rule` when the rules refuse it now. With `Idempotency-Key`, a retry returns the first
    answer (header `Idempotent-Replayed: true`) and appends nothing; the same key with another body is a
    422. `If-Match: "<version>"`: 412 unless the game is at that version.

    Args:
        game_id (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (SpeedDrawAction | SpeedPlayAction | SpeedReadyAction | SpeedResignAction |
            SpeedSpitAction | SpitChooseAction | SpitMoveAction | SpitPlayAction | SpitReadyAction |
            SpitResignAction | SpitSlapAction | SpitSpitAction | SpitTurnUpAction): An action of the
            game's kind, read by its rules (a 400 names the field they refuse). `anyOf`: `ready`,
            `resign` and `{"type": "spit"}` are actions of both games.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Acted | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: SpeedDrawAction
    | SpeedPlayAction
    | SpeedReadyAction
    | SpeedResignAction
    | SpeedSpitAction
    | SpitChooseAction
    | SpitMoveAction
    | SpitPlayAction
    | SpitReadyAction
    | SpitResignAction
    | SpitSlapAction
    | SpitSpitAction
    | SpitTurnUpAction,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Acted | Problem | None:
    """Act (the seat is your token's)

     422 with `rule` when the rules refuse it now. With `Idempotency-Key`, a retry returns the first
    answer (header `Idempotent-Replayed: true`) and appends nothing; the same key with another body is a
    422. `If-Match: "<version>"`: 412 unless the game is at that version.

    Args:
        game_id (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (SpeedDrawAction | SpeedPlayAction | SpeedReadyAction | SpeedResignAction |
            SpeedSpitAction | SpitChooseAction | SpitMoveAction | SpitPlayAction | SpitReadyAction |
            SpitResignAction | SpitSlapAction | SpitSpitAction | SpitTurnUpAction): An action of the
            game's kind, read by its rules (a 400 names the field they refuse). `anyOf`: `ready`,
            `resign` and `{"type": "spit"}` are actions of both games.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Acted | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: SpeedDrawAction
    | SpeedPlayAction
    | SpeedReadyAction
    | SpeedResignAction
    | SpeedSpitAction
    | SpitChooseAction
    | SpitMoveAction
    | SpitPlayAction
    | SpitReadyAction
    | SpitResignAction
    | SpitSlapAction
    | SpitSpitAction
    | SpitTurnUpAction,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Acted | Problem]:
    """Act (the seat is your token's)

     422 with `rule` when the rules refuse it now. With `Idempotency-Key`, a retry returns the first
    answer (header `Idempotent-Replayed: true`) and appends nothing; the same key with another body is a
    422. `If-Match: "<version>"`: 412 unless the game is at that version.

    Args:
        game_id (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (SpeedDrawAction | SpeedPlayAction | SpeedReadyAction | SpeedResignAction |
            SpeedSpitAction | SpitChooseAction | SpitMoveAction | SpitPlayAction | SpitReadyAction |
            SpitResignAction | SpitSlapAction | SpitSpitAction | SpitTurnUpAction): An action of the
            game's kind, read by its rules (a 400 names the field they refuse). `anyOf`: `ready`,
            `resign` and `{"type": "spit"}` are actions of both games.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Acted | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: SpeedDrawAction
    | SpeedPlayAction
    | SpeedReadyAction
    | SpeedResignAction
    | SpeedSpitAction
    | SpitChooseAction
    | SpitMoveAction
    | SpitPlayAction
    | SpitReadyAction
    | SpitResignAction
    | SpitSlapAction
    | SpitSpitAction
    | SpitTurnUpAction,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Acted | Problem | None:
    """Act (the seat is your token's)

     422 with `rule` when the rules refuse it now. With `Idempotency-Key`, a retry returns the first
    answer (header `Idempotent-Replayed: true`) and appends nothing; the same key with another body is a
    422. `If-Match: "<version>"`: 412 unless the game is at that version.

    Args:
        game_id (str):
        idempotency_key (str | Unset):
        if_match (str | Unset):
        body (SpeedDrawAction | SpeedPlayAction | SpeedReadyAction | SpeedResignAction |
            SpeedSpitAction | SpitChooseAction | SpitMoveAction | SpitPlayAction | SpitReadyAction |
            SpitResignAction | SpitSlapAction | SpitSpitAction | SpitTurnUpAction): An action of the
            game's kind, read by its rules (a 400 names the field they refuse). `anyOf`: `ready`,
            `resign` and `{"type": "spit"}` are actions of both games.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Acted | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            if_match=if_match,
        )
    ).parsed
