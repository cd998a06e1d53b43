"""The ports the use cases call out through, besides the game store: the scheduler hook
called after every successful append, the seam for bots and timeouts.

The entry points plug the workers' scheduler in (``workers.schedule.Scheduler``, given to
``Games`` and to ``create_app``): after each append it learns the game's new state (and
the one before) and arms what ``domain.deadlines(state)`` and the bots' turns require.
By default nothing happens.
"""

from typing import Protocol

from domain import State


class Scheduler(Protocol):
    def on_appended(self, game_id: str, state: State, before: State | None = None) -> None:
        """Called once per successful append, after it, with the state it produced and
        the state it was decided on (None for a new game)."""


class NoScheduler:
    """The default: no bots play and no timeouts fire."""

    def on_appended(self, game_id: str, state: State, before: State | None = None) -> None:
        return None
