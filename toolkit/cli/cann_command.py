"""``migrate-check cann-home``: print the CANN-compatible toolkit root (made on first use), for
``export ASCEND_HOME_PATH=$(migrate-check cann-home)`` or ``source $(migrate-check cann-home)/set_env.sh``."""
from __future__ import annotations

import click

from . import BadUsage, cli


@cli.command("cann-home")
def cann_home_command() -> int:
    """Print the CANN-compatible toolkit root: set ASCEND_HOME_PATH to it (or source its set_env.sh) and the
    vendor's CMake builds for the emulator."""
    from toolkit.asc.cann.home import HomeError, cann_home
    try:
        click.echo(str(cann_home()))
    except HomeError as err:
        raise BadUsage(str(err)) from None
    return 0


__all__ = ["cann_home_command"]
