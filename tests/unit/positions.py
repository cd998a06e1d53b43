"""Positions shared by the rule tests (see builders.py for how they are written)."""

from .builders import speed_game, spit_game

# Nobody holds a 7 or a 9 here, and no pile can be moved: on two 8s, a stalemate.
STUCK0 = ["KH", "2C", "2D", "5S", "10S"]
STUCK1 = ["4C", "4H", "JC", "3D", "QC"]


def spit_playing(**options):
    """Pile 0 shows 8S, pile 1 QD. Seat 0 can play 7H on 8S and KH on QD, and has an
    empty space; seat 1 can play 9D on 8S and JC on QD."""
    return spit_game(
        ["KH", "9C 7H", "2D", "", "10S JS"],
        ["4C", "4H", "JC", "3D 6C", "9D"],
        "8S 3C",
        "QD 5C",
        **options,
    )


def spit_stuck(spit0="8S 3C", spit1="8D 5C", stock0=STUCK0, stock1=STUCK1, **options):
    return spit_game(stock0, stock1, spit0, spit1, **options)


def about_to_clear(spit0="8S 3C", spit1="QD 5C", **options):
    """Seat 0 holds one stockpile card, 7H, playable on 8S: playing it clears its layout."""
    return spit_game(["7H", "", "", "", ""], STUCK1, spit0, spit1, **options)


def speed_playing(**options):
    """Centre piles show 7C and 7D. Seat 0 can play 8H and 6S; seat 1 8C and 6D."""
    return speed_game("8H 6S KC KD 2S", "8C 6D QC QD 3S", "3H 4H 5H", "3D 4D", "5S", "JD",
                      **options)  # fmt: skip


def speed_stuck(side0="5S 10C", side1="JD", draw0="3H", **options):
    """Nobody can play on the two 7s, and seat 0's full hand cannot draw: a stalemate."""
    return speed_game("KC KD KH KS 2C", "2D 2H 2S 4C 4D", draw0, "", side0, side1, **options)
