"""Cards (RULES C-1, C-2).

A card is a frozen value with a wire form: rank then suit, ``AS``, ``10H``, ``QD``.
There are exactly 52 card objects; ``Card.parse`` returns the interned one, so
identity comparison and hashing stay cheap on the hot replay path.

>>> Card.parse("10H").rank, Card.parse("10H").suit
(10, 'H')
>>> str(Card.parse("qd"))
'QD'
>>> adjacent(Card.parse("AS"), Card.parse("KD")), adjacent(Card.parse("AS"), Card.parse("3D"))
(True, False)
"""

from dataclasses import dataclass, field
from functools import lru_cache

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
RED = frozenset("DH")


class CardError(ValueError):
    """A string that is not a card's wire form."""


@dataclass(frozen=True, slots=True)
class Card:
    """A card. Made by ``Card.of(rank, suit)`` (or ``Card.parse``), which computes the
    fields derived from the rank and the suit; the 52 of them are ``DECK``."""

    rank: int  # 1 (ace) .. 13 (king)
    suit: str  # C D H S
    # Canonical position 0..51: suits in order C, D, H, S; ranks A..K within a suit.
    index: int = field(compare=False, repr=False)
    # The wire form, made once: views and events write cards by the dozen.
    name: str = field(compare=False, repr=False)

    @classmethod
    def of(cls, rank: int, suit: str) -> "Card":
        """The card of ``rank`` (1..13) and ``suit``; CardError for no such card."""
        if not (isinstance(rank, int) and 1 <= rank <= 13 and suit in SUITS):
            raise CardError(f"no card of rank {rank!r} and suit {suit!r}")
        return cls(rank, suit, SUITS.index(suit) * 13 + rank - 1, RANKS[rank - 1] + suit)

    @property
    def red(self) -> bool:
        return self.suit in RED

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @staticmethod
    def parse(text: str) -> "Card":
        """Parse the wire form (case-insensitive); raises CardError."""
        try:
            return _BY_NAME[text.upper()]
        except (KeyError, AttributeError):
            raise CardError(
                f"{text!r} is not a card (rank A,2..10,J,Q,K then suit C,D,H,S)"
            ) from None


DECK: tuple[Card, ...] = tuple(Card.of(r, s) for s in SUITS for r in range(1, 14))  # C-1
_BY_NAME = {str(c): c for c in DECK}


def adjacent(a: Card, b: Card) -> bool:
    """C-2: ranks differ by one, and A turns the corner to both 2 and K."""
    d = abs(a.rank - b.rank)
    return d == 1 or d == 12


def _lands(card: Card, top: Card, alternate_colors: bool) -> bool:
    return adjacent(card, top) and (not alternate_colors or card.red != top.red)


# FITS[alternate_colors][top.index]: the indexes of the cards that may land on ``top``.
FITS = tuple(
    tuple(frozenset(c.index for c in DECK if _lands(c, top, alt)) for top in DECK)
    for alt in (False, True)
)


def may_land_on(card: Card, top: Card, alternate_colors: bool) -> bool:
    """C-2 adjacency, plus V-3's colour change when the table chose it."""
    return card.index in FITS[alternate_colors][top.index]


def kind(card: Card) -> Card:
    """The card that stands for every card of ``card``'s rank and colour (clubs for black,
    diamonds for red): where a card may land depends on nothing else (C-2, V-3), so
    searches over plays can share their work between such cards.

    >>> kind(Card.parse("QS")), kind(Card.parse("QH"))
    (Card('QC'), Card('QD'))
    """
    return _KIND[card.index]


_KIND = tuple(_BY_NAME[RANKS[c.rank - 1] + ("D" if c.red else "C")] for c in DECK)


def longest_run(cards: tuple[Card, ...], tops: tuple[Card | None, ...], alt: bool) -> int:
    """The longest run of plays of ``cards`` (each once, in any order) onto ``tops`` (None:
    no pile), each card becoming the new top of the pile it lands on.

    >>> longest_run(parse_cards(["8H", "9S", "KD"]), parse_cards(["7C", "QS"]), False)
    3
    """
    return _run(tuple(sorted(map(kind, cards), key=_index)), tuple(map(_kind_or_none, tops)), alt)


def _index(c: Card) -> int:
    return c.index


def _kind_or_none(c: Card | None) -> Card | None:
    return None if c is None else _KIND[c.index]


@lru_cache(maxsize=65536)
def _run(cards: tuple, tops: tuple, alt: bool) -> int:
    best = 0
    fits = FITS[alt]
    for i, c in enumerate(cards):
        if i and cards[i - 1] is c:
            continue
        rest = None
        for p, top in enumerate(tops):
            if top is not None and c.index in fits[top.index]:
                if rest is None:
                    rest = cards[:i] + cards[i + 1 :]
                n = 1 + _run(rest, tops[:p] + (c,) + tops[p + 1 :], alt)
                if n > best:
                    best = n
                    if best == len(cards):
                        return best
    return best


def parse_cards(texts) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


def fmt(cards) -> list[str]:
    return [c.name for c in cards]
