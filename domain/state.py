"""The state every game has: frozen values, each state a new one (``values.replace``).

``State`` and ``Player`` hold what the engine reads and writes (``game.py``): who sits
where, the phase, the version, the bookkeeping of the timeouts (T-1..T-6) and the result.
Each game subclasses both with its own things (``Rules.STATE``; a game's ``setup``
answers its player), as python-chess's variants keep their pockets in their own board
class. ``State()`` is the state before any game: ``GameCreated`` makes the game's own.
"""

from dataclasses import dataclass, field

from .cards import Card
from .options import Options

Cards = tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Player:
    kind: str | None = None  # "human", "bot:easy", ...; None while the seat is free
    client_seed: str = ""
    ready: bool = False  # for the round to start (D-4, N-4, Q-2)
    called: bool = False  # in this stalemate (S-2, Q-5)

    @property
    def cards(self) -> int:
        """How many cards this player holds in all (C-3): its game's player counts them."""
        return 0


@dataclass(frozen=True, slots=True)
class State:
    id: str = ""
    game: str = ""  # "" until the game is created
    options: Options = field(default_factory=Options)
    commitment: str = ""
    version: int = 0
    status: str = "new"  # new, waiting, running, finished, aborted
    phase: str = "new"  # waiting, ready, playing, stalemate, the game's own, + status
    phase_since: float = 0.0
    created_at: float = 0.0
    round: int = 0  # the round (a game of a match, in some games)
    players: tuple[Player, Player] = (Player(), Player())
    nonce: int = 0  # the last shuffle's number (shuffle.py)
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
    stalemate: bool = False  # no seat can move (S-1, Q-5)
    rated: bool = False  # rated when it ends (``GameCreated.rated``)
    ruling: int | None = None  # the service's rulings it is played under (``GameCreated``)
    # per seat: it has made a move, an action of the game's play of its own (not a join,
    # a ready, a resignation, nor a timeout acting for it; ``game.NOT_MOVES``)
    moved: tuple[bool, bool] = (False, False)
    # when the one seat that has moved made its first move (None while neither or both
    # have): a rated game's abort window closes ``game.ABORT_WINDOW_S`` after it
    first_move_at: float | None = None

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
