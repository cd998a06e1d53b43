"""What every command shares: the process's settings, or exit 2 naming the bad one; an
optional part the command needs, or exit 2 naming the extra that installs it."""

import sys

import click

from .. import config, extras, telemetry


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
