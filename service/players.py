"""Players: who sits at a seat beyond the domain's kind, as the service knows it.

The domain keeps a seat's kind (``human``, ``bot``: a client's bot, ``bot:<level>``: a
hosted one) in its events. Who a player is (an app's player, a bot's name) and the
ratings are the service's: they are kept in the game's record (``records.Seat``: its
``player`` with the rating it had, or a client bot's ``name``; ``rated``; ``rating``:
the outcome, once applied), added to every view (``decorate``), lobby row and player's
list of games, and written into the archive's record, so that a game read back from the
archive shows them too. The log itself never names a player: a player's
identity is an app's fact, not a rule of the game (docs/decisions/0013).

A player's id is 1-64 of ``[A-Za-z0-9_.-]``, not starting with a dot (``service.ids``: it
never names a path), in its app's namespace: stored and indexed as ``<app id>:<player
id>`` (``pkey``). Wherever a request names a player it may qualify it
(``a_1f2e3d:alice``, the ``app`` and ``id`` views show); a player of another app than the
key's is a 403, an unqualified id is the key's app's.
"""

from dataclasses import dataclass

from domain.ratings import Rating
from domain.views import iso

from . import ids
from .apps import App
from .errors import BadRequest, Forbidden, ServiceError
from .records import GameRecord, Player, Seat
from .rulebook import rule_url

NEWCOMER = Rating()  # 1500, RD 350
BOT_RD = 50.0  # a hosted level's RD: its rating is calibrated, and it does not change
PROVISIONAL_RD = 110.0  # Lichess's: a rating this uncertain is provisional


class OtherAppsPlayer(Forbidden):
    """A player of another app than the request's key."""


class NeedsAppKey(ServiceError):
    """A player named without an app's key (X-Api-Key): players are apps'."""


@dataclass(frozen=True, slots=True)
class Who:
    """Who takes a seat: its kind (``human`` or ``bot``, both played through the API), a
    bot's name, or an app's player (``pkey``, its name)."""

    kind: str = "human"
    name: str | None = None
    pkey: str | None = None

    @property
    def app(self) -> str | None:
        return self.pkey.split(":", 1)[0] if self.pkey else None

    @property
    def id(self) -> str | None:
        return self.pkey.split(":", 1)[1] if self.pkey else None


ANONYMOUS = Who()


def resolve(app: App | None, ref: str, field: str = "player") -> str:
    """The pkey a request's player id names: the key's app's, or a qualified id of that
    app; 401 without a key, 403 for another app's player, 400 for a malformed id."""
    if app is None:
        raise NeedsAppKey(f"{field}: a player belongs to an app: send its X-Api-Key")
    qualified = ids.split_pkey(ref)
    if qualified is not None:
        if qualified[0] != app.id:
            raise OtherAppsPlayer(f"{field}: {ref} is a player of another app")
        return ref
    if not ids.is_player_id(ref):
        raise BadRequest({field: [f"{ids.PLAYER_RULE}; or <app id>:<that>"]})
    return f"{app.id}:{ref}"


def who(app: App | None, body: dict) -> Who:
    """The seat's ``Who`` from a create's or join's body (``kind``, ``name``, ``player``,
    as ``service.http.schemas`` read them)."""
    kind = body.get("kind", "human")
    player = body.get("player")
    if player is not None:
        if body.get("name") is not None:
            raise BadRequest({"name": ["a player's name is player.name"]})
        return Who(kind, player["name"], resolve(app, player["id"], "player.id"))
    if body.get("name") is not None and kind != "bot":
        raise BadRequest({"name": ["only a bot seat is named without a player (player.name)"]})
    if kind == "bot" and body.get("name") is None:
        raise BadRequest({"name": ["a bot seat has a name (or a player)"]})
    return Who(kind, body.get("name"), None)


def seated(w: Who, stored: dict | None, kind: str | None = None) -> Seat:
    """The seat ``w`` takes (of ``kind``, default its own; no token yet): an app's player
    with its rating then (``stored``: in the game's kind, None for a newcomer's) and
    whether it is provisional, or a client bot's name."""
    kind = w.kind if kind is None else kind
    if w.pkey is not None:
        r = rating_of(stored)
        player = Player(w.app, w.id, w.name, round(r.rating), provisional(r))
        return Seat(kind=kind, player=player)
    return Seat(kind=kind, name=w.name)


def seat_players(record: GameRecord) -> list[dict]:
    """Per seat: ``name`` (a player's or a bot's, else null) and ``player`` (``{app, id,
    rating, provisional}`` with the rating it had when it sat down, and whether it was
    provisional then: null where the seat's record does not say; else null); with
    ``rating_diff`` once the game's rating is applied."""
    outcome = record.rating
    out = []
    for s, seat in enumerate(record.seats):
        p = seat.player
        if p is not None:
            d = {"name": p.name, "player": {"app": p.app, "id": p.id, "rating": p.rating,
                                            "provisional": p.provisional}}  # fmt: skip
        else:
            d = {"name": seat.name, "player": None}
        if outcome is not None:
            seat_outcome = outcome["seats"][s]
            if "after" in seat_outcome:
                d["rating_diff"] = round(seat_outcome["after"]["rating"]) - round(
                    seat_outcome["before"]["rating"]
                )
        out.append(d)
    return out


def decorate(view: dict, record: GameRecord, rematch: dict | None = None) -> dict:
    """Add the players (``seat_players``), ``result_url`` (the result's entry of the rules
    reference), ``rated`` (the table is: its game is rated if it ends with a result),
    ``unrated`` (``unrated``) and the rematch links to a view of the game whose record is
    ``record`` (in place; returned)."""
    for p, extra in zip(view["players"], seat_players(record), strict=True):
        p.update(extra)
    view["rated"] = record.rated
    view["result_url"] = rule_url(view["result"])
    view["unrated"] = unrated(record, view["status"], view["result"])
    view["rematch_of"] = record.rematch_of
    view["rematch"] = rematch
    return view


def unrated(record: GameRecord, status: str, result: str | None) -> str | None:
    """Why the game of a rated table was not rated: it ended with no result (aborted: the
    rule or ruling it ended under, ``T-6``, ``unplayed``, ``E-5``), or it was won inside
    its abort window (the rater's outcome: ``unplayed``); None for an unrated
    table, and for a rated game running, to be rated or rated."""
    if not record.rated:
        return None
    if status == "aborted":
        return result
    outcome = record.rating
    return outcome.get("unrated") if outcome is not None else None


def summary(game_id: str, record: GameRecord, version: int) -> dict:
    """A game as the lobby and a player's list of games show it; once it is over, its
    ``winner`` (a seat, or None: no winner) when its record kept it."""
    out = {
        "id": game_id,
        "game": record.game,
        "status": record.status,
        "version": version,
        "created_at": iso(record.created_ms / 1000),
        "rated": record.rated,
        "players": [
            {"seat": i, "kind": record.seats[i].kind, **extra}
            for i, extra in enumerate(seat_players(record))
        ],
    }
    if record.won is not None:
        out["winner"] = int(record.won) if record.won in ("0", "1") else None
    return out


def matches(record: GameRecord, game, kind, player) -> bool:
    """Whether a game of ``record`` is of ``game``, has a seat of ``kind``, seats ``player``
    (a pkey): the lobby's filters (None: any)."""
    return (
        (game is None or record.game == game)
        and (kind is None or kind in (record.seats[0].kind, record.seats[1].kind))
        and (player is None or player in record.pkeys)
    )


def provisional(r: Rating) -> bool:
    """Whether a rating is provisional: too uncertain to rank (RD ``PROVISIONAL_RD`` or
    more, as Lichess): shown with ``provisional: true``, kept off the leaderboard."""
    return r.rd >= PROVISIONAL_RD


def rating_of(stored: dict | None) -> Rating:
    """A player's Glicko-2 rating as stored (a newcomer's without one)."""
    if stored is None:
        return NEWCOMER
    return Rating(stored["rating"], stored["rd"], stored["vol"])


def shown(stored: dict | None) -> dict:
    """A rating as the API shows it."""
    r = rating_of(stored)
    s = stored or {}
    return {
        "rating": round(r.rating), "rd": round(r.rd, 1), "volatility": round(r.vol, 6),
        "provisional": provisional(r), "games": s.get("games", 0),
        "wins": s.get("wins", 0), "losses": s.get("losses", 0), "draws": s.get("draws", 0),
    }  # fmt: skip


def with_players(events: list[dict], record: GameRecord) -> list[dict]:
    """The events that seat someone (``game_created``: seat 0, ``seat_taken``) with the
    seat's ``name`` and ``player``, as views show them (the log keeps only the kind)."""
    players = None
    for e in events:
        seat = 0 if e["type"] == "game_created" else e.get("seat") if e["type"] == "seat_taken" \
            else None  # fmt: skip
        if seat is not None:
            players = players or seat_players(record)
            e["name"] = players[seat]["name"]
            e["player"] = players[seat]["player"]
    return events
