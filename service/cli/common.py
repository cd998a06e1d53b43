"""What every command shares: the process's settings, or exit 2 naming the bad one; an
optional part the command needs, or exit 2 naming the extra that installs it; for the
tools on a running service (``admin``, ``health``), the settings of a running ``spitlog
dev`` when ``SPITLOG_REDIS_URL`` is unset, and one line (exit 2) when its Redis does not
answer."""

import os
import sys
from typing import NoReturn

import click

import domain

from .. import config, extras, telemetry
from . import devfile


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


# the Redis a tool uses, and where its URL came from (for the line that says it is away)
_used: dict[str, str] = {}


def tool_settings() -> config.Settings:
    """The settings of a tool that acts on a running service: the process's, except that
    while ``SPITLOG_REDIS_URL`` is unset and a ``spitlog dev`` runs (``devfile``), its game
    store, queue and archive are taken (each whose own variable is unset); a line on
    stderr says which Redis is used and why."""
    dev = None if os.environ.get(config.env_name("redis_url")) else devfile.read()
    if dev is None:
        s = settings()
        unset = not os.environ.get(config.env_name("redis_url"))
        _used.update(url=s.redis_url, source="the default: SPITLOG_REDIS_URL is unset and no "
                     "`spitlog dev` runs" if unset else "SPITLOG_REDIS_URL")  # fmt: skip
        return s
    taken = {field: dev[field] for field in devfile.SHARED
             if dev.get(field) and not os.environ.get(config.env_name(field))}  # fmt: skip
    s = settings(**taken)
    _used.update(url=s.redis_url, source=f"the running `spitlog dev`, pid {dev['pid']}")
    click.echo(f"spitlog: SPITLOG_REDIS_URL is unset: using the Redis of the running "
               f"`spitlog dev` (pid {dev['pid']}), {s.redis_url}", err=True)  # fmt: skip
    return s


class StoreGroup(click.Group):
    """A command group whose commands use the service's Redis (``tool_settings``): one
    that does not answer ends the command with one line naming it, exit 2, not a
    traceback."""

    def invoke(self, ctx: click.Context):
        import redis

        try:
            return super().invoke(ctx)
        except (redis.ConnectionError, redis.TimeoutError) as e:
            unreachable(e)


def unreachable(error: Exception, what: str = "Redis") -> NoReturn:
    """End the command: the Redis it uses does not answer (one line, exit 2)."""
    why = " ".join(str(error).split()) or type(error).__name__
    where = f"{_used['url']}, from {_used['source']}" if _used else "SPITLOG_REDIS_URL"
    click.echo(f"spitlog: {what} does not answer ({where}): {why}", err=True)
    raise click.exceptions.Exit(2)
