"""The ``spitlog`` command group (click): every command, and the settings they read."""

import click

from . import admin, archive, bot, console, dev, keys, serve, workers


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spitlog", prog_name="spitlog")
def cli() -> None:
    """spitlog: a game-state service for the card games Spit and Speed.

    Each game is an append-only log of events; a pure rules engine rebuilds its state, a
    REST API serves it, workers play the hosted bots and fire the timeouts. Settings are
    SPITLOG_* environment variables (README.md, Deploying).
    """


def main(argv=None) -> int:
    """Run ``spitlog`` with ``argv`` (default: the process's); the exit status."""
    try:
        rv = cli.main(args=argv, prog_name="spitlog", standalone_mode=False)
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        return 1
    return rv if isinstance(rv, int) else 0


for _command in (dev.dev, serve.serve, serve.openapi, serve.asyncapi, workers.worker,
                 workers.scheduler,
                 workers.health, admin.admin, console.export, console.audit, console.replay,
                 console.simulate, bot.bot, archive.dump):  # fmt: skip
    cli.add_command(_command)
admin.admin.add_command(keys.keys)  # spitlog admin keys create|list|revoke
