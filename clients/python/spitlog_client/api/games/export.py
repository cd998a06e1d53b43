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
    accept: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept, Unset):
        headers["Accept"] = accept

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{game_id}/export".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 406:
        response_406 = Problem.from_dict(response.json())

        return response_406

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 414:
        response_414 = Problem.from_dict(response.json())

        return response_414

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 502:
        response_502 = Problem.from_dict(response.json())

        return response_502

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Problem | str]:
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
    accept: str | Unset = UNSET,
) -> Response[Any | Problem | str]:
    """After the game: its export, the whole log with the seed (409 before)

     Negotiated by `Accept`: `application/x-ndjson` (the default), the NDJSON log (`spitlog-log/1`: a
    header line with the revealed seed, then each event with its version), or `text/plain`, the notation
    (`spitlog-notation/1`); both are told in docs/export.md and read by `spitlog audit`/`replay`. 406
    when `Accept` names neither, nor `text/*`, `application/*` or `*/*`, other than with `q=0`. The
    bytes never change: a strong ETag, cacheable for a day. An archived game answers the same bytes.

    Args:
        game_id (str):
        accept (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        accept=accept,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: str | Unset = UNSET,
) -> Any | Problem | str | None:
    """After the game: its export, the whole log with the seed (409 before)

     Negotiated by `Accept`: `application/x-ndjson` (the default), the NDJSON log (`spitlog-log/1`: a
    header line with the revealed seed, then each event with its version), or `text/plain`, the notation
    (`spitlog-notation/1`); both are told in docs/export.md and read by `spitlog audit`/`replay`. 406
    when `Accept` names neither, nor `text/*`, `application/*` or `*/*`, other than with `q=0`. The
    bytes never change: a strong ETag, cacheable for a day. An archived game answers the same bytes.

    Args:
        game_id (str):
        accept (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        accept=accept,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: str | Unset = UNSET,
) -> Response[Any | Problem | str]:
    """After the game: its export, the whole log with the seed (409 before)

     Negotiated by `Accept`: `application/x-ndjson` (the default), the NDJSON log (`spitlog-log/1`: a
    header line with the revealed seed, then each event with its version), or `text/plain`, the notation
    (`spitlog-notation/1`); both are told in docs/export.md and read by `spitlog audit`/`replay`. 406
    when `Accept` names neither, nor `text/*`, `application/*` or `*/*`, other than with `q=0`. The
    bytes never change: a strong ETag, cacheable for a day. An archived game answers the same bytes.

    Args:
        game_id (str):
        accept (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        accept=accept,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: str | Unset = UNSET,
) -> Any | Problem | str | None:
    """After the game: its export, the whole log with the seed (409 before)

     Negotiated by `Accept`: `application/x-ndjson` (the default), the NDJSON log (`spitlog-log/1`: a
    header line with the revealed seed, then each event with its version), or `text/plain`, the notation
    (`spitlog-notation/1`); both are told in docs/export.md and read by `spitlog audit`/`replay`. 406
    when `Accept` names neither, nor `text/*`, `application/*` or `*/*`, other than with `q=0`. The
    bytes never change: a strong ETag, cacheable for a day. An archived game answers the same bytes.

    Args:
        game_id (str):
        accept (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            accept=accept,
        )
    ).parsed
