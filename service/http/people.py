"""The routes of players and ratings: an app's player, its games, the
leaderboards. A player is named by its id in the key's app (or qualified,
``<app id>:<id>``: another app's is a 403)."""

from marshmallow import Schema, fields, validate

from .. import players
from . import schemas
from .pipeline import Call, Route, json_answer
from .routes import _ok, _op, _problems

PLAYER = "/v1/players/<pid:player_id>"
_d = schemas._doc


class PageQuery(Schema):
    cursor = fields.String(
        validate=validate.Length(max=160), **_d("the `next` of the previous page")
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100))


class LeaderboardQuery(PageQuery):
    game = fields.String(required=True, validate=schemas.Game())


class RatingSchema(schemas.Open):
    rating = schemas.Int(required=True)
    rd = fields.Float(required=True, **_d("Glicko-2 rating deviation"))
    volatility = fields.Float(required=True)
    provisional = schemas.Bool(
        required=True,
        **_d("RD of 110 or more (as Lichess): too uncertain to rank, so not on the leaderboard"),
    )
    games = schemas.Int(required=True)
    wins = schemas.Int()
    losses = schemas.Int()
    draws = schemas.Int()


class PlayerProfileSchema(schemas.Open):
    app = fields.String(required=True)
    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.String(required=True)
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RatingSchema),
        required=True,
        **_d("per game kind (a newcomer's 1500, RD 350 until rated)"),
    )


class PlayerGamesSchema(Schema):
    games = fields.List(fields.Nested(schemas.LobbyGameSchema), required=True)
    next = fields.String(required=True, allow_none=True)


class LeaderRowSchema(schemas.Open):
    rank = schemas.Int(required=True)
    app = fields.String(required=True)
    id = fields.String(required=True)
    name = fields.String(allow_none=True)
    rating = schemas.Int(required=True)
    rd = fields.Float(required=True)
    provisional = schemas.Bool(
        required=True,
        **_d("always false: a provisional rating (RD of 110 or more) is not on the leaderboard"),
    )
    games = schemas.Int(required=True)


class LeaderboardSchema(Schema):
    game = fields.String(required=True)
    players = fields.List(fields.Nested(LeaderRowSchema), required=True)
    next = fields.String(required=True, allow_none=True)


def get_player(call: Call):
    pkey = players.resolve(call.app, call.args["player_id"], "player_id")
    return json_answer(call.services.profiles.profile(pkey))


def player_games(call: Call):
    pkey = players.resolve(call.app, call.args["player_id"], "player_id")
    q = call.query
    rows, nxt = call.services.profiles.games(pkey, q.get("cursor"), q["limit"])
    return json_answer({"games": rows, "next": nxt})


def leaderboard(call: Call):
    q = call.query
    rows, nxt = call.services.profiles.leaderboard(q["game"], q.get("cursor"), q["limit"])
    return json_answer({"game": q["game"], "players": rows, "next": nxt})


APP = [{"app": []}]
ROUTES = (
    Route("get_player", "GET", PLAYER, get_player, app_key=True, doc=_op(
        "Your app's player and its ratings per game kind", tag="players", security=APP,
        responses={**_ok(200, PlayerProfileSchema), **_problems(400, 401, 403, 404, 429)})),
    Route("player_games", "GET", PLAYER + "/games", player_games, app_key=True, query=PageQuery,
          doc=_op("Your app's player's games, newest first, a page at a time",
                  "Those still live and those in the archive alike.", tag="players",
                  security=APP,
                  responses={**_ok(200, PlayerGamesSchema),
                             **_problems(400, 401, 403, 404, 429)})),
    Route("leaderboard", "GET", "/v1/leaderboard", leaderboard, query=LeaderboardQuery,
          doc=_op("A game kind's leaderboard: players by Glicko-2 rating, highest first",
                  "Every app's players whose rating is established (RD under 110: a "
                  "provisional rating is not listed); hosted bots are calibrated anchors, "
                  "not listed.",
                  tag="players",
                  responses={**_ok(200, LeaderboardSchema), **_problems(400, 429)})),
)  # fmt: skip
