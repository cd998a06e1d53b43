"""A game's record (``service.records.GameRecord``) as its meta hash keeps it, and back: the
one place that names a meta field (``store.redis`` names the keys). The fields of
``spit:{g:<id>}:meta``:

- ``game``, ``seed`` (the secret server seed, hex), ``commitment``, ``status``,
  ``created`` (ms), ``cv`` (the version the game's create reached);
- per seat ``<n>`` (0, 1): ``tok<n>`` (the SHA-256 of its token), ``kind<n>``, ``pl<n>``
  (its app's player as JSON ``{app, id, name, rating, provisional}``), ``nm<n>`` (a
  client bot's name);
- ``rated`` (``1``) and ``rating`` (the rating's outcome as JSON, once applied);
- the rematch: ``rm0``/``rm1`` (each seat's ask, ms), ``rmg`` (the new game's id),
  ``rmx`` (``1``: the asks are closed), and ``rmo`` in the new game (the game it is the
  rematch of);
- the game's webhook: ``wh`` (its URL), ``whs`` (its signing secret), ``wha`` (``1``:
  every event, ``0``: the lifecycle);
- ``ik`` (the secret keyed seats' tokens derive from, hex), ``ck`` (the hash of the
  Idempotency-Key of the create that made the game);
- ``archived`` (``<ms>:<version>``: its archived copy checked);
- ``won``: once the game is over, its winner's seat or ``-`` (none);
- ``sv``: the version of the latest snapshot, the store's own (no record holds it).

A lobby row (``store.redis.RedisStore.lobby``) reads ``LOBBY_FIELDS`` only: its record
holds no secret. A game's place in the lobby and in a player's list of games is a member
``<created ms, 13 digits>:<id>`` of a sorted set whose scores are all 0, so that
lexicographic order is creation order; a page's cursor is its last member.
"""

import json

from ..records import ArchivedMark, GameRecord, KeptAnswer, Player, Rematch, Seat, Webhook

TOKEN_FIELDS = ("tok0", "tok1")  # the seats' token hashes (the limits' script reads them)
SNAPSHOT_FIELD = "sv"
LOBBY_FIELDS = ("game", "status", "created", "kind0", "kind1", "pl0", "pl1", "nm0", "nm1",
                "rated", "rating", "won")  # fmt: skip
ARCHIVED_FIELD = "archived"
REMATCH_CLOSED = "rmx"
REMATCH_GAME = "rmg"
REMATCH_ASK = "rm"  # + the seat
RATING_FIELD = "rating"


def _player_json(p: Player) -> str:
    return json.dumps(p.as_dict(), sort_keys=True)


def to_hash(r: GameRecord) -> dict[str, str]:
    """The meta fields of ``r`` (a field whose value is unset is left out)."""
    h: dict[str, str] = {"game": r.game, "status": r.status, "created": str(r.created_ms)}
    if r.seed:
        h["seed"] = r.seed.hex()
    if r.commitment:
        h["commitment"] = r.commitment
    if r.created_version != 1:
        h["cv"] = str(r.created_version)
    for n, s in enumerate(r.seats):
        if s.kind is not None:
            h[f"kind{n}"] = s.kind
        if s.token_hash is not None:
            h[f"tok{n}"] = s.token_hash
        if s.player is not None:
            h[f"pl{n}"] = _player_json(s.player)
        if s.name is not None:
            h[f"nm{n}"] = s.name
    if r.rated:
        h["rated"] = "1"
    if r.rating is not None:
        h[RATING_FIELD] = json.dumps(r.rating, sort_keys=True)
    for n, ms in enumerate(r.rematch.asked_ms):
        if ms is not None:
            h[f"{REMATCH_ASK}{n}"] = str(ms)
    if r.rematch.game is not None:
        h[REMATCH_GAME] = r.rematch.game
    if r.rematch.closed:
        h[REMATCH_CLOSED] = "1"
    if r.rematch_of is not None:
        h["rmo"] = r.rematch_of
    if r.webhook is not None:
        h.update(wh=r.webhook.url, whs=r.webhook.secret, wha="1" if r.webhook.all_events else "0")
    if r.secret is not None:
        h["ik"] = r.secret
    if r.create_key is not None:
        h["ck"] = r.create_key
    if r.archived is not None:
        h[ARCHIVED_FIELD] = f"{r.archived.at_ms}:{r.archived.version}"
    if r.won is not None:
        h["won"] = r.won
    return h


def from_hash(h: dict[str, str]) -> GameRecord:
    """The record a meta hash holds (its fields as ``to_hash`` writes them)."""
    seats = []
    for n in (0, 1):
        pl = h.get(f"pl{n}")
        seats.append(Seat(kind=h.get(f"kind{n}"), token_hash=h.get(f"tok{n}") or None,
                          player=Player.from_dict(json.loads(pl)) if pl else None,
                          name=h.get(f"nm{n}")))  # fmt: skip
    asks = tuple(int(h[f]) if h.get(f) else None for f in ("rm0", "rm1"))
    wh = h.get("wh")
    archived = h.get(ARCHIVED_FIELD)
    if archived:
        at, _sep, version = archived.partition(":")
        mark = ArchivedMark(int(at), int(version)) if version else None
    else:
        mark = None
    rating = h.get(RATING_FIELD)
    return GameRecord(
        game=h.get("game", ""),
        created_ms=int(h.get("created") or 0),
        status=h.get("status", "new"),
        seats=(seats[0], seats[1]),
        seed=bytes.fromhex(h["seed"]) if h.get("seed") else b"",
        commitment=h.get("commitment", ""),
        rated=h.get("rated") == "1",
        rating=json.loads(rating) if rating else None,
        rematch=Rematch((asks[0], asks[1]), h.get(REMATCH_GAME), REMATCH_CLOSED in h),
        rematch_of=h.get("rmo"),
        webhook=Webhook(wh, h.get("whs", ""), h.get("wha") == "1") if wh else None,
        secret=h.get("ik"),
        create_key=h.get("ck"),
        created_version=int(h.get("cv") or 1),
        archived=mark,
        won=h.get("won"),
    )


def changes(before: GameRecord | None, after: GameRecord) -> dict[str, str]:
    """The meta fields to write for a record that was ``before`` (None: a new game, every
    field) and is ``after``. No field of a record is ever unset once set."""
    if after is before:
        return {}
    new = to_hash(after)
    if before is None:
        return new
    old = to_hash(before)
    return {k: v for k, v in new.items() if old.get(k) != v}


def member(created_ms: int, game_id: str) -> str:
    """A game's member in the lobby's and the players' sorted sets (and a cursor)."""
    return f"{created_ms:013d}:{game_id}"


def member_game(member: str) -> str:
    """The game of a member (``member``)."""
    return member.split(":", 1)[1]


def member_created(member: str) -> int:
    """The creation time (ms) of a member (``member``)."""
    return int(member.split(":", 1)[0])


_STATUS = {"illegal": 422, "over": 409}


def answer_dict(answer: KeptAnswer) -> dict:
    """An idempotency record's JSON form: ``{fp, s: 201, v: [first, last]}`` for an
    appended action, ``{fp, s: 422, v, r, d}`` for one the rules refused, ``{fp, s: 409,
    v, d}`` for one refused on an ended game (the status of the first answer, as older
    code wrote them), ``{fp, status: 201, body}`` for older code's whole answer."""
    if answer.whole is not None:
        return {"fp": answer.fp, "status": 201, "body": answer.whole}
    if answer.appended is not None:
        return {"fp": answer.fp, "s": 201, "v": list(answer.appended)}
    out = {"fp": answer.fp, "s": _STATUS[answer.refusal], "v": answer.version}
    if answer.refusal == "illegal":
        out["r"] = answer.rule
    out["d"] = answer.detail
    return out


def answer_of(d: dict) -> KeptAnswer:
    """An idempotency record from its JSON form (``answer_dict``; older code's records:
    a whole answer, or a refusal's, whose body says its version, rule and text)."""
    fp = d.get("fp", "")
    if "body" in d:
        body = d["body"]
        if d.get("status") == 201:
            return KeptAnswer(fp, whole=body)
        return KeptAnswer(fp, refusal="illegal" if d.get("status") == 422 else "over",
                          version=body.get("version"), rule=body.get("rule"),
                          detail=body.get("detail"))  # fmt: skip
    if d.get("s") == 201:
        first, last = d["v"]
        return KeptAnswer(fp, appended=(first, last))
    if d.get("s") == 422:
        return KeptAnswer(fp, refusal="illegal", version=d.get("v"), rule=d.get("r"),
                          detail=d.get("d"))  # fmt: skip
    return KeptAnswer(fp, refusal="over", version=d.get("v"), detail=d.get("d"))
