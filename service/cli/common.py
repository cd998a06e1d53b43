"""What every command shares: the process's settings, or exit 2 naming the bad one."""

import sys

import click

import domain

from .. import config, telemetry


class GameChoice(click.Choice):
    """A registered game's name (``domain.RULES``, read when the command line is read: a
    game an installed package adds is a choice), or one of ``extra``."""

    def __init__(self, *extra: str):
        self.extra = extra
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:
        return (*domain.RULES, *self.extra)


def first_game() -> str:
    """The first registered game: a default of ``--game``."""
    return next(iter(domain.RULES))


def settings(**overrides) -> config.Settings:
    """The process's settings; a bad ``SPITLOG_*`` (or ``OTEL_*``) value ends the command
    (exit 2) naming it."""
    try:
        s = config.load(**overrides)
        telemetry.check()
        return s
    except config.SettingsError as e:
        click.echo(f"spitlog: {e}", err=True)
        sys.exit(2)
