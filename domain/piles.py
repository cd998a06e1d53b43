"""What Spit and Speed share, both being races to play onto two centre piles in which a
stalemate is called: the events ``card_played`` (P-1, Q-3) and ``spit_called`` (S-2, Q-5),
the action ``spit``, the field ``pile`` and the options both take (V-3, E-4, T-1, T-3).

Not the engine's: a game that has none of these imports nothing of this module.
"""

from dataclasses import dataclass

from .actions import Field, Kind
from .cards import Card
from .events import Event, event
from .options import SECONDS, OptionSpec
from .state import State, set_player
from .values import replace

PILE = Kind("pile", {"type": "integer", "minimum": 0, "maximum": 1,
                     "description": "a spit or centre pile, 0 or 1"})  # fmt: skip
TO_PILE = Field("to", "to", PILE)


@dataclass(frozen=True, slots=True)
class Spit:  # S-2, S-3, Q-5: call "spit!" in a stalemate (S-3: onto ``pile``)
    pile: int | None = None


@event
class CardPlayed(Event):  # P-1, Q-3
    """A card was played onto a pile: from a stockpile in Spit, from the hand in Speed."""

    seat: int
    card: Card
    to: int
    src: int | None = None  # the stockpile in Spit; None in Speed (from the hand)


@event
class SpitCalled(Event):  # S-2, Q-5
    """A seat called spit (by the T-1 timeout when `by` says so)."""

    seat: int
    by: str | None = None  # "T-1" when the timeout called for the seat


def apply_called(s: State, e: SpitCalled) -> dict:
    """S-2, Q-5: the seat has called in this stalemate."""
    return dict(players=set_player(s.players, e.seat, replace(s.players[e.seat], called=True)))


ALTERNATE_COLORS = OptionSpec("alternate_colors", "V-3", "a card played must change colour",
                              bool, default=False)  # fmt: skip
MAX_ROUNDS = OptionSpec("max_rounds", "E-4", "rounds (Speed: games) before the game ends", int,
                        default=60, low=1, high=10_000)  # fmt: skip
SPIT_GRACE = OptionSpec("spit_grace_s", "T-1", "seconds before a stalemate is called for",
                        default=3.0, **SECONDS)  # fmt: skip
SLAP_GRACE = OptionSpec("slap_grace_s", "T-3", "seconds before the piles are taken without a "
                        "slap", default=3.0, **SECONDS)  # fmt: skip
