"""Where a case's data comes from, and the user mistakes it can meet: one :class:`BadInput` for a bad
option or a bad ``--data-dir`` file (exit 2, one line), the directory check, and :func:`user_input`,
which turns them into the command's usage error.

An operator's own generator (its ``gen_data``) makes the data in process; ``--data-dir DIR`` reads the
same files from a directory laid out as that generator writes it (``toolkit.harness.binio``).
"""
from __future__ import annotations

import contextlib
import os
import stat
from typing import Iterator

from toolkit.console.outputs import BadUsage

__all__ = ["BadInput", "check_data_dir", "user_input"]


class BadInput(ValueError):
    """A user mistake (exit 2, one line): a bad option, or a data file that is missing, unreadable, not a
    regular file or has the wrong size (the message names the file)."""


def check_data_dir(data_dir: str) -> None:
    """``--data-dir`` names a directory we may list and enter (BadInput otherwise, saying which)."""
    if data_dir == "":
        raise BadInput("--data-dir '': empty path")
    try:
        st = os.stat(data_dir)
    except FileNotFoundError:
        raise BadInput(f"--data-dir {data_dir}: does not exist") from None
    except OSError as err:
        raise BadInput(f"--data-dir {data_dir}: {(err.strerror or str(err)).lower()}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise BadInput(f"--data-dir {data_dir}: not a directory")
    if not os.access(data_dir, os.R_OK | os.X_OK):
        raise BadInput(f"--data-dir {data_dir}: permission denied")


@contextlib.contextmanager
def user_input() -> Iterator[None]:
    """The checks of a command's input (options, envelope, output paths, data): a BadInput raised inside
    is the command's usage error (one line, exit 2)."""
    try:
        yield
    except BadInput as err:
        raise BadUsage(str(err)) from None
