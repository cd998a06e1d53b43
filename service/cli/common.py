"""What every command shares: the process's settings, or exit 2 naming the bad one."""

import sys

import click

from .. import config


def settings(**overrides) -> config.Settings:
    """The process's settings; a bad ``SPITLOG_*`` value ends the command (exit 2) naming it."""
    try:
        return config.load(**overrides)
    except config.SettingsError as e:
        click.echo(f"spitlog: {e}", err=True)
        sys.exit(2)
