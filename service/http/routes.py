"""The routes of the API (the table of API.md): for each, its handler and its document.

Handlers are thin: read the call (``pipeline.Call``: its body, query, token), call one
use case (``service.reading``, ``seating``, ``joining``, ``acting``, ...) and make the
answer. The pipeline has already read the body, checked the credentials' form, charged
the limits and taken the game's gate.
"""

import hashlib
import http
import re
from urllib.parse import parse_qs

from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header, parse_etags

import domain

from .. import idempotency, players
from ..acting import Acted
from ..errors import BadRequest, Busy, NotAcceptable
from . import links, live, schemas, shapes
from .pipeline import Answer, Call, Route, json_answer

GAME = "/v1/games/<gid:game_id>"
PRIVATE = [("Vary", "Authorization"), ("Cache-Control", "private, no-cache")]
NO_STORE = [("Vary", "Authorization"), ("Cache-Control", "no-store")]  # answers with a token


def _viewer(call: Call):
    svc = call.services
    game = svc.reading.load(call.args["game_id"])
    call.seat = svc.tokens.seat(game, call.token)
    return game, call.seat


def _etag(version: int) -> tuple[str, str]:
    return ("ETag", f'"{version}"')


def _not_modified(call: Call, game) -> Answer | None:
    """304 if the client's copy has the game's version (and the game's views did not
    change after its end without one: ``Reading.changed_after_end``)."""
    inm = call.header("If-None-Match")
    if not inm or call.services.reading.changed_after_end(game):
        return None
    if parse_etags(inm).contains_weak(str(game.version)):
        return Answer(304, [_etag(game.version), *PRIVATE], b"")
    return None


def _state(body: dict, version: int, status: int = 200, headers=PRIVATE) -> Answer:
    return json_answer(body, status, [_etag(version), *headers])


STREAMS = ("text/event-stream", live.NDJSON)


def _stream_type(call: Call) -> str | None:
    """The stream an events request asks for (SSE or NDJSON), None for a page of the log."""
    accept = parse_accept_header(call.header("Accept"), MIMEAccept)
    best = accept.best_match(["application/json", *STREAMS])
    return best if best in STREAMS else None


def _wants_stream(call: Call) -> bool:
    """Whether an events request is a stream (SSE, NDJSON) rather than a page of the log."""
    return _stream_type(call) is not None


def _is_stream(call: Call) -> bool:
    """An SSE stream takes no place at the game's gate (a long-poll takes one for its reads
    and gives it back while it waits)."""
    return _wants_stream(call)


# ---------------------------------------------------------------- handlers


def list_games(call: Call) -> Answer:
    q = call.query
    limit = min(q["limit"], call.services.settings.lobby_page_max)
    player = players.resolve(call.app, q["player"], "player") if "player" in q else None
    games, nxt = call.services.lobby.page(
        q["status"], q.get("cursor"), limit, game=q.get("game"), kind=q.get("kind"), player=player
    )
    return json_answer({"games": games, "next": nxt})


def _idem_key(call: Call, secret: bool = False) -> str | None:
    """The request's Idempotency-Key: 1-255 characters, or for a key that gives a seat's
    token back (``secret``: a create's, a join's) ``idempotency.KEY_RULE``; 400 if not."""
    key = call.header("Idempotency-Key")
    if key is None:
        return None
    if secret:
        refused = idempotency.key_refusal(key)
        if refused is not None:
            raise BadRequest({"Idempotency-Key": [refused]})
    elif not 1 <= len(key) <= 255:
        raise BadRequest({"Idempotency-Key": ["Length must be between 1 and 255."]})
    return key


def _seat_key(call: Call) -> str | None:
    """A create's or a join's Idempotency-Key (``_idem_key``), required under strict
    durability: there an answer the replicas did not confirm is a 503, and only a retry
    with the same key gets the seat's token back (without one the seat would be taken
    and its token never shown); a 400 naming the header without it, as the IETF draft
    of the Idempotency-Key header says of an operation that requires it."""
    key = _idem_key(call, secret=True)
    if key is None and call.services.settings.durability == "strict":
        raise BadRequest({"Idempotency-Key": [
            "required with strict durability (SPITLOG_DURABILITY=strict): a create or join "
            "whose write is not confirmed is a 503, and its retry with the same key answers "
            f"the seat's token; {idempotency.KEY_RULE}"]})  # fmt: skip
    return key


def _caller(call: Call) -> str:
    """Whose a create's or a join's Idempotency-Key is (``idempotency.scoped``): the app
    of the request's ``X-Api-Key``, else the client's address."""
    if call.app is not None:
        return "app:" + call.app.id
    address = call.address
    if address is None:
        limits = call.services.limits
        address = limits.address(call.environ) if limits is not None else (
            call.environ.get("REMOTE_ADDR") or "-")  # fmt: skip
    return "addr:" + address


def _replayed(acted: Acted) -> list:
    return [("Idempotent-Replayed", "true")] if acted.replayed else []


def create_game(call: Call) -> Answer:
    body = schemas.load(schemas.CreateGameSchema, call.body)
    key = _seat_key(call)
    try:
        acted = call.services.seating.create(
            body["game"], body.get("options"), body.get("opponent", "human"),
            body.get("client_seed", ""), seat0=body.get("seat0", "human"), idem_key=key,
            body=call.body, webhook=body.get("webhook"), who=players.who(call.app, body),
            rated=body.get("rated", False), caller=_caller(call),
        )  # fmt: skip
    except domain.InvalidOptions as e:
        raise BadRequest({f"options.{k}": v for k, v in e.errors.items()}) from None
    out = acted.body
    location = ("Location", "/v1/games/" + out["id"])
    headers = [location, *NO_STORE, *_replayed(acted)]
    return _state(out, out["state"]["version"], 201, headers)


def get_game(call: Call) -> Answer:
    game, seat = _viewer(call)
    svc = call.services
    return _not_modified(call, game) or Answer(
        200,
        [("Content-Type", "application/json"), _etag(game.version), *PRIVATE],
        svc.views.json(svc.reading, game, seat),
    )


def join(call: Call) -> Answer:
    body = schemas.load(schemas.JoinSchema, call.body or {})
    key = _seat_key(call)
    acted = call.services.joining.join(
        call.args["game_id"], body.get("client_seed", ""), call.token, idem_key=key,
        body=call.body or {}, who=players.who(call.app, body), caller=_caller(call),
    )  # fmt: skip
    out = acted.body
    return _state(out, out["state"]["version"], 201, [*NO_STORE, *_replayed(acted)])


def act(call: Call) -> Answer:
    acted: Acted = call.services.acting.act(
        call.args["game_id"], call.token, call.body, idem_key=_idem_key(call),
        if_match=_if_match(call),
    )  # fmt: skip
    call.seat = acted.body["state"].get("you")
    return _state(acted.body, acted.body["version"], 201, [*PRIVATE, *_replayed(acted)])


def _if_match(call: Call) -> frozenset[int] | None:
    """The versions ``If-Match`` allows (None: any). Weak or non-numeric tags match none."""
    header = call.header("If-Match")
    if header is None:
        return None
    tags = parse_etags(header)
    if tags.star_tag:
        return None
    return frozenset(int(t) for t in tags.as_set() if t and _number(t))  # '""' parses as None


def _number(text: str) -> bool:
    """Whether ``text`` is a version: ASCII digits, at most 16 (no version comes near)."""
    return 0 < len(text) <= 16 and text.isascii() and text.isdigit()


def events(call: Call) -> Answer:
    game, seat = _viewer(call)
    svc = call.services
    after = call.query["after"]
    kind = _stream_type(call)
    if kind is not None:
        last = (call.header("Last-Event-ID") or "").strip()
        if _number(last):
            after = int(last)
        elif "after" not in parse_qs(call.environ.get("QUERY_STRING", "")):
            after = None  # from the start; with views, from now
        return live.stream(
            call, game, seat, None if after is None else min(after, game.version),
            views=call.query.get("views", False), ndjson=kind == live.NDJSON,
        )  # fmt: skip
    limit = call.query["limit"]
    entries = svc.reading.entries(game, after, limit)
    wait = min(call.query.get("wait") or 0, svc.settings.longpoll_max_s)
    if not entries and wait > 0 and not game.state.over:
        call.leave_gate()  # no place of the game held while waiting
        live.long_poll(call, game.id, min(after, game.version), wait)
        game = svc.reading.load(game.id)
        entries = svc.reading.entries(game, after, limit)
    version = max(game.version, entries[-1][0] if entries else 0)
    body = {
        "version": version,
        "status": game.state.status,
        "events": svc.reading.redacted(entries, seat, game.state.over, game.record),
    }
    return json_answer(body, headers=PRIVATE)


def state_at(call: Call) -> Answer:
    game, seat = _viewer(call)
    return _not_modified(call, game) or _state(
        call.services.reading.state_at(game, seat, call.args["version"]), game.version
    )


def audit(call: Call) -> Answer:
    game, _seat = _viewer(call)
    return json_answer(call.services.audits.audit(game))


NDJSON = "application/x-ndjson"
NOTATION = "text/plain"
EXPORTS = {NDJSON: ("ndjson", "ndjson"), NOTATION: ("notation", "txt")}  # type -> tag, suffix


def _any_case(text: str) -> str:
    """A pattern of ``text`` in either case (media types are case-insensitive; a pattern
    of the document has no flags), ``*`` and ``.`` literal."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else "\\" + c if c in "*." else c
                   for c in text)  # fmt: skip


# The ``Accept`` an export answers, the one rule the server applies and the document
# shows: empty, or a list holding a media range the export is in (its types, ``text/*``,
# ``application/*``, ``*/*``) whose parameters do not say ``q=0``; any other is a 406.
_OWS = "[ \\t]*"
_RANGES = "|".join(_any_case(t) for t in (NDJSON, NOTATION, "application/*", "text/*", "*/*"))
_PARAM = f";(?!{_OWS}[qQ]=0(?:\\.0{{0,3}})?{_OWS}(?:;|,|$))[^;,]*"
EXPORT_ACCEPT = f"^(?:{_OWS}|(?:.*,)?{_OWS}(?:{_RANGES}){_OWS}(?:{_PARAM})*(?:,.*)?)$"
_EXPORT_ACCEPT = re.compile(EXPORT_ACCEPT)


def export(call: Call) -> Answer:
    """The finished game's export in the media type ``Accept`` prefers (NDJSON when it
    names none, or only ranges both types are in); the same bytes for everyone, and
    forever (the log is append-only and the game over): a strong ETag of them,
    cacheable. An ``Accept`` the export is not in (``EXPORT_ACCEPT``) is a 406."""
    given = call.header("Accept") or ""
    if not _EXPORT_ACCEPT.fullmatch(given):
        raise NotAcceptable(f"the export is {NDJSON} (the log) or {NOTATION} (the notation)")
    accept = parse_accept_header(given, MIMEAccept)
    ctype = accept.best_match([NDJSON, NOTATION]) or NDJSON
    game, _seat = _viewer(call)
    tag, suffix = EXPORTS[ctype]
    body = call.services.reading.export(game, notation=tag == "notation").encode()
    etag = f'"{tag}-{hashlib.sha256(body).hexdigest()[:32]}"'
    headers = [
        ("ETag", etag),
        ("Vary", "Accept"),
        ("Cache-Control", "public, max-age=86400"),
        ("Content-Disposition", f'attachment; filename="{game.id}.{suffix}"'),
    ]
    inm = call.header("If-None-Match")
    if inm and parse_etags(inm).contains(etag.strip('"')):
        return Answer(304, headers, b"")
    charset = "; charset=utf-8"
    return Answer(200, [("Content-Type", ctype + charset), *headers], body)


def webhooks(call: Call) -> Answer:
    body = call.services.deliveries.read(call.args["game_id"], call.token)
    return json_answer(body, headers=PRIVATE)


def health(call: Call) -> Answer:
    return json_answer({"status": "ok"})


def ready(call: Call) -> Answer:
    try:
        call.services.store.ping()
    except Exception:
        raise Busy("the game store does not answer", retry_after_s=1) from None
    return json_answer({"status": "ready"})


def openapi(call: Call) -> Answer:
    return Answer(200, [("Content-Type", "application/yaml")], call.services.spec_yaml())


DOCS_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def docs(call: Call) -> Answer:
    headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", DOCS_CSP)]
    return Answer(200, headers, call.services.docs_html())


def rules(call: Call) -> Answer:
    """The rules reference: an entry per rule ID, each an anchor (``/docs/rules#P-1``)."""
    headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", DOCS_CSP)]
    return Answer(200, headers, call.services.rules_html())


# ---------------------------------------------------------------- documents


def _problems(*codes: int) -> dict:
    return {str(c): {"$ref": f"#/components/responses/{http.HTTPStatus(c).name}"} for c in codes}


def _ok(code: int, schema, *, headers=None, links=None, examples=None,
        ctype="application/json") -> dict:  # fmt: skip
    media = {"schema": schema, **({"examples": examples} if examples else {})}
    r = {"description": http.HTTPStatus(code).phrase, "content": {ctype: media}}
    if headers:
        r["headers"] = headers
    if links:
        r["links"] = links
    return {str(code): r}


def _header(name: str, description: str, **schema) -> dict:
    return {"in": "header", "name": name, "required": False, "description": description,
            "schema": {"type": "string", **schema}}  # fmt: skip


ETAG = {"ETag": {"description": 'the game\'s version, "<version>"', "schema": {"type": "string"}}}
IF_NONE_MATCH = _header(
    "If-None-Match",
    '"<version>": 304 if the game is still at that version (never for a finished game once a '
    "rematch was asked for or made, its rating applied, or it left Redis for the archive: "
    "then 200, with the same ETag)",
)
SEAT_OPTIONAL = [{"seat": []}, {}]
APP_OPTIONAL = [{"app": []}, {}]  # an app's key: its players
SEAT_AND_APP = [{"seat": [], "app": []}, {"seat": []}, {"app": []}, {}]
SEAT_REQUIRED = [{"seat": []}]
NOT_MODIFIED = {"304": {"description": "Not modified: your copy is the game's view now"}}


def _op(summary: str, description: str = "", tag: str = "games", **fields) -> dict:
    op = {"tags": [tag], "summary": summary}
    if description:
        op["description"] = description
    op.update(fields)
    return op


ROUTES: tuple[Route, ...] = (
    Route(
        "list_games",
        "GET",
        "/v1/games",
        list_games,
        query=schemas.LobbyQuery,
        app_key=True,
        doc=_op(
            "The lobby: games by status, newest first, a page at a time",
            "Filters: `game`, `kind` (a seat's), `player` (your app's, with `X-Api-Key`). "
            "With filters a page may hold fewer than `limit` games and still have a `next`: "
            "follow it until it is null.",
            security=APP_OPTIONAL,
            responses={**_ok(200, schemas.LobbySchema), **_problems(400, 401, 403, 429)},
        ),
    ),  # fmt: skip
    Route(
        "create_game",
        "POST",
        "/v1/games",
        create_game,
        body="required",
        app_key=True,
        limits=("requests", "games"),
        doc=_op(
            "Create a game; you take seat 0",
            "Answers your seat's token (shown once) and the commitment to the secret server "
            "seed, sha256 hex. Against a bot the game starts at once. With `seat0` a bot (bot "
            "against bot), you watch: `seat` and `token` are null. With `Idempotency-Key` "
            "(random: it gives the token back; the rule is the header's), your retry with the "
            "same body answers the same game and token (`Idempotent-Replayed: true`); another "
            "body is a 422; a retry while the first is in flight, a 409. A key is its "
            "caller's: your app's (`X-Api-Key`), else your address's; another caller's same "
            "key is another key, a game of its own. With an app's `X-Api-Key`, "
            "`player` seats your app's player (`rated`: rated when it ends; a resignation or "
            "a T-4 forfeit in its abort window, by a seat that has not moved until 10 s "
            "after its opponent's first move, aborts it, reason `unplayed`; against a hosted "
            "level, a 429 `rated-pair-cap` once the two started `SPITLOG_RATED_PAIR_CAP` "
            "rated games in 24 hours); `kind: bot` and a `name` "
            "declare a client's bot.",
            security=APP_OPTIONAL,
            parameters=[
                _header(
                    "Idempotency-Key",
                    "a retry answers the same game and token (your app's or your address's "
                    f"key): {idempotency.KEY_RULE}; 400 if not. Required with strict "
                    "durability (`SPITLOG_DURABILITY=strict`; 400 without it): there a write "
                    "its replicas did not confirm is a 503 whose body (problem+json) holds no "
                    "token, and the retry with the same key answers it once they hold it",
                    **idempotency.KEY_SCHEMA,
                )
            ],
            requestBody={
                "required": True,
                "content": {
                    "application/json": {
                        "schema": schemas.CreateGameSchema,
                        "examples": shapes.create_examples,
                    }
                },
            },
            responses={
                **_ok(
                    201,
                    schemas.CreatedSchema,
                    links=links.CREATED,
                    headers={"Location": {"schema": {"type": "string"}}, **ETAG},
                ),
                **_problems(400, 401, 403, 408, 409, 413, 415, 422, 429, 503),
            },
        ),
    ),  # fmt: skip
    Route(
        "get_game",
        "GET",
        GAME,
        get_game,
        auth=True,
        gated=True,
        charged_in_store=True,
        hot=True,
        doc=_op(
            "The state as you may see it",
            "Your seat's view with your token, the spectator view without. Once the game is "
            "over, every card.",
            parameters=[IF_NONE_MATCH],
            security=SEAT_OPTIONAL,
            responses={
                **_ok(200, shapes.STATE_REF, headers=ETAG, examples=shapes.state_examples),
                **NOT_MODIFIED,
                **_problems(401, 403, 404, 429),
            },
        ),
    ),  # fmt: skip
    Route(
        "join",
        "POST",
        GAME + "/seats",
        join,
        body="optional",
        auth=True,
        app_key=True,
        gated=True,
        doc=_op(
            "Take the free seat (409 when there is none)",
            "With `Idempotency-Key` (as a create's: the rule is the header's), your retry with "
            "the same body answers the same seat and token (`Idempotent-Replayed: true`). "
            "`player` (with "
            "`X-Api-Key`), `kind` and `name` as in a create; a rated game takes only a player "
            "(403), another than seat 0's (409), who has not started `SPITLOG_RATED_PAIR_CAP` "
            "rated games with seat 0's in 24 hours (429 `rated-pair-cap`, with `Retry-After`).",
            security=SEAT_AND_APP,
            parameters=[
                _header(
                    "Idempotency-Key",
                    "a retry answers the same seat and token (your app's or your address's "
                    f"key): {idempotency.KEY_RULE}; 400 if not. Required with strict "
                    "durability (`SPITLOG_DURABILITY=strict`; 400 without it): there a write "
                    "its replicas did not confirm is a 503 whose body (problem+json) holds no "
                    "token, and the retry with the same key answers it once they hold it",
                    **idempotency.KEY_SCHEMA,
                )
            ],
            requestBody={
                "required": False,
                "content": {"application/json": {"schema": schemas.JoinSchema}},
            },
            responses={
                **_ok(201, schemas.SeatedSchema, headers=ETAG, links=links.SEATED),
                **_problems(400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 503),
            },
        ),
    ),  # fmt: skip
    Route(
        "act",
        "POST",
        GAME + "/actions",
        act,
        body="required",
        auth=True,
        limits=("requests", "actions"),
        gated=True,
        charged_in_store=True,
        hot=True,
        doc=_op(
            "Act (the seat is your token's)",
            "422 with `rule` when the rules refuse it now. With `Idempotency-Key`, a retry "
            "returns the first answer (header `Idempotent-Replayed: true`) and appends nothing; "
            'the same key with another body is a 422. `If-Match: "<version>"`: 412 unless the '
            "game is at that version.",
            requestBody={
                "required": True,
                "content": {
                    "application/json": {
                        "schema": shapes.ACTION_REF,
                        "examples": shapes.action_examples,
                    }
                },
            },
            parameters=[
                _header(
                    "Idempotency-Key",
                    "retrying with the same key returns the first answer and appends nothing "
                    "(a key is your seat's: unique among its actions)",
                    minLength=1,
                    maxLength=255,
                ),
                _header("If-Match", 'act only if the game is at this version: "<version>"'),
            ],
            security=SEAT_REQUIRED,
            responses={
                **_ok(201, schemas.ActedSchema, headers=ETAG, links=links.ACTED),
                **_problems(400, 401, 403, 404, 408, 409, 412, 413, 415, 422, 429, 503),
            },
        ),
    ),  # fmt: skip
    Route(
        "events",
        "GET",
        GAME + "/events",
        events,
        query=schemas.EventsQuery,
        auth=True,
        gated=True,
        charged_in_store=True,
        streams=_is_stream,
        doc=_op(
            "The log, redacted for you (in full once the game is over)",
            "Events after version `after`, at most `limit`. With `wait`, a long-poll: if there is "
            "nothing yet, wait up to `wait` seconds for it. With `Accept: text/event-stream`, "
            "the log as Server-Sent Events, live: `id:` is the version, `data:` the event as "
            "JSON; it resumes after `Last-Event-ID`, and answers 204 once the game is over and "
            "you have every event. With `Accept: application/x-ndjson`, the same stream as "
            'one JSON object a line (`{"type": "event", "version", "event"}`; an '
            "empty line keeps it alive). With `views=true` a stream also carries your view of "
            "the game, so that you never read it after an event: first the current view, then "
            "after each batch of events the view they lead to, as SSE `event: view` (`data:` "
            '`{"version", "state"}`, `id:` its version once every event up to it was '
            'sent) or the NDJSON line `{"type": "view", "version", "state"}`. '
            "Without `after` or `Last-Event-ID` such a stream starts at the current version.",
            parameters=[
                _header("Last-Event-ID", "SSE: resume after this version (overrides `after`)")
            ],
            security=SEAT_OPTIONAL,
            responses={
                "200": {
                    "description": "The events as JSON; with `Accept: text/event-stream`, as "
                    "SSE; with `Accept: application/x-ndjson`, as NDJSON",
                    "content": {
                        "application/json": {"schema": schemas.EventsSchema},
                        "text/event-stream": {"schema": {"type": "string"}},
                        NDJSON: {
                            "schema": {
                                "oneOf": [schemas.EventMessageSchema, schemas.ViewMessageSchema]
                            }
                        },
                    },
                },
                "204": {"description": "A stream: the game is over and you have every event"},
                **_problems(400, 401, 403, 404, 429),
            },
        ),
    ),  # fmt: skip
    Route(
        "state_at",
        "GET",
        GAME + "/states/<int:version>",
        state_at,
        auth=True,
        gated=True,
        charged_in_store=True,
        doc=_op(
            "The state after `version` events",
            "Your own view (or the spectator's) while the game runs, every card once it is "
            "over. The ETag is the game's current version: the answer changes when the game "
            "ends.",
            parameters=[IF_NONE_MATCH],
            security=SEAT_OPTIONAL,
            responses={
                **_ok(200, shapes.STATE_REF, headers=ETAG),
                **NOT_MODIFIED,
                **_problems(401, 403, 404, 429),
            },
        ),
    ),  # fmt: skip
    Route(
        "audit",
        "GET",
        GAME + "/audit",
        audit,
        auth=True,
        gated=True,
        doc=_op(
            "After the game: the whole log, the seed, every deal re-derived (409 before)",
            "`server_seed` hashes (sha256) to the `commitment` published at creation; each deal "
            "is shuffled again from it (docs/shuffle.md) and compared with the log.",
            responses={**_ok(200, schemas.AuditSchema), **_problems(401, 403, 404, 409, 429)},
        ),
    ),  # fmt: skip
    Route(
        "export",
        "GET",
        GAME + "/export",
        export,
        auth=True,
        gated=True,
        doc=_op(
            "After the game: its export, the whole log with the seed (409 before)",
            "Negotiated by `Accept`: `application/x-ndjson` (the default), the NDJSON log "
            "(`spitlog-log/1`: a header line with the revealed seed, then each event with its "
            "version), or `text/plain`, the notation (`spitlog-notation/1`); both are told in "
            "docs/export.md and read by `spitlog audit`/`replay`. 406 when `Accept` names "
            "neither, nor `text/*`, `application/*` or `*/*`, other than with `q=0`. "
            "The bytes never change: a strong ETag, cacheable for a day. An archived game "
            "answers the same bytes.",
            parameters=[
                _header(
                    "Accept",
                    "application/x-ndjson (default) or text/plain "
                    "(a list: the first it prefers); 406 if it names neither",
                    pattern=EXPORT_ACCEPT,
                )
            ],  # fmt: skip
            responses={
                "200": {
                    "description": "The export",
                    "headers": {
                        "ETag": {
                            "description": "a strong tag of the bytes",
                            "schema": {"type": "string"},
                        },
                        "Content-Disposition": {"schema": {"type": "string"}},
                    },
                    "content": {
                        NDJSON: {"schema": {"type": "string"}},
                        NOTATION: {"schema": {"type": "string"}},
                    },
                },
                "304": {"description": "Not modified"},
                **_problems(401, 403, 404, 406, 409, 429, 502),
            },
        ),
    ),  # fmt: skip
    Route(
        "webhooks",
        "GET",
        GAME + "/webhooks",
        webhooks,
        auth=True,
        gated=True,
        doc=_op(
            "The game's webhook and its latest deliveries (the creator's, seat 0's token)",
            "Each try of each notification: its id, type, when, the target's status or the "
            "error, how long it took; `pending` while a notification waits to be delivered "
            "(docs/webhooks.md).",
            security=SEAT_REQUIRED,
            responses={**_ok(200, schemas.DeliveriesSchema), **_problems(401, 403, 404, 429)},
        ),
    ),  # fmt: skip
    Route(
        "health",
        "GET",
        "/healthz",
        health,
        limits=(),
        doc=_op(
            "Liveness: the process answers",
            tag="ops",
            responses=_ok(200, schemas.HealthSchema),
        ),
    ),  # fmt: skip
    Route(
        "ready",
        "GET",
        "/readyz",
        ready,
        limits=(),
        doc=_op(
            "Readiness: the game store answers (503 if not)",
            tag="ops",
            responses={**_ok(200, schemas.HealthSchema), **_problems(503)},
        ),
    ),  # fmt: skip
    Route(
        "openapi",
        "GET",
        "/openapi.yaml",
        openapi,
        doc=_op(
            "This API's OpenAPI document",
            tag="ops",
            responses={
                "200": {
                    "description": "OpenAPI 3",
                    "content": {"application/yaml": {"schema": {"type": "object"}}},
                }
            },
        ),
    ),  # fmt: skip
    Route(
        "docs",
        "GET",
        "/docs",
        docs,
        doc=_op(
            "This API's documentation, readable",
            tag="ops",
            responses={
                "200": {
                    "description": "HTML",
                    "content": {"text/html": {"schema": {"type": "string"}}},
                }
            },
        ),
    ),  # fmt: skip
    Route(
        "rules",
        "GET",
        "/docs/rules",
        rules,
        doc=_op(
            "The rules of both games, an entry per rule ID",
            "Every `rule` of a refusal and every `result` of a game has an entry here, its "
            "anchor the ID: `rule_url` and `result_url` link to it (`/docs/rules#P-1`).",
            tag="ops",
            responses={
                "200": {
                    "description": "HTML",
                    "content": {"text/html": {"schema": {"type": "string"}}},
                }
            },
        ),
    ),  # fmt: skip
)
