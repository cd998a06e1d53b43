from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.seek_state import SeekState
from ...types import UNSET, Response, Unset


def _get_kwargs(
    seek_id: str,
    *,
    wait: float | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/seeks/{seek_id}".format(
            seek_id=quote(str(seek_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SeekState | None:
    if response.status_code == 200:
        response_200 = SeekState.from_dict(response.json())

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
) -> Response[Problem | SeekState]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    seek_id: str,
    *,
    client: AuthenticatedClient,
    wait: float | Unset = UNSET,
) -> Response[Problem | SeekState]:
    """Your seek (with its token): open, paired (your game and seat), expired or cancelled

    Args:
        seek_id (str):
        wait (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeekState]
    """

    kwargs = _get_kwargs(
        seek_id=seek_id,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    seek_id: str,
    *,
    client: AuthenticatedClient,
    wait: float | Unset = UNSET,
) -> Problem | SeekState | None:
    """Your seek (with its token): open, paired (your game and seat), expired or cancelled

    Args:
        seek_id (str):
        wait (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeekState
    """

    return sync_detailed(
        seek_id=seek_id,
        client=client,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    seek_id: str,
    *,
    client: AuthenticatedClient,
    wait: float | Unset = UNSET,
) -> Response[Problem | SeekState]:
    """Your seek (with its token): open, paired (your game and seat), expired or cancelled

    Args:
        seek_id (str):
        wait (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeekState]
    """

    kwargs = _get_kwargs(
        seek_id=seek_id,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    seek_id: str,
    *,
    client: AuthenticatedClient,
    wait: float | Unset = UNSET,
) -> Problem | SeekState | None:
    """Your seek (with its token): open, paired (your game and seat), expired or cancelled

    Args:
        seek_id (str):
        wait (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeekState
    """

    return (
        await asyncio_detailed(
            seek_id=seek_id,
            client=client,
            wait=wait,
        )
    ).parsed
