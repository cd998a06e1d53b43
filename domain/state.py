"""The state of a game: frozen values, each state a new one. ``game.evolve`` builds every
state it returns (it fills in the bookkeeping fields of the copy an event's handler
made, which nothing else holds yet); once returned, a state is never changed."""

from dataclasses import dataclass, field

from .cards import Card
from .options import Options

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Player:
    kind: str | None = None  # "human", "bot:easy", ...; None while the seat is free
    client_seed: str = ""
    # Spit
    stockpiles: tuple[Cards, ...] = ()  # bottom card first
    face_up: tuple[bool, ...] = ()  # is the top card of each stockpile face up
    spit: Cards = ()  # top first
    pool: Cards = ()  # the cards gathered at a round's end, before the next deal (N-3)
    had_spit: bool = False  # held spit cards when the round began (E-3)
    # Speed
    hand: Cards = ()
    draw: Cards = ()  # top first
    # both
    ready: bool = False
    called: bool = False

    @property
    def cards(self) -> int:
        """How many cards this player holds in all (C-3)."""
        return (
            sum(map(len, self.stockpiles))
            + len(self.spit)
            + len(self.pool)
            + len(self.hand)
            + len(self.draw)
        )

    @property
    def stock_count(self) -> int:
        return sum(map(len, self.stockpiles))


@dataclass(frozen=True, slots=True)
class State:
    id: str = ""
    game: str = ""  # "" until the game is created
    options: Options = field(default_factory=Options)
    commitment: str = ""
    version: int = 0
    status: str = "new"  # new, waiting, running, finished, aborted
    phase: str = "new"  # waiting, ready, playing, stalemate, slap, choose, dealing, + status
    phase_since: float = 0.0
    created_at: float = 0.0
    round: int = 0  # Spit: the round; Speed: the game of the match
    players: tuple[Player, Player] = (Player(), Player())
    piles: tuple[Cards | None, ...] = (None, None)  # spit / centre piles, bottom first
    side: tuple[Cards, ...] = ((), ())  # Speed side piles, top first
    middle: Cards = ()  # Speed: the two face-down middle cards before the start
    nonce: int = 0  # the last shuffle's number
    rebuilt_idle: bool = False  # Speed Q-9: side piles rebuilt, no card played since
    solo_pile: int | None = None  # S-3 lock
    cleared: int | None = None  # the seat that cleared its layout this round (N-1a)
    chooser: int | None = None  # V-2
    scores: tuple[int, int] = (0, 0)  # Speed matches
    winner: int | None = None
    result: str | None = None  # the rule that ended the game
    aborted_by: str | None = None  # T-6: "operator" or "service"
    aborted_why: str | None = None  # T-6: why, in words
    can_act: tuple[bool, bool] = (False, False)  # has a legal action other than resign
    # T-4's clock, per seat: it runs while the seat can act and pauses while it cannot;
    # ``idle_used`` is what it counted before ``idle_since``, when it last resumed, both
    # since ``acted_at``, the seat's own last action (a timeout acting for it is not one)
    idle_used: tuple[float, float] = (0.0, 0.0)
    idle_since: tuple[float, float] = (0.0, 0.0)
    acted_at: tuple[float, float] = (0.0, 0.0)
    stalemate: bool = False  # S-1 / Q-5
    rated: bool = False  # rated when it ends (``GameCreated.rated``)
    ruling: int | None = None  # the service's rulings it is played under (``GameCreated``)
    # per seat: it has made a move, an action of the game's play of its own (not a join,
    # a ready, a resignation, nor a timeout acting for it; ``game.NOT_MOVES``)
    moved: tuple[bool, bool] = (False, False)

    @property
    def over(self) -> bool:
        return self.status in ("finished", "aborted")

    @property
    def client_seeds(self) -> tuple[str, str]:
        return (self.players[0].client_seed, self.players[1].client_seed)


def set_player(players: tuple[Player, Player], seat: int, p: Player) -> tuple[Player, Player]:
    return (p, players[1]) if seat == 0 else (players[0], p)


def set_at(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1 :]
