"""The use cases on the in-memory fakes of their ports (tests/support/fakes.py): no
Flask, no Redis, a clock that stands still unless a test moves it, entropy drawn from a
seeded generator; each test runs in milliseconds."""

import random
from dataclasses import dataclass

import pytest

from service.acting import Acting
from service.apps import Apps
from service.archiving import Archiver
from service.assembly import GameCases
from service.deliveries import Deliverer
from service.rating import Rater
from service.rematch import Rematches
from service.seeks import Seeks
from tests.support.fakes import (
    FakeOutbound,
    MemoryArchive,
    MemoryGameStore,
    MemoryPlayerStore,
    MemorySeekStore,
    MovableClock,
    SeededEntropy,
)

T0 = 1_767_225_600.0  # 2026-01-01, when every world's clock starts


@dataclass
class World:
    """The use cases of one process on its fakes."""

    store: MemoryGameStore
    players: MemoryPlayerStore
    seek_store: MemorySeekStore
    archive: MemoryArchive
    outbound: FakeOutbound
    clock: MovableClock
    entropy: SeededEntropy
    cases: GameCases

    @property
    def acting(self) -> Acting:
        return self.cases.acting

    def rematches(self, rematch_s: float = 60.0) -> Rematches:
        c = self.cases
        return Rematches(c.reading, c.tokens, c.seating, c.pairs, self.store, clock=self.clock,
                         rematch_s=rematch_s, entropy=self.entropy)  # fmt: skip

    def seeks(self) -> Seeks:
        return Seeks(self.cases.seating, self.seek_store, self.players, None, 300.0,
                     clock=self.clock, entropy=self.entropy)  # fmt: skip

    def rater(self) -> Rater:
        return Rater(self.cases.reading, self.store, self.players)

    def archiver(self, **kw) -> Archiver:
        return Archiver(self.store, self.archive, 0, clock=self.clock, players=self.players,
                        rater=self.rater(), **kw)  # fmt: skip

    def deliverer(self, **kw) -> Deliverer:
        return Deliverer(self.cases.reading, self.store, self.outbound, clock=self.clock,
                         **kw)  # fmt: skip

    def apps(self) -> Apps:
        return Apps(self.players, clock=self.clock, entropy=self.entropy)

    def another_process(self) -> "World":
        """The same stores seen by another process: its own cache of the games."""
        cases = build(self.store, self.players, self.archive, self.outbound, self.clock,
                      self.entropy)  # fmt: skip
        return World(self.store, self.players, self.seek_store, self.archive, self.outbound,
                     self.clock, self.entropy, cases)  # fmt: skip


def build(store, players, archive, outbound, clock, entropy, **kw) -> GameCases:
    return GameCases.build(store, players=players, archive=archive, outbound=outbound,
                           clock=clock, entropy=entropy, **kw)  # fmt: skip


def make_world(seed: int = 0, **kw) -> World:
    store, players, archive = MemoryGameStore(), MemoryPlayerStore(), MemoryArchive()
    outbound = FakeOutbound({"hooks.example.com": ["93.184.215.14"]})
    clock, entropy = MovableClock(at=T0), SeededEntropy(random.Random(seed), everything=True)
    cases = build(store, players, archive, outbound, clock, entropy, **kw)
    return World(store, players, MemorySeekStore(), archive, outbound, clock, entropy, cases)


@pytest.fixture
def world() -> World:
    return make_world()
