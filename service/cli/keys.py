"""``spitlog admin keys create NAME | list | revoke ID``: the apps' API keys (``service.apps``),
on the game store's Redis (``SPITLOG_REDIS_URL``, or a running ``spitlog dev``'s; one that
does not answer: one line, exit 2)."""

from datetime import UTC, datetime

import click

from .common import StoreGroup, tool_settings, unreachable


def _apps():
    import redis

    from ..bootstrap import WORKER, Root

    root = Root(tool_settings(), role=WORKER)
    try:
        root.client.ping()
    except redis.RedisError as e:
        unreachable(e, "the game store")
    return root.apps


def _when(ms: int | None) -> str:
    if not ms:
        return "-"
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@click.group(cls=StoreGroup)
def keys() -> None:
    """Apps' API keys: an app names its players with its key (X-Api-Key)."""


@keys.command()
@click.argument("name")
def create(name: str) -> int:
    """A new app named NAME: prints its id and its key (shown this once; stored hashed)."""
    try:
        app, key = _apps().create(name)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="NAME") from None
    click.echo(f"app {app.id} ({app.name})")
    click.echo(f"key {key}")
    click.echo("keep the key secret: it is shown once; send it as X-Api-Key", err=True)
    return 0


@keys.command("list")
def list_() -> int:
    """Every app: id, created, revoked, name."""
    for a in _apps().list():
        click.echo(f"{a.id}  created {_when(a.created_ms)}  revoked {_when(a.revoked_ms)}  "
                   f"{a.name}")  # fmt: skip
    return 0


@keys.command()
@click.argument("app_id", metavar="ID")
def revoke(app_id: str) -> int:
    """Revoke the key of app ID: its requests are a 401 from now on."""
    from service.apps import NoSuchApp

    try:
        a = _apps().revoke(app_id)
    except NoSuchApp:
        click.echo(f"spitlog: no app {app_id}", err=True)
        click.get_current_context().exit(1)
    click.echo(f"revoked {a.id} ({a.name}) at {_when(a.revoked_ms)}")
    return 0
