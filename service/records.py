"""The records the ports speak: what the service keeps of a game beside its log, as plain
frozen values. How a store keeps them is the store's (``service.store.records`` maps a
``GameRecord`` to a Redis hash and back); the use cases read them and make new ones
with ``dataclasses.replace``, and never see how they are kept.

A game's record holds its secrets (the server seed until the game ends, the hashes of
its seats' tokens, the idempotency secret, its webhook's signing secret): a view shows
only what ``service.players.decorate`` takes from it.
"""

from dataclasses import dataclass, field, replace


@dataclass(frozen=True, slots=True)
class IdemKey:
    """An idempotency key as a game's records are kept under it: an action's, by the seat
    that sent it (0 or 1), or a join's (``seat`` None: the seat is the join's to take),
    its key scoped to its caller (``service.idempotency.scoped``)."""

    seat: int | None
    key: str


@dataclass(frozen=True, slots=True)
class HookCursor:
    """How far a webhook target's deliveries of a game went: every notification of the
    versions before ``version`` delivered (or given up), and the first ``sent`` of
    ``version``; ``tries`` of the next one failed; the target has been failing since
    ``failing_since`` (0: it is not), and is not to be tried before ``next_at`` (seconds
    since the epoch, both)."""

    version: int = 1
    sent: int = 0
    tries: int = 0
    failing_since: float = 0.0
    next_at: float = 0.0


@dataclass(frozen=True, slots=True)
class KeptAnswer:
    """What an idempotency key keeps of its first answer (``service.idempotency``): the
    fingerprint of its request's body (``fp``), and either the versions its action
    appended (``appended``: first, last; the answer is rebuilt from the log) or its
    refusal at ``version``: ``illegal`` (the rules refused it: ``rule`` and ``detail``)
    or ``over`` (the game had ended: ``detail``). A record of older code kept an appended
    action's whole answer (``whole``)."""

    fp: str
    appended: tuple[int, int] | None = None
    refusal: str | None = None  # "illegal" or "over"
    version: int | None = None
    rule: str | None = None
    detail: str | None = None
    whole: dict | None = None


@dataclass(frozen=True, slots=True)
class Player:
    """An app's player at a seat, as it sat down: its app and id (``pkey``: ``<app>:<id>``,
    the app's namespace), its name, and the rating it had then in the game's kind and
    whether that rating was provisional (None: the record does not say)."""

    app: str
    id: str
    name: str | None = None
    rating: int | None = None
    provisional: bool | None = None

    @property
    def pkey(self) -> str:
        return f"{self.app}:{self.id}"

    def as_dict(self) -> dict:
        """The player as the records keep it (the stores' and the archive's JSON), the
        fields not noted left out."""
        out = {"app": self.app, "id": self.id, "name": self.name}
        if self.rating is not None:
            out["rating"] = self.rating
        if self.provisional is not None:
            out["provisional"] = self.provisional
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "Player":
        return cls(d["app"], d["id"], d.get("name"), d.get("rating"), d.get("provisional"))


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a game: the kind of who sits there (``human``, ``bot``, ``bot:<level>``;
    None while it is free), the SHA-256 (hex) of its token (None: a hosted bot's, or a
    seat no one took), and who it is: an app's ``player``, or a client bot's ``name``."""

    kind: str | None = None
    token_hash: str | None = None
    player: Player | None = None
    name: str | None = None

    @property
    def pkey(self) -> str | None:
        return self.player.pkey if self.player is not None else None


@dataclass(frozen=True, slots=True)
class Rematch:
    """A finished game's rematch (``service.rematch``): when each seat asked for it (ms,
    None: not asked), the new game once it is named, and whether the asks were closed
    (the game is being archived: its rematch no longer changes)."""

    asked_ms: tuple[int | None, int | None] = (None, None)
    game: str | None = None
    closed: bool = False

    @property
    def any(self) -> bool:
        """Whether anything of a rematch happened (an ask, a new game)."""
        return self.game is not None or any(a is not None for a in self.asked_ms)


@dataclass(frozen=True, slots=True)
class Webhook:
    """A game's own webhook (``service.webhooks``): its URL, its signing secret, and
    whether it is sent every event or the lifecycle only."""

    url: str
    secret: str
    all_events: bool = False


@dataclass(frozen=True, slots=True)
class ArchivedMark:
    """When a finished game's archived copy was checked, and at which version."""

    at_ms: int
    version: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the service keeps of a game beside its log.

    ``game``: its kind (``spit``, ...); ``status``: the domain's status as of its latest
    append; ``created_ms``; ``seed`` (the secret server seed) and ``commitment`` (its
    SHA-256, public); ``seats``; ``rated`` and the rating's ``rating`` outcome once
    applied (``service.rating``); ``rematch`` and ``rematch_of`` (the game this one is
    the rematch of); ``webhook``; ``secret``: the key its keyed seats' tokens are
    derived from (hex; never shown, not archived: None for a game read from the
    archive); ``create_key``: the hash of the Idempotency-Key of the create that made it
    (its retention deletes that key's binding too); ``created_version``: the version its
    create reached (the first answer of a keyed create shows the state then);
    ``archived``: once its archived copy was checked; ``won``: once it is over, its winner
    (``"0"``, ``"1"``) or ``"-"`` (none: a draw, an abort), None before its end (or for a
    game that ended before records kept it)."""

    game: str
    created_ms: int = 0
    status: str = "new"
    seats: tuple[Seat, Seat] = (Seat(), Seat())
    seed: bytes = b""
    commitment: str = ""
    rated: bool = False
    rating: dict | None = None
    rematch: Rematch = field(default_factory=Rematch)
    rematch_of: str | None = None
    webhook: Webhook | None = None
    secret: str | None = None
    create_key: str | None = None
    created_version: int = 1
    archived: ArchivedMark | None = None
    won: str | None = None

    def with_seat(self, n: int, seat: Seat) -> "GameRecord":
        """This record with seat ``n`` replaced."""
        seats = (seat, self.seats[1]) if n == 0 else (self.seats[0], seat)
        return replace(self, seats=seats)

    @property
    def pkeys(self) -> tuple[str | None, str | None]:
        """The pkey of the player at each seat (None: no player)."""
        return self.seats[0].pkey, self.seats[1].pkey

    @property
    def token_hashes(self) -> tuple[str | None, str | None]:
        return self.seats[0].token_hash, self.seats[1].token_hash


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """An app's player as the player store keeps it: its latest name, when it first sat
    down (ms), and its rating per game kind (``{rating, rd, vol, games, wins, losses,
    draws}``; a kind it never played has none)."""

    name: str | None
    created_ms: int
    ratings: dict[str, dict] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AppRecord:
    """An app (an integrator's API key, stored as its hash): its id, its name, when it was
    made and, once revoked, when (ms)."""

    id: str
    name: str
    created_ms: int
    revoked_ms: int | None = None


@dataclass(frozen=True, slots=True)
class SeekRecord:
    """A seek (``service.seeks``): the game, options and ``rated`` it wants, the ratings it
    accepts (``low``, ``high``) and its own, who seeks (``kind``, a bot's ``name`` or a
    player's ``pkey``), the SHA-256 of its token, when it was made, expires and falls
    back to a hosted bot (ms; None: it does not), its ``pool`` (the seeks it may pair
    with), its ``status`` (``open``, ``making``, ``paired``, ``expired``, ``cancelled``)
    and ``version`` (how often that changed), and once paired the game, its seat and the
    other seek's id or the hosted level (``opponent``)."""

    game: str
    options: dict
    rated: bool
    low: int
    high: int
    rating: int
    kind: str
    name: str | None
    pkey: str | None
    token_hash: str
    created_ms: int
    expires_ms: int
    fallback_ms: int | None
    pool: str
    status: str = "open"
    version: int = 0
    game_id: str | None = None
    seat: int | None = None
    opponent: str | None = None


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two seeks (or a seek and a hosted level, ``bot:<level>``) paired into a game to be
    made: ``first`` takes seat 0."""

    game_id: str
    first: str
    second: str
