"""The routes of seeks (quick pairing) and rematches."""

from marshmallow import Schema, fields, validate

import domain

from .. import config, players
from ..errors import BadRequest
from . import live, schemas
from .pipeline import Answer, Call, Route, json_answer
from .routes import GAME, NO_STORE, _ok, _op, _problems

SEEK = "/v1/seeks/<sid:seek_id>"
_d = schemas._doc


class SeekSchema(Schema.from_dict(schemas._seat_fields())):
    game = fields.String(required=True, validate=schemas.Game())
    options = fields.Dict(**_d("table options, as a create's: the same options pair"))
    rated = schemas.Bool(**_d("pair only with rated seeks (your app's player: X-Api-Key)"))
    rating_range = fields.List(
        schemas.Int(),
        validate=validate.Length(2, 2),
        **_d(
            "[low, high]: the opponent ratings you accept (0-4000; default any); each seek's "
            "rating must be in the other's range"
        ),
    )
    bot_fallback_s = schemas.Num(
        allow_none=True,
        **_d(
            "unpaired after this many seconds: a game against the hosted level whose rating "
            "is nearest yours; null or absent: none"
        ),
    )
    expires_s = schemas.Num(
        validate=validate.Range(0, None, min_inclusive=False),
        **_d(
            "unpaired after this many seconds, the seek expires "
            "(default and most: SPITLOG_SEEK_MAX_S, whose default `maximum` shows)",
            maximum=config.Settings.model_fields["seek_max_s"].default,
            exclusiveMinimum=0,
        ),
    )


class SeekQuery(Schema):
    wait = fields.Float(
        validate=validate.Range(0, 60),
        **_d("long-poll: while the seek is open, wait up to this many seconds for it to change"),
    )


class SeekStateSchema(schemas.Open):
    id = fields.String(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["open", "making", "paired", "expired", "cancelled"])
    )
    game = fields.String(required=True)
    rated = schemas.Bool(required=True)
    rating_range = fields.List(schemas.Int(), required=True)
    expires_at = fields.String(required=True)
    bot_fallback_at = fields.String(allow_none=True)
    game_id = fields.String(
        allow_none=True,
        **_d("once paired: your game (the seek's token is your seat's token in it)"),
    )
    seat = schemas.Int(allow_none=True)
    opponent = fields.String(allow_none=True, **_d("seek (another seeker) or bot:<level>"))
    token = fields.String(
        **_d("the seek's token, shown once: it reads and cancels the seek, then plays your seat")
    )


class RematchSchema(schemas.Open):
    status = fields.String(
        required=True, validate=validate.OneOf(["none", "offered", "made", "expired"])
    )
    game = fields.String(allow_none=True, **_d("the new game, once made"))
    asked = fields.List(schemas.Bool())
    until = fields.String(**_d("asks count until then"))
    seat = schemas.Int(
        allow_none=True, **_d("your seat: in the old game while offered, in the new one once made")
    )
    token = fields.String(
        **_d(
            "your seat's token in the new game (a seat's caller only; not once the old "
            "game has left Redis for the archive, which does not keep the secret it "
            "derives from)"
        )
    )
    state = schemas.Component("State")


def post_seek(call: Call) -> Answer:
    body = schemas.load(SeekSchema, call.body)
    rng = body.get("rating_range")
    try:
        out = call.services.seeks.post(
            body["game"], body.get("options"), rated=body.get("rated", False),
            rating_range=tuple(rng) if rng else None, bot_fallback_s=body.get("bot_fallback_s"),
            expires_s=body.get("expires_s"), who=players.who(call.app, body),
        )  # fmt: skip
    except domain.InvalidOptions as e:
        raise BadRequest({f"options.{k}": v for k, v in e.errors.items()}) from None
    return json_answer(out, 201, [("Location", "/v1/seeks/" + out["id"]), *NO_STORE])


def get_seek(call: Call) -> Answer:
    wait = min(call.query.get("wait") or 0, call.services.settings.longpoll_max_s)
    if wait > 0:
        out = live.seek_long_poll(call, call.args["seek_id"], wait)
    else:
        out = call.services.seeks.read(call.args["seek_id"], call.token)
    return json_answer(out, headers=NO_STORE)


def cancel_seek(call: Call) -> Answer:
    call.services.seeks.cancel(call.args["seek_id"], call.token)
    return Answer(204, list(NO_STORE), b"")


def ask_rematch(call: Call) -> Answer:
    """A seat's ask; a new one (``Rematches.asks_anew``) is charged to the address's
    game-creation bucket (a 429 changes nothing), an ask again is a read."""
    rematches, limits = call.services.rematches, call.services.limits
    if limits is not None and limits.rate_limited and call.address is not None and \
            rematches.asks_anew(call.args["game_id"], call.token):  # fmt: skip
        bill = limits.bill(("games",), call.address, None)
        if bill is not None:  # None: no game-creation limit (SPITLOG_RATE_GAMES=0)
            limits.settle(bill)
    status, out = rematches.ask(call.args["game_id"], call.token)
    headers = [*NO_STORE] + ([("Location", "/v1/games/" + out["game"])] if status == 201 else [])
    return json_answer(out, status, headers)


def get_rematch(call: Call) -> Answer:
    return json_answer(call.services.rematches.read(call.args["game_id"], call.token),
                       headers=NO_STORE)  # fmt: skip


SEEKER = [{"seat": []}]
ROUTES = (
    Route("post_seek", "POST", "/v1/seeks", post_seek, body="required", app_key=True,
          limits=("requests", "games"), doc=_op(
              "Seek an opponent: paired with a compatible seek, or a hosted bot after "
              "`bot_fallback_s`",
              "Compatible: the same game, options and `rated`, each seek's rating within the "
              "other's `rating_range`. Answers the seek and its token (shown once): read it "
              "(`GET`, `?wait=` to long-poll) until it is `paired` (then `game_id` and `seat`: "
              "the seek's token is your seat's token) or `expired`; cancel it with `DELETE`. "
              "Impossible options or ranges are a 400 naming the field.",
              tag="seeks", security=[{"app": []}, {}],
              requestBody={"required": True,
                           "content": {"application/json": {"schema": SeekSchema}}},
              responses={**_ok(201, SeekStateSchema),
                         **_problems(400, 401, 403, 408, 413, 415, 429)})),
    Route("get_seek", "GET", SEEK, get_seek, auth=True, query=SeekQuery, doc=_op(
        "Your seek (with its token): open, paired (your game and seat), expired or cancelled",
        tag="seeks", security=SEEKER,
        responses={**_ok(200, SeekStateSchema), **_problems(400, 401, 403, 404, 429)})),
    Route("cancel_seek", "DELETE", SEEK, cancel_seek, auth=True, doc=_op(
        "Cancel your seek (409 once paired)", tag="seeks", security=SEEKER,
        responses={"204": {"description": "Cancelled (or expired already)"},
                   **_problems(401, 403, 404, 409, 429)})),
    Route("ask_rematch", "POST", GAME + "/rematch", ask_rematch, body="optional", auth=True,
          gated=True, doc=_op(
              "Ask for a rematch of a finished game (a seat's token)",
              "202 while the other seat has not asked (a hosted bot always agrees); 201 once "
              "both have: the new game (seats swapped, same kind, options, players and "
              "`rated`), your new seat and its token. The first asker reads its own with GET "
              "(or by asking again). 409 once `until` has passed or the archive closed the "
              "asks (a few seconds later, or at once by an operator), or for a game not "
              "finished. A seat's first ask counts against the address's game-creation rate "
              "(`SPITLOG_RATE_GAMES`; asking again reads, as GET does); the rematch of a "
              "rated game is a 429 (`rated-pair-cap`) once its two seats started "
              "`SPITLOG_RATED_PAIR_CAP` rated games in 24 hours.",
              security=SEEKER,
              responses={**_ok(201, RematchSchema), **_ok(202, RematchSchema),
                         **_problems(401, 403, 404, 409, 429)})),
    Route("get_rematch", "GET", GAME + "/rematch", get_rematch, auth=True, gated=True, doc=_op(
        "A finished game's rematch: the offer, or the new game (with your seat's token "
        "while the old game is in Redis)",
        security=[{"seat": []}, {}],
        responses={**_ok(200, RematchSchema), **_problems(401, 403, 404, 409, 429)})),
)  # fmt: skip
