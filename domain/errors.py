"""The domain's errors: bad input apart from illegal moves (as python-chess does)."""


class DomainError(Exception):
    """Base of every error the domain raises on purpose."""


class MalformedAction(DomainError):
    """An action body that is not well formed; ``errors`` maps each field to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        self.errors = errors
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))


class InvalidOptions(MalformedAction):
    """Unknown, misplaced or out-of-range table options."""


class IllegalAction(DomainError):
    """A well-formed action the rules refuse now; ``rule`` is the ID of the rule it
    breaks (docs/rules.md)."""

    def __init__(self, rule: str, detail: str):
        self.rule = rule
        self.detail = detail
        super().__init__(f"{rule}: {detail}")


class GameOver(DomainError):
    """The game is finished or aborted: nothing more can happen in it."""


class SeatUnavailable(DomainError):
    """Joining a game whose seats are all taken."""
