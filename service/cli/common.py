"""What every command shares: the process's settings, or exit 2 naming the bad one; an
optional part the command needs, or exit 2 naming the extra that installs it."""

import sys

import click

import domain

from .. import config, extras, telemetry


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


def need(extra: str, what: str) -> None:
    """Go on only if the optional part ``extra`` is installed; else end the command
    (exit 2) with one line: ``what`` and the command that installs it."""
    if extras.missing(extra):
        click.echo(f"{what}: {extras.hint(extra)}", err=True)
        sys.exit(2)
