from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.events import Events
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    views: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    params: dict[str, Any] = {}

    params["after"] = after

    params["limit"] = limit

    params["wait"] = wait

    params["views"] = views

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{game_id}/events".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Events | Problem | None:
    if response.status_code == 200:
        response_200 = Events.from_dict(response.json())

        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
) -> Response[Any | Events | Problem]:
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
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    views: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
) -> Response[Any | Events | Problem]:
    """The log, redacted for you (in full once the game is over)

     Events after version `after`, at most `limit`. With `wait`, a long-poll: if there is nothing yet,
    wait up to `wait` seconds for it. With `Accept: text/event-stream`, the log as Server-Sent Events,
    live: `id:` is the version, `data:` the event as JSON; it resumes after `Last-Event-ID`, and answers
    204 once the game is over and you have every event. With `Accept: application/x-ndjson`, the same
    stream as one JSON object a line (`{"type": "event", "version", "event"}`; an empty line keeps it
    alive). With `views=true` a stream also carries your view of the game, so that you never read it
    after an event: first the current view, then after each batch of events the view they lead to, as
    SSE `event: view` (`data:` `{"version", "state"}`, `id:` its version once every event up to it was
    sent) or the NDJSON line `{"type": "view", "version", "state"}`. Without `after` or `Last-Event-ID`
    such a stream starts at the current version.

    Args:
        game_id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):
        views (bool | Unset):  Default: False.
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Events | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        limit=limit,
        wait=wait,
        views=views,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    views: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
) -> Any | Events | Problem | None:
    """The log, redacted for you (in full once the game is over)

     Events after version `after`, at most `limit`. With `wait`, a long-poll: if there is nothing yet,
    wait up to `wait` seconds for it. With `Accept: text/event-stream`, the log as Server-Sent Events,
    live: `id:` is the version, `data:` the event as JSON; it resumes after `Last-Event-ID`, and answers
    204 once the game is over and you have every event. With `Accept: application/x-ndjson`, the same
    stream as one JSON object a line (`{"type": "event", "version", "event"}`; an empty line keeps it
    alive). With `views=true` a stream also carries your view of the game, so that you never read it
    after an event: first the current view, then after each batch of events the view they lead to, as
    SSE `event: view` (`data:` `{"version", "state"}`, `id:` its version once every event up to it was
    sent) or the NDJSON line `{"type": "view", "version", "state"}`. Without `after` or `Last-Event-ID`
    such a stream starts at the current version.

    Args:
        game_id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):
        views (bool | Unset):  Default: False.
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Events | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        after=after,
        limit=limit,
        wait=wait,
        views=views,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    views: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
) -> Response[Any | Events | Problem]:
    """The log, redacted for you (in full once the game is over)

     Events after version `after`, at most `limit`. With `wait`, a long-poll: if there is nothing yet,
    wait up to `wait` seconds for it. With `Accept: text/event-stream`, the log as Server-Sent Events,
    live: `id:` is the version, `data:` the event as JSON; it resumes after `Last-Event-ID`, and answers
    204 once the game is over and you have every event. With `Accept: application/x-ndjson`, the same
    stream as one JSON object a line (`{"type": "event", "version", "event"}`; an empty line keeps it
    alive). With `views=true` a stream also carries your view of the game, so that you never read it
    after an event: first the current view, then after each batch of events the view they lead to, as
    SSE `event: view` (`data:` `{"version", "state"}`, `id:` its version once every event up to it was
    sent) or the NDJSON line `{"type": "view", "version", "state"}`. Without `after` or `Last-Event-ID`
    such a stream starts at the current version.

    Args:
        game_id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):
        views (bool | Unset):  Default: False.
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Events | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        limit=limit,
        wait=wait,
        views=views,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    limit: int | Unset = 100,
    wait: float | Unset = UNSET,
    views: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
) -> Any | Events | Problem | None:
    """The log, redacted for you (in full once the game is over)

     Events after version `after`, at most `limit`. With `wait`, a long-poll: if there is nothing yet,
    wait up to `wait` seconds for it. With `Accept: text/event-stream`, the log as Server-Sent Events,
    live: `id:` is the version, `data:` the event as JSON; it resumes after `Last-Event-ID`, and answers
    204 once the game is over and you have every event. With `Accept: application/x-ndjson`, the same
    stream as one JSON object a line (`{"type": "event", "version", "event"}`; an empty line keeps it
    alive). With `views=true` a stream also carries your view of the game, so that you never read it
    after an event: first the current view, then after each batch of events the view they lead to, as
    SSE `event: view` (`data:` `{"version", "state"}`, `id:` its version once every event up to it was
    sent) or the NDJSON line `{"type": "view", "version", "state"}`. Without `after` or `Last-Event-ID`
    such a stream starts at the current version.

    Args:
        game_id (str):
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        wait (float | Unset):
        views (bool | Unset):  Default: False.
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Events | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            after=after,
            limit=limit,
            wait=wait,
            views=views,
            last_event_id=last_event_id,
        )
    ).parsed
