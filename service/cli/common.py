"""What every command shares: the process's settings, or exit 2 naming the bad one."""

import sys

import click

from .. import config, telemetry


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
