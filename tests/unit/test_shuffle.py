"""The provably fair shuffle ``spitlog-shuffle-v1`` (RULES D-1, H-6).

The vectors below were computed once and are frozen: a change to any of them is a
change of the algorithm and needs a new version tag. They are also the vectors of
docs/shuffle.md. ``reference_shuffle`` re-implements the algorithm from its written
description alone (standard library only), as an auditor in another language would.
"""

import hashlib
import hmac
import random
import struct

import pytest

from domain import DECK, Card, commitment, create_game, shuffle
from domain.events import GameCreated
from domain.shuffle import VERSION, _Stream
from domain.speed import SpeedDealt
from domain.spit import SpitDealt, deal_layout

# (server seed hex, client seeds, nonce) -> the 52 cards in shuffled order
VECTORS = [
    (
        "00" * 32,
        ("", ""),
        1,
        "6H 8C 10S JD 2D KS 6D 2H 4S 6C KD 10C 2S QD 10D 8H 7D AH 9C KC 3D 9D 4D KH QS 5S "
        "8S 10H 4C QH 5C JS 9H AC QC AD AS 3C 6S 4H 9S 2C 7S JC JH 7H 7C 3H 5H 8D 3S 5D",
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ("", ""),
        1,
        "3H AS 2D 2H 9S 9D 5D 4C 4S 5S 10H JS KS 4D QH JD 9C QS 4H 7S 10S 3S AC 5C KD 10D "
        "KC 7D 7C 2S 6C 6S 8H 6H 7H 6D 2C JC QD JH 8S AD 9H 10C QC KH 8C 5H AH 3D 3C 8D",
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ("alice", "bob"),
        1,
        "3D 10S 10D 4H 6H 6S KD QD 5S AC KS 5D 3H 3C 10C KH 4C 7D JH 4D 6C 10H AS 9D QC 2H "
        "JC 5H 8S QH 9C JD 4S 9H 8D 5C AD 9S 2C 7H 2D QS 7S 3S 7C KC 2S 8H 6D 8C JS AH",
    ),
    (
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ("alice", "bob"),
        2,
        "6C 8C 7H 5D 9H AC 10H 8S 7D 6H 3D QD QC 2C KS KC 3C 4S 2H QH AD 8D AH 9S 5H 9C "
        "AS 2S 6D 8H 9D KD 7S JS JC 10S 5S 3H 3S 7C 6S 10D JD 10C 4C KH JH 4D 4H 5C 2D QS",
    ),
    (
        "ff" * 32,
        ("🂡", "Zoë"),
        7,
        "AD 10S JC KS 4H 4S 8C JD 3C AS 2D 3D 2H QD 5D 10H 6C AH 3H KD JS QH 3S 9C 9D 10C "
        "9H JH 6S 8S 9S 5H 6H 10D 7S 6D QC 4C 7D 8D 2S 4D KC 7H AC 2C QS 7C 5C KH 5S 8H",
    ),
    (
        b"spitlog".hex(),  # a seed need not be 32 bytes for the algorithm
        ("a", "b"),
        2**40,
        "7S 3S 6D 10H AD 10S 8H 5C KH 5H JS 9C QC 4H QH 6C JH AH 5D QD JC 3D 9S 9D 3H KC "
        "4C JD 8C AC KD 8D 2S QS 6S 6H 4S 5S 7H 3C 7D 4D 8S 2H 2C 9H 10D 7C 10C KS AS 2D",
    ),
]

COMMITMENTS = {
    "00" * 32: "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f": (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    ),
    "ff" * 32: "af9613760f72635fbdb44a5a0a63c39f12af30f950a6ee5c971be188e89c4051",
}


def parse(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def reference_shuffle(cards, server_seed: bytes, client_seeds, nonce: int) -> list[str]:
    """spitlog-shuffle-v1 from its description: canonical order (suits C D H S, ranks
    A..K), Fisher-Yates from the last position down, each draw a big-endian uint32 of
    HMAC-SHA256(server_seed, lp("spitlog-shuffle-v1") lp(seed0) lp(seed1) u64(nonce)
    u64(counter)) blocks, rejected when >= 2^32 - 2^32 mod n."""

    def lp(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    prefix = (
        lp(b"spitlog-shuffle-v1")
        + b"".join(lp(s.encode()) for s in client_seeds)
        + nonce.to_bytes(8, "big")
    )

    def words():
        counter = 0
        while True:
            block = hmac.new(server_seed, prefix + counter.to_bytes(8, "big"), "sha256").digest()
            for k in range(0, 32, 4):
                yield int.from_bytes(block[k : k + 4], "big")
            counter += 1

    stream = words()
    suits, ranks = "CDHS", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    order = {r + s: i for i, (s, r) in enumerate((s, r) for s in suits for r in ranks)}
    a = sorted((str(c) for c in cards), key=order.__getitem__)
    for i in range(len(a) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        while (x := next(stream)) >= limit:
            pass
        j = x % n
        a[i], a[j] = a[j], a[i]
    return a


@pytest.mark.parametrize(("seed_hex", "client_seeds", "nonce", "expected"), VECTORS)
def test_D1_shuffle_vectors(seed_hex, client_seeds, nonce, expected):
    seed = bytes.fromhex(seed_hex)
    assert shuffle(DECK, seed, client_seeds, nonce) == parse(expected)
    assert reference_shuffle(DECK, seed, client_seeds, nonce) == expected.split()


def test_D1_shuffle_of_a_few_cards():
    seed = bytes.fromhex(VECTORS[2][0])
    # docs/shuffle.md: five cards, in any order, nonce 3
    assert shuffle(parse("KS 2C 10H AD 7C"), seed, ("alice", "bob"), 3) == parse("7C AD 10H 2C KS")
    assert shuffle(parse("7C AD KS 10H 2C"), seed, ("alice", "bob"), 3) == parse("7C AD 10H 2C KS")
    # the Q-6 rebuild of tests/unit/test_speed_rules.py, and the smallest case
    assert shuffle(parse("7C 8H 7D"), seed, ("alice", "bob"), 2) == parse("7C 7D 8H")
    assert shuffle(parse("KS AS"), bytes(32), ("", ""), 1) == parse("AS KS")
    assert shuffle((), bytes(32), ("", ""), 1) == ()
    assert shuffle(parse("QH"), bytes(32), ("", ""), 1) == parse("QH")


def test_H6_shuffle_depends_only_on_the_cards_not_their_order():
    seed = bytes.fromhex(VECTORS[2][0])
    backwards = tuple(reversed(DECK))
    assert shuffle(backwards, seed, ("alice", "bob"), 1) == parse(VECTORS[2][3])


def test_H6_every_input_changes_the_shuffle():
    seed = bytes(range(32))
    base = shuffle(DECK, seed, ("alice", "bob"), 1)
    assert shuffle(DECK, bytes(range(1, 33)), ("alice", "bob"), 1) != base
    assert shuffle(DECK, seed, ("bob", "alice"), 1) != base  # the seats are bound
    assert shuffle(DECK, seed, ("alic", "ebob"), 1) != base  # length-prefixed
    assert shuffle(DECK, seed, ("alice", "bob"), 2) != base
    assert VERSION == "spitlog-shuffle-v1"


def test_H6_reference_implementation_agrees_on_random_inputs():
    rng = random.Random(20261129)
    for _ in range(200):
        seed = rng.randbytes(rng.choice((1, 16, 32, 64)))
        seeds = (str(rng.random()), rng.choice(("", "x", "ü🂡")))
        nonce = rng.randrange(2**63)
        cards = rng.sample(DECK, rng.randrange(53))
        assert [str(c) for c in shuffle(cards, seed, seeds, nonce)] == reference_shuffle(
            cards, seed, seeds, nonce
        )


def test_H6_draws_are_unbiased_by_rejection():
    class Scripted(_Stream):
        def __init__(self, words):
            self.words = list(words)

        def word(self):
            return self.words.pop(0)

    n = 52
    limit = 2**32 - 2**32 % n
    assert Scripted([limit, limit + 5, 2**32 - 1, 105]).below(n) == 105 % n
    assert Scripted([limit - 1]).below(n) == (limit - 1) % n
    assert Scripted([2**32 - 1]).below(1) == 0


@pytest.mark.parametrize("seed_hex", sorted(COMMITMENTS))
def test_H6_commitment_is_the_sha256_of_the_server_seed(seed_hex):
    seed = bytes.fromhex(seed_hex)
    assert commitment(seed) == COMMITMENTS[seed_hex] == hashlib.sha256(seed).hexdigest()


def test_H6_first_deal_of_a_spit_game_is_rederived_from_the_revealed_seed():
    seed = bytes.fromhex(VECTORS[2][0])
    log = create_game(
        game_id="g_audit", game="spit", now=1.0, server_seed=seed,
        commitment=commitment(seed), opponent="bot:easy", client_seed="alice",
    )  # fmt: skip
    created, dealt = log[0], log[-1]
    assert isinstance(created, GameCreated) and created.commitment == commitment(seed)
    assert isinstance(dealt, SpitDealt) and dealt.nonces == (1,)
    deck = shuffle(DECK, seed, ("alice", ""), dealt.nonces[0])
    for seat in (0, 1):
        piles, spit_cards = deal_layout(deck[26 * seat : 26 * (seat + 1)], 5)
        assert dealt.stockpiles[seat] == piles and dealt.spit_cards[seat] == spit_cards
    # and the client seeds matter: the same seed with other client seeds deals otherwise
    assert shuffle(DECK, seed, ("alice", "bob"), 1) != deck


def test_H6_first_deal_of_a_speed_game_is_rederived_from_the_revealed_seed():
    seed = bytes.fromhex(VECTORS[0][0])
    log = create_game(
        game_id="g_audit", game="speed", now=1.0, server_seed=seed,
        commitment=commitment(seed), opponent="bot:hard",
    )  # fmt: skip
    dealt = log[-1]
    assert isinstance(dealt, SpeedDealt) and dealt.nonce == 1
    c = parse(VECTORS[0][3])  # ("", "") and nonce 1: this very vector
    assert dealt.side_piles == (c[:10], c[10:20]) and dealt.middle == c[20:22]
    assert dealt.hands == (c[22:27], c[37:42])
    assert dealt.draw_piles == (c[27:37], c[42:52])


def test_shuffle_stream_words_are_big_endian_hmac_blocks():
    seed = bytes(32)
    stream = _Stream(seed, ("", ""), 1)
    msg = (
        struct.pack(">I", len(VERSION)) + VERSION.encode()
        + struct.pack(">I", 0) + struct.pack(">I", 0)
        + struct.pack(">Q", 1) + struct.pack(">Q", 0)
    )  # fmt: skip
    block = hmac.new(seed, msg, hashlib.sha256).digest()
    assert [stream.word() for _ in range(8)] == list(struct.unpack(">8I", block))
    msg1 = msg[:-8] + struct.pack(">Q", 1)
    assert stream.word() == struct.unpack(">I", hmac.new(seed, msg1, "sha256").digest()[:4])[0]


def test_shuffle_stream_vector_of_docs_shuffle_md():
    seed = bytes(range(32))
    msg0 = bytes.fromhex(
        "00000012737069746c6f672d73687566666c652d763100000005616c69636500000003626f62"
        "00000000000000010000000000000000"
    )
    block0 = hmac.new(seed, msg0, hashlib.sha256).digest()
    assert block0.hex() == "e5bec1c28af43f72b7bcb9c941ae4b6eacb33921e14c5a8b9524bdcc5d8f424f"
    stream = _Stream(seed, ("alice", "bob"), 1)
    assert [stream.word() for _ in range(4)] == [3854483906, 2331262834, 3082598857, 1101941614]
