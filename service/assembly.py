"""The game's use cases assembled on their ports, one set per process
(``GameCases.build``): the composition root (``service.bootstrap.Root``) builds it on the
adapters, the use cases' tests on in-memory fakes."""

from dataclasses import dataclass

from . import webhooks as webhooks_module
from .acting import Acting
from .appending import Appender
from .cache import GameCache
from .deadlines import Deadlines
from .joining import Joining
from .lobby import Lobby
from .metrics import Metrics
from .pairs import RatedPairs
from .ports import (
    SYSTEM_ENTROPY,
    Archive,
    Clock,
    Entropy,
    GameStore,
    NoScheduler,
    Outbound,
    PlayerStore,
    Scheduler,
    ms_now,
)
from .reading import Reading
from .seating import Seated, Seating
from .tokens import Tokens


@dataclass(frozen=True, slots=True)
class GameCases:
    """Each use case of a game, on one store and one cache of the games this process
    knows."""

    store: GameStore
    cache: GameCache
    appender: Appender
    reading: Reading
    tokens: Tokens
    pairs: RatedPairs
    seating: Seating
    joining: Joining
    acting: Acting
    lobby: Lobby
    deadlines: Deadlines

    @classmethod
    def build(
        cls,
        store: GameStore,
        *,
        players: PlayerStore | None = None,
        scheduler: Scheduler | None = None,
        metrics: Metrics | None = None,
        archive: Archive | None = None,
        webhooks: webhooks_module.Settings | None = None,
        outbound: Outbound | None = None,
        clock: Clock = ms_now,
        entropy: Entropy = SYSTEM_ENTROPY,
        snapshot_every: int = 50,
        cache_size: int = 2048,
        retries: int = 8,
        rematch_s: float = 60.0,
        rated_pair_cap: int = 10,
    ) -> "GameCases":
        metrics = metrics or Metrics()
        cache = GameCache(cache_size)
        appender = Appender(store, cache, scheduler or NoScheduler(), metrics=metrics,
                            clock=clock, webhooks=webhooks,
                            snapshot_every=snapshot_every)  # fmt: skip
        reading = Reading(store, cache, archive=archive, snapshot_every=snapshot_every,
                          rematch_s=rematch_s)  # fmt: skip
        tokens = Tokens(store)
        pairs = RatedPairs(players, rated_pair_cap, clock)
        seated = Seated(players, clock)
        return cls(
            store=store, cache=cache, appender=appender, reading=reading, tokens=tokens,
            pairs=pairs,
            seating=Seating(store, reading, appender, seated, pairs, clock=clock,
                            metrics=metrics, outbound=outbound, webhooks=webhooks,
                            entropy=entropy),
            joining=Joining(store, reading, tokens, appender, seated, pairs, clock=clock,
                            metrics=metrics, retries=retries, entropy=entropy),
            acting=Acting(store, reading, tokens, appender, metrics=metrics, retries=retries,
                          entropy=entropy),
            lobby=Lobby(store),
            deadlines=Deadlines(store, cache),
        )  # fmt: skip
