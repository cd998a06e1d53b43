"""The HTTP side of ``spitlog bot`` (``service.cli.bot``): httpx and httpx-sse, the
``[bot]`` extra, imported only by the command once it has checked they are installed.
``Bot`` plays a seat it holds; ``create`` and ``join`` get it one."""

import json
import random
import time
import uuid

import click
import httpx
from httpx_sse import connect_sse

from domain.bots import POLICIES

OVER = ("finished", "aborted")


class Bot:
    def __init__(self, base: str, game_id: str, token: str, level: str, *, pace: float = 0.0,
                 seed: int | None = None, log=None):  # fmt: skip
        self.base, self.game_id, self.token = base, game_id, token
        self.policy = POLICIES[level]
        self.pace = pace  # a factor on the level's reaction time (0: act at once)
        self.rng = random.Random(seed)
        self.http = httpx.Client(base_url=base, timeout=30,
                                 headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        self.version = 0
        self.log = log or (lambda text: None)
        self.stats = {"actions": 0, "lost races": 0, "reconnects": 0, "replayed": 0, "reads": 0}
        self._views = self._stream()

    def view(self) -> dict:
        self.stats["reads"] += 1
        r = self._request("GET", f"/v1/games/{self.game_id}")
        view = r.json()
        self.version = max(self.version, view["version"])
        return view

    def play(self) -> dict:
        """Play until the game is over: its last view. Each view comes on the game's
        stream of views, so the game is never read after an event."""
        view = None
        for view in self._views:
            if view["version"] <= self.version or view["status"] in OVER:
                continue  # one this bot already acted on (its action's answer showed it)
            self.version = view["version"]
            view = self.act_while_it_can(view)
        self._views.close()
        return view if view is not None else self.view()

    def act_while_it_can(self, view: dict) -> dict:
        """Choose and act on ``view`` until the policy passes or a race is lost: the view
        it ends on (the stream brings the next)."""
        while view["status"] not in OVER:
            wire = self.policy.choose(view, self.rng)
            if wire is None:
                return view
            if self.pace:
                time.sleep(self.pace * self.policy.reaction(self.rng))
            key = str(uuid.uuid4())
            r = self._request("POST", f"/v1/games/{self.game_id}/actions", json=wire,
                              headers={"Idempotency-Key": key}, ok=(201, 409, 422))  # fmt: skip
            if r.status_code != 201:  # 422: the other seat got there first; 409: over
                self.stats["lost races"] += r.status_code == 422
                self.log(f"lost a race ({r.json().get('rule')}): {wire}")
                return view
            self.stats["actions"] += 1
            self.stats["replayed"] += r.headers.get("Idempotent-Replayed") == "true"
            body = r.json()
            self.version = max(self.version, body["version"])
            view = body["state"]
        return view

    def _stream(self):
        """The seat's views as they come, over the events stream with views (SSE): the
        current one first, then one after each batch of events; one stream while it lasts,
        then another from ``Last-Event-ID`` (the last id seen) when it ends or drops; ends
        after the view of the game's end."""
        backoff, seen = 0.2, None
        while True:
            headers = {"Accept": "text/event-stream"}
            if seen is not None:
                headers["Last-Event-ID"] = seen
            try:
                with connect_sse(self.http, "GET", f"/v1/games/{self.game_id}/events",
                                 params={"views": "true"}, headers=headers) as source:  # fmt: skip
                    if source.response.status_code == 204:
                        return
                    source.response.raise_for_status()
                    for message in source.iter_sse():
                        seen = message.id or seen
                        if message.event == "view":
                            view = json.loads(message.data)["state"]
                            yield view
                            if view["status"] in OVER:
                                return
                backoff = 0.2
            except (httpx.TransportError, httpx.HTTPStatusError) as e:
                self.log(f"stream dropped ({type(e).__name__}): again after {seen}")
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
            self.stats["reconnects"] += 1
            self.log(f"stream ended: reconnecting with Last-Event-ID {seen}")

    def _request(self, method: str, path: str, ok=(200, 201), **kw) -> httpx.Response:
        """One request, retried on a dropped connection, a 429 or a 503 (after their
        ``Retry-After``): an action's retry keeps its Idempotency-Key."""
        for attempt in range(8):
            try:
                r = self.http.request(method, path, **kw)
            except httpx.TransportError as e:
                self.log(f"{method} {path}: {type(e).__name__}, again")
                time.sleep(0.2 * 2**attempt)
                continue
            if r.status_code in ok:
                return r
            if r.status_code in (429, 503):
                time.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            raise click.ClickException(f"{method} {path}: {r.status_code} {_detail(r)}")
        raise click.ClickException(f"{method} {path}: no answer after 8 tries")


def _detail(r: httpx.Response) -> str:
    try:
        return r.json().get("detail", "")
    except ValueError:
        return r.text[:200]


def create(base: str, body: dict, headers: dict) -> tuple[str, str]:
    """A new game on the server at ``base``, this seat in it: (its id, the seat's token)."""
    r = httpx.post(f"{base}/v1/games", json=body, headers=headers, timeout=30)
    if r.status_code != 201:
        raise click.ClickException(f"create: {r.status_code} {_detail(r)}")
    return r.json()["id"], r.json()["token"]


def join(base: str, game_id: str, seat: dict, headers: dict) -> str:
    """The free seat of game ``game_id`` taken: its token."""
    r = httpx.post(f"{base}/v1/games/{game_id}/seats", json=seat,
                   headers={**headers, "Idempotency-Key": str(uuid.uuid4())},
                   timeout=30)  # fmt: skip
    if r.status_code != 201:
        raise click.ClickException(f"join: {r.status_code} {_detail(r)}")
    return r.json()["token"]
